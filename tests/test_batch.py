"""simulate() on the batch engine: the readable engine's tables, in chunks, anywhere.

Every game gets its seeds from the run's seed and its number (``game_seeds``), so chunks,
workers and executors must not change a byte of what is written.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import pytest
import toy_game

from mogul.kit.batch import (
    GOLDEN,
    Chunk,
    engine_for,
    game_seeds,
    play_and_spill,
    play_chunk,
    run_key,
    splitmix64,
)
from mogul.kit.bots import RandomBot, play
from mogul.kit.columns import Coded, compact, frame, game_numbers, narrowed
from mogul.kit.runner import RunOptions, play_all
from mogul.kit.simulate import simulate
from mogul.kit.spec import register, resolve, unregister

LINEUP = ["random", "value", "threshold:drop_at=2", "value:chip_value=0.5"]


def test_splitmix64_is_the_reference_generator():
    # Vigna's splitmix64.c seeded with 1234567: its first two outputs
    first = splitmix64(np.array([1234567], np.uint64))
    second = splitmix64(np.array([1234567], np.uint64) + GOLDEN)
    assert [int(first[0]), int(second[0])] == [6457827717110365317, 3203168211198807973]


def test_game_seeds_are_outputs_of_the_runs_stream():
    key = int(run_key(9))
    states = np.array([(key + k * int(GOLDEN)) % 2**64 for k in range(64)], np.uint64)
    outputs = splitmix64(states).tolist()
    deals, bots = game_seeds(9, 2, 2, 4)  # games 2 and 3: outputs 32... and 48...
    assert deals.tolist() == [outputs[32] >> 1, outputs[48] >> 1]
    assert bots.tolist() == [[o >> 1 for o in outputs[33:37]], [o >> 1 for o in outputs[49:53]]]
    assert deals.dtype == bots.dtype == np.int64


@pytest.mark.parametrize("seed", [0, -1, 1, 2**63, 2**64 - 1, 2**64, -(2**200)])
def test_game_seeds_depend_on_the_game_only(seed):
    deals, bots = game_seeds(seed, 0, 300, 6)
    assert (deals >= 0).all() and (bots >= 0).all()
    assert len({*deals.tolist(), *bots.ravel().tolist()}) == 300 * 7  # no two alike
    for first, count in [(0, 1), (7, 13), (299, 1)]:
        part = game_seeds(seed, first, count, 6)
        assert part[0].tolist() == deals[first : first + count].tolist()
        assert part[1].tolist() == bots[first : first + count].tolist()
    fewer = game_seeds(seed, 0, 300, 3)  # a seat's seed does not depend on the table's size
    assert fewer[0].tolist() == deals.tolist() and fewer[1].tolist() == bots[:, :3].tolist()


def test_every_run_seed_has_its_own_games():
    seeds = [0, -1, 1, 2, -2, 2**63, -(2**63), 2**64 - 1, 2**64, 2**128]
    assert len({tuple(game_seeds(s, 0, 2, 3)[0].tolist()) for s in seeds}) == len(seeds)
    with pytest.raises(ValueError, match="seed must be a whole number, got 1.5"):
        game_seeds(1.5, 0, 2, 3)
    with pytest.raises(ValueError, match="1 to 15 players, not 16"):
        game_seeds(1, 0, 2, 16)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_batch_engine_makes_the_readable_engines_tables(players):
    lineup = dict(players=players, progress=False)
    readable = simulate("classic", LINEUP[:players], games=3, engine="readable", **lineup)
    fast = simulate("classic", LINEUP[:players], games=40, seed=players, chunk_size=9, **lineup)
    assert (readable.engine, fast.engine) == ("readable", "fast")
    assert list(fast.tables) == list(readable.tables) == ["games", "rounds", "auctions"]
    for name, table in readable.tables.items():
        assert list(fast.tables[name].columns) == list(table.columns)
        assert same_dtypes(fast.tables[name], table), name
    games = fast.games
    assert games["game"].tolist() == [g for g in range(40) for _ in range(players)]
    deals, bots = game_seeds(players, 0, 40, players)
    assert games["seed"].tolist() == np.repeat(deals, players).tolist()
    assert games["bot_seed"].tolist() == bots.ravel().tolist()
    assert fast.failures.empty and not fast.partial
    unrecorded = simulate(  # only the games table: played without a record of the rounds
        "classic", LINEUP[:players], games=40, seed=players, tables=["games"], **lineup
    )
    pd.testing.assert_frame_equal(unrecorded.games, games)


def same_dtypes(batch: pd.DataFrame, readable: pd.DataFrame) -> bool:
    """The same dtype in every column, text aside (categoricals on the batch engine)."""
    return all(
        dtype == readable[name].dtype for name, dtype in batch.dtypes.items() if dtype != "category"
    )


def test_both_engines_keep_whole_numbers_compact():
    for game in ("rio-grande", "credit-mobilier"):
        tables = ["games"]
        readable = simulate(game, ["random"], games=2, players=3, engine="readable", tables=tables)
        fast = simulate(game, ["random"], games=2, players=3, engine="fast", tables=tables)
        assert same_dtypes(fast.games, readable.games), game
    games = fast.games
    assert games["game"].dtype == np.int32 and games["seed"].dtype == np.int64
    assert games["bot_seed"].dtype == np.int64
    assert (games[["seat", "score", "rank", "money", "stock", "turns"]].dtypes == np.int16).all()


def test_whole_numbers_are_narrowed_only_where_they_fit():
    assert narrowed(np.array([-32768, 32767])).dtype == np.int16
    with pytest.raises(
        ValueError, match=r"from 0 to 32768 do not fit in int16 \(-32768 to 32767\)"
    ):
        narrowed(np.array([0, 32768]))
    assert game_numbers(2**31 - 2, 2).tolist() == [2**31 - 2, 2**31 - 1]
    with pytest.raises(ValueError, match="do not fit in int32"):
        game_numbers(2**31 - 1, 2)
    table = compact(pd.DataFrame({"game": [7], "seed": [2**40], "bot_seed": [3], "won": [True]}))
    assert table.dtypes.tolist() == [np.int32, np.int64, np.int64, bool]
    with pytest.raises(ValueError, match="from 70000 to 70000 do not fit in int16"):
        compact(pd.DataFrame({"game": [7], "chips": [70000]}))


def test_fewer_tables_on_the_batch_engine():
    fast = simulate(
        "classic", ["random"], games=5, players=3, tables=["games", "auctions"], progress=False
    )
    assert fast.engine == "fast" and list(fast.tables) == ["games", "auctions"]


def test_the_readable_engine_plays_what_the_batch_engine_cannot():
    sim = simulate(
        "classic", ["random", "mc:rollouts=1"], games=2, seed=1, players=3, progress=False
    )
    assert sim.engine == "readable" and len(sim.games) == 6
    rio = simulate("rio-grande", ["random"], games=1, players=3, progress=False)
    assert rio.engine == "readable"


@pytest.mark.parametrize(
    ("game", "bots", "message"),
    [
        ("classic", ["random", "mc:rollouts=1"], "plays 'random', 'threshold' and 'value' bots"),
        ("rio-grande", ["random"], "makes the games table only, not rounds, auctions"),
    ],
)
def test_engine_fast_says_why_it_cannot(game, bots, message):
    with pytest.raises(ValueError, match=f"engine='fast' cannot play this: .*{message}"):
        simulate(game, bots, games=1, players=3, engine="fast", progress=False)
    with pytest.raises(ValueError, match="engine must be 'readable' or 'fast'"):
        simulate("classic", ["random"], games=1, players=3, engine="numba")


def test_a_run_stopped_before_its_first_chunk_has_empty_tables(monkeypatch):
    import mogul.kit.simulate as simulation

    def stopped(*args, **kwargs):
        return True  # interrupted, nothing finished

    monkeypatch.setattr(simulation, "run_chunks", stopped)
    sim = simulate("classic", LINEUP, games=5, seed=1, progress=False)
    full = simulate("classic", LINEUP, games=5, seed=1, progress=False, engine="readable")
    assert sim.partial and sim.engine == "fast" and sim.games_finished == 0
    for name, table in full.tables.items():
        assert list(sim.tables[name].columns) == list(table.columns) and sim.tables[name].empty
    assert sim.tables["games"]["bot"].dtype == "category"  # the batch engine's compact types
    assert sim.summary().empty


@pytest.mark.parametrize(
    ("game", "players"), [("classic", 4), ("rio-grande", 3), ("credit-mobilier", 4)]
)
def test_every_batch_engine_also_deals_in_its_compiled_code(game, players):
    from mogul.kit.spec import resolve

    spec, edition = resolve(game)
    engine = engine_for(spec, edition, ["random"] * players, ["random"] * players)

    def ranks(seed: int) -> np.ndarray:  # every batch result ranks its seats
        return np.asarray(engine.deal_and_play(50, seed).ranks)

    first = ranks(1)
    assert first.shape == (50, players) and (first.min(axis=1) == 1).all()
    assert (ranks(1) == first).all()  # seeded
    assert (ranks(2) != first).any()


def test_a_chunk_plays_the_same_after_other_chunks():
    from mogul.kit.spec import resolve

    spec, edition = resolve("classic")
    tables = ("games", "rounds", "auctions")
    engine = engine_for(spec, edition, LINEUP, LINEUP, tables)

    def played(start, count):
        columns = engine.play(start, *game_seeds(4, start, count, 4), tables)
        return {name: frame(c) for name, c in columns.items()}

    before = played(0, 30)
    played(30, 70)  # the recording arrays are kept from chunk to chunk
    for name, table in played(0, 30).items():
        pd.testing.assert_frame_equal(table, before[name])


# --- records of simulated games, on a small batch engine of the toy race ---------------------


@dataclass(frozen=True)
class ToyBatch:
    """A batch engine for the toy race in plain Python, with the contract's shape: ``record``
    plays one game from its seeds, ``play`` makes the games table of many (the kit's tests
    need no compiled game)."""

    bots: tuple[str, ...]
    names: tuple[str, ...]
    tables = ("games",)

    @property
    def players(self) -> int:
        return len(self.bots)

    def record(self, seed, bot_seeds):
        bots = [RandomBot(int(s)) for s in bot_seeds]
        return play(toy_game.new_game(toy_game.EDITION, self.players, seed), bots)

    def play(self, first, seeds, bot_seeds, tables):
        finals = [self.record(int(s), b).replay() for s, b in zip(seeds, bot_seeds, strict=True)]
        players, games = self.players, len(finals)
        scores = np.array([f.final_scores() for f in finals], np.int64).reshape(games, players)
        ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
        seats = np.tile(np.arange(players), games)
        per_seat = np.repeat  # a game's value on each of its seats' rows
        return {
            "games": {
                "game": per_seat(np.arange(first, first + games), players),
                "seed": per_seat(np.asarray(seeds, np.int64), players),
                "seat": seats,
                "player": Coded(seats, toy_game.NAMES[:players]),
                "bot": Coded(seats, self.names),
                "bot_seed": np.asarray(bot_seeds, np.int64).ravel(),
                "score": scores.ravel(),
                "rank": ranks.ravel(),
                "won": ranks.ravel() == 1,
                "target": per_seat(np.array([f.target for f in finals], np.int64), players),
                "turns": per_seat(np.array([f.turn for f in finals], np.int64), players),
            }
        }


def toy_batch(edition, bots, names):
    """The toy race's batch hook: random bots only."""
    if any(b != "random" for b in bots):
        raise ValueError("the toy batch engine plays 'random' bots only")
    return ToyBatch(tuple(bots), tuple(names))


