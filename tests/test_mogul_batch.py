"""Mogul's batch engine (``fast_batch``) against the readable engine, both editions.

The batch engine deals and plays each game from streams of its own, so its games are not
the readable engine's games from the same seeds. Agreement is checked game by game instead:
every game ``play`` puts in the tables is written down by ``record`` (the dealt table as a
scripted setup, then every action) and replayed by the readable engine, which must reach the
same final scores and the same chips, points, shares and credits per seat, and, for classic,
the same rows of the rounds and auctions tables. Under random play the two engines' own
games must agree in distribution.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import mogul
from mogul.games.mogul.fast import stream_seeds
from mogul.games.mogul.fast_batch import batch_engine
from mogul.games.mogul.spec import SPEC
from mogul.kit.bots import RandomBot, play_states
from mogul.kit.columns import frame
from mogul.kit.record import GameRecord

DETERMINISTIC = [
    "value",
    "value:chip_value=0.5",
    "value:chip_value=1.3",
    "threshold:drop_at=0",
    "threshold:drop_at=2",
    "threshold:drop_at=6",
]


def line_ups(players: int) -> list[list[str]]:
    """Every seat random; deterministic bots only; random and deterministic bots mixed."""
    rng = random.Random(players)
    mixed = [rng.choice(DETERMINISTIC) for _ in range(players)]
    mixed[rng.randrange(players)] = "random"
    return [["random"] * players, [rng.choice(DETERMINISTIC) for _ in range(players)], mixed]


def seat_state(final, seat: int) -> tuple:
    p = final.players[seat]
    return p.chips, p.points, p.shares.total, p.credits


def replay_every_game(edition: str, players: int, bots: list[str], games: int, seed: int):
    """Play ``games`` through ``engine.play``; replay each one's record in the readable
    engine and compare. Returns the replayed final states and the games table."""
    engine = batch_engine(edition, bots, bots)
    seeds, bot_seeds = stream_seeds(seed, games, players)
    table = frame(engine.play(100, seeds, bot_seeds, ["games"])["games"])
    finals = []
    for g in range(games):
        record = engine.record(int(seeds[g]), [int(b) for b in bot_seeds[g]])
        assert record.setup.seed == seeds[g] and record.setup.edition == edition
        if g % 25 == 0:  # records are saved and loaded as JSON (to open them in the player)
            record = GameRecord.from_json(record.to_json())
        final = record.replay()
        rows = table.iloc[g * players : (g + 1) * players]
        assert (rows["game"] == 100 + g).all() and (rows["seed"] == seeds[g]).all()
        assert list(rows["bot_seed"]) == list(bot_seeds[g])
        assert list(rows["player"]) == list(final.names)
        assert tuple(rows["score"]) == final.final_scores(), (edition, bots, g)
        batch_seats = list(
            zip(rows["chips"], rows["points"], rows["shares"], rows["credits"], strict=True)
        )
        assert batch_seats == [seat_state(final, s) for s in range(players)], (bots, g)
        assert (rows["rounds"] == final.round).all()
        winners = tuple(int(s) for s in np.flatnonzero(rows["won"]))
        assert winners == final.winners()
        finals.append(final)
    return finals, table


@pytest.mark.parametrize(
    ("edition", "players"),
    [("classic", 3), ("classic", 4), ("classic", 5), ("classic", 6)]
    + [("rio-grande", 3), ("rio-grande", 4), ("rio-grande", 5)],
)
def test_every_game_replays_to_the_same_end_in_the_readable_engine(edition, players):
    credits = sales = branches = 0
    for k, bots in enumerate(line_ups(players)):
        finals, _ = replay_every_game(edition, players, bots, 150, seed=players * 10 + k)
        credits += sum(p.credits for f in finals for p in f.players)
        sales += sum(f.sold.total for f in finals)
        branches += sum(len(p.houses) for f in finals for p in f.players)
    # the replays covered the rarer rules too
    assert credits > 100 and sales > 100, (credits, sales)
    assert edition == "classic" or branches > 300, branches


def normal(value):
    """A table cell as plain Python: sequences as tuples of ints, numpy scalars unwrapped."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return tuple(int(v) for v in value)
    return value.item() if isinstance(value, np.generic) else value


@pytest.mark.parametrize("players", [3, 6])
def test_the_rounds_and_auctions_tables_are_the_replayed_games_own(players):
    """Each game's rows, as the readable engine's tables (``tables.py``) read its replay."""
    bots = line_ups(players)[2]
    engine = batch_engine("classic", bots, bots)
    seeds, bot_seeds = stream_seeds(players, 40, players)
    played = engine.play(0, seeds, bot_seeds, ["games", "rounds", "auctions"])
    for name in ("rounds", "auctions"):
        table = frame(played[name])
        for g in range(40):
            record = engine.record(int(seeds[g]), [int(b) for b in bot_seeds[g]])
            expected = [
                {"game": g, **({"bot": bots[row["seat"]]} if "seat" in row else {}), **row}
                for row in SPEC.tables[name](list(record.states()))
            ]
            mine = table[table["game"] == g].to_dict("records")
            assert [list(r) for r in mine] == [list(r) for r in expected], name
            assert [{k: normal(v) for k, v in r.items()} for r in mine] == [
                {k: normal(v) for k, v in r.items()} for r in expected
            ], (name, g)


