"""The bots' shortcuts choose as the plain definitions do, and the pruning keeps what it says.

* Credit Mobilier's ``DividendBot.choose`` is the first action of highest ``value``;
* its ``MonteCarloBot`` without a shortlist, and with one when the builds are few, gives the
  same values; with many builds only the ``shortlist`` best of the first look go on;
* Mogul's ``best_branch`` is the first branch of highest ``branch_gain``; the Rio Grande
  ``MonteCarloBot`` tries only the ``branches`` best branches.
"""

from __future__ import annotations

import random

import mogul
from mogul import credit_mobilier as cm
from mogul.games.mogul.actions import Branch
from mogul.games.mogul.bots import MonteCarloBot, best_branch
from mogul.games.mogul.network import branch_gain, free_stations


def _random_states(players: int, games: int, every: int = 7):
    for seed in range(games):
        rng = random.Random(seed)
        state = cm.new_game(players=players, seed=seed)
        step = 0
        while not state.is_over:
            if step % every == 0:
                yield state
            state = state.apply(rng.choice(state.legal_actions()))
            step += 1


def test_dividend_bot_takes_the_first_action_of_highest_value():
    bot = cm.DividendBot()
    checked = 0
    for state in _random_states(3, 6):
        view, legal = state.view(state.current), state.legal_actions()
        values = [bot.value(view, a) for a in legal]
        assert bot.choose(view, legal) == legal[values.index(max(values))]
        checked += 1
    assert checked > 100


def test_the_shortlist_changes_nothing_when_the_builds_are_few():
    state = next(
        s for s in _random_states(3, 3) if 2 < len(s.legal_actions()) <= 8 and s.kind is None
    )
    view, legal = state.view(state.current), state.legal_actions()
    plain = cm.MonteCarloBot(rollouts=3, horizon=2, shortlist=None, seed=4)
    listed = cm.MonteCarloBot(rollouts=3, horizon=2, seed=4)
    assert plain.action_values(view, legal) == listed.action_values(view, legal)


def test_with_many_builds_only_the_best_builds_see_every_future():
    state = next(
        s for s in _random_states(3, 5) if sum(type(a) is cm.Build for a in s.legal_actions()) > 20
    )
    view, legal = state.view(state.current), state.legal_actions()
    builds = [i for i, a in enumerate(legal) if type(a) is cm.Build]
    bot = cm.MonteCarloBot(rollouts=4, horizon=1, shortlist=5, first_look=1, seed=2)
    values, seen_all = bot._evaluate(view, legal)
    look = cm.MonteCarloBot(rollouts=1, horizon=1, shortlist=None, seed=2).action_values(
        view, legal
    )
    best_builds = sorted(builds, key=lambda i: -look[i])[:5]
    assert seen_all == sorted({*best_builds, *(i for i in range(len(legal)) if i not in builds)})
    for i in set(builds) - set(best_builds):
        assert values[i] == look[i]  # the first look's mean, one future
    chosen = cm.MonteCarloBot(rollouts=4, horizon=1, shortlist=5, first_look=1, seed=2).choose(
        view, legal
    )
    assert legal.index(chosen) in seen_all


def _rio_grande_states(games: int):
    for seed in range(games):
        rng = random.Random(seed)
        state = mogul.new_game("rio-grande", 3, seed)
        while not state.is_over:
            yield state
            state = state.apply(rng.choice(state.legal_actions()))


def test_best_branch_is_the_first_branch_of_highest_gain():
    checked = 0
    for state in _rio_grande_states(4):
        if state.revealed is None or state.current is None:
            continue
        view = state.view(state.current)
        houses, ed = view.me.houses, view.edition
        olds = houses if len(houses) >= ed.houses_per_player else (None,)
        options = [
            (branch_gain(ed, houses, s, o), Branch(s, o))
            for s in free_stations(view, view.revealed.border)
            for o in olds
        ]
        expected = (0, None)
        for gain, branch in options:
            if expected[1] is None or gain > expected[0]:
                expected = (gain, branch)
        assert best_branch(view) == expected
        checked += len(options) > 0
    assert checked > 50


def test_the_rio_grande_bot_tries_only_the_best_branches():
    bot = MonteCarloBot(rollouts=1, branches=2)
    seen = 0
    for state in _rio_grande_states(6):
        legal = state.legal_actions()
        branches = [a for a in legal if type(a) is Branch]
        if len(branches) <= 2:
            continue
        view = state.view(state.current)
        kept = bot.candidates(view, legal)
        tried = [a for a in kept if type(a) is Branch]
        gains = {
            b: branch_gain(view.edition, view.me.houses, b.station, b.move_from) for b in branches
        }
        assert len(tried) == 2
        assert min(gains[b] for b in tried) >= max(gains[b] for b in branches if b not in tried)
        assert [a for a in kept if type(a) is not Branch] == [
            a for a in legal if type(a) is not Branch
        ]
        seen += 1
    assert seen > 5
