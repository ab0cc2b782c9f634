"""Simulations on a game's batch engine: seeded chunks, on one core, a process pool or Dask.

``simulate`` comes here when the game's batch engine (``GameSpec.batch``) can play the
request. Every game gets its seeds from the run's seed and its number (``game_seeds``:
splitmix64, one seed for the game's chance and one per seat for its bot, each seeding the
engine's own generator), the games are cut into chunks of ``CHUNK``, and each chunk is
played where the options say: in this process, on ``workers`` local processes, or on an
``executor`` (a Dask cluster's ``client.get_executor()``). A game depends only on its own
seeds, and the chunks reach the ``sink`` in game order whatever finishes first, so the
tables are the same, byte for byte, for any chunk size, number of workers and executor.

A sink takes each chunk's tables as they come: ``Collect`` keeps them for pandas frames at
the end, ``Writer`` appends them to files with pyarrow's writers, so memory stays bounded.
For a writer the workers also encode the tables (the CSV text, or Arrow tables). With
``workers=N`` on this machine, N processes play: a pool of N - 1, whose workers hand their
chunks over through files in a private folder of the run (``Spilled``), and this process,
which plays the next chunk itself whenever the one due next is not ready and otherwise
writes (``runner.play_all``'s ``plays_too``): the writing, the larger part of what one
process does beside playing, needs no core of its own.

The bots a batch engine plays are numbers its compiled kernels read: a few bot classes, each
a kernel code with at most one number (a threshold bot's ``drop_at``, a dividend bot's
``rival_weight``). A game's table maps the bots' names to ``(class, code, parameter name,
default)``; ``bot_policy`` reads one bot (a name such as ``"threshold:drop_at=2"``, a class,
a factory or an instance) and ``seat_policies`` one bot per seat.
"""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mogul.kit.bots import BotFactory, bot_factory
from mogul.kit.columns import Coded, Columns, arrow_table, concat, frame, rows
from mogul.kit.runner import RunOptions, play_all, progress_bar

if TYPE_CHECKING:
    import pandas as pd

CHUNK = 2500
"""Games per chunk unless ``chunk_size`` says otherwise (memory per chunk: about 25 MB)."""


def engine_for(
    spec: Any,
    edition: str,
    bots: Sequence[Any],
    names: Sequence[str],
    tables: Sequence[str] = ("games",),
) -> Any:
    """The game's batch engine for these bots and ``tables``; ``ValueError`` saying why there
    is none (an engine's ``tables``, if it has them, are the only tables it makes)."""
    make = spec.batch_engine()
    if make is None:
        raise ValueError(f"the game {spec.name!r} has no batch engine")
    engine = make(edition, list(bots), list(names))
    makes = getattr(engine, "tables", None)
    if makes is not None and set(tables) - set(makes):
        raise ValueError(
            f"its batch engine makes the {', '.join(makes)} table only, not "
            f"{', '.join(t for t in tables if t not in makes)} (ask for tables={list(makes)})"
        )
    return engine


GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1, MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
STREAMS = 16
"""Seeds per game in the run's stream: the deal's, then one per seat (at most 15 seats)."""


def splitmix64(states: np.ndarray) -> np.ndarray:
    """splitmix64's output for each state (uint64): Steele, Lea and Flood, "Fast splittable
    pseudorandom number generators", OOPSLA 2014; the state is advanced by ``GOLDEN`` first."""
    z = states + GOLDEN
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


def seed_stream(seed: int, count: int) -> np.ndarray:
    """``count`` seeds (non-negative 63-bit numbers, int64) from the splitmix64 stream that
    starts at ``seed`` (taken modulo 2**64): a batch engine's games and seats seeded from one
    number outside a run (``play_fresh``, rollouts)."""
    states = np.uint64(seed % 2**64) + np.arange(count, dtype=np.uint64) * GOLDEN
    return (splitmix64(states) >> np.uint64(1)).astype(np.int64)


