"""Tables as columns of numpy arrays: how a batch engine hands over its tables.

A batch engine gives each table as a dict of columns (``Columns``): a numpy array (whole
numbers, compact: ``game`` as ``GAME``, ``seed`` and ``bot_seed`` as int64, the others as
``WHOLE``; or booleans), ``Coded`` (text from a few labels: a player's name, a card) or
``Ragged`` (a tuple per row: the chips bid per seat, the pot before each step). The readable
engine's tables get the same widths (``compact``). From those,
``frame`` builds the pandas table (tuples of Python ints, as the readable engine's rows
have them) and ``arrow_table`` the ``pyarrow.Table`` that files are written from, with no
Python object per row.

    >>> import numpy as np
    >>> columns = {"seat": np.array([0, 1]), "player": Coded(np.array([1, 0]), ("Ann", "Ben")),
    ...            "bids": Ragged(np.array([2, 0, 1]), np.array([1, 2]))}
    >>> arrow_table(columns)["bids"].to_pylist()
    [[2], [0, 1]]
    >>> frame(columns)["bids"].tolist()
    [(2,), (0, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


GAME = np.int32
"""A game's number in a table: a run has at most ``MAX_GAMES`` games."""
MAX_GAMES = int(np.iinfo(GAME).max)
"""The most games a run may have (``simulate`` refuses more): their numbers fit ``GAME``."""
WHOLE = np.int16
"""A table's other whole numbers (scores, chips, seats, ranks, counts), seeds aside: sums and
means over a column (pandas reductions) are taken in int64; arithmetic between columns is not."""
SEEDS = ("seed", "bot_seed")
"""The columns of seeds: any 63-bit number, int64."""


def narrowed(values: Any, dtype: Any = WHOLE) -> np.ndarray:
    """Whole numbers as ``dtype`` (default ``WHOLE``); ``ValueError`` if one does not fit
    (never wrapped around)."""
    values = np.asarray(values)
    info = np.iinfo(dtype)
    if values.size and (values.min() < info.min or values.max() > info.max):
        raise ValueError(
            f"whole numbers from {values.min()} to {values.max()} do not fit in "
            f"{np.dtype(dtype).name} ({info.min} to {info.max})"
        )
    return values.astype(dtype, copy=False)


def game_numbers(first: int, games: int) -> np.ndarray:
    """The numbers of games ``first`` ... ``first + games - 1``, as ``GAME``."""
    return narrowed(np.arange(first, first + games, dtype=np.int64), GAME)


def compact(table: pd.DataFrame) -> pd.DataFrame:
    """The table with its whole numbers at the batch engines' widths: ``game`` as ``GAME``,
    seeds as int64, the other int64 columns as ``WHOLE`` (``ValueError`` if one does not fit);
    changed in place."""
    for name, dtype in table.dtypes.items():
        if dtype == np.int64 and name not in SEEDS:
            table[name] = narrowed(table[name].to_numpy(), GAME if name == "game" else WHOLE)
    return table


@dataclass(frozen=True)
class Coded:
    """A text column: row i is ``labels[codes[i]]``."""

    codes: np.ndarray
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Ragged:
    """A column of tuples: row i holds the next ``lengths[i]`` numbers of ``values``."""

    values: np.ndarray
    lengths: np.ndarray


Column = np.ndarray | Coded | Ragged
Columns = dict[str, Column]


def length(column: Column) -> int:
    """Rows in a column."""
    if isinstance(column, Coded):
        return len(column.codes)
    if isinstance(column, Ragged):
        return len(column.lengths)
    return len(column)


def nbytes(column: Column) -> int:
    """Bytes of a column's arrays."""
    if isinstance(column, Coded):
        return column.codes.nbytes
    if isinstance(column, Ragged):
        return column.values.nbytes + column.lengths.nbytes
    return column.nbytes


def rows(columns: Columns) -> int:
    """Rows in a table (0 without columns)."""
    return length(next(iter(columns.values()))) if columns else 0


def frame(columns: Columns) -> pd.DataFrame:
    """The table in pandas, compact: whole numbers at the width the engine keeps them, text
    as categoricals, tuples of Python ints (as the readable engine's rows have them)."""
    import pandas as pd

    data: dict[str, Any] = {}
    for name, column in columns.items():
        if isinstance(column, Coded):
            codes, labels = distinct(column)
            data[name] = pd.Categorical.from_codes(codes, categories=labels)
        elif isinstance(column, Ragged):
            data[name] = _tuples(column)
        else:
            data[name] = column
    return pd.DataFrame(data, copy=False)  # the arrays are the frame's own: no copy


def distinct(column: Coded) -> tuple[np.ndarray, tuple[str, ...]]:
    """The column's codes and labels with each label once (bots of one kind share a name):
    a categorical or an Arrow dictionary holds each label once."""
    labels = tuple(dict.fromkeys(column.labels))
    if len(labels) == len(column.labels):
        return column.codes, labels
    return np.array([labels.index(x) for x in column.labels], np.int64)[column.codes], labels


def _tuples(column: Ragged) -> np.ndarray:
    values = column.values.tolist()
    ends = np.cumsum(column.lengths).tolist()
    starts = [0, *ends[:-1]] if ends else []
    out = np.empty(len(ends), dtype=object)
    out[:] = [tuple(values[a:b]) for a, b in zip(starts, ends, strict=True)]
    return out


def concat(tables: list[Columns]) -> Columns:
    """Tables with the same columns, one after the other."""
    first = tables[0]
    out: Columns = {}
    for name, column in first.items():
        parts = [t[name] for t in tables]
        if isinstance(column, Coded):
            out[name] = Coded(np.concatenate([p.codes for p in parts]), column.labels)
        elif isinstance(column, Ragged):
            values = np.concatenate([p.values for p in parts])
            out[name] = Ragged(values, np.concatenate([p.lengths for p in parts]))
        else:
            out[name] = np.concatenate(parts)
    return out


# --- Arrow (Parquet, Feather and CSV files) ------------------------------------------------------


def arrow_table(columns: Columns) -> Any:
    """The table as a ``pyarrow.Table``, compact: whole numbers at the width the engine keeps
    them, text as dictionary columns (pandas reads them back as categoricals), tuples as
    lists."""
    import pyarrow as pa

    arrays = {}
    for name, column in columns.items():
        if isinstance(column, Coded):
            codes, labels = distinct(column)
            codes = pa.array(codes.astype(np.int8 if len(labels) < 128 else np.int32))
            arrays[name] = pa.DictionaryArray.from_arrays(codes, pa.array(labels, pa.string()))
        elif isinstance(column, Ragged):
            offsets = np.concatenate(([0], np.cumsum(column.lengths))).astype(np.int32)
            arrays[name] = pa.ListArray.from_arrays(pa.array(offsets), pa.array(column.values))
        else:
            arrays[name] = pa.array(column)
    return pa.table(arrays)
