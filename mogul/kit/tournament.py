"""Strategy tournaments in the style of Axelrod's: every seating, many repetitions.

    >>> from mogul.kit.tournament import tournament
    >>> from mogul.kit.spec import default_game
    >>> t = tournament(default_game(), ["random"] * 3, seed=1, repetitions=5, progress=False)
    >>> t.summary()  # doctest: +SKIP

Each repetition plays one game for every ordered choice of ``players`` entrants, i.e. every
seating of every line-up (with as many entrants as seats: all ``players!`` seatings), so no
bot profits from a lucky seat. Every game has its own seeds, drawn up front from ``seed``,
which makes the results identical on every executor.

Entering your own bot: pass its class (or a function that builds it) in the list, next to
registry names. It needs ``name`` and ``choose(view, legal_actions)``; if its ``__init__``
takes ``seed``, it gets a fresh seed for each game.

Executors: by default the games run in this process. ``workers=4`` runs them on a local
process pool. Any ``concurrent.futures.Executor`` works, e.g. a Dask cluster::

    from dask.distributed import Client
    client = Client("tcp://scheduler:8786")   # or Client() for a local cluster
    tournament(game, [...], executor=client.get_executor())

Pickling: a process pool sends each worker the bot *classes* by name, and the worker must
import them. A class defined in a notebook (``__main__``) or a lambda works in-process and on
Dask (cloudpickle ships the code itself). In a process pool a notebook class works only where
workers are forked (Linux up to Python 3.13) and a lambda never does: save the class in a
``.py`` file next to the notebook and import it from there (use ``functools.partial`` rather
than a lambda for parameters). When a worker cannot load a bot, the error carries this advice.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import TYPE_CHECKING, Any

from mogul.kit.bots import BotSpec
from mogul.kit.runner import (
    RunOptions,
    entrants,
    game_first,
    no_failures,
    plan_games,
    run_plans,
    run_secret,
)

if TYPE_CHECKING:
    import pandas as pd  # imported where frames are built: the module loads without pandas

Z95 = 1.959963984540054  # standard normal quantile for a two-sided 95% interval


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a win rate ``wins / games`` (95% by default).

    Wilson (1927), "Probable inference, the law of succession, and statistical inference",
    JASA 22. Unlike the textbook "p +- z * sqrt(p(1-p)/n)" it stays inside [0, 1] and keeps
    its coverage for rates near 0 or 1 (Brown, Cai & DasGupta 2001, Statist. Sci. 16).
    """
    if games <= 0:
        return (math.nan, math.nan)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exact ends: no rounding dust
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval for a mean: mean +- z * standard error."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return (math.nan, math.nan)
    half = z * x.std(ddof=1) / math.sqrt(len(x))
    return (float(x.mean() - half), float(x.mean() + half))


@dataclass(frozen=True)
class Tournament:
    """A finished tournament: the games table (one row per game and seat) and its summaries."""

    games: pd.DataFrame
    entrants: tuple[str, ...]
    players: int
    repetitions: int
    seed: int
    game: str  # the registry's name of the game
    edition: str
    failures: pd.DataFrame = field(default_factory=no_failures)
    partial: bool = False  # True when the run was interrupted: the games finished so far
    secret: int | None = None  # keyed the deals and bot seeds (``runner.run_secret``)

    def summary(self) -> pd.DataFrame:
        """Per bot: games, wins, win rate with 95% Wilson interval, mean score with 95% interval,
        mean rank; best win rate first."""
        import pandas as pd

        rows = []
        for bot in self.entrants:
            mine = self.games[self.games["bot"] == bot]
            wins, n = int(mine["won"].sum()), len(mine)
            win_low, win_high = wilson_interval(wins, n)
            score_low, score_high = mean_interval(mine["score"])
            rows.append(
                {
                    "bot": bot,
                    "games": n,
                    "wins": wins,
                    "win_rate": wins / n if n else math.nan,
                    "win_low": win_low,
                    "win_high": win_high,
                    "mean_score": mine["score"].mean(),
                    "score_low": score_low,
                    "score_high": score_high,
                    "mean_rank": mine["rank"].mean(),
                }
            )
        table = pd.DataFrame(rows).set_index("bot")
        if len(self.failures):  # a column only when some bot failed, to name it beside its rate
            table["failures"] = [int((self.failures["bot"] == bot).sum()) for bot in table.index]
        table = table.sort_values(["win_rate", "mean_score"], ascending=False, kind="stable")
        table.attrs["players"] = self.players  # for the fair-share line of win_rate_figure
        return table

    def head_to_head(self) -> pd.DataFrame:
        """Share of the shared games in which the row bot finished ahead of the column bot.

        "Ahead" compares final ranks (score, then shares); a tie counts one half. The
        diagonal is empty. Row + column = 1 for every pair that met. Bots are in the order
        of ``summary()``.
        """
        import numpy as np
        import pandas as pd

        ranks = self.games.pivot(index="game", columns="bot", values="rank")
        order = list(self.summary().index)
        table = pd.DataFrame(np.nan, index=order, columns=order)
        for a in order:
            for b in order:
                if a == b or a not in ranks or b not in ranks:
                    continue
                both = ranks[[a, b]].dropna()
                if len(both):
                    ahead = (both[a] < both[b]).sum() + 0.5 * (both[a] == both[b]).sum()
                    table.loc[a, b] = ahead / len(both)
        table.index.name = "bot"
        return table


