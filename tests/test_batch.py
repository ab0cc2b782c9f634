"""simulate() on the batch engine: the readable engine's games and tables, in chunks, anywhere.

The batch engine deals and draws with Python's generator as the readable engine does, so the
tables must be equal, row for row and dtype for dtype, for every bot it plays (random ones
too); and a game depends only on its own seeds, so chunks, workers and executors must not
change a byte of what is written.
"""

from __future__ import annotations

import random
from itertools import repeat
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mogul.games.mogul import fast_record
from mogul.kit.batch import bot_seeds, deal_seeds, engine_for
from mogul.kit.columns import Coded, Ragged, csv_bytes, frame
from mogul.kit.runner import plan_games
from mogul.kit.simulate import simulate

LINEUP = ["random", "value", "threshold:drop_at=2", "value:chip_value=0.5"]


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 - 1])
def test_pythons_generator_draw_for_draw(seed):
    mt = np.zeros((2, fast_record.N + 1), np.int64)
    fast_record.py_seed(mt, seed)
    python = random.Random(seed)
    assert [fast_record.py_random32(mt, 0) for _ in range(1500)] == [
        python.getrandbits(32) for _ in range(1500)
    ]
    assert [fast_record.py_randbelow(mt, 0, n) for n in range(1, 300)] == [
        python._randbelow(n) for n in range(1, 300)
    ]
    cards = np.arange(40)
    fast_record.py_shuffle(mt, 0, cards)
    expected = list(range(40))
    python.shuffle(expected)
    assert cards.tolist() == expected


def test_seeds_are_the_runners_plans():
    plans = list(plan_games(9, repeat((0, 1, 2, 3), 23)))
    deals = random.Random(9)
    first, rest = deal_seeds(deals, 10, 4), deal_seeds(deals, 13, 4)
    assert np.concatenate((first, rest)).tolist() == [p.seed for p in plans]
    assert bot_seeds(9, 10, 13, 4).tolist() == [list(p.bot_seeds) for p in plans[10:]]


@pytest.mark.parametrize("seed, first", [(0, 0), (77, 10**6 - 3), (2**40, 10**15)])
def test_compiled_bot_seeds_are_hashlibs(seed, first):
    import hashlib

    key = hashlib.blake2b(str(seed).encode(), person=b"mogul bots").digest()
    expected = [
        [
            int.from_bytes(hashlib.blake2b(f"{g} {s}".encode(), key=key, digest_size=4).digest())
            for s in range(6)
        ]
        for g in range(first, first + 5)
    ]
    assert bot_seeds(seed, first, 5, 6).tolist() == expected


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_batch_engine_gives_the_readable_engines_tables(players):
    readable = simulate(
        "classic",
        LINEUP[:players],
        games=40,
        seed=players,
        players=players,
        engine="readable",
        progress=False,
    )
    fast = simulate(
        "classic",
        LINEUP[:players],
        games=40,
        seed=players,
        players=players,
        progress=False,
        chunk_size=9,
    )
    assert (readable.engine, fast.engine) == ("readable", "fast")
    assert list(fast.tables) == ["games", "rounds", "auctions"]
    for name, table in readable.tables.items():
        pd.testing.assert_frame_equal(fast.tables[name], table)
    pd.testing.assert_frame_equal(fast.summary(), readable.summary())
    assert fast.failures.empty and not fast.partial
    unrecorded = simulate(  # only the games table: played without a record of the rounds
        "classic",
        LINEUP[:players],
        games=40,
        seed=players,
        players=players,
        progress=False,
        tables=["games"],
    )
    pd.testing.assert_frame_equal(unrecorded.games, readable.games)


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


def test_csv_is_what_pandas_writes():
    rng = np.random.default_rng(1)
    lengths = rng.integers(0, 4, 500)
    columns = {
        "number": rng.integers(-(10**12), 10**12, 500),
        "won": rng.integers(0, 2, 500).astype(bool),
        "text": Coded(rng.integers(0, 3, 500), ("a,b", "plain", 'say "hi"')),
        "path": Ragged(rng.integers(-3, 30, lengths.sum()), lengths),
    }
    assert csv_bytes(columns, header=True) == frame(columns).to_csv(index=False).encode()


def test_streamed_files_hold_the_tables(tmp_path):
    sim = simulate("classic", LINEUP, games=30, seed=2, progress=False)
    seen = []
    streamed = simulate(
        "classic",
        LINEUP,
        games=30,
        seed=2,
        progress=False,
        out=tmp_path,
        format="csv",
        chunk_size=8,
        on_chunk=lambda w: seen.append(w.games),
    )
    assert seen == [8, 16, 24, 30] and streamed.tables == {}
    for name, table in sim.tables.items():
        assert streamed.files[name].read_text() == table.to_csv(index=False)
    pd.testing.assert_frame_equal(streamed.summary(), sim.summary())


