"""Many games at once: bots play, the results land in tidy pandas tables.

    >>> from mogul.kit.runner import simulate
    >>> sim = simulate("classic", ["random", "value", "threshold"], games=20, seed=1, progress=False)
    >>> sim.games.groupby("bot")["won"].mean()  # doctest: +SKIP

Three tables, one row per observation (tidy data, Wickham 2014, J. Stat. Softw. 59(10)):

``games`` -- one row per game and seat
    game, seed (deals the game: ``mogul.new_game(edition, players, seed=seed)``), seat,
    player (seat name), bot (bot name), bot_seed (the seed the bot was built with), score
    (points + chips // 5), rank (1 = best; ties by the rulebook's tie-break share a rank),
    won (rank 1, shared wins included), points, chips, shares (shares held at the end),
    credits (credits taken), rounds (cards revealed, the crash included).
``rounds`` -- one row per round and player, read as the auction opens (after premiums)
    game, bot, then the columns of ``GameRecord.rounds_table``: round, card, seat, player,
    points, chips, score, ``shares_<company>``, ``market_<company>``. A last row per player
    (card "crash") holds the final table.
``auctions`` -- one row per auction
    game, then the columns of ``GameRecord.auctions_table``: round, card, company, border,
    start_player, bids (chips bid per seat, a tuple), credits, drop_order, pot_path (the pot
    before each bid or drop), steps, winner, runner_up, winner_choice ("take"/"sell"), sold,
    sale_price, seller, taker, chips_paid.

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
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import pandas as pd

from mogul.games.mogul.bots import BotFactory, BotSpec, bot_factory, bot_name, play
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.editions import edition as load_edition
from mogul.games.mogul.rules import standings
from mogul.games.mogul.setup import new_game
from mogul.kit.record import auctions_table, rounds_table

TABLES = ("games", "rounds", "auctions")
GAMES_COLUMNS = [
    "game", "seed", "seat", "player", "bot", "bot_seed", "score", "rank", "won",
    "points", "chips", "shares", "credits", "rounds",
]


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

    edition: str
    factories: tuple[BotFactory, ...]
    names: tuple[str, ...]
    plans: tuple[GamePlan, ...]
    tables: tuple[str, ...]


def play_job(job: Job) -> dict[str, pd.DataFrame]:
    """Play a chunk of games; return the requested tables for it (rows in game order)."""
    games, rounds, auctions = [], [], []
    for plan in job.plans:
        state = new_game(job.edition, players=len(plan.seating), seed=plan.seed)
        bots = [job.factories[e](s) for e, s in zip(plan.seating, plan.bot_seeds, strict=True)]
        states = list(play(state, bots).states())
        names = [job.names[e] for e in plan.seating]
        games.extend(_game_rows(plan, names, states[-1]))
        if "rounds" in job.tables:
            table = rounds_table(states)
            table.insert(0, "bot", [names[s] for s in table["seat"]])
            table.insert(0, "game", plan.game)
            rounds.append(table)
        if "auctions" in job.tables:
            table = auctions_table(states)
            table.insert(0, "game", plan.game)
            auctions.append(table)
    out = {"games": pd.DataFrame(games, columns=GAMES_COLUMNS)}
    if "rounds" in job.tables:
        out["rounds"] = pd.concat(rounds, ignore_index=True)
    if "auctions" in job.tables:
        out["auctions"] = pd.concat(auctions, ignore_index=True)
    return out


def _game_rows(plan: GamePlan, names: Sequence[str], final: Any) -> list[dict[str, Any]]:
    scores = final.final_scores()
    keys = standings(final)
    rows = []
    for seat, p in enumerate(final.players):
        rank = 1 + sum(other > keys[seat] for other in keys)
        rows.append({
            "game": plan.game, "seed": plan.seed, "seat": seat, "player": p.name,
            "bot": names[seat], "bot_seed": plan.bot_seeds[seat], "score": scores[seat],
            "rank": rank, "won": rank == 1, "points": p.points, "chips": p.chips,
            "shares": p.shares.total, "credits": p.credits, "rounds": final.round,
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
    edition: str,
    factories: Sequence[BotFactory],
    names: Sequence[str],
    plans: Sequence[GamePlan],
    tables: Sequence[str] = TABLES,
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
        jobs.append(Job(edition, tuple(factories), tuple(names), batch, tuple(tables)))

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


@dataclass(frozen=True)
class Simulation:
    """The tables of a simulation (see the module docstring for their columns)."""

    games: pd.DataFrame
    rounds: pd.DataFrame = field(default_factory=pd.DataFrame)
    auctions: pd.DataFrame = field(default_factory=pd.DataFrame)

    def summary(self) -> pd.DataFrame:
        """Per bot: seats played, mean score, mean rank and win rate (shared wins count)."""
        by_bot = self.games.groupby("bot", sort=False)
        table = pd.DataFrame({
            "seats": by_bot.size(),
            "mean_score": by_bot["score"].mean(),
            "mean_rank": by_bot["rank"].mean(),
            "win_rate": by_bot["won"].mean(),
        })
        return table.sort_values(["win_rate", "mean_score"], ascending=False)

    def save(self, folder: str | Path, format: str | None = None) -> list[Path]:
        """Write each non-empty table to ``folder`` as Parquet (with pyarrow) or CSV.

        ``format`` is "parquet", "csv" or None (Parquet when pyarrow is installed). Tuple
        columns (bids, pot_path ...) become lists in Parquet and text in CSV.
        """
        if format is None:
            format = "parquet" if has_pyarrow() else "csv"
        if format not in ("parquet", "csv"):
            raise ValueError(f"format must be 'parquet' or 'csv', got {format!r}")
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for name in TABLES:
            table = getattr(self, name)
            if table.empty:
                continue
            path = folder / f"{name}.{format}"
            if format == "parquet":
                _lists_for_parquet(table).to_parquet(path, index=False)
            else:
                table.to_csv(path, index=False)
            paths.append(path)
        return paths


def has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _lists_for_parquet(table: pd.DataFrame) -> pd.DataFrame:
    table = table.copy()
    for column in table.columns:
        if table[column].dtype == object and isinstance(table[column].iloc[0], tuple):
            table[column] = table[column].map(list)
    return table


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
    edition: str | Edition,
    bots: Sequence[BotSpec],
    games: int = 100,
    seed: int = 0,
    *,
    players: int | None = None,
    tables: Sequence[str] = TABLES,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
) -> Simulation:
    """Play ``games`` games with one bot per seat and return their tables.

    ``bots``: registry names (``"value"``, ``"threshold:drop_at=2"``), bot classes or bot
    factories; with ``players`` larger than the list, the list is repeated to fill the seats
    (``["random", "value", "mc"]`` at 4 players seats random, value, mc, random). Each game
    gets its own deal seed and bot seeds from ``seed``. ``tables`` picks which of
    "games", "rounds", "auctions" to build (fewer is faster). See ``run_plans`` for
    ``executor``, ``workers``, ``progress`` and ``chunk_size``.
    """
    ed = load_edition(edition)
    _check_count(games, "games")
    unknown = set(tables) - set(TABLES)
    if unknown or "games" not in tables:
        raise ValueError(f"tables must include 'games' and may add 'rounds', 'auctions'; got {list(tables)}")
    specs = seat_bots(bots, players)
    if not ed.min_players <= len(specs) <= ed.max_players:
        raise ValueError(f"the {ed.name} edition is for {ed.min_players} to {ed.max_players} players; got {len(specs)}")
    factories = [bot_factory(spec) for spec in specs]
    names = entrant_names(factories, unique=False)
    seating = tuple(range(len(specs)))
    plans = plan_games(seed, [seating] * games)
    frames = run_plans(
        ed.name, factories, names, plans, [t for t in TABLES if t in tables],
        executor=executor, workers=workers, progress=progress, chunk_size=chunk_size,
    )
    return Simulation(**frames)


def _check_count(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a whole number >= 1, got {value!r}")