@pytest.fixture
def toy_with_a_batch_engine():
    register(replace(toy_game.SPEC, batch=f"{__name__}:toy_batch"))
    try:
        yield
    finally:
        unregister("toy")


@pytest.mark.parametrize("out", [False, True])
def test_any_game_of_a_batch_run_opens_as_its_record(toy_with_a_batch_engine, tmp_path, out):
    streamed = {"out": tmp_path, "format": "csv"} if out else {}
    sim = simulate(
        "toy", ["random"], 5, players=3, games=30, chunk_size=7, tables=["games"], **streamed
    )
    games = pd.read_csv(sim.files["games"]) if out else sim.games
    assert sim.engine == "fast" and len(games) == 90
    for game in (0, 13, 29):
        final = sim.record(game).replay()
        rows = games[games["game"] == game]
        assert list(final.final_scores()) == rows["score"].tolist()
        assert final.turn == rows["turns"].iloc[0] and final.target == rows["target"].iloc[0]
        assert sim.record(game).setup.seed == rows["seed"].iloc[0]
    with pytest.raises(
        ValueError, match="game must be a game number from 0 to 29 of this run, got 30"
    ):
        sim.record(30)


def test_keep_records_keeps_the_first_games(toy_with_a_batch_engine):
    games = {"players": 2, "tables": ["games"]}
    sim = simulate("toy", ["random"], 2, games=10, keep_records=4, **games)
    assert sim.engine == "fast"
    assert [r.to_json() for r in sim.records] == [sim.record(g).to_json() for g in range(4)]
    assert len(simulate("toy", ["random"], 2, games=3, keep_records=4, **games).records) == 3
    assert not simulate("toy", ["random"], games=3, **games).records
    with pytest.raises(ValueError, match="keep_records must be a whole number >= 0, got -1"):
        simulate("toy", ["random"], games=3, keep_records=-1)


