"""The files a streamed simulation writes (``mogul.kit.batch.Writer``, pyarrow's writers),
read back with pandas: the tables' values and types, whole chunks after an interruption, and
the same bytes whatever the workers."""

from ast import literal_eval
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from mogul.kit.batch import Writer
from mogul.kit.columns import Coded, Ragged
from mogul.kit.simulate import simulate

LINEUP = ["random", "value", "threshold:drop_at=2", "value:chip_value=0.5"]
READ = {"csv": pd.read_csv, "feather": pd.read_feather, "parquet": pd.read_parquet}


@pytest.fixture(scope="module")
def sim():
    """The tables in memory, to compare the files with."""
    return simulate("classic", LINEUP, games=12, seed=3, progress=False)


def _streamed(folder, format, games=12, seed=3, **options):
    return simulate(
        "classic",
        LINEUP,
        games=games,
        seed=seed,
        progress=False,
        out=folder,
        format=format,
        **options,
    )


def _with_tuples(back: pd.DataFrame, format: str) -> pd.DataFrame:
    """A table read back, tuples as tuples (CSV has their text, Arrow lists as arrays)."""
    for column in back.columns:
        if format == "csv" and back[column].astype(str).str.startswith("(").all():
            back[column] = back[column].map(literal_eval)
        elif back[column].dtype == object:
            back[column] = back[column].map(lambda a: tuple(int(x) for x in a))
    return back


@pytest.mark.parametrize("format", ["csv", "feather", "parquet"])
def test_the_files_hold_the_tables(tmp_path, sim, format):
    streamed = _streamed(tmp_path, format, chunk_size=5)
    assert streamed.tables == {} and set(streamed.files) == {"games", "rounds", "auctions"}
    for name, table in sim.tables.items():
        back = _with_tuples(READ[format](streamed.files[name]), format)
        if format == "csv":  # text as text, whole numbers as int64
            table = table.astype({c: "str" for c in table.select_dtypes("category")})
        pd.testing.assert_frame_equal(back, table, check_dtype=format != "csv")
    pd.testing.assert_frame_equal(streamed.summary(), sim.summary())


@pytest.mark.parametrize("format", ["feather", "parquet"])
def test_arrow_files_keep_numbers_narrow_and_text_as_categories(tmp_path, format):
    streamed = _streamed(tmp_path, format, chunk_size=5)
    auctions = READ[format](streamed.files["auctions"])
    assert auctions["round"].dtype == np.int16 and auctions["game"].dtype == np.int32
    assert auctions["company"].dtype == "category"
    assert set(auctions["company"].cat.categories) <= {"brown", "green", "yellow", "blue", "pink"}
    games = READ[format](streamed.files["games"])
    assert games["won"].dtype == bool and games["player"].dtype == "category"


def test_csv_writes_tuples_and_text_as_python_and_pandas_read_them(tmp_path):
    with Writer(tmp_path, "csv") as writer:
        writer.add(
            {
                "t": {
                    "n": np.array([-(10**12), 0, 7]),
                    "won": np.array([True, False, True]),
                    "text": Coded(np.array([0, 1, 2]), ("a,b", "plain", 'say "hi"')),
                    "path": Ragged(np.array([2, 0, 1]), np.array([0, 1, 2])),
                }
            },
            3,
        )
    assert writer.paths["t"].read_text().splitlines() == [
        '"n","won","text","path"',
        '-1000000000000,true,"a,b","()"',
        '0,false,"plain","(2,)"',
        '7,true,"say ""hi""","(0, 1)"',
    ]
    back = pd.read_csv(writer.paths["t"])
    assert back["won"].tolist() == [True, False, True] and back["won"].dtype == bool
    assert back["text"].tolist() == ["a,b", "plain", 'say "hi"']
    assert back["path"].tolist() == [str(()), str((2,)), str((0, 1))]


def test_parquet_has_a_row_group_per_chunk(tmp_path):
    streamed = _streamed(tmp_path, "parquet", chunk_size=5)
    assert pq.ParquetFile(streamed.files["games"]).num_row_groups == 3


def test_bots_sharing_a_name_are_one_category(tmp_path):
    streamed = simulate(
        "classic",
        ["random"],
        players=4,
        games=9,
        seed=3,
        progress=False,
        out=tmp_path,
        format="feather",
        chunk_size=4,
    )
    back = pd.read_feather(streamed.files["games"])
    assert back["bot"].cat.categories.tolist() == ["random"] and len(back) == 36


@pytest.mark.parametrize("format", ["csv", "feather", "parquet"])
def test_an_interrupted_run_keeps_whole_chunks(tmp_path, format):
    def stop_after_two(writer):
        if writer.games == 10:
            raise KeyboardInterrupt

    sim = _streamed(tmp_path, format, games=30, seed=2, chunk_size=5, on_chunk=stop_after_two)
    assert sim.partial and sim.written == 10
    games = READ[format](sim.files["games"])  # a Feather or Parquet file got its footer
    assert games["game"].tolist() == [g for g in range(10) for _ in range(4)]
    assert READ[format](sim.files["auctions"])["game"].max() == 9


def test_every_chunk_is_counted_as_it_is_written(tmp_path):
    seen = []

    def count(writer):
        seen.append((writer.games, writer.rows["games"]))

    _streamed(tmp_path, "csv", games=30, seed=2, chunk_size=8, on_chunk=count)
    assert seen == [(8, 32), (16, 64), (24, 96), (30, 120)]


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


@pytest.mark.parametrize("format", ["csv", "feather", "parquet"])
def test_same_bytes_on_one_or_two_workers(tmp_path, format):
    one = _written(tmp_path / "one", format)
    assert _written(tmp_path / "two", format, workers=2) == one
    if format == "csv":  # Feather and Parquet files have a record batch per chunk
        assert _written(tmp_path / "big", chunk_size=1000) == one


def test_same_bytes_on_a_dask_cluster(tmp_path):
    dask = pytest.importorskip("dask")
    from dask.distributed import Client, LocalCluster

    with (
        dask.config.set({"distributed.worker.multiprocessing-method": "fork"}),
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        executor = client.get_executor()
        on_dask = [_written(tmp_path / f, f, executor=executor) for f in ("csv", "feather")]
    assert on_dask == [_written(tmp_path / "here", f) for f in ("csv", "feather")]