def seatings(entrants: int, players: int, repetitions: int) -> Iterator[tuple[int, ...]]:
    """Seatings in play order: every ordered choice of ``players`` entrants, per repetition,
    one at a time (a long tournament is planned as it is played)."""
    for _ in range(repetitions):
        yield from permutations(range(entrants), players)


def tournament(
    game: Any,
    bots: Sequence[BotSpec],
    seed: int = 0,
    *,
    players: int | None = None,
    repetitions: int = 10,
    secret: int | None = None,
    options: RunOptions | None = None,
    **run_options: Any,
) -> Tournament:
    """Play every seating of the entrants ``repetitions`` times; return the results.

    The first arguments are ``mogul.new_game``'s, in its order: ``game``, a game or edition
    name (``mogul.kit.spec.names()``) or an edition object; ``bots``, the entrants: the game's
    bot names, bot classes or bot factories, at least ``players`` of them (the same name
    twice gets the suffix " 2"); ``seed``, from which every game's seeds are drawn.
    ``players`` (seats per game) defaults to the number of bots. Games: (number of seatings)
    x ``repetitions``; with 4 bots at 4 seats, 24 per repetition.
    How the games run (``executor``, ``workers``, ``progress``, ``time_limit`` ...): keywords
    or ``options``, see ``mogul.kit.runner.RunOptions``.

    Student bots (anything but the game's own bot names) are untrusted: each decision gets
    ``time_limit`` seconds in a sandbox process; a bot that raises, loops, answers something
    illegal or cannot start forfeits that game (``on_failure="replace"``: a random bot
    finishes it) and is named in ``t.failures``; every other game counts. See
    ``mogul.kit.guard`` for what ``sandbox=False`` cannot prevent. With student bots in
    sandboxes the deals and bot seeds are also keyed by a fresh ``secret``, so no bot can
    work them out from a small ``seed``; ``t.secret`` keeps it, and
    ``tournament(..., seed=t.seed, secret=t.secret)`` plays the same games again.
    """
    spec, edition = game_first(game, "tournament")
    options = RunOptions.of(options, **run_options)
    players = len(bots) if players is None else players
    spec.check_players(edition, players)
    if len(bots) < players:
        raise ValueError(
            f"{len(bots)} bots cannot fill {players} seats: give at least {players} bots"
        )
    if isinstance(repetitions, bool) or not isinstance(repetitions, int) or repetitions < 1:
        raise ValueError(f"repetitions must be a whole number >= 1, got {repetitions!r}")
    entered = entrants(bots, spec.bots, unique=True, referee=options.referee)
    secret = run_secret(secret, entered, options.referee)
    total = math.perm(len(entered), players) * repetitions
    run = run_plans(
        spec.name,
        edition,
        entered,
        plan_games(seed, seatings(len(entered), players, repetitions), secret),
        total,
        ["games"],
        options,
    )
    names = tuple(e.name for e in entered)
    return Tournament(
        run.tables["games"],
        names,
        players,
        repetitions,
        seed,
        spec.name,
        edition,
        run.tables["failures"],
        run.partial,
        secret,
    )
