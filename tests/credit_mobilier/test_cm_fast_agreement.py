"""The batch engine's own games against the readable engine: by replay, and in distribution.

Every game ``CreditMobilierBatch.play`` deals and plays (2,100 of them: 2 to 5 players,
random and dividend bots, mixed seats) is written by ``record`` as a ``GameRecord`` with the
deal and every roll scripted; the readable engine replays it to the very money, shares,
treasuries, turns and winners the batch engine ended with. Random play in the two engines
(each with its own random numbers) agrees within 4 standard errors: mean money, turns and
each seat's share of the wins. CPU time about 25 s, most of it the readable replays.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from mogul.games.credit_mobilier import fast
from mogul.games.credit_mobilier.components import RAILROADS, components
from mogul.kit.batch import seed_stream
from mogul.kit.record import GameRecord
from mogul.kit.simulate import simulate

GAMES = 300
CASES = [
    ["random", "random"],
    ["dividend"] * 3,
    ["random", "dividend:rival_weight=0", "random"],
    ["random"] * 4,
    ["dividend:rival_weight=1", "random", "dividend", "random"],
    ["random", "dividend", "random", "dividend:rival_weight=0.25", "random"],
    ["dividend", "dividend:rival_weight=0", "dividend:rival_weight=1", "dividend", "dividend"],
]


def seeds_for(case: int, games: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    seeds = seed_stream(1000 + case, games * (1 + players)).reshape(games, 1 + players)
    return seeds[:, 0], seeds[:, 1:]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_every_game_replays_in_the_readable_engine_to_the_batch_engines_end(case):
    bots = CASES[case]
    players = len(bots)
    engine = fast.batch_engine("credit-mobilier", bots, bots)
    seeds, bot_seeds = seeds_for(case, GAMES, players)
    table = engine.play(0, seeds, bot_seeds, ["games"])["games"]
    ends = fast.play_games(bots, seeds, bot_seeds).tables
    for g in range(GAMES):
        record = engine.record(int(seeds[g]), [int(s) for s in bot_seeds[g]])
        assert record.setup.seed == seeds[g] and len(record.setup.dice) == ends["turn"][g]
        final = record.replay()
        rows = slice(g * players, (g + 1) * players)
        assert final.is_over
        assert list(final.money) == table["money"][rows].tolist() == table["score"][rows].tolist()
        assert [s.total for s in final.stocks] == table["stock"][rows].tolist()
        assert final.turn == table["turns"][rows.start]
        assert set(final.winners()) == set(np.flatnonzero(table["won"][rows]).tolist())
        assert [list(s) for s in final.stocks] == ends["stocks"][g, :players].tolist()
        assert list(final.treasuries) == ends["treasuries"][g].tolist()
        assert len(record.actions) == ends["decisions"][g]


def test_a_game_depends_on_its_own_seeds_only():
    bots = ["random", "dividend", "random", "random"]
    engine = fast.batch_engine("credit-mobilier", bots, bots)
    seeds, bot_seeds = seeds_for(99, 10, 4)
    whole = engine.play(0, seeds, bot_seeds, ["games"])["games"]
    parts = [engine.play(0, seeds[:3], bot_seeds[:3], ["games"])["games"]]
    parts.append(engine.play(3, seeds[3:], bot_seeds[3:], ["games"])["games"])
    for column in ("game", "seed", "bot_seed", "money", "stock", "turns", "rank"):
        assert whole[column].tolist() == np.concatenate([p[column] for p in parts]).tolist()
    # another random bot's seed changes that game only; the dividend seat's seed changes nothing
    other = bot_seeds.copy()
    other[5, 0] += 1
    other[:, 1] += 1
    changed = engine.play(0, seeds, other, ["games"])["games"]
    differs = (changed["money"] != whole["money"]).reshape(10, 4).any(axis=1)
    assert differs.tolist() == [g == 5 for g in range(10)]
    first = engine.record(int(seeds[5]), [int(s) for s in bot_seeds[5]])
    assert engine.record(int(seeds[5]), [int(s) for s in bot_seeds[5]]) == first
    assert GameRecord.from_json(first.to_json()).replay() == first.replay()  # a record like any
    assert engine.record(int(seeds[5]), [int(s) for s in other[5]]).actions != first.actions


def test_the_deal_and_the_dice_are_fair():
    engine = fast.batch_engine("credit-mobilier", ["random"] * 3, ["random"] * 3)
    seeds, bot_seeds = seeds_for(7, 400, 3)
    faces, starts, goods = Counter(), Counter(), Counter()
    for seed, bots in zip(seeds, bot_seeds, strict=True):
        setup = engine.record(int(seed), [int(s) for s in bots]).setup
        faces.update(face for roll in setup.dice for face in roll)
        starts[setup.start_player] += 1
        goods.update(colour for _, colour in setup.goods)
    box = components()
    dice = sum(faces.values())
    for face in box.dice_faces:  # each face one time in six
        assert abs(faces[face] / dice - 1 / 6) < 4 * math.sqrt(5 / 36 / dice), (face, faces)
    for seat in range(3):
        assert abs(starts[seat] / 400 - 1 / 3) < 4 * math.sqrt(2 / 9 / 400), starts
    assert sum(goods.values()) == 400 * 24 and set(goods) == set(RAILROADS)
    spread = math.sqrt(24 * 3 / 16 * 8 / 31)  # 24 of the 32 pawns, 8 a colour: 6 +- 1.08 a game
    for count in goods.values():
        assert abs(count / 400 - 6) < 4 * spread / math.sqrt(400), goods


def test_bad_seeds_are_refused():
    engine = fast.batch_engine("credit-mobilier", ["random"] * 3, ["random"] * 3)
    with pytest.raises(ValueError, match=r"one bot seed per seat \(3\), got \[1, 2\]"):
        engine.record(5, [1, 2])
    with pytest.raises(ValueError, match=r"one bot for every seat or one per seat \(2\); got 3"):
        engine.play(0, np.array([1, 2]), np.zeros((2, 2), np.int64), ["games"])
    with pytest.raises(ValueError, match=r"each of the 2 games, got shape \(3, 3\)"):
        engine.play(0, np.array([1, 2]), np.zeros((3, 3), np.int64), ["games"])


def mean_and_error(values) -> tuple[float, float]:
    values = np.asarray(values, float)
    return values.mean(), values.std(ddof=1) / math.sqrt(len(values))


def test_random_play_agrees_with_the_readable_engines_own_games_in_distribution():
    # dividend bots choose alike in both engines: the replays above show their games agree
    bots, players = ["random"] * 4, 4
    common = {"games": 300, "seed": 5, "tables": ["games"], "progress": False}
    readable = simulate("credit-mobilier", bots, engine="readable", **common).games
    sim = simulate("credit-mobilier", bots, **{**common, "games": 20_000})
    assert sim.engine == "fast"
    batch = sim.games
    assert list(batch.columns) == list(readable.columns)
    # the same dtypes (whole numbers compact in both; the batch engine keeps names as categoricals)
    dtypes = [(c, t) for c, t in batch.dtypes.items() if t != "category"]
    assert dtypes == [(c, readable[c].dtype) for c, _ in dtypes]
    assert batch["player"].iloc[:4].tolist() == readable["player"].iloc[:4].tolist()
    for games in (readable, batch):
        games["seat_won"] = games["won"] / games.groupby("game")["won"].transform("sum")
    for column in ("money", "turns", "stock"):
        (m1, e1), (m2, e2) = mean_and_error(readable[column]), mean_and_error(batch[column])
        assert abs(m1 - m2) < 4 * math.hypot(e1, e2), (column, m1, m2)
    for seat in range(players):  # each seat's share of the wins (shared wins split)
        r, b = (g.loc[g["seat"] == seat, "seat_won"] for g in (readable, batch))
        (m1, e1), (m2, e2) = mean_and_error(r), mean_and_error(b)
        assert abs(m1 - m2) < 4 * math.hypot(e1, e2), (seat, m1, m2)
