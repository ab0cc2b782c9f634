"""simulate() on the batch engine: the readable engine's tables, in chunks, anywhere.

Every game gets its seeds from the run's seed and its number (``game_seeds``), so chunks,
workers and executors must not change a byte of what is written.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mogul.kit.batch import GOLDEN, engine_for, game_seeds, run_key, splitmix64
from mogul.kit.columns import Coded, Ragged, csv_bytes, frame
from mogul.kit.simulate import simulate

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
def test_arrow_files_hold_the_tables(tmp_path, format):
    pytest.importorskip("pyarrow")
    sim = simulate("classic", LINEUP, games=12, seed=3, progress=False)
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

    def played(start, count):
        columns = engine.play(start, *game_seeds(4, start, count, 4), tables)
        return {name: frame(c) for name, c in columns.items()}

    before = played(0, 30)
    played(30, 70)  # the recording arrays are kept from chunk to chunk
    for name, table in played(0, 30).items():
        pd.testing.assert_frame_equal(table, before[name])