def run_key(seed: int) -> np.uint64:
    """The run's seed folded into 64 bits: every whole number, negative or past 64 bits too,
    gives its own key (its 64-bit words and its sign through splitmix64)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    key, rest = splitmix64(np.array([seed < 0], np.uint64)), abs(seed)
    while True:
        key = splitmix64(key ^ np.uint64(rest & 0xFFFF_FFFF_FFFF_FFFF))
        rest >>= 64
        if not rest:
            return key[0]


def game_seeds(seed: int, first: int, count: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The seeds of games ``first`` ... ``first + count - 1`` of a run: the deal's (int64, one
    per game) and the bots' (int64, one row per game, one per seat), each a non-negative 63-bit
    number for the engine's own generator.

    Game g's seeds are outputs ``STREAMS * g`` (the deal), ``STREAMS * g + 1 + seat`` (the bots)
    of the splitmix64 stream that starts at ``run_key(seed)``: each game's seeds depend only
    on the run's seed and the game's number, so the tables are the same for any chunk size
    and any number of workers.

        >>> deals, bots = game_seeds(1, 0, 2, 3)
        >>> deals.shape, bots.shape, bool((deals >= 0).all() and (bots >= 0).all())
        ((2,), (2, 3), True)
        >>> bool((game_seeds(1, 1, 1, 3)[1] == bots[1:]).all())
        True
    """
    if not 0 < players < STREAMS:
        raise ValueError(f"seeds are drawn for 1 to {STREAMS - 1} players, not {players}")
    if first < 0 or count < 0:
        raise ValueError(f"games are numbered from 0, got games {first} + {count}")
    games = np.arange(first, first + count, dtype=np.uint64)
    steps = games[:, None] * np.uint64(STREAMS) + np.arange(1 + players, dtype=np.uint64)
    values = (splitmix64(run_key(seed) + steps * GOLDEN) >> np.uint64(1)).astype(np.int64)
    return values[:, 0].copy(), values[:, 1:].copy()


@dataclass(frozen=True)
class Chunk:
    """Games ``first`` ... ``first + games - 1`` of the run ``seed`` (``game_seeds`` gives
    theirs), and how the sink wants the tables: ``encode`` "csv" (the CSV text), "arrow"
    (``pyarrow.Table``) or None (columns)."""

    engine: Any
    seed: int
    first: int
    games: int
    tables: tuple[str, ...]
    encode: str | None = None


@dataclass(frozen=True)
class Played:
    """A chunk's tables (as columns, or encoded for the sink), its games and their sums."""

    tables: dict[str, Any]
    games: int
    rows: dict[str, int]
    sums: dict[str, np.ndarray]


def play_chunk(chunk: Chunk) -> Played:
    """Play one chunk and encode its tables, in whichever process receives it: the work is
    spread over the workers, the sink only appends."""
    seeds, bots = game_seeds(chunk.seed, chunk.first, chunk.games, chunk.engine.players)
    tables = chunk.engine.play(chunk.first, seeds, bots, chunk.tables)
    sums = bot_sums(tables["games"])
    counts = {name: rows(t) for name, t in tables.items()}
    if chunk.encode is not None:
        header = chunk.first == 0
        tables = {name: encoded(t, chunk.encode, header) for name, t in tables.items()}
    return Played(tables, chunk.games, counts, sums)


@dataclass(frozen=True)
class Spilled:
    """A chunk's ``Played`` left in files by the worker that played it.

    A local pool's workers hand encoded chunks (megabytes each) over this way, where the
    result pipe would copy them several times on the parent's side (its reads of 64 kB, a
    growing buffer, the unpickling): Arrow tables as IPC streams beside the pickled rest
    (``path-<table>.arrows``), the CSV text in the pickle. Once read, a table's file is kept
    for a worker to write its next chunk over (``reused``): writing over pages the system
    already holds costs about half as much as a new file's."""

    path: str
    arrow: tuple[str, ...] = ()  # the tables left as Arrow streams

    def load(self) -> Played:
        """The ``Played`` (its files removed, or kept for ``reused``)."""
        import pyarrow as pa

        with open(self.path, "rb") as file:
            played = pickle.load(file)
        os.unlink(self.path)
        for name in self.arrow:
            part = f"{self.path}-{name}.arrows"
            with pa.OSFile(part) as file:  # read, not mapped: a worker writes over it next
                played.tables[name] = pa.ipc.open_stream(file).read_all()
            os.replace(part, part + FREE)
        return played


