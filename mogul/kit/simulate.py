"""Simulations: many games with the same bots in the same seats, as tidy pandas tables.

    >>> from mogul.kit.simulate import simulate
    >>> from mogul.kit.spec import default_game, get_game
    >>> game = default_game()                                 # or any game or edition name
    >>> sim = simulate(game, ["random"], seed=1, players=3, games=20, progress=False)
    >>> sorted(sim.tables) == sorted(["games", *get_game(game).tables])
    True
    >>> len(sim.games), int(sim.games["won"].sum()) >= 20   # 20 games x 3 seats; ties share
    (60, True)

``sim.games`` is one row per game and seat; the game's own tables (``GameSpec.tables``, such
as one row per round) follow. See ``mogul.kit.runner`` for the columns and the readable
engine's seeds, ``mogul.kit.batch.game_seeds`` for the batch engine's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mogul.kit.batch import (
    Chunk,
    Collect,
    Totals,
    Writer,
    engine_for,
    game_seeds,
    play_chunk,
    run_chunks,
)
from mogul.kit.bots import BotSpec, play
from mogul.kit.columns import MAX_GAMES
from mogul.kit.runner import (
    Entrant,
    RunOptions,
    entrants,
    game_first,
    no_failures,
    plan_games,
    run_plans,
    run_secret,
)
from mogul.kit.spec import check_setup, get_game

if TYPE_CHECKING:
    import pandas as pd  # imported where frames are built: the module loads without pandas

    from mogul.kit.record import GameRecord


@dataclass(frozen=True)
class Simulation:
    """The tables of a simulation: ``games`` and the game's own tables, by name.

    Each table is also an attribute: ``sim.games``, ``sim.rounds``, ``sim.auctions``.
    """

    tables: dict[str, pd.DataFrame]
    game: str  # the registry's name of the game
    edition: str
    failures: pd.DataFrame = field(default_factory=no_failures)
    partial: bool = False  # True when the run was interrupted: the games finished so far
    engine: str = "readable"  # which engine played the games: "readable" or "fast"
    files: dict[str, Path] = field(default_factory=dict)  # tables written as the games finished
    totals: pd.DataFrame | None = None  # the summary, kept when the tables went to ``files``
    written: int = 0  # games in ``files`` when only they hold the tables
    secret: int | None = None  # keyed the deals and bot seeds (``runner.run_secret``)
    seed: int = 0  # the run's seed
    planned: int = 0  # games asked for (numbered 0 ... planned - 1)
    seated: tuple[Entrant, ...] = ()  # who sat in each seat (``runner.entrants``)
    bots: tuple[BotSpec, ...] = ()  # the bots as given, one per seat
    records: tuple[GameRecord, ...] = ()  # the first games' records (``keep_records``)
    setup: dict[str, Any] = field(default_factory=dict)  # the game's setup keywords, every game

    @property
    def games_finished(self) -> int:
        """Games played to the end (in the tables, or in the files when streamed)."""
        if "games" in self.tables:
            return int(self.games["game"].nunique()) if len(self.games) else 0
        return self.written

    def __getattr__(self, name: str) -> pd.DataFrame:
        tables = self.__dict__.get("tables", {})
        if name in tables:
            return tables[name]
        raise AttributeError(
            f"the simulation has no table {name!r}; its tables: {', '.join(tables)}"
        )

    def record(self, game: int) -> GameRecord:
        """Game number ``game`` of this run as a record: ``record.replay()`` is its last state,
        ``mogul.widgets.player`` opens it. The game is played again from its seeds (the
        tables need not be in memory: a run streamed to ``out=`` has its records too), on the
        engine that played it; the readable engine replays only the kit's own bots."""
        if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < self.planned:
            raise ValueError(
                f"game must be a game number from 0 to {self.planned - 1} of this run, got {game!r}"
            )
        spec = get_game(self.game)
        names = [e.name for e in self.seated]
        if self.engine == "fast":
            batch = engine_for(spec, self.edition, self.bots, names)
            if not hasattr(batch, "record"):
                raise ValueError(
                    f"the {self.game} batch engine does not write records of its games"
                )
            deals, bots = game_seeds(self.seed, game, 1, batch.players)
            return batch.record(int(deals[0]), bots[0].tolist())
        strangers = [e.name for e in self.seated if not _kits_own(e, spec)]
        if strangers:
            raise ValueError(
                f"record() plays a game again with the kit's own bots only, not {', '.join(strangers)}: "
                "its moves are in the tables"
            )
        seating = tuple(range(len(self.seated)))
        plan = next(islice(plan_games(self.seed, repeat(seating), self.secret), game, None))
        state = spec.new_game(self.edition, len(seating), plan.seed, **self.setup)
        bots = [e.factory(s) for e, s in zip(self.seated, plan.bot_seeds, strict=True)]
        return play(state, bots)

    def summary(self) -> pd.DataFrame:
        """Per bot: seats played, mean score, mean rank and win rate (shared wins count)."""
        import pandas as pd

        if self.totals is not None:
            return self.totals
        by_bot = self.games.groupby(self.games["bot"].astype("str"), sort=False)  # names as text
        table = pd.DataFrame(
            {
                "seats": by_bot.size(),
                "mean_score": by_bot["score"].mean(),
                "mean_rank": by_bot["rank"].mean(),
                "win_rate": by_bot["won"].mean(),
            }
        )
        return table.sort_values(["win_rate", "mean_score"], ascending=False)

    def save(self, folder: str | Path, format: str | None = None) -> list[Path]:
        """Write each non-empty table to ``folder`` as Parquet, Feather or CSV.

        ``format`` is "parquet", "feather", "csv" or None (Parquet).
        Tuple columns (bids, pot_path ...) become lists in Parquet and Feather, text in CSV. Each file is
        written under a temporary name and renamed when complete: an interrupted save never
        leaves a truncated table under its real name.
        """
        tables = {**self.tables, "failures": self.failures}
        return write_tables(folder, {k: v for k, v in tables.items() if not v.empty}, format)


