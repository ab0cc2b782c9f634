"""The game runner: many games of any registered game, bots in the seats, tidy pandas tables.

    >>> from mogul.kit.runner import plan_games
    >>> [(p.game, len(p.bot_seeds)) for p in plan_games(1, [(0, 1, 2), (2, 1, 0)])]
    [(0, 3), (1, 3)]

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

Every game is fixed by its seeds, drawn in game order from ``seed`` as the games are
planned (lazily: a run of a hundred million games plans as it goes; ``mogul.kit.plans``).
Games run in chunks (``mogul.kit.jobs``) on any ``concurrent.futures.Executor`` and are put
back in order, so the same seed gives the same tables whatever the executor. Interrupting a
run (Ctrl-C, the notebook's stop button) stops it at once, worker processes included, and
returns the games finished so far, marked ``partial``. ``mogul.kit.simulate`` and
``mogul.kit.tournament`` use this machinery.
"""

from __future__ import annotations

import math
import pickle
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from mogul.kit.jobs import (
    FAILURE_COLUMNS,
    GAMES_COLUMNS,
    Job,
    Seats,
    game_rows,
    no_failures,
    play_job,
)
from mogul.kit.options import Referee, RunOptions
from mogul.kit.plans import Entrant, GamePlan, entrants, plan_games
from mogul.kit.sandbox_process import cap_memory, die_with_parent

if TYPE_CHECKING:
    import pandas as pd  # imported where frames are built: the runner loads without pandas

__all__ = [  # the runner's parts live in plans and jobs; callers import them from here too
    "FAILURE_COLUMNS",
    "GAMES_COLUMNS",
    "Entrant",
    "GamePlan",
    "Job",
    "Referee",
    "Run",
    "RunOptions",
    "entrants",
    "game_rows",
    "no_failures",
    "plan_games",
    "play_job",
    "run_plans",
]


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
) -> Run:
    """Play ``total`` planned games in chunks, in-process or on an executor (see ``RunOptions``).

    The tables returned are the ``tables`` asked for plus ``failures``.
    """
    options = options or RunOptions()
    referee, executor, workers = options.referee, options.executor, options.workers
    size = options.chunk_size or max(1, min(100, math.ceil(total / 32)))
    chunks = iter(plans)
    jobs = (
        Job(game, edition, tuple(entrants), batch, tuple(tables), referee)
        for batch in iter(lambda: tuple(islice(chunks, size)), ())
    )
    bar = _progress_bar(total, options.progress)
    results: dict[int, dict[str, pd.DataFrame]] = {}
    partial = False
    try:
        if executor is None and (workers or 1) == 1:
            first = Job(game, edition, tuple(entrants), (), tuple(tables), referee)
            with Seats(first) as seats:  # sandboxes live for the whole run
                for i, job in enumerate(jobs):
                    results[i] = play_job(job, seats)
                    bar.update(len(job.plans))
        elif executor is not None:
            partial = _run_on(executor, jobs, bar, results, in_flight=8)
        else:
            _check_picklable(entrants)
            pool = ProcessPoolExecutor(
                max_workers=workers, initializer=_start_worker, initargs=(_worker_memory(referee),)
            )
            finished = False
            try:
                partial = _run_on(pool, jobs, bar, results, in_flight=2 * workers)
                finished = not partial
            finally:
                if (
                    not finished
                ):  # interrupted or failed: stop the workers now, not after their queue
                    _stop_now(pool)
                pool.shutdown(wait=finished, cancel_futures=True)
    except KeyboardInterrupt:
        partial = True
    finally:
        bar.close()
    if partial:
        done = sum(len(r["games"]["game"].unique()) for r in results.values())
        print(
            f"Interrupted: kept the {done} games finished so far (results marked partial).",
            file=sys.stderr,
        )
    ordered = [results[i] for i in sorted(results)]
    names = [*tables, "failures"]
    if not ordered:
        ordered = [play_job(Job(game, edition, tuple(entrants), (), tuple(tables), referee))]
    return Run({name: _concat([r[name] for r in ordered]) for name in names}, partial)


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Frames in order; empty ones (chunks whose games were all forfeit) keep no say in the types."""
    import pandas as pd

    full = [f for f in frames if len(f)]
    return pd.concat(full or frames[:1], ignore_index=True)


def _run_on(
    executor: Executor, jobs: Iterator[Job], bar: Any, results: dict[int, Any], in_flight: int
) -> bool:
    """Run jobs with at most ``in_flight`` submitted at once; True if interrupted."""
    pending: dict[Future, tuple[int, Job]] = {}
    numbered = enumerate(jobs)
    try:
        while True:
            for i, job in islice(numbered, max(0, in_flight - len(pending))):
                pending[executor.submit(play_job, job)] = (i, job)
            if not pending:
                return False
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                i, job = pending.pop(future)
                results[i] = future.result()
                bar.update(len(job.plans))
    except KeyboardInterrupt:
        for future in pending:
            future.cancel()
        return True
    except Exception as err:
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


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's worker processes at once (their sandboxed bots die with them)."""
    for process in list(getattr(pool, "_processes", {}).values()):
        process.kill()


def _start_worker(memory: int | None) -> None:
    """A pool worker: ends with this process whatever ends it (SIGKILL too), memory capped."""
    die_with_parent()
    cap_memory(memory)


def _worker_memory(referee: Referee) -> int | None:
    """A pool worker's memory cap: room for the tables, plus a bot's when bots run in-process."""
    return None if referee.memory_limit is None else referee.memory_limit + (2 << 30)


def _explain_pickling(err: Exception) -> None:
    """Add advice to the error when a worker could not receive or load a bot."""
    text = str(err).lower()
    if isinstance(err, BrokenProcessPool) or "pickle" in text or "can't get attribute" in text:
        err.add_note(
            "A worker could not load a bot (or died). Bots defined in a notebook or script (__main__) or as "
            "lambdas run in-process, and on Dask (cloudpickle ships them); a process pool must "
            "import them: put the class in a .py file next to the notebook and import it from there."
        )


def _progress_bar(total: int, progress: bool | None) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", disable=progress is False, delay=0 if progress else 2)
