"""The game runner: many games of any registered game, bots in the seats, tidy pandas tables.

    >>> from mogul.kit.runner import plan_games
    >>> [(p.game, len(p.bot_seeds)) for p in plan_games(1, [(0, 1, 2), (2, 1, 0)])]
    [(0, 3), (1, 3)]

Tables, one row per observation (tidy data, Wickham 2014, J. Stat. Softw. 59(10)):

``games`` -- one row per game and seat
    game, seed (deals the game: ``new_game(edition, players, seed=seed)``), seat, player (seat
    name), bot (bot name), bot_seed (the seed the bot was built with), score (the game's final
    score), rank (1 = best; ties after the game's tie-break share a rank), won (rank 1, shared
    wins included), then the game's own result columns (``GameSpec.result_columns``; Mogul:
    points, chips, shares held, credits taken, rounds).
the game's own tables -- ``GameSpec.tables``
    each with ``game`` first (and ``bot`` where the table has a ``seat`` column). Mogul:
    ``rounds`` (``mogul.games.mogul.tables.rounds_table``) and ``auctions``
    (``auctions_table``).

Every game is fixed by its seeds, which are drawn up front from ``seed``; games run in chunks
on any ``concurrent.futures.Executor`` and are put back in order, so the same seed gives the
same tables whatever the executor. ``mogul.kit.tournament`` uses the same machinery.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from typing import Any

import pandas as pd

from mogul.kit.bots import BotFactory, bot_name, play_states
from mogul.kit.spec import GameSpec, get_game

GAMES_COLUMNS = ("game", "seed", "seat", "player", "bot", "bot_seed", "score", "rank", "won")
"""The games table's first columns, the same for every game."""


@dataclass(frozen=True)
class GamePlan:
    """One game to play: its number, deal seed, which entrant sits in each seat, bot seeds."""

    game: int
    seed: int
    seating: tuple[int, ...]
    bot_seeds: tuple[int, ...]


def plan_games(seed: int, seatings: Sequence[tuple[int, ...]]) -> list[GamePlan]:
    """Number the games and draw every seed from one ``random.Random(seed)``, in game order."""
    rng = random.Random(seed)
    plans = []
    for game, seating in enumerate(seatings):
        deal_seed = rng.getrandbits(32)
        plans.append(GamePlan(game, deal_seed, tuple(seating), tuple(rng.getrandbits(32) for _ in seating)))
    return plans


@dataclass(frozen=True)
class Job:
    """A chunk of games for one worker: everything it needs, and all of it picklable."""

    game: str
    edition: str
    factories: tuple[BotFactory, ...]
    names: tuple[str, ...]
    plans: tuple[GamePlan, ...]
    tables: tuple[str, ...]


def play_job(job: Job) -> dict[str, pd.DataFrame]:
    """Play a chunk of games; return the requested tables for it (rows in game order).

    The game's own tables get ``game`` first, and ``bot`` next where they have a ``seat``.
    """
    spec = get_game(job.game)
    games: list[dict[str, Any]] = []
    extra: dict[str, list[dict[str, Any]]] = {name: [] for name in job.tables if name != "games"}
    for plan in job.plans:
        state = spec.new_game(job.edition, len(plan.seating), plan.seed)
        bots = [job.factories[e](s) for e, s in zip(plan.seating, plan.bot_seeds, strict=True)]
        states, _ = play_states(state, bots)
        names = [job.names[e] for e in plan.seating]
        games.extend(game_rows(spec, plan, names, states[-1]))
        for name, rows in extra.items():
            for row in spec.tables[name](states):
                first = {"game": plan.game, "bot": names[row["seat"]]} if "seat" in row else {"game": plan.game}
                rows.append(first | row)
    out = {"games": pd.DataFrame(games, columns=[*GAMES_COLUMNS, *spec.result_columns])}
    out.update({name: pd.DataFrame(rows) for name, rows in extra.items()})
    return out


def game_rows(spec: GameSpec, plan: GamePlan, names: Sequence[str], final: Any) -> list[dict[str, Any]]:
    """The games-table rows of one finished game, one per seat."""
    scores = final.final_scores()
    keys = spec.standings(final)
    rows = []
    for seat, player in enumerate(final.names):
        rank = 1 + sum(other > keys[seat] for other in keys)
        rows.append({
            "game": plan.game, "seed": plan.seed, "seat": seat, "player": player,
            "bot": names[seat], "bot_seed": plan.bot_seeds[seat], "score": scores[seat],
            "rank": rank, "won": rank == 1, **spec.result_row(final, seat),
        })
    return rows


def entrant_names(factories: Sequence[BotFactory], unique: bool) -> tuple[str, ...]:
    """The bots' names (built once with seed 0); with ``unique``, repeats get " 2", " 3" ..."""
    names = []
    for factory in factories:
        name = bot_name(factory(0))
        if unique and name in names:
            name = next(f"{name} {k}" for k in range(2, len(names) + 2) if f"{name} {k}" not in names)
        names.append(name)
    return tuple(names)


def run_plans(
    game: str,
    edition: str,
    factories: Sequence[BotFactory],
    names: Sequence[str],
    plans: Sequence[GamePlan],
    tables: Sequence[str] = ("games",),
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
) -> dict[str, pd.DataFrame]:
    """Play ``plans`` in chunks, in-process or on an executor; tables in game order.

    ``executor``: any ``concurrent.futures.Executor`` (a Dask cluster's
    ``client.get_executor()`` too). ``workers=N`` makes a local process pool of N workers
    for this run. Neither: games run in this process. ``progress``: None shows a bar only
    for runs longer than two seconds, True always, False never.
    """
    if executor is not None and workers is not None:
        raise ValueError("give either an executor or a number of workers, not both")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
    size = chunk_size or max(1, min(100, math.ceil(len(plans) / 32)))
    chunks = iter(plans)
    jobs = []
    while batch := tuple(islice(chunks, size)):
        jobs.append(Job(game, edition, tuple(factories), tuple(names), batch, tuple(tables)))

    bar = _progress_bar(len(plans), progress)
    try:
        if executor is None and (workers or 1) == 1:
            results = []
            for job in jobs:
                results.append(play_job(job))
                bar.update(len(job.plans))
        elif executor is not None:
            results = _run_on(executor, jobs, bar)
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                results = _run_on(pool, jobs, bar)
    finally:
        bar.close()
    return {name: pd.concat([r[name] for r in results], ignore_index=True) for name in tables}


def _run_on(executor: Executor, jobs: Sequence[Job], bar: Any) -> list[dict[str, pd.DataFrame]]:
    futures: dict[Future, int] = {executor.submit(play_job, job): i for i, job in enumerate(jobs)}
    results: list[Any] = [None] * len(jobs)
    try:
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            bar.update(len(jobs[i].plans))
    except Exception as err:
        for future in futures:
            future.cancel()
        _explain_pickling(err)
        raise
    return results


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