def test_a_readable_run_opens_its_games_as_records():
    sim = simulate("classic", LINEUP, seed=4, games=6, engine="readable", keep_records=2)
    assert len(sim.records) == 2
    for game in (1, 5):
        final = sim.record(game).replay()
        assert list(final.final_scores()) == sim.games[sim.games["game"] == game]["score"].tolist()
    assert sim.records[1].to_json() == sim.record(1).to_json()


def test_a_readable_run_replays_only_the_kits_own_bots():
    class Cautious(toy_game.PerfectBot):
        name = "cautious"

    with toy_game.registered_toy():
        sim = simulate("toy", [Cautious, "random"], games=2, sandbox=False, progress=False)
        assert sim.engine == "readable"
        with pytest.raises(ValueError, match="the kit's own bots only, not cautious"):
            sim.record(0)


def test_a_batch_engine_without_records_says_so(monkeypatch):
    sim = simulate("classic", LINEUP, games=2, progress=False)
    from mogul.games.mogul import fast_batch

    if hasattr(fast_batch.MogulBatch, "record"):
        monkeypatch.delattr(fast_batch.MogulBatch, "record")
    with pytest.raises(ValueError, match="the mogul batch engine does not write records"):
        sim.record(0)


@pytest.mark.parametrize(
    ("game", "players", "tables"),
    [("classic", 4, None), ("rio-grande", 3, ["games"]), ("credit-mobilier", 4, ["games"])],
)
def test_every_batch_engine_opens_its_games_as_records(tmp_path, game, players, tables):
    sim = simulate(
        game,
        ["random"],
        8,
        players=players,
        games=30,
        tables=tables,
        chunk_size=7,
        keep_records=3,
        out=tmp_path,
        format="feather",
        progress=False,
    )
    games = pd.read_feather(sim.files["games"])
    assert sim.engine == "fast" and len(sim.records) == 3
    for number in (0, 2, 17, 29):
        record = sim.records[number] if number < 3 else sim.record(number)
        final = record.replay()
        assert final.is_over
        rows = games[games["game"] == number]
        assert list(final.final_scores()) == rows["score"].tolist()
        assert rows["seed"].iloc[0] == game_seeds(8, number, 1, players)[0][0]


