"""The game runner: many games of any registered game, bots in the seats, tidy pandas tables.

    >>> [(p.game, len(p.bot_seeds)) for p in plan_games(1, [(0, 1, 2), (2, 1, 0)])]
    [(0, 3), (1, 3)]
    >>> RunOptions.of(workers=2).referee.on_failure
    'forfeit'

Tables, one row per observation (tidy data, Wickham 2014, J. Stat. Softw. 59(10)):

``games`` -- one row per game and seat
    game, seed (deals the game: ``new_game(edition, players, seed=seed)``), seat, player (seat
    name), bot (bot name), bot_seed (the seed the bot was built with), score (the game's final
    score), rank (1 = best; ties after the game's tie-break share a rank), won (rank 1, shared
    wins included), then the game's own result columns (``GameSpec.result_columns``).
the game's own tables -- ``GameSpec.tables``
    each with ``game`` first (and ``bot`` where the table has a ``seat`` column); for example
    one row per round, or per auction.
``failures`` -- one row per bot failure (see ``mogul.kit.guard``)
    game, seat, bot, step, reason (start, raised, timeout, illegal, crashed, forbidden), detail, outcome
    ("forfeit": the game is left out of every other table; "replaced": a fallback bot
    finished it for the failing seat).

How a run goes:

* ``RunOptions`` says where it plays (in this process, a process pool, any executor), how
  visibly, and how untrusted bots are refereed (``Referee``, which travels with every job).
* ``plan_games`` gives every game its deal seed and its bots' seeds, all drawn from the run's
  seed (and its secret, ``run_secret``, when a student's bot plays in a sandbox) as the games
  are planned (lazily: a run of a hundred million games plans as it goes);
  ``entrants`` turns bot specs into the run's named entrants, trusted (the game's own bots)
  or not (a student's bot, run in a sandbox). These live in ``mogul.kit.lineup`` (who plays
  which game, refereed how) and are imported from here too.
* ``play_job`` plays one worker's share, a chunk of planned games, with the bots refereed
  (``Seats``), and returns the rows of its tables.
* ``run_plans`` hands the chunks out and puts their tables back in order, so the same seed
  gives the same tables whatever the executor. Interrupting a run (Ctrl-C, the notebook's
  stop button) stops it at once, worker processes included, and returns the games finished
  so far, marked ``partial``.

``mogul.kit.simulate`` and ``mogul.kit.tournament`` use this machinery.
"""

from __future__ import annotations

import math
import multiprocessing
import pickle
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, fields, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from mogul.kit.bots import BotFailure, bot_factory, play_states
from mogul.kit.columns import compact
from mogul.kit.guard import MEMORY_LIMIT, TIME_LIMIT, Failure, Sandbox, ask, build
from mogul.kit.lineup import SECRET_BITS as SECRET_BITS  # the runner's callers import these here
from mogul.kit.lineup import Entrant, GamePlan, Referee
from mogul.kit.lineup import entrants as entrants
from mogul.kit.lineup import plan_games as plan_games
from mogul.kit.lineup import run_secret as run_secret
from mogul.kit.sandbox_process import cap_memory, die_with_parent
from mogul.kit.spec import GameSpec, default_game, get_game, resolve

if TYPE_CHECKING:
    import pandas as pd  # imported where frames are built: the runner loads without pandas