def test_a_game_depends_on_its_own_seeds_only():
    """Chunks of any size give the same rows; each game's seeds give the same game again."""
    bots = ["random", "value", "random", "threshold"]
    engine = batch_engine("classic", bots, bots)
    seeds, bot_seeds = stream_seeds(7, 300, 4)
    whole = engine.play(0, seeds, bot_seeds, ["games", "auctions"])
    parts = [engine.play(f, seeds[f:t], bot_seeds[f:t], ["games"]) for f, t in ((0, 1), (1, 300))]
    for column, values in whole["games"].items():
        joined = np.concatenate(
            [np.asarray(getattr(p["games"][column], "codes", p["games"][column])) for p in parts]
        )
        assert (np.asarray(getattr(values, "codes", values)) == joined).all(), column
    again = engine.play(5, seeds[5:6], bot_seeds[5:6], ["games"])["games"]
    assert list(again["score"]) == list(whole["games"]["score"][20:24])
    other = engine.play(0, seeds[:50], bot_seeds[:50] + 1, ["games"])["games"]
    assert (other["score"] != whole["games"]["score"][:200]).any()  # the bots' seeds count
    steady = batch_engine("rio-grande", ["value", "threshold", "value"], ["v", "t", "v"])
    seeds, bot_seeds = stream_seeds(8, 100, 3)
    one = steady.play(0, seeds, bot_seeds, ["games"])["games"]["score"]
    two = steady.play(0, seeds, bot_seeds + 1, ["games"])["games"]["score"]
    assert (one == two).all()  # deterministic bots draw nothing: only the deal counts


def test_the_batch_engine_refuses_bad_seeds():
    engine = batch_engine("classic", ["random"] * 3, ["random"] * 3)
    with pytest.raises(ValueError, match="from 0 to 2\\*\\*63 - 1"):
        engine.record(-1, [1, 2, 3])
    with pytest.raises(ValueError, match="bot seeds must be whole numbers"):
        engine.record(1, np.array([1, 2, 2**63], np.uint64))
    with pytest.raises(ValueError, match="3 bot seeds per game"):
        engine.record(1, [1, 2])
    rio = batch_engine("rio-grande", ["random"] * 3, ["random"] * 3)
    assert rio.tables == ("games",)
    with pytest.raises(ValueError, match=r"makes only the tables \['games'\]"):
        rio.play(0, np.zeros(1, np.int64), np.zeros((1, 3), np.int64), ["rounds"])


@pytest.mark.parametrize("edition", ["classic", "rio-grande"])
def test_random_play_matches_the_readable_engine_in_distribution(edition):
    """Per game of uniformly random 4-player play: mean score, rounds, credits, chips bid,
    seat 0's and the start player's wins (shared wins count 1/k), within 4 standard errors."""
    readable = {name: [] for name in ("score", "rounds", "credits", "bids", "seat 0", "starter")}
    for seed in range(1200):
        start = mogul.new_game(edition, 4, seed)
        states, actions = play_states(
            start, [RandomBot(seed * 4 + i) for i in range(4)], keep_states=False
        )
        final, winners = states[-1], states[-1].winners()
        readable["score"].append(np.mean(final.final_scores()))
        readable["rounds"].append(final.round)
        readable["credits"].append(sum(p.credits for p in final.players))
        readable["bids"].append(sum(a == mogul.BID for a in actions))
        readable["seat 0"].append((0 in winners) / len(winners))
        readable["starter"].append((start.start_player in winners) / len(winners))
    engine = batch_engine(edition, ["random"] * 4, ["random"] * 4)
    games = 20_000
    seeds, bot_seeds = stream_seeds(3, games, 4)
    table = engine.play(0, seeds, bot_seeds, ["games"])["games"]
    won = table["won"].reshape(games, 4) / table["won"].reshape(games, 4).sum(axis=1)[:, None]
    result = engine.deal_and_play(games, 3)
    starters = np.array(
        [
            engine.record(int(s), list(b)).setup.start_player
            for s, b in zip(seeds[:1000], bot_seeds[:1000], strict=True)
        ]
    )
    quick = {
        "score": table["score"].reshape(games, 4).mean(axis=1),
        "rounds": table["rounds"][::4],
        "credits": table["credits"].reshape(games, 4).sum(axis=1),
        "bids": result.bids,
        "seat 0": won[:, 0],
        "starter": won[np.arange(1000), starters],
    }
    for name, values in readable.items():
        values = np.asarray(values, float)
        error = np.hypot(
            values.std() / np.sqrt(len(values)), quick[name].std() / np.sqrt(len(quick[name]))
        )
        gap = abs(values.mean() - quick[name].mean())
        assert gap <= 4 * error + 1e-9, (
            f"{name}: readable {values.mean():.3f}, batch {quick[name].mean():.3f}"
        )
