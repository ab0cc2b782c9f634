"""Credit Mobilier's batch simulator (``fast.py``) against the readable rules (``rules.py``).

The same legal actions in the same order on every state; deterministic bots (``DividendBot``)
end every game whose rolls are scripted, from its start or from mid-game states, in exactly
the readable engine's final table; past the script a game rolls its own dice. The games the
batch engine deals itself are checked by replaying their records
(``test_cm_fast_agreement.py``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier import fast
from mogul.games.credit_mobilier.board import board
from mogul.games.credit_mobilier.components import COMPANIES, RAILROADS, components
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


def scripted_rolls(rng: random.Random, count: int = 400) -> list[list[str]]:
    """``count`` rolls of five dice drawn from ``rng``: more than a game of any bots needs."""
    faces = components().dice_faces
    return [[rng.choice(faces) for _ in range(5)] for _ in range(count)]


def random_states(count: int, seed: int) -> list:
    """States from random readable games at random points, with every phase of a turn; every
    roll of their games is scripted, so both engines roll the same dice from them."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        players = rng.randint(2, 5)
        dice = scripted_rolls(rng)
        state = cm.new_game(players=players, seed=rng.randrange(10**6), dice=dice)
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
def test_dividend_bots_end_every_scripted_game_as_the_rules_do(players):
    rng = random.Random(players)
    for seed in range(40):
        weights = [rng.choice(WEIGHTS) for _ in range(players)]
        start = cm.new_game(players=players, seed=seed, dice=scripted_rolls(rng))
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


def test_play_states_rolls_the_scripted_rolls_first_then_the_games_own_dice():
    # a game the batch engine dealt, cut at turn 10 with its first 10 rolls scripted: played on,
    # it rolls the rest of its own dice (roll n from its seed and n) and ends as ``play`` did
    engine = fast.batch_engine("credit-mobilier", ["dividend"] * 3, ["dividend"] * 3)
    for seed in (3, 4, 5):
        row = engine.play(0, np.array([seed]), np.array([[0, 0, 0]]), ["games"])["games"]
        record = engine.record(seed, [0, 0, 0])
        middle = next(s for s in record.states() if s.turn == 10)
        cut = middle._replace(setup=middle.setup._replace(dice=middle.setup.dice[:10]))
        end = fast.play_states([cut], "dividend")
        assert end.money[0].tolist() == row["money"].tolist()
        assert int(end.turns[0]) == row["turns"][0] > 10
        # not the readable engine's dice: from the cut it rolls others
        readable = play_out(cut, [cm.DividendBot() for _ in range(3)])
        assert fast_final_table(end.tables[0]) != final_table(readable)


def test_random_seats_draw_from_the_seed_they_are_given():
    starts = [cm.new_game(players=5, seed=seed) for seed in range(6)]
    first, again = (fast.play_states(starts, "random", seed=3) for _ in range(2))
    other = fast.play_states(starts, "random", seed=4)
    assert (first.tables == again.tables).all()
    assert not (first.tables == other.tables).all()
    assert (first.tables["current"] == -1).all()


def test_fresh_deals_put_one_pawn_on_each_square_and_start_as_the_box_says():
    result = fast.play_fresh(200, players=3, bots="dividend", seed=4)
    assert (result.tables["pawns"].sum(axis=(1, 2)) == 24).all()  # pawns move, none leave
    assert (result.tables["current"] == -1).all()
    assert (result.stock >= 1).all()  # everyone keeps the purple share dealt


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
    with pytest.raises(ValueError, match="'random' and 'dividend' bots, not 'mc'"):
        fast.batch_engine("credit-mobilier", ["mc", "random"], ["mc", "random"])