def write_tables(
    folder: str | Path, tables: dict[str, pd.DataFrame], format: str | None = None
) -> list[Path]:
    """Write ``tables`` to ``folder/<name>.<format>``, each complete or not at all."""
    format = check_format(format)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, table in tables.items():
        path = folder / f"{name}.{format}"
        temporary = folder / f".{name}.{format}.partial"
        try:
            if format == "parquet":
                _lists_for_parquet(table).to_parquet(temporary, index=table.index.name is not None)
            elif format == "feather":
                lists = _lists_for_parquet(table)
                if table.index.name is not None:
                    lists = lists.reset_index()
                lists.to_feather(temporary, compression="lz4")
            else:
                table.to_csv(temporary, index=table.index.name is not None)
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
        paths.append(path)
    return paths


FORMATS = ("parquet", "feather", "csv")
"""The file formats (Feather, Arrow's own file, LZ4-compressed, is the fastest to write)."""


def check_format(format: str | None) -> str:
    """``format``, or the default (Parquet); ``ValueError`` if unknown."""
    if format is None:
        return "parquet"
    if format not in FORMATS:
        raise ValueError(f"format must be 'parquet', 'feather' or 'csv', got {format!r}")
    return format


def _lists_for_parquet(table: pd.DataFrame) -> pd.DataFrame:
    table = table.copy()
    for column in table.columns:
        if table[column].dtype == object and isinstance(table[column].iloc[0], tuple):
            table[column] = table[column].map(list)
    return table


def _kits_own(entrant: Entrant, spec: Any) -> bool:
    """A bot of the game's own registry (by name or by class): safe to build in this process."""
    return entrant.trusted or entrant.factory.make in spec.bots.values()


def seat_bots(bots: Sequence[BotSpec], players: int | None) -> list[BotSpec]:
    """One bot per seat: ``bots`` repeated in turn to fill ``players`` seats."""
    bots = list(bots)
    if not bots:
        raise ValueError("give at least one bot")
    players = len(bots) if players is None else players
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots for {players} seats: give at most one bot per seat")
    return [bots[i % len(bots)] for i in range(players)]


