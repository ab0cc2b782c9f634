"""Rio Grande in the batch simulator (``fast``, ``fast_rio_kernels``) against the readable rules.

As for classic (``test_fast.py``): the legal actions must be the readable engine's, in the
same order; deterministic bots on the same piles must end every game in exactly the same
final table (houses included). The batch engine's own games are replayed in the readable
engine in ``test_mogul_batch.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import mogul
from mogul.games.mogul import fast
from mogul.games.mogul.actions import Branch
from mogul.games.mogul.bots import MonteCarloBot, bot_factory
from mogul.games.mogul.determinize import determinize
from mogul.kit.bots import play_out

RIO = mogul.edition("rio-grande")
STATIONS = list(RIO.stations)


def final_table(state) -> tuple:
    """What must agree: each seat's chips, points, shares, credits and houses (in the order
    placed); rounds; the bank; the final scores."""
    seats = tuple(
        (p.chips, p.points, p.shares.counts, p.credits, tuple(p.houses)) for p in state.players
    )
    return seats, state.round, state.bank, state.final_scores()


def fast_final_table(result, g: int = 0) -> tuple:
    t = result.tables[g]
    seats = tuple(
        (
            int(t["chips"][i]),
            int(t["points"][i]),
            tuple(int(x) for x in t["shares"][i]),
            int(t["credits"][i]),
            tuple(STATIONS[s] for s in t["houses"][i][: t["house_count"][i]]),
        )
        for i in range(int(t["players"]))
    )
    return seats, int(t["round"]), int(t["bank"]), tuple(int(s) for s in result.scores[g])


def mixed_bots(rng: random.Random, players: int) -> list[str]:
    """A random line-up of deterministic bots with assorted parameters."""
    choices = [
        "value",
        "value",
        "value:chip_value=0.5",
        "value:chip_value=1.3",
        "value:chip_value=0.2",
        "threshold:drop_at=1",
        "threshold:drop_at=3",
        "threshold:drop_at=6",
    ]
    return [rng.choice(choices) for _ in range(players)]


def readable_finish(state, specs):
    return play_out(state, [bot_factory(s)(0) for s in specs])


def random_states(count: int, seed: int):
    """States of random 3-5 player games after a random number of random moves."""
    rng = random.Random(seed)
    out = []
    for game in range(count):
        players = 3 + game % 3
        state = mogul.new_game("rio-grande", players, seed * 1000 + game)
        for _ in range(rng.randrange(1, 160)):
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            out.append(state)
    return out


def test_legal_actions_are_the_rules_own_in_order():
    checked, branches, moves = 0, 0, 0
    rng = random.Random(3)
    for game in range(60):
        state = mogul.new_game("rio-grande", 3 + game % 3, game)
        while not state.is_over:
            legal = list(state.legal_actions())
            assert fast.rio_legal_actions(state) == legal, state
            checked += 1
            branches += any(type(a) is Branch for a in legal)
            moves += any(type(a) is Branch and a.move_from for a in legal)
            # branch often, so that houses run out and get moved
            built = [a for a in legal if type(a) is Branch]
            state = state.apply(
                rng.choice(built) if built and rng.random() < 0.7 else rng.choice(legal)
            )
    assert checked > 3000 and branches > 500 and moves > 100, (checked, branches, moves)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deterministic_bots_end_every_fresh_deal_as_the_rules_do(players):
    rng = random.Random(players)
    credits = branches = sales = 0
    for seed in range(120):
        start = mogul.new_game("rio-grande", players, seed)
        specs = mixed_bots(rng, players)
        reference = readable_finish(start, specs)
        result = fast.play_states([start], specs)
        assert fast_final_table(result) == final_table(reference), (seed, specs)
        winners = tuple(int(s) for s in np.flatnonzero(result.ranks[0] == 1))
        assert winners == reference.winners()
        credits += sum(p.credits for p in reference.players)
        branches += sum(len(p.houses) for p in reference.players)
        sales += reference.sold.total
    # the comparison covered the rarer rules too
    assert credits > 10 and branches > 300 and sales > 50, (credits, branches, sales)


def test_deterministic_bots_agree_from_states_in_every_phase():
    """Random moves first (credits, sales, branches, moved houses), then bots to the end."""
    rng = random.Random(5)
    phases, moved = Counter(), 0
    for state in random_states(300, 7):
        phases[state.phase] += 1
        moved += any(len(p.houses) == RIO.houses_per_player for p in state.players)
        specs = mixed_bots(rng, len(state.players))
        expected = final_table(readable_finish(state, specs))
        assert fast_final_table(fast.play_states([state], specs)) == expected, (state, specs)
    assert min(phases[p] for p in ("auction", "winner", "runner-up")) >= 15, phases
    assert moved >= 5, moved


def test_fresh_deals_follow_the_setup_card_and_the_crash_rule():
    result = fast.play_fresh(4000, 4, "threshold", seed=11, edition="rio-grande")
    t = result.tables
    assert (t["pile_size"] == 37 - 12 + 1).all()  # the box less the setup card, plus the crash
    crash_at = np.argmax(t["pile_company"] == fast.CRASH, axis=1)
    counts = np.bincount(crash_at - (t["pile_size"] - 4), minlength=4)
    assert counts.min() > 900 and counts.max() < 1100  # uniform over the last 4 positions
    assert (result.rounds == crash_at + 1).all()
    assert (result.chips.sum(axis=1) + t["bank"] == 45).all()
    # the threshold bot never builds: its end bonus is a point per share held
    assert (result.houses == 0).all() and (t["end_bonus"][:, :4] == result.shares).all()
    assert (result.scores == result.points + result.chips // 5 + result.shares).all()


def test_rollouts_on_given_piles_match_the_readable_engine():
    """With the piles of determinize, value-bot rollouts (branches first) end as the rules do."""
    state = random_states(40, 9)[-1]
    while state.phase == "auction":
        state = state.apply(state.legal_actions()[-1])
    view, legal = state.view(state.current), state.legal_actions()
    rng = random.Random(4)
    dealt = [determinize(view, rng) for _ in range(5)]
    piles = np.stack([fast.pile_codes(s) for s in dealt])
    scores, keys = fast.rollouts(view, legal, rollouts=5, bots="value", piles=piles)
    for r, table in enumerate(dealt):
        for b, action in enumerate(legal):
            final = readable_finish(table.apply(action), ["value"] * len(state.players))
            assert tuple(scores[r, b]) == final.final_scores()
            assert tuple(keys[r, b] // 100) == final.final_scores()


def test_montecarlo_bot_values_are_the_same_in_both_engines():
    state = random_states(30, 12)[-1]
    while state.phase == "auction":
        state = state.apply(state.legal_actions()[0])
    view, legal = state.view(state.current), state.legal_actions()
    quick = MonteCarloBot(rollouts=6, seed=3, engine="fast").action_values(view, legal)
    reference = MonteCarloBot(rollouts=6, seed=3, engine="readable").action_values(view, legal)
    assert quick == reference and len(set(quick)) > 1


def test_what_the_rio_grande_simulator_refuses():
    with pytest.raises(ValueError, match="classic edition only"):
        fast.check_edition("rio-grande")  # without rio_grande=True: classic only
    assert fast.check_edition("rio-grande", rio_grande=True) is RIO
    with pytest.raises(ValueError, match="3 to 5 players"):
        fast.play_fresh(10, 6, edition="rio-grande")
    over = readable_finish(mogul.new_game("rio-grande", 3, 1), ["value"] * 3)
    with pytest.raises(ValueError, match="game is over"):
        fast.encode(over)
    with pytest.raises(ValueError, match="same edition"):
        fast.play_states([mogul.new_game("rio-grande", 3, 1), mogul.new_game("classic", 3, 1)])


def test_position_analysis_plays_rio_grande_in_the_batch_engine(monkeypatch):
    from mogul.analysis.mogul import analyse_position

    calls = []
    original = fast.fast_rio_kernels._play_branches

    def counted(*args):
        calls.append(len(args[-2]))  # the rollouts: one row of scores each
        return original(*args)

    monkeypatch.setattr(fast.fast_rio_kernels, "_play_branches", counted)
    state = random_states(20, 4)[-1]
    while len(state.legal_actions()) < 2:
        state = state.apply(state.legal_actions()[0])
    table = analyse_position(state, rollouts=300)
    assert calls == [300]
    assert list(table["action"]) == [
        mogul.games.mogul.display.action_label(state, a) for a in state.legal_actions()
    ]
    assert (table["win_low"] <= table["win_chance"]).all() and table["win_chance"].max() > 0


def test_settled_auctions_roll_out_as_the_rules_settle_them():
    from mogul.games.mogul.rules import settle_auction

    state = next(s for s in random_states(40, 13) if s.phase == "auction" and len(s.in_auction) > 2)
    view = state.view(state.current)
    pairs = [(w, r) for w in state.in_auction for r in state.in_auction if w != r]
    dealt = [determinize(view, random.Random(seed)) for seed in range(3)]
    piles = np.stack([fast.pile_codes(s) for s in dealt])
    scores, _ = fast.rollouts(view, [None] * len(pairs), 3, "value", settle=pairs, piles=piles)
    for r, table in enumerate(dealt):
        for b, (winner, runner_up) in enumerate(pairs):
            settled = settle_auction(table, winner, runner_up)
            final = readable_finish(settled, ["value"] * len(state.players))
            assert tuple(scores[r, b]) == final.final_scores()


def test_simulate_plays_rio_grande_in_the_batch_engine():
    from mogul.kit.simulate import simulate

    bots = ["value", "threshold:drop_at=2", "random"]
    sim = simulate("rio-grande", bots, games=30, seed=3, tables=["games"], progress=False)
    assert sim.engine == "fast" and len(sim.games) == 90
    assert (sim.games["score"] >= sim.games["points"]).all()  # the end bonuses count