FREE = ".free"
"""The suffix of a hand-over file that has been read: ``reused`` writes over it."""


def reused(folder: str, path: str) -> Any:
    """A file open to write at ``path``: a hand-over file of the same table already read
    (``FREE``), renamed (so no other worker takes it) and written from its start over its
    old bytes (a stream ends at its end-of-stream mark, whatever follows); else a new file."""
    same = path.rsplit("-", 1)[-1] + FREE  # "<table>.arrows" + FREE
    for name in os.listdir(folder):
        if name.endswith(same):
            with suppress(FileNotFoundError):  # another worker took it first
                os.rename(os.path.join(folder, name), path)
                return open(path, "r+b")
    return open(path, "wb")


def play_and_spill(chunk: Chunk, folder: str) -> Spilled:
    """``play_chunk``, its result written to files in ``folder`` (a private temporary
    folder of the run)."""
    import pyarrow as pa

    played = play_chunk(chunk)
    path = os.path.join(folder, f"{chunk.first}.pickle")
    arrow = tuple(played.tables) if chunk.encode == "arrow" else ()
    for name in arrow:
        table = played.tables.pop(name)
        file = reused(folder, f"{path}-{name}.arrows")
        with file, pa.ipc.new_stream(file, table.schema) as stream:
            stream.write_table(table)
    with open(path, "wb") as file:
        pickle.dump(played, file, protocol=pickle.HIGHEST_PROTOCOL)
    return Spilled(path, arrow)


class Collect:
    """A sink that keeps every chunk; ``frames()`` gives the pandas tables."""

    def __init__(self) -> None:
        self.chunks: list[dict[str, Columns]] = []

    def add(self, tables: dict[str, Columns], games: int, counts: Any = None) -> None:
        """Keep one chunk's tables."""
        self.chunks.append(tables)

    def frames(self) -> dict[str, pd.DataFrame]:
        """Each table over all chunks, as pandas builds it (``columns.frame``); the chunks are
        let go table by table, so memory holds at most one table twice."""
        if not self.chunks:
            return {}
        names = list(self.chunks[0])
        return {name: frame(concat([c.pop(name) for c in self.chunks])) for name in names}


def run_chunks(
    engine: Any,
    seed: int,
    games: int,
    tables: Sequence[str],
    options: RunOptions,
    sink: Any,
    totals: Totals | None = None,
) -> bool:
    """Play ``games`` planned games chunk by chunk into ``sink`` (in game order); True if
    interrupted (Ctrl-C): the sink then holds the whole chunks finished before it.

    ``sink.encode`` (None, "csv" or "arrow": see ``encoded``) says in what form ``sink.add(tables, games)``
    wants the tables; the workers encode them.
    """
    size = options.chunk_size or CHUNK
    encode = getattr(sink, "encode", None)
    chunks = (
        Chunk(engine, seed, first, min(size, games - first), tuple(tables), encode)
        for first in range(0, games, size)
    )

    bar = progress_bar(games, options.progress)

    def done(played: Played | Spilled) -> None:
        if isinstance(played, Spilled):
            played = played.load()
        sink.add(played.tables, played.games, played.rows)
        if totals is not None:
            totals.add(played.sums)
        bar.update(played.games)

    folder = getattr(sink, "folder", None)  # a pool's encoded chunks come back through files there
    pool = options.executor is None and (options.workers or 1) > 1
    spill = tempfile.mkdtemp(dir=folder, prefix=".chunks-") if pool and folder and encode else None
    try:
        pooled = partial(play_and_spill, folder=spill) if spill else None
        return play_all(
            chunks, play_chunk, done, options, pooled=pooled, per_worker=4, plays_too=True
        )
    finally:
        bar.close()
        if spill:
            shutil.rmtree(spill, ignore_errors=True)