# --- how a run plays ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RunOptions:
    """How a run plays its games: where, how visibly, and how it treats untrusted bots.

    ``simulate`` and ``tournament`` take these as keywords (``workers=2, progress=False``) or
    as ``options=RunOptions(...)``; they are written down here only.

    ``executor``: any ``concurrent.futures.Executor`` (a Dask cluster's
    ``client.get_executor()`` too). ``workers=N``: a local process pool of N workers for this
    run (a batch engine's run: N - 1, this process playing too between writing the tables).
    Neither: the games run in this process. ``progress``: None shows a bar only for runs
    longer than two seconds, True always, False never. ``chunk_size``: games per job (default:
    about a 32nd of the run, at most 100). ``time_limit``, ``sandbox``, ``memory_limit``,
    ``on_failure``: how untrusted bots are refereed (see ``Referee``). ``start_method``: how
    the local pool starts its workers, "fork", "spawn" or "forkserver" (see
    ``pool_start_method``; default: "fork" on Linux, else the system's own, "spawn" on macOS
    and Windows).
    """

    executor: Executor | None = None
    workers: int | None = None
    progress: bool | None = None
    chunk_size: int | None = None
    time_limit: float = TIME_LIMIT
    on_failure: str = "forfeit"
    sandbox: bool = True
    memory_limit: int | None = MEMORY_LIMIT
    start_method: str | None = None

    def __post_init__(self) -> None:
        if self.executor is not None and self.workers is not None:
            raise ValueError("give either an executor or a number of workers, not both")
        if self.start_method is not None:
            if self.executor is not None:
                raise ValueError(
                    "start_method is for a local pool (workers=N); an executor starts its own "
                    "workers"
                )
            pool_start_method(self.start_method)
        if self.executor is not None and not isinstance(self.executor, Executor):
            raise ValueError(
                f"executor must be a concurrent.futures.Executor, got {self.executor!r}"
            )
        for name in ("workers", "chunk_size", "memory_limit"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ValueError(f"{name} must be a whole number >= 1 (or None), got {value!r}")
        if self.progress not in (None, True, False):
            raise ValueError(
                f"progress must be True, False or None (a bar for long runs), got {self.progress!r}"
            )
        self.referee  # noqa: B018 - checks time_limit, on_failure and sandbox

    @property
    def referee(self) -> Referee:
        """How this run treats its bots."""
        return Referee(self.time_limit, self.sandbox, self.memory_limit, self.on_failure)

    @classmethod
    def of(cls, options: RunOptions | None = None, **changes: Any) -> RunOptions:
        """``options`` (default: the defaults) with ``changes``; an unknown name is a ``TypeError``."""
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(changes) - set(known))
        if unknown:
            raise TypeError(
                f"unknown run option(s) {', '.join(unknown)}; the options are {', '.join(known)}"
            )
        if options is not None and not isinstance(options, RunOptions):
            raise TypeError(f"options must be a RunOptions, got {options!r}")
        return replace(options or cls(), **changes)


def pool_start_method(name: str | None = None) -> str:
    """How a local pool starts its workers: ``name`` if this system has it, else "fork" on
    Linux (workers start at once, the batch engines already compiled), else the system's
    default ("spawn" on macOS and Windows, where forking is unsafe or missing).

    >>> pool_start_method("spawn")
    'spawn'
    """
    methods = multiprocessing.get_all_start_methods()
    if name is None:
        return "fork" if sys.platform.startswith("linux") else methods[0]  # the first: the default
    if name not in methods:
        raise ValueError(
            f"start_method must be one of {', '.join(methods)} on this system (or None: the "
            f"default), got {name!r}"
        )
    return name


def game_first(game: Any, entry: str) -> tuple[GameSpec, str]:
    """The game and edition of a run's first argument; a list there (bots first) is a ``TypeError``."""
    if isinstance(game, list | tuple):
        raise TypeError(
            f"{entry}(game, bots, ...) takes the game first, e.g. {entry}({default_game()!r}, {list(game)!r}, ...)"
        )
    return resolve(game)


# --- a worker's share ---------------------------------------------------------------------------


GAMES_COLUMNS = ("game", "seed", "seat", "player", "bot", "bot_seed", "score", "rank", "won")
"""The games table's first columns, the same for every game."""
FAILURE_COLUMNS = tuple(f.name for f in fields(Failure))


@dataclass(frozen=True)
class Job:
    """A chunk of games for one worker: everything it needs, and all of it picklable."""

    game: str
    edition: str
    entrants: tuple[Entrant, ...]
    plans: tuple[GamePlan, ...]
    tables: tuple[str, ...]
    referee: Referee = Referee()
    setup: Mapping[str, Any] = field(default_factory=dict)  # the game's setup keywords