def simulate(
    game: Any,
    bots: Sequence[BotSpec],
    seed: int = 0,
    *,
    games: int = 100,
    players: int | None = None,
    setup: Mapping[str, Any] | None = None,
    tables: Sequence[str] | None = None,
    engine: str | None = None,
    out: str | Path | None = None,
    format: str | None = None,
    on_chunk: Callable[[Any], None] | None = None,
    secret: int | None = None,
    keep_records: int = 0,
    options: RunOptions | None = None,
    **run_options: Any,
) -> Simulation:
    """Play ``games`` games with one bot per seat and return their tables.

    The first arguments are ``mogul.new_game``'s, in its order: ``game``, a game or edition
    name (``mogul.kit.spec.names()``) or an edition object; ``bots``, who sits at the table:
    the game's bot names (``"value"``, ``"threshold:drop_at=2"``), bot classes or bot
    factories, one per seat; with ``players`` larger than the list, the list is repeated to
    fill the seats (``["random", "value", "mc"]`` at 4 players seats random, value, mc,
    random); ``seed``: each game gets its own deal seed and bot seeds from it. ``tables`` picks which tables to
    build: "games" and any of the game's own (default all; fewer is faster).

    ``setup``: the game's setup keywords, the same for every game, as ``mogul.new_game`` takes
    them (the auction lab's ``{"rounds": 3, "budget": 20}``, a class's settings; Mogul's
    ``{"quick_start": True}``); checked by dealing one game before any plays, a bad one is the
    game's own ``ValueError``. The batch engines deal the games without setup only: with a
    setup the readable engine plays (``engine="fast"`` refuses).

    How the games run (``executor``, ``workers``, ``progress``, ``chunk_size``, ``time_limit``,
    ``on_failure``, ``sandbox``, ``memory_limit``): keywords or ``options``, see
    ``mogul.kit.runner.RunOptions``. Bots other than the game's own are untrusted
    (``mogul.kit.guard``): each decision gets ``time_limit`` seconds in a sandbox process
    (``sandbox=False``: in this process, with no time limit); a failing bot forfeits the game
    or is replaced by a random bot (``on_failure="replace"``), and ``sim.failures`` says who,
    where and why. With such bots in sandboxes the deals and bot seeds are also keyed by a
    fresh ``secret`` (``sim.secret``; pass it back to play the same games again), so that no
    bot can work them out from a small ``seed``.

    ``engine``: "fast" plays the games in the game's batch engine (``GameSpec.batch``,
    for the editions and bots it knows): games from its own generator (other games than the
    readable engine's from the same seed, by the same rules: ``sim.record(game)`` replays any
    of them in the readable engine), the same tables, many times faster. "readable" plays
    them in the readable engine, the reference. None (default): the batch engine whenever it
    can play the request; ``sim.engine`` says which ran.

    ``out``: a folder; the batch engine then writes the tables there chunk by chunk as the
    games finish (``format`` "csv", "parquet" or "feather", default Parquet;
    Feather, Arrow's own file, is the fastest to write and the smallest, ``pd.read_feather``
    reads it; both keep text as categoricals and whole numbers at their width), keeps only
    the summary in memory (``sim.files`` names the files) and calls ``on_chunk(writer)``
    after each chunk (``mogul.kit.batch.Writer``: ``games``, ``rows``, ``paths``).

    ``keep_records``: the records of the first that many games, as ``sim.records`` (open one
    in the player); ``sim.record(game)`` gives any game's, on either engine.
    """
    spec, edition = game_first(game, "simulate")
    options = RunOptions.of(options, **run_options)
    _check_count(games, "games")
    if games > MAX_GAMES:  # the tables number games as int32
        raise ValueError(
            f"a run has at most {MAX_GAMES:,} games, got {games:,}: play several runs "
            "with different seeds"
        )
    if isinstance(keep_records, bool) or not isinstance(keep_records, int) or keep_records < 0:
        raise ValueError(f"keep_records must be a whole number >= 0, got {keep_records!r}")
    known = ("games", *spec.tables)
    if tables is None:
        tables = known
    tables = tuple(tables)
    unknown = set(tables) - set(known)
    if unknown or "games" not in tables:
        raise ValueError(
            f"tables must include 'games' and may add {', '.join(map(repr, spec.tables))}; got {list(tables)}"
        )
    if engine not in (None, "readable", "fast"):
        raise ValueError(
            f"engine must be 'readable' or 'fast' (or None: the fastest), got {engine!r}"
        )
    format = check_format(format)
    specs = seat_bots(bots, players)
    spec.check_players(edition, len(specs))
    setup = check_setup(spec, edition, len(specs), setup)
    seated = entrants(specs, spec.bots, unique=False, referee=options.referee)
    secret = run_secret(secret, seated, options.referee)
    names = [e.name for e in seated]
    tables = tuple(t for t in known if t in tables)
    if secret is not None and engine == "fast":
        raise ValueError(
            "engine='fast' plays from the seed alone: leave secret out, or use engine='readable'"
        )
    if setup and engine == "fast":
        raise ValueError(
            "engine='fast' deals every game without setup: leave setup out, or use "
            "engine='readable'"
        )
    if engine != "readable" and secret is None and not setup:
        try:
            batch = engine_for(spec, edition, specs, names, tables)
        except ValueError as err:
            if engine == "fast":
                raise ValueError(f"engine='fast' cannot play this: {err}") from None
        else:
            sim = _on_batch_engine(
                spec.name, edition, batch, seed, games, tables, options, out, format, on_chunk
            )
            return _with_records(
                replace(sim, seed=seed, planned=games, seated=seated, bots=tuple(specs)),
                keep_records,
            )
    seating = tuple(range(len(specs)))
    if games >= READABLE_CHECK:  # the tables of a few games first: what would all of them take?
        few = min(games, READABLE_SAMPLE)
        quiet = replace(options, progress=False, workers=None, executor=None)
        plans = plan_games(seed, repeat(seating, few), secret)
        sample = run_plans(spec.name, edition, seated, plans, few, tables, quiet, setup).tables
        need = readable_memory({name: sample[name] for name in tables}, few, games)
        check_memory(need, games, streams=False)
    plans = plan_games(seed, repeat(seating, games), secret)
    run = run_plans(spec.name, edition, seated, plans, games, tables, options, setup)
    frames = dict(run.tables)
    failures = frames.pop("failures")
    sim = Simulation(frames, spec.name, edition, failures, run.partial, secret=secret)
    sim = replace(sim, seed=seed, planned=games, seated=seated, bots=tuple(specs), setup=setup)
    if out is not None:
        paths = write_tables(out, {k: v for k, v in frames.items() if not v.empty}, format)
        sim = replace(sim, files={p.stem: p for p in paths})
    return _with_records(sim, keep_records)