def bot_sums(games: Columns) -> dict[str, np.ndarray]:
    """Per bot in a games table: seats, and the sums of score, rank and wins."""
    bot = games["bot"]
    assert isinstance(bot, Coded)
    sums: dict[str, np.ndarray] = {}
    for code, label in enumerate(bot.labels):
        mine = bot.codes == code
        columns = (games["score"][mine], games["rank"][mine], games["won"][mine])
        row = np.array([mine.sum(), *(c.sum() for c in columns)], np.int64)
        sums[label] = sums.get(label, 0) + row
    return sums


class Totals:
    """Per bot, summed over the chunks: seats, score, rank and wins (for ``summary``)."""

    def __init__(self) -> None:
        self.sums: dict[str, np.ndarray] = {}

    def add(self, sums: dict[str, np.ndarray]) -> None:
        """Add one chunk's ``bot_sums``."""
        for label, row in sums.items():
            self.sums[label] = self.sums.get(label, 0) + row

    def summary(self) -> pd.DataFrame:
        """Seats, mean score, mean rank and win rate per bot, best first (``Simulation.summary``)."""
        import pandas as pd

        names = list(self.sums)
        sums = np.array([self.sums[n] for n in names], np.int64).reshape(len(names), 4)
        table = pd.DataFrame(
            {
                "seats": sums[:, 0],
                "mean_score": sums[:, 1] / sums[:, 0],
                "mean_rank": sums[:, 2] / sums[:, 0],
                "win_rate": sums[:, 3] / sums[:, 0],
            },
            index=pd.Index(names, name="bot"),
        )
        return table.sort_values(["win_rate", "mean_score"], ascending=False)


# --- writing the tables as the chunks come -------------------------------------------------------


class Writer:
    """Appends each chunk's tables to ``folder/<name>.<format>`` ("csv", "parquet", "feather"):
    tables written as the games finish, so memory stays bounded however many games.

    A sink for ``run_chunks``, writing with pyarrow's own writers: CSV (``pyarrow.csv``: text
    quoted, tuples as Python writes them, ``"(0, 1)"``), Parquet (``pyarrow.parquet.
    ParquetWriter``, one row group per chunk) or Feather (Arrow's file, ``pyarrow.ipc.new_file``,
    one LZ4-compressed record batch per chunk: the fastest to write, read with
    ``pandas.read_feather``); the last two keep whole numbers at their width and text as
    dictionary columns (categoricals in pandas). The workers that play the chunks also
    encode them (``encoded``: the CSV text, or the Arrow tables), so this process mostly
    appends. After every chunk the files hold whole chunks only, and ``progress`` (a
    callback, e.g. the command line's manifest) learns how many games and rows they hold;
    an interrupted run therefore keeps what it wrote (``close`` ends a Parquet or Feather
    file).

        >>> import tempfile, numpy as np
        >>> folder = tempfile.mkdtemp()
        >>> writer = Writer(folder, "csv")
        >>> writer.add({"games": {"game": np.array([0, 1]), "score": np.array([30, 25])}}, 2)
        >>> writer.close(); writer.games, writer.rows
        (2, {'games': 2})
        >>> open(writer.paths["games"]).read()
        '"game","score"\\n0,30\\n1,25\\n'
    """

    def __init__(
        self,
        folder: str | Path,
        format: str = "csv",
        progress: Callable[[Writer], None] | None = None,
    ):
        if format not in ("csv", "parquet", "feather"):
            raise ValueError(f"format must be 'parquet', 'feather' or 'csv', got {format!r}")
        self.folder, self.format, self.progress = Path(folder), format, progress
        self.encode = "csv" if format == "csv" else "arrow"  # what the workers hand over
        self.folder.mkdir(parents=True, exist_ok=True)
        self.paths: dict[str, Path] = {}
        self.rows: dict[str, int] = {}
        self.games = 0
        self._files: dict[str, Any] = {}

    def add(self, tables: dict[str, Any], games: int, counts: dict[str, int] | None = None) -> None:
        """Append one chunk (``games`` games) to every table's file: each table as columns,
        or as ``encoded`` made it (its rows then in ``counts``)."""
        for name, table in tables.items():
            first = name not in self._files
            if isinstance(table, dict):
                count = rows(table)
                table = encoded(table, self.encode, header=first)
            else:
                count = counts[name] if counts is not None else 0
            if first:
                self.paths[name] = self.folder / f"{name}.{self.format}"
                self.rows[name] = 0
                self._files[name] = self._open(self.paths[name], table)
            if self.format == "csv":
                self._files[name].write(table)
                self._files[name].flush()
            else:
                self._files[name].write_table(table)
            self.rows[name] += count
        self.games += games
        if self.progress is not None:
            self.progress(self)

    def _open(self, path: Path, table: Any) -> Any:
        if self.format == "csv":
            return open(path, "wb")
        import pyarrow as pa

        if self.format == "feather":
            options = pa.ipc.IpcWriteOptions(compression="lz4", use_threads=False)
            return pa.ipc.new_file(path, table.schema, options=options)
        import pyarrow.parquet as pq

        return pq.ParquetWriter(path, table.schema)

    def close(self) -> None:
        """Close the files (a Parquet or Feather file is readable only once closed)."""
        for handle in self._files.values():
            handle.close()
        self._files.clear()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def encoded(columns: Columns, encode: str, header: bool) -> Any:
    """A chunk's table as a ``Writer`` takes it: "arrow", a ``pyarrow.Table``
    (``columns.arrow_table``); "csv", its CSV text by ``pyarrow.csv`` (the header line if
    asked), each tuple written as Python writes it."""
    table = arrow_table(columns)
    if encode == "arrow":
        return table
    import pyarrow as pa
    import pyarrow.csv

    for index, field in enumerate(table.schema):
        if pa.types.is_list(field.type):
            table = table.set_column(index, field.name, tuple_text(table.column(index)))
    sink = pa.BufferOutputStream()
    pyarrow.csv.write_csv(table, sink, pyarrow.csv.WriteOptions(include_header=header))
    return sink.getvalue().to_pybytes()