def play_job(job: Job, seats: Seats | None = None) -> dict[str, pd.DataFrame]:
    """Play a chunk of games; return the requested tables and the failures (rows in game order).

    The game's own tables get ``game`` first, and ``bot`` next where they have a ``seat``.
    ``seats`` keeps sandboxed bots from one chunk to the next (in-process runs); it also holds
    the game's spec, looked up once.
    """
    import pandas as pd

    games: list[dict[str, Any]] = []
    failures: list[Failure] = []
    extra: dict[str, list[dict[str, Any]]] = {name: [] for name in job.tables if name != "games"}
    with nullcontext(seats) if seats is not None else Seats(job) as seats:
        spec = seats.spec
        for plan in job.plans:
            state = spec.new_game(job.edition, len(plan.seating), plan.seed, **job.setup)
            states = _play_refereed(state, seats, plan, failures)
            if states is None:
                continue  # forfeit: the game is left out of every table
            names = [job.entrants[e].name for e in plan.seating]
            games.extend(game_rows(spec, plan, names, states[-1]))
            for name, rows in extra.items():
                for row in spec.tables[name](states):
                    first = (
                        {"game": plan.game, "bot": names[row["seat"]]}
                        if "seat" in row
                        else {"game": plan.game}
                    )
                    rows.append(first | row)
    out = {"games": pd.DataFrame(games, columns=[*GAMES_COLUMNS, *spec.result_columns])}
    out.update({name: pd.DataFrame(rows) for name, rows in extra.items()})
    out = {name: compact(table) for name, table in out.items()}  # the batch engines' widths
    out["failures"] = pd.DataFrame([asdict(f) for f in failures], columns=FAILURE_COLUMNS)
    return out


class _InProcess:
    """An untrusted bot run in the game's process: errors and illegal answers are caught."""

    def __init__(self, bot: Any):
        self.bot = bot

    def choose(self, view: Any, legal: list[Any]) -> Any:
        return ask(self.bot, view, legal)


class Seats:
    """The bots of a job's games: trusted ones built directly, untrusted ones guarded."""

    def __init__(self, job: Job):
        self.job, self.spec = job, get_game(job.game)
        # By entrant and copy (the same bot may sit in several seats): reused game after game.
        self.boxes: dict[tuple[int, int], Sandbox] = {}

    def __enter__(self) -> Seats:
        return self

    def __exit__(self, *exc: object) -> None:
        for box in self.boxes.values():
            box.close()

    def for_game(self, plan: GamePlan, failures: list[Failure]) -> list[Any]:
        """One bot per seat for ``plan``; a bot that cannot start is a failure (seat None)."""
        bots: list[Any] = []
        for seat, (e, seed) in enumerate(zip(plan.seating, plan.bot_seeds, strict=True)):
            entrant = self.job.entrants[e]
            referee = self.job.referee
            try:
                if entrant.trusted:
                    bots.append(entrant.factory(seed))
                elif referee.sandbox:
                    key = (e, plan.seating[:seat].count(e))
                    if key not in self.boxes:
                        self.boxes[key] = Sandbox(
                            entrant.factory,
                            referee.time_limit,
                            referee.memory_limit,
                            parse=self.spec.parse_action,
                        )
                    box = self.boxes[key]
                    box.new_game(seed)
                    bots.append(box)
                else:
                    bots.append(_InProcess(build(entrant.factory, seed)))
            except BotFailure as err:
                bots.append(self.failed(plan, seat, 0, err, failures))
        return bots

    def failed(
        self, plan: GamePlan, seat: int, step: int, err: BotFailure, failures: list[Failure]
    ) -> Any:
        """Note a failure; return the fallback bot that takes the seat over, or None (forfeit)."""
        referee = self.job.referee
        name = self.job.entrants[plan.seating[seat]].name
        outcome = "replaced" if referee.on_failure == "replace" else "forfeit"
        failures.append(Failure(plan.game, seat, name, step, err.reason, err.detail, outcome))
        if outcome == "forfeit":
            return None
        return bot_factory(referee.fallback, self.spec.bots)(plan.bot_seeds[seat])


class _Forfeit(Exception):
    """A bot failed and its game is forfeit."""


def _play_refereed(
    state: Any, seats: Seats, plan: GamePlan, failures: list[Failure]
) -> list[Any] | None:
    """Play one game; a failing bot is replaced or forfeits it. The game's states, or None
    when it is forfeit."""
    bots = seats.for_game(plan, failures)
    if any(b is None for b in bots):
        return None  # a bot failed to start

    def failed(seat: int, step: int, err: BotFailure) -> Any:
        bot = seats.failed(plan, seat, step, err, failures)
        if bot is None:
            raise _Forfeit
        return bot

    try:
        return play_states(state, bots, failed=failed)[0]
    except _Forfeit:
        return None


