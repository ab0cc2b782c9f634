"""The Monte-Carlo bot and the position analysis of Credit Mobilier on the batch simulator.

Their rollouts roll the dice the readable engine would roll and the dividend bots decide
alike in both engines, so the batch simulator must give the very values of the readable
engine, float for float, and the same choices.
"""

from __future__ import annotations

import random

import pandas as pd
import pytest
from test_cm_fast import fast_final_table, final_table, random_states

from mogul import credit_mobilier as cm
from mogul.analysis.credit_mobilier import analyse_position
from mogul.games.credit_mobilier import fast
from mogul.games.credit_mobilier.determinize import determinize
from mogul.kit.bots import play, play_out


def decision_states(count: int, seed: int) -> list:
    """Running states with a choice to make (more than one legal action)."""
    return [s for s in random_states(2 * count, seed) if len(s.legal_actions()) > 1][:count]


def test_every_legal_action_has_a_kernel_number_and_back():
    for state in random_states(60, seed=11):
        for action in state.legal_actions():
            assert fast.action_of(fast.code_of(action)) == action


def test_play_after_ends_each_rollout_in_the_readable_engines_table():
    for k, state in enumerate(random_states(40, seed=12)):
        view = state.view(state.current)
        rng = random.Random(k)
        futures = [determinize(view, rng) for _ in range(3)]
        legal = state.legal_actions()[:6]
        until = state.turn + 1 + k % 5
        tables = fast.play_after(futures, legal, until, "dividend")
        for f, future in enumerate(futures):
            bots = [cm.DividendBot() for _ in state.names]
            for a, action in enumerate(legal):
                end = play_out(future.apply(action), bots, until=lambda s, t=until: s.turn >= t)
                assert fast_final_table(tables[f, a]) == final_table(end), (k, action)


def test_play_after_refuses_a_turn_already_begun():
    state = cm.new_game(players=3, seed=1)
    with pytest.raises(ValueError, match="until_turn must come after turn 1, got 1"):
        fast.play_after([state], state.legal_actions(), 1)


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"shortlist": None, "rollouts": 3, "horizon": 2},
        {"rollouts": 4, "horizon": 6, "treasury_weight": 1, "first_look": 1, "shortlist": 2},
        {"rollouts": 3, "rollout_policy": "dividend:rival_weight=0", "treasury_weight": 0},
    ],
)
def test_the_batch_simulator_gives_the_readable_values_and_choices(settings):
    for k, state in enumerate(decision_states(25, seed=13)):
        view, legal = state.view(state.current), state.legal_actions()
        readable = cm.MonteCarloBot(seed=k, engine="readable", **settings)
        batch = cm.MonteCarloBot(seed=k, engine="fast", **settings)
        batch.rollout = None  # the readable engine's rollout must not be called
        assert batch.action_values(view, legal) == readable.action_values(view, legal), k
        readable, batch = (
            cm.MonteCarloBot(seed=k, engine=e, **settings) for e in ("readable", "auto")
        )
        assert batch.choose(view, legal) == readable.choose(view, legal), k


def test_a_game_of_monte_carlo_bots_is_the_same_game_in_either_engine():
    start = cm.new_game(players=2, seed=3)
    games = []
    for engine in ("readable", "auto"):
        bots = [cm.MonteCarloBot(rollouts=2, horizon=2, seed=s, engine=engine) for s in (1, 2)]
        games.append(play(start, bots))
    assert games[0].actions == games[1].actions
    assert len(games[0].actions) > 50


def test_the_engine_is_checked():
    with pytest.raises(ValueError, match="engine must be one of 'auto', 'readable', 'fast'"):
        cm.MonteCarloBot(engine="numba")
    with pytest.raises(ValueError, match="plays 'random' and 'dividend' rollout policies, not 'mc"):
        cm.MonteCarloBot(engine="fast", rollout_policy="mc:rollouts=1")
    assert cm.MonteCarloBot(engine="fast", rollout_policy="random").engine == "fast"


def test_a_rollout_policy_it_cannot_play_goes_to_the_readable_engine():
    state = decision_states(1, seed=14)[0]
    view, legal = state.view(state.current), state.legal_actions()
    policy = "mc:rollouts=1:horizon=1"
    auto = cm.MonteCarloBot(rollouts=2, horizon=1, rollout_policy=policy, seed=4)
    readable = cm.MonteCarloBot(
        rollouts=2, horizon=1, rollout_policy=policy, seed=4, engine="readable"
    )
    assert auto.action_values(view, legal) == readable.action_values(view, legal)


def test_the_position_analysis_gives_the_readable_engines_figures(monkeypatch):
    from mogul.analysis.credit_mobilier import position

    def readable_rollout(*args, **kwargs):
        raise AssertionError("engine='auto' played a rollout in the readable engine")

    for k, state in enumerate(random_states(8, seed=15)):
        options = {"rollouts": 6, "horizon": 1 + k % 4, "seed": k}
        with monkeypatch.context() as patched:
            patched.setattr(position, "play_out", readable_rollout)  # the kit's loop
            fast_frame = analyse_position(state, **options)
        pd.testing.assert_frame_equal(
            fast_frame, analyse_position(state, engine="readable", **options)
        )


def test_the_position_analysis_with_random_rollouts_is_seeded_and_sane():
    state = cm.new_game(players=3, seed=4)
    first = analyse_position(state, policy="random", rollouts=8, seed=2)
    assert first.equals(analyse_position(state, policy="random", rollouts=8, seed=2))
    assert ((first["win_chance"] >= 0) & (first["win_chance"] <= 1)).all()
    with pytest.raises(ValueError, match="engine must be one of 'auto', 'readable', got 'c'"):
        analyse_position(state, engine="c")