def tuple_text(lists: Any) -> Any:
    """A list column as the text of Python's tuples: ``()``, ``(2,)``, ``(0, 1)``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    inside = pc.binary_join(lists.cast(pa.list_(pa.string())), ", ")
    single = pc.equal(pc.list_value_length(lists), 1)
    close = pc.if_else(single, pa.scalar(",)"), pa.scalar(")"))
    return pc.binary_join_element_wise("(", inside, close, "")


# --- the bots a batch engine plays ---------------------------------------------------------------

BotCodes = Mapping[str, tuple[type, int, str, float]]
"""Bot name -> (class, kernel code, the parameter the kernel takes or "", its default)."""


def bot_policy(spec: Any, played: BotCodes) -> tuple[int, float] | None:
    """``(code, parameter)`` for a bot of ``played``, else None."""
    classes = {name: cls for name, (cls, *_) in played.items()}
    if isinstance(spec, tuple(classes.values())):
        cls, kwargs = type(spec), vars(spec)
    else:
        try:
            factory = spec if isinstance(spec, BotFactory) else bot_factory(spec, classes)
        except (TypeError, ValueError):
            return None
        cls, kwargs = factory.make, dict(factory.kwargs)
    for kind, code, parameter, default in played.values():
        if cls is kind:
            return code, float(kwargs.get(parameter, default)) if parameter else 0.0
    return None


def seat_policies(
    bots: Any, players: int, played: BotCodes, seats: int, engine: str
) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat codes and parameters (arrays of ``seats``) from one bot for every seat or one
    per seat; ``ValueError`` naming the bots ``engine`` plays for any other."""
    specs = (
        [bots] * players if isinstance(bots, str) or not isinstance(bots, Sequence) else list(bots)
    )
    if len(specs) != players:
        raise ValueError(
            f"give one bot for every seat or one per seat ({players}); got {len(specs)}"
        )
    kinds, params = np.zeros(seats, np.int64), np.zeros(seats, np.float64)
    for seat, spec in enumerate(specs):
        policy = bot_policy(spec, played)
        if policy is None:
            names = [f"'{name}'" for name in played]
            listed = ", ".join(names[:-1]) + f" and {names[-1]}"
            raise ValueError(
                f"the {engine} plays {listed} bots, not {spec!r}; "
                "use the readable engine for other bots"
            )
        kinds[seat], params[seat] = policy
    return kinds, params