def game_rows(
    spec: GameSpec, plan: GamePlan, names: Sequence[str], final: Any
) -> list[dict[str, Any]]:
    """The games-table rows of one finished game, one per seat."""
    scores = final.final_scores()
    keys = spec.standings(final)
    rows = []
    for seat, player in enumerate(final.names):
        rank = 1 + sum(other > keys[seat] for other in keys)
        rows.append(
            {
                "game": plan.game,
                "seed": plan.seed,
                "seat": seat,
                "player": player,
                "bot": names[seat],
                "bot_seed": plan.bot_seeds[seat],
                "score": scores[seat],
                "rank": rank,
                "won": rank == 1,
                **spec.result_row(final, seat),
            }
        )
    return rows


def no_failures() -> pd.DataFrame:
    """An empty failures table (a run whose bots all behaved)."""
    import pandas as pd

    return pd.DataFrame(columns=FAILURE_COLUMNS)


# --- the run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """What a run returns: its tables (in game order), and whether it was interrupted."""

    tables: dict[str, pd.DataFrame]
    partial: bool = False


def run_plans(
    game: str,
    edition: str,
    entrants: Sequence[Entrant],
    plans: Iterable[GamePlan],
    total: int,
    tables: Sequence[str] = ("games",),
    options: RunOptions | None = None,
    setup: Mapping[str, Any] | None = None,
) -> Run:
    """Play ``total`` planned games in chunks, in-process or on an executor (see ``RunOptions``).

    The tables returned are the ``tables`` asked for plus ``failures``. ``setup``: the game's
    setup keywords, the same for every game (``new_game(edition, players, seed, **setup)``).
    """
    options = options or RunOptions()
    referee = options.referee
    size = options.chunk_size or max(1, min(100, math.ceil(total / 32)))
    chunks = iter(plans)
    setup = dict(setup or {})
    jobs = (
        Job(game, edition, tuple(entrants), batch, tuple(tables), referee, setup)
        for batch in iter(lambda: tuple(islice(chunks, size)), ())
    )
    if options.executor is None and (options.workers or 1) > 1:
        _check_picklable(entrants)
    results: list[dict[str, pd.DataFrame]] = []
    bar = progress_bar(total, options.progress)

    def done(played: tuple[int, dict[str, pd.DataFrame]]) -> None:
        results.append(played[1])
        bar.update(played[0])

    first = Job(game, edition, tuple(entrants), (), tuple(tables), referee, setup)
    try:
        with Seats(first) as seats:  # in this process, sandboxes live for the whole run
            partial = play_all(
                jobs,
                _play_counted,
                done,
                options,
                here=lambda job: (len(job.plans), play_job(job, seats)),
                memory=_worker_memory(referee),
            )
    finally:
        bar.close()
    if partial:
        kept = sum(r["games"]["game"].nunique() for r in results)
        print(
            f"Interrupted: kept the {kept} games finished so far (results marked partial).",
            file=sys.stderr,
        )
    results = results or [play_job(first)]
    names = [*tables, "failures"]
    return Run({name: _concat([r[name] for r in results]) for name in names}, partial)


