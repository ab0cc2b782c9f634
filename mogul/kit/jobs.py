"""One worker's share of a run: a chunk of planned games, the bots refereed, the tables' rows.

A ``Job`` carries everything a worker needs (the game's name, the entrants, the plans, the
tables asked for, the referee), all of it picklable; ``play_job`` plays its games in order and
returns the rows of the games table, of the game's own tables (``GameSpec.tables``) and of the
failures. A bot that fails (see ``mogul.kit.guard``) forfeits its game or is replaced by the
referee's fallback bot. ``mogul.kit.runner`` hands jobs out and puts their tables together.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from mogul.kit.bots import bot_factory, decide
from mogul.kit.guard import BotFailure, Failure, Sandbox, ask, build
from mogul.kit.options import Referee
from mogul.kit.plans import Entrant, GamePlan
from mogul.kit.spec import GameSpec, get_game

if TYPE_CHECKING:
    import pandas as pd  # imported where frames are built: a job loads without pandas

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
            state = spec.new_game(job.edition, len(plan.seating), plan.seed)
            states, failed = _play_refereed(state, seats, plan, failures)
            if failed:
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


def _play_refereed(
    state: Any, seats: Seats, plan: GamePlan, failures: list[Failure], max_steps: int = 100_000
) -> tuple[list[Any], bool]:
    """Play one game; a failing bot forfeits it or is replaced. Returns (states, forfeited)."""
    bots = seats.for_game(plan, failures)
    if any(b is None for b in bots):
        return [state], True  # a bot failed to start and the game is forfeit
    states = [state]
    for step in range(max_steps):
        if state.is_over:
            return states, False
        seat = state.current_player
        legal = state.legal_actions()
        try:
            action = decide(bots[seat], state.view(seat), legal)
        except BotFailure as err:
            bots[seat] = seats.failed(plan, seat, step, err, failures)
            if bots[seat] is None:
                return states, True
            action = decide(bots[seat], state.view(seat), legal)
        state = state.apply(action)
        states.append(state)
    raise RuntimeError(f"game {plan.game} did not end within {max_steps} steps")


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