@pytest.mark.parametrize("format", ["csv", "feather"])
def test_an_interrupted_stream_keeps_whole_chunks(tmp_path, format):
    if format == "feather":
        pytest.importorskip("pyarrow")

    def stop_after_two(writer):
        if writer.games == 10:
            raise KeyboardInterrupt

    sim = simulate(
        "classic",
        LINEUP,
        games=30,
        seed=2,
        progress=False,
        out=tmp_path,
        format=format,
        chunk_size=5,
        on_chunk=stop_after_two,
    )
    assert sim.partial
    read = pd.read_csv if format == "csv" else pd.read_feather  # a Feather file gets its footer
    games = read(sim.files["games"])
    assert games["game"].tolist() == [g for g in range(10) for _ in range(4)]
    assert read(sim.files["auctions"])["game"].max() == 9


def _written(folder, format="csv", **options):
    sim = simulate(
        "classic",
        LINEUP,
        games=60,
        seed=11,
        progress=False,
        out=folder,
        format=format,
        **{"chunk_size": 7, **options},
    )
    assert not sim.partial
    assert not list(Path(folder).glob(".chunks-*"))  # a pool's workers' hand-over files: gone
    return {name: path.read_bytes() for name, path in sim.files.items()}


@pytest.mark.parametrize("format", ["csv", "feather"])
def test_same_bytes_on_one_or_two_workers(tmp_path, format):
    if format == "feather":
        pytest.importorskip("pyarrow")
    one = _written(tmp_path / "one", format)
    assert _written(tmp_path / "two", format, workers=2) == one
    if format == "csv":  # a Feather file has one record batch per chunk
        assert _written(tmp_path / "big", chunk_size=1000) == one


def test_same_bytes_on_a_dask_cluster(tmp_path):
    dask = pytest.importorskip("dask")
    pytest.importorskip("pyarrow")
    from dask.distributed import Client, LocalCluster

    with (
        dask.config.set({"distributed.worker.multiprocessing-method": "fork"}),
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        executor = client.get_executor()
        on_dask = [_written(tmp_path / f, f, executor=executor) for f in ("csv", "feather")]
    assert on_dask == [_written(tmp_path / "here", f) for f in ("csv", "feather")]


def test_parquet_row_groups(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    sim = simulate("classic", LINEUP, games=12, seed=2, progress=False)
    streamed = simulate(
        "classic",
        LINEUP,
        games=12,
        seed=2,
        progress=False,
        out=tmp_path,
        format="parquet",
        chunk_size=5,
    )
    assert pq.ParquetFile(streamed.files["games"]).num_row_groups == 3
    back = pd.read_parquet(streamed.files["games"])
    assert back["player"].dtype == "category"  # text is stored as dictionary columns
    back = back.astype({name: "str" for name in back.select_dtypes("category")})
    pd.testing.assert_frame_equal(back, sim.games, check_dtype=False)


@pytest.mark.parametrize("format", ["feather", "parquet"])
def test_arrow_files_hold_the_readable_tables(tmp_path, format):
    pytest.importorskip("pyarrow")
    sim = simulate("classic", LINEUP, games=12, seed=3, progress=False, engine="readable")
    streamed = simulate(
        "classic",
        LINEUP,
        games=12,
        seed=3,
        progress=False,
        out=tmp_path,
        format=format,
        chunk_size=5,
    )
    read = pd.read_feather if format == "feather" else pd.read_parquet
    for name, table in sim.tables.items():
        back = read(streamed.files[name])
        for column in back.columns:
            if isinstance(back[column].dtype, pd.CategoricalDtype):
                back[column] = back[column].astype("str")
            elif back[column].dtype == object:  # lists come back as arrays
                back[column] = back[column].map(lambda a: tuple(int(x) for x in a))
        pd.testing.assert_frame_equal(back, table, check_dtype=False)
        assert (
            back.dtypes.map(lambda d: d.kind).tolist()
            == table.dtypes.map(lambda d: d.kind).tolist()
        )


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
    assert sim.tables["games"].dtypes.equals(full.games.dtypes)
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
    deals = random.Random(4)
    first, other = deal_seeds(deals, 30, 4), deal_seeds(deals, 70, 4)

    def played(seeds, start):
        columns = engine.play(start, seeds, bot_seeds(4, start, len(seeds), 4), tables)
        return {name: frame(c) for name, c in columns.items()}

    before = played(first, 0)
    played(other, 30)  # the recording arrays are kept from chunk to chunk
    for name, table in played(first, 0).items():
        pd.testing.assert_frame_equal(table, before[name])