def _with_records(sim: Simulation, keep: int) -> Simulation:
    """``sim`` with the records of its first ``keep`` finished games."""
    if not keep:
        return sim
    return replace(sim, records=tuple(map(sim.record, range(min(keep, sim.games_finished)))))


def _on_batch_engine(
    game: str,
    edition: str,
    batch: Any,
    seed: int,
    games: int,
    tables: tuple[str, ...],
    options: RunOptions,
    out: str | Path | None,
    format: str,
    on_chunk: Callable[[Any], None] | None,
) -> Simulation:
    """The simulation on the batch engine: frames in memory, or files written as it goes."""
    if out is None:
        check_memory(memory_needed(batch, seed, games, tables), games)
        sink = Collect()
        partial = run_chunks(batch, seed, games, tables, options, sink)
        if not sink.chunks:  # interrupted before the first chunk: empty tables, their columns
            empty = play_chunk(Chunk(batch, seed, 0, 0, tables))
            sink.add(empty.tables, 0)
        return Simulation(sink.frames(), game, edition, partial=partial, engine="fast")
    totals = Totals()
    with Writer(out, format, on_chunk) as writer:
        partial = run_chunks(batch, seed, games, tables, options, writer, totals)
    return Simulation(
        {},
        game,
        edition,
        partial=partial,
        engine="fast",
        files=dict(writer.paths),
        totals=totals.summary(),
        written=writer.games,
    )


# --- memory ------------------------------------------------------------------------------------

MEMORY_SHARE = 0.5
"""The largest share of the machine's free memory that tables kept in memory may take."""
SAMPLE = 100
"""Games played on the batch engine to measure what a game's tables take."""
READABLE_SAMPLE, READABLE_CHECK = 5, 10_000
"""Games played on the readable engine to measure them, for runs of at least so many games."""


def free_memory() -> int:
    """Bytes of memory the machine has free for this process (free, and the cache it can drop)."""
    import psutil

    return int(psutil.virtual_memory().available)


def memory_needed(batch: Any, seed: int, games: int, tables: Sequence[str]) -> dict[str, float]:
    """Bytes that ``games`` games' tables take in memory on the batch engine, per table:
    measured on the first ``SAMPLE`` games, each row as a pandas frame plus twice as its
    columns (the chunks and their concatenation, while the frame is built)."""
    from mogul.kit.columns import frame, nbytes

    sample = min(games, SAMPLE)
    played = play_chunk(Chunk(batch, seed, 0, sample, tuple(tables)))
    need = {}
    for name, columns in played.tables.items():
        kept = frame(columns).memory_usage(deep=True, index=False).sum()
        arrays = sum(map(nbytes, columns.values()))
        need[name] = (kept + 2 * arrays) * games / sample
    return need


def readable_memory(sample: dict[str, pd.DataFrame], played: int, games: int) -> dict[str, float]:
    """Bytes that ``games`` games' tables take in memory on the readable engine, per table,
    from ``played`` games' tables: twice each frame (the chunks' frames, and theirs joined)."""
    return {
        name: 2 * table.memory_usage(deep=True, index=False).sum() * games / played
        for name, table in sample.items()
    }


def check_memory(need: dict[str, float], games: int, streams: bool = True) -> None:
    """Refuse (``ValueError``, with the ways out) a run whose tables would take more than
    ``MEMORY_SHARE`` of the free memory (``need``: bytes per table; ``streams``: whether
    ``out=`` would keep them out of memory)."""
    free = free_memory()
    total = sum(need.values())
    if total <= MEMORY_SHARE * free:
        return
    fit = int(games * MEMORY_SHARE * free / total)
    ways = ["pass out='folder' to write the tables to files as the games finish"] if streams else []
    if len(need) > 1:
        ways.append(f"keep only tables=['games'] (about {_size(need['games'])})")
    ways.append(f"play fewer games (about {fit:,} fit)")
    raise ValueError(
        f"{games:,} games' {', '.join(need)} tables would take about {_size(total)} of memory, "
        f"more than {MEMORY_SHARE:.0%} of the {_size(free)} this machine has free: "
        + "; or ".join(ways)
    )


def _size(count: float) -> str:
    return f"{count / 2**30:.1f} GB" if count >= 2**30 else f"{count / 2**20:,.0f} MB"


def _check_count(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a whole number >= 1, got {value!r}")
