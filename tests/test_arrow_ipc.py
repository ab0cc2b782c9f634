"""Feather files put together from encoded record batches (``mogul.kit.arrow_ipc``) read
back as pyarrow's own writer's files do."""

import io

import numpy as np
import pandas as pd
import pytest

from mogul.kit.simulate import simulate

pa = pytest.importorskip("pyarrow")
from mogul.kit.arrow_ipc import FileAssembler, encode  # noqa: E402


def _table(rng, rows, labels=("Ann", "Ben", "Cy")):
    lengths = rng.integers(0, 4, rows)
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int32)
    return pa.table(
        {
            "game": rng.integers(0, 10**12, rows),
            "small": rng.integers(-100, 100, rows).astype(np.int16),
            "won": rng.integers(0, 2, rows).astype(bool),
            "player": pa.DictionaryArray.from_arrays(
                pa.array(rng.integers(0, len(labels), rows).astype(np.int8)), pa.array(labels)
            ),
            "path": pa.ListArray.from_arrays(
                pa.array(offsets), pa.array(rng.integers(0, 30, lengths.sum()).astype(np.int16))
            ),
        }
    )


@pytest.mark.parametrize("compression", ["lz4", None])
def test_an_assembled_file_reads_as_pyarrows_own(compression):
    rng = np.random.default_rng(5)
    tables = [_table(rng, rows) for rows in (40, 0, 1, 300)]
    ours = io.BytesIO()
    with FileAssembler(ours) as assembler:
        for table in tables:
            assembler.add(encode(table, compression))
    theirs = pa.BufferOutputStream()
    with pa.ipc.new_file(theirs, tables[0].schema) as writer:
        for table in tables:
            writer.write_table(table)
    reader = pa.ipc.open_file(pa.BufferReader(ours.getvalue()))
    assert reader.num_record_batches == 3  # none for the empty table
    back = reader.read_all()
    back.validate(full=True)
    assert back.equals(pa.ipc.open_file(theirs.getvalue()).read_all())
    frame = pd.read_feather(io.BytesIO(ours.getvalue()))
    assert frame["player"].dtype == "category" and len(frame) == 341


def test_an_assembled_file_holds_one_schema_and_one_dictionary():
    rng = np.random.default_rng(6)
    assembler = FileAssembler(io.BytesIO())
    assembler.add(encode(_table(rng, 5)))
    with pytest.raises(ValueError, match="one dictionary per column"):
        assembler.add(encode(_table(rng, 5, labels=("Ann", "Ben", "Dee"))))
    with pytest.raises(ValueError, match="schema"):
        assembler.add(encode(_table(rng, 5).drop_columns(["won"])))


def test_no_tables_no_file_contents():
    sink = io.BytesIO()
    FileAssembler(sink).close()
    assert sink.getvalue() == b""


def test_streamed_feather_of_bots_sharing_a_name_reads_back(tmp_path):
    sim = simulate("classic", ["random"], players=4, games=9, seed=3, progress=False)
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
    back = pd.read_feather(streamed.files["games"])  # four seats named "random": one category
    assert back["bot"].cat.categories.tolist() == ["random"]
    back = back.astype({name: "str" for name in back.select_dtypes("category")})
    pd.testing.assert_frame_equal(back, sim.games, check_dtype=False)
