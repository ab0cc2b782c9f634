"""Credit Mobilier's batch simulator (``fast.py``) against the readable rules (``rules.py``).

The same legal actions in the same order on every state; deterministic bots (``DividendBot``)
end every game, from fresh deals and from mid-game states, in exactly the readable engine's
final table; under random play the two engines draw different random numbers, so their
distributions are compared instead (within 4 standard errors).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pandas as pd
import pytest

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier import fast
from mogul.games.credit_mobilier.board import board
from mogul.games.credit_mobilier.components import COMPANIES, RAILROADS
from mogul.kit.bots import play_out
from mogul.kit.simulate import simulate

WEIGHTS = (0.0, 0.25, 0.5, 1.0)


def final_table(state) -> tuple:
    """What must agree: money, shares, treasuries, goods, track, turns, whose turn."""
    b = board()
    pawns = [[0] * len(RAILROADS) for _ in b.spaces]
    for space, colour in state.goods:
        pawns[b.spaces.index(space)][RAILROADS.index(colour)] += 1
    owners = dict(state.track)
    track = [COMPANIES.index(owners[s.id]) if s.id in owners else -1 for s in b.sections]
    current = -1 if state.current is None else state.current
    stocks = [list(s) for s in state.stocks]
    return list(state.money), stocks, list(state.treasuries), pawns, track, state.turn, current


def fast_final_table(t) -> tuple:
    n = int(t["players"])
    return (
        t["money"][:n].tolist(),
        t["stocks"][:n].tolist(),
        t["treasuries"].tolist(),
        t["pawns"].tolist(),
        t["owner"].tolist(),
        int(t["turn"]),
        int(t["current"]),
    )


def random_states(count: int, seed: int) -> list:
    """States from random readable games at random points, with every phase of a turn."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = cm.new_game(players=rng.randint(2, 5), seed=rng.randrange(10**6))
        for _ in range(rng.randrange(400)):
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            states.append(state)
    return states


def test_the_kernels_list_the_legal_actions_of_the_rules_in_their_order():
    for state in random_states(300, seed=1):
        assert fast.legal_actions(state) == state.legal_actions(), state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_dividend_bots_end_every_fresh_game_as_the_rules_do(players):
    rng = random.Random(players)
    for seed in range(40):
        weights = [rng.choice(WEIGHTS) for _ in range(players)]
        start = cm.new_game(players=players, seed=seed)
        reference = play_out(start, [cm.DividendBot(w) for w in weights])
        result = fast.play_states([start], [f"dividend:rival_weight={w}" for w in weights])
        assert fast_final_table(result.tables[0]) == final_table(reference), (seed, weights)
        assert int(result.decisions[0]) > 0
        best = set(np.flatnonzero(result.ranks[0] == 1).tolist())
        assert best == set(reference.winners()), (seed, weights)


def test_dividend_bots_end_mid_game_states_as_the_rules_do():
    for state in random_states(120, seed=2):
        weights = [WEIGHTS[(state.turn + seat) % len(WEIGHTS)] for seat in range(len(state.names))]
        reference = play_out(state, [cm.DividendBot(w) for w in weights])
        result = fast.play_states([state], [cm.DividendBot(w) for w in weights])
        assert fast_final_table(result.tables[0]) == final_table(reference), state


def test_long_games_get_their_rolls_in_several_helpings():
    starts = [cm.new_game(players=5, seed=seed) for seed in range(6)]
    result = fast.play_states(starts, "random", seed=3)
    assert (result.turns > fast.ROLLS_AT_ONCE).any()  # random 5-player games run past 160 turns
    assert (result.tables["waiting"] == 0).all() and (result.tables["current"] == -1).all()


def _mean_and_error(values) -> tuple[float, float]:
    values = np.asarray(values, float)
    return values.mean(), values.std(ddof=1) / math.sqrt(len(values))


def test_random_play_matches_the_readable_engine_in_distribution():
    readable = {"turns": [], "money": [], "decisions": [], "stock": []}
    for seed in range(300):
        rng = random.Random(seed)
        state = cm.new_game(players=4, seed=seed)
        steps = 0
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            steps += 1
        readable["turns"].append(state.turn)
        readable["decisions"].append(steps)
        readable["money"].append(sum(state.money) / 4)
        readable["stock"].append(sum(s.total for s in state.stocks) / 4)
    result = fast.play_fresh(20_000, players=4, bots="random", seed=5)
    batch = {
        "turns": result.turns,
        "decisions": result.decisions,
        "money": result.money.mean(axis=1),
        "stock": result.stock.mean(axis=1),
    }
    for key, values in readable.items():
        (m1, e1), (m2, e2) = _mean_and_error(values), _mean_and_error(batch[key])
        assert abs(m1 - m2) < 4 * math.hypot(e1, e2), (key, m1, m2)
    assert 100 < result.turns.mean() < 200


def test_fresh_deals_put_one_pawn_on_each_square_and_start_as_the_box_says():
    result = fast.play_fresh(200, players=3, bots="dividend", seed=4)
    assert (result.tables["pawns"].sum(axis=(1, 2)) == 24).all()  # pawns move, none leave
    assert (result.tables["current"] == -1).all()
    assert (result.stock >= 1).all()  # everyone keeps the purple share dealt


def test_the_games_table_of_the_batch_simulator_equals_the_readable_engines():
    bots = ["dividend", "dividend:rival_weight=0", "dividend:rival_weight=1"]
    readable = simulate("credit-mobilier", bots, games=12, seed=7, engine="readable").games
    sim = simulate("credit-mobilier", bots, games=12, seed=7, engine="fast", tables=["games"])
    assert sim.engine == "fast"
    pd.testing.assert_frame_equal(sim.games, readable)  # columns, dtypes and values


def test_the_batch_engine_makes_the_games_table_only_and_says_so():
    with pytest.raises(ValueError, match="makes the games table only, not turns, dividends"):
        simulate("credit-mobilier", ["dividend"] * 3, games=2, engine="fast")
    sim = simulate("credit-mobilier", ["dividend"] * 3, games=2)  # all tables: readable engine
    assert sim.engine == "readable" and "turns" in sim.tables
    assert simulate("credit-mobilier", ["dividend"] * 3, games=2, tables=["games"]).engine == "fast"


def test_bots_it_cannot_play_are_refused_with_the_ones_it_can():
    with pytest.raises(ValueError, match="'random' and 'dividend' bots, not 'mc'"):
        fast.play_fresh(10, players=3, bots="mc")
    with pytest.raises(ValueError, match="2 to 5 players; got 6"):
        fast.play_fresh(10, players=6)
    assert fast.games_table("credit-mobilier", ["mc", "random"], [], ["mc", "random"]) is None