def _play_counted(job: Job) -> tuple[int, dict[str, pd.DataFrame]]:
    """``play_job`` in a worker, with the number of games it played (for the progress bar)."""
    return len(job.plans), play_job(job)


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Frames in order; empty ones (chunks whose games were all forfeit) keep no say in the types."""
    import pandas as pd

    full = [f for f in frames if len(f)]
    return pd.concat(full or frames[:1], ignore_index=True)


def play_all(
    work: Iterable[Any],
    play: Callable[[Any], Any],
    done: Callable[[Any], None],
    options: RunOptions,
    *,
    here: Callable[[Any], Any] | None = None,
    pooled: Callable[[Any], Any] | None = None,
    per_worker: int = 2,
    memory: int | None = None,
    plays_too: bool = False,
) -> bool:
    """Play every piece of ``work`` where ``options`` say and hand the results to ``done``, in
    order; True if interrupted (Ctrl-C), ``done`` having had the results up to there.

    Without an executor and with at most one worker the pieces are played here (``here``,
    default ``play``); on ``options.executor`` with ``play``, eight at a time; else on a local
    pool of ``options.workers`` processes with ``pooled`` (default ``play``), ``per_worker``
    pieces per worker at a time. ``plays_too``: the pool has one worker fewer and this process
    is the last one, playing a piece itself (``here``) whenever the result due next is not
    ready, between handing results to ``done`` (a batch run's writing): ``workers`` processes
    keep as many cores busy, and the pieces played here need no hand-over. Pool workers end
    with this process (SIGKILL too), are capped at ``memory`` more bytes, and are killed at
    once when the run is interrupted or fails. Both ``runner`` (chunks of planned games) and
    ``batch`` (a batch engine's chunks) run here.
    """
    work = iter(work)
    try:
        if options.executor is None and (options.workers or 1) == 1:
            for piece in work:
                done((here or play)(piece))
            return False
        if options.executor is not None:
            return _in_order(options.executor, play, work, done, in_flight=8)
        workers = options.workers - 1 if plays_too else options.workers
        pool = ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context(pool_start_method(options.start_method)),
            initializer=_start_worker,
            initargs=(memory,),
        )
        interrupted = True
        try:
            in_flight = per_worker * workers
            mine = (here or play) if plays_too else None
            interrupted = _in_order(pool, pooled or play, work, done, in_flight, mine)
            return interrupted
        finally:
            if interrupted:  # interrupted or failed: stop the workers now, not after their queue
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.kill()  # their sandboxed bots die with them
            pool.shutdown(wait=not interrupted, cancel_futures=True)
    except KeyboardInterrupt:
        return True


def _in_order(
    executor: Executor,
    play: Callable[[Any], Any],
    work: Iterator[Any],
    done: Callable[[Any], None],
    in_flight: int,
    here: Callable[[Any], Any] | None = None,
) -> bool:
    """``play`` each piece on ``executor``, at most ``in_flight`` submitted or waiting for
    their turn at once, the results handed to ``done`` in order; True if interrupted.

    With ``here``, this process plays the next piece itself whenever the result due next is
    not ready yet, while the executor keeps its ``in_flight`` pieces (at most ``in_flight``
    more results wait for their turn). The executor gets new pieces after every result
    handed over, so that it never runs dry while ``done`` works through a backlog."""
    pending: dict[Future, int] = {}
    finished: dict[int, Any] = {}
    submitted = delivered = 0
    held = in_flight if here is None else 2 * in_flight
    try:
        while True:
            for future in [f for f in pending if f.done()]:
                finished[pending.pop(future)] = future.result()
            while len(pending) < in_flight and len(pending) + len(finished) < held:
                piece = next(work, None)
                if piece is None:
                    break
                pending[executor.submit(play, piece)] = submitted
                submitted += 1
            if delivered in finished:
                done(finished.pop(delivered))
                delivered += 1
            elif (
                here is not None
                and len(pending) + len(finished) < held
                and (piece := next(work, None)) is not None
            ):
                finished[submitted] = here(piece)
                submitted += 1
            elif pending:
                wait(pending, return_when=FIRST_COMPLETED)
            else:
                return False
    except KeyboardInterrupt:
        for future in pending:
            future.cancel()
        return True
    except BaseException as err:
        for future in pending:
            future.cancel()
        _explain_pickling(err)
        raise


def _check_picklable(entrants: Sequence[Entrant]) -> None:
    """Refuse bots a process pool cannot receive, before a pool exists.

    Every job carries the same entrants. Left to the pool, the failure happens in its feeder
    thread, once per submitted job, and breaks the pool under the jobs still queued.
    """
    try:
        pickle.dumps(tuple(entrants))
    except Exception as err:
        _explain_pickling(err)
        raise


def _start_worker(memory: int | None) -> None:
    """A pool worker: ends with this process whatever ends it (SIGKILL too), memory capped."""
    die_with_parent()
    cap_memory(memory)


def _worker_memory(referee: Referee) -> int | None:
    """A pool worker's memory cap: room for the tables, plus a bot's when bots run in-process."""
    return None if referee.memory_limit is None else referee.memory_limit + (2 << 30)


def _explain_pickling(err: BaseException) -> None:
    """Add advice to the error when a worker could not receive or load a bot."""
    text = str(err).lower()
    if isinstance(err, BrokenProcessPool) or "pickle" in text or "can't get attribute" in text:
        err.add_note(
            "A worker could not load a bot (or died). Bots defined in a notebook or script (__main__) or as "
            "lambdas run in-process, and on Dask (cloudpickle ships them); a process pool must "
            "import them: put the class in a .py file next to the notebook and import it from there."
        )


def progress_bar(total: int, progress: bool | None) -> Any:
    """A bar of ``total`` games: None shows it only for runs longer than two seconds."""
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", disable=progress is False, delay=0 if progress else 2)