def _slowly(piece: int) -> tuple[int, int]:
    """A piece and the process that played it, after a pause (a pool worker's chunk)."""
    time.sleep(0.05)
    return piece, os.getpid()


def test_a_batch_run_plays_in_this_process_too_while_the_pool_works():
    # workers=2 with plays_too: one pool worker and this process, which plays a piece itself
    # whenever the result due next is not ready; the results still come in order
    got: list[tuple[int, int]] = []
    here = lambda piece: (piece, os.getpid())  # noqa: E731
    options = RunOptions(workers=2)
    assert not play_all(range(12), _slowly, got.append, options, here=here, plays_too=True)
    assert [piece for piece, _ in got] == list(range(12))
    players = {pid for _, pid in got}
    assert os.getpid() in players and len(players) == 2


def test_a_pool_workers_hand_over_files_are_written_over(tmp_path):
    spec, edition = resolve("classic")
    tables = ("games", "rounds", "auctions")
    engine = engine_for(spec, edition, LINEUP, LINEUP, tables)
    for first, games in ((0, 40), (40, 3)):  # the second chunk's streams: shorter than the files
        chunk = Chunk(engine, 1, first, games, tables, "arrow")
        back = play_and_spill(chunk, str(tmp_path)).load()
        assert back.tables.keys() == play_chunk(chunk).tables.keys()
        for name, table in play_chunk(chunk).tables.items():
            assert back.tables[name].equals(table), name
    # the first chunk's files, read, then written over by the second: three files in all
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == [f"40.pickle-{name}.arrows.free" for name in sorted(tables)]
