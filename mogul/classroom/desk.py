"""The lecturer's desk: what a lecturer does to a session's tables.

The hall's dashboard page (``mogul.classroom.server.dashboard``: no kernel) makes these
calls: create a session's tables (Create ignores a double click), the turn timer, pause or resume, a new seat
key for a locked-out student, freeing a seat someone took that was not theirs, deleting an
unused table, exporting the session; and ``card_html``, one table's card as the dashboard shows it.
Each call returns the sentence the dashboard shows (HTML, names escaped) or raises
``ClassroomError`` / ``ValueError`` saying what was wrong; nothing changes then.
"""

from __future__ import annotations

import html
import inspect
import json
import os
import random
import time
from pathlib import Path
from typing import Any

from mogul.classroom.export import export_session
from mogul.classroom.store import TableStore
from mogul.classroom.table import (
    ENDED,
    OVER,
    PAUSED,
    TIMER_RANGE,
    ClassroomError,
    TableInfo,
    pretty_code,
)
from mogul.kit.session import HUMAN
from mogul.kit.spec import default_game, games, get_game, resolve

DOUBLE_CLICK_SECONDS = 3.0
"""Create, pressed again this soon with the same form, is taken for a double click."""
EXPORT_ENV = "MOGUL_CLASSROOM_EXPORT"
"""The environment variable naming the folder that "Export" writes into."""
MAX_TABLES, MAX_SEATS = 60, 8
"""The most tables one Create makes, and the most people (or bots) per table it asks for."""
_CARD = (
    "<style>.mogul-card-code{font:bold 3em/1.1 monospace;letter-spacing:.06em}"
    ".mogul-card td{padding:0 .6em 0 0}</style>"
)


def game_choices() -> list[tuple[str, str]]:
    """(label, edition name) for every edition of every registered game, the registry's default
    game first (the dashboard's default)."""
    first = default_game()
    out = []
    for name in sorted(games(), key=lambda game: (game != first, game)):
        spec = get_game(name)
        out += [(f"{spec.title}: {edition}", edition) for edition in spec.editions]
    return out


def bot_choices(edition: str) -> list[str]:
    """The bots of ``edition``'s game, the one that fills free seats by default first (its
    value bot, if it has one)."""
    bots = list(resolve(edition)[0].bots)
    return sorted(bots, key=lambda bot: bot != "value")


def setup_fields(edition: str) -> list[dict[str, Any]]:
    """The setup a lecturer may choose for ``edition`` beside seats and bots: each of its
    game's ``new_game`` keywords whose default is a whole number or a text (the auction lab's
    rounds, values, budget; second in Mogul's auction), as ``{"name", "kind": "number" |
    "text", "default"}``; a number the edition takes at its default only (second in a
    sealed-bid auction) is left out; [] for a game dealt by its seed alone."""
    spec, edition = resolve(edition)
    players = [f"P{i + 1}" for i in range(spec.player_range(edition)[0])]
    fields = []
    for p in inspect.signature(spec.new_game).parameters.values():
        default = p.default
        if p.kind != p.KEYWORD_ONLY or isinstance(default, bool):
            continue
        if isinstance(default, int):
            try:
                spec.new_game(edition, players, 0, **{p.name: default + 1})
            except ValueError:
                continue
        if isinstance(default, int | str):
            kind = "number" if isinstance(default, int) else "text"
            fields.append({"name": p.name, "kind": kind, "default": default})
    return fields


def card_html(info: TableInfo, states: list[Any]) -> str:
    """A table's card: its code, large; status; each seat's name and score; round, pot, turn."""
    state = states[-1] if states else None
    lines = [
        f'<div class="mogul-card-code">{pretty_code(info.code)}</div>',
        f"<div><b>{info.status}</b>",
    ]
    if state is not None:
        if not state.is_over:
            lines[-1] += f" &middot; round {get_game(info.game).stage(state)}"
        pot = getattr(state, "pot", None)
        if pot is not None and not state.is_over:
            lines[-1] += f" &middot; pot {pot}"
        lines[-1] += f" &middot; step {info.step}"
    lines[-1] += "</div>"
    scores = state.final_scores() if state is not None else None
    rows = []
    for s in info.seats:
        name = html.escape(s.name) if s.name else "<i>free</i>"
        kind = "" if s.is_human else f" <small>({html.escape(s.kind)} bot)</small>"
        turn = state is not None and not state.is_over and state.current_player == s.seat
        score = "" if scores is None else str(scores[s.seat])
        mark = "&#9654; " if turn else ""
        rows.append(f"<tr><td>{mark}{name}{kind}</td><td>{score}</td></tr>")
    head = "<tr><th></th><th>score</th></tr>" if scores is not None else ""
    lines.append(f'<table class="mogul-card">{head}{"".join(rows)}</table>')
    return _CARD + "".join(lines)


def unused(info: TableInfo) -> bool:
    """True for a table that may be deleted: nobody joined, no move, waiting or ended."""
    joined = any(s.is_human and s.name for s in info.seats)
    return info.step == 0 and not joined and info.status in ("waiting", ENDED)


def whole(value: Any, what: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else ``ClassroomError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ClassroomError(f"{what} is a whole number from {low} to {high}, got {value!r}")
    return value


class Desk:
    """The lecturer's calls on ``store`` (see the module docstring); "Export" writes into
    ``export_folder`` (default: ``$MOGUL_CLASSROOM_EXPORT``, else ``classroom-export`` in the
    current folder). One desk per dashboard page: it remembers that page's last Create."""

    def __init__(self, store: TableStore, export_folder: str | Path | None = None) -> None:
        self.store = store
        self.export_folder = Path(export_folder or os.environ.get(EXPORT_ENV) or "classroom-export")
        self._created: tuple[Any, float] = ((), 0.0)

    def create_tables(
        self,
        session: str,
        edition: Any,
        people: Any,
        bots: Any = 0,
        bot: Any = None,
        count: Any = 1,
        timer: Any = 0,
        setup: Any = None,
    ) -> list[TableInfo]:
        """``count`` tables of ``edition`` in ``session``, each with ``people`` seats for
        students and ``bots`` of ``bot`` (also the bot that fills free seats; default: the
        first of ``bot_choices``), with a turn timer of ``timer`` seconds (0: none) and the
        game's ``setup`` (``setup_fields``: the auction lab's rounds, values, budget), which
        each table deals its game with. The same form again within ``DOUBLE_CLICK_SECONDS``
        is a double click: it makes nothing."""
        whole(count, "Tables", 1, MAX_TABLES)
        whole(people, "People per table", 0, MAX_SEATS)
        whole(bots, "Bots per table", 0, MAX_SEATS)
        whole(timer, "The turn timer", 0, int(TIMER_RANGE[1]))
        if timer and timer < TIMER_RANGE[0]:
            raise ClassroomError(f"a turn timer is from 5 to 600 seconds, got {timer!r}")
        if not isinstance(edition, str) or not isinstance(bot, str | None):
            raise ClassroomError("choose a game and a bot from the lists")
        bot = bot or bot_choices(edition)[0]
        seats = [HUMAN] * people + [bot] * bots
        if setup is not None and not isinstance(setup, dict):
            raise ClassroomError("the game's setup is a form of named fields")
        form = (session, edition, tuple(seats), count, json.dumps(setup, sort_keys=True))
        last, when = self._created
        if form == last and time.monotonic() - when < DOUBLE_CLICK_SECONDS:
            raise ClassroomError(
                "these tables were created a moment ago (a double click?); press again to make more"
            )
        made = self.store.create_tables(
            count, edition, seats, session=session, fill=bot, setup=setup or None
        )
        self._created = (form, time.monotonic())
        if timer:
            for info in made:
                self.store.set_timer(info.code, timer)
        return made

    def regroup(self, session: str) -> tuple[str, dict[tuple[str, int], tuple[str, int]]]:
        """Strangers: every student of ``session`` whose newest table is over sits down at a
        new table of the same game, setup, bots and timer, in groups drawn afresh (each new
        table takes as many students as one of the finished ones had), under the same name and
        seat key (``TableStore.move_student``: every hall sends their pages on). The sentence
        to show, and each student's old seat (code, seat) with their new one (code, seat)."""
        latest: dict[str, tuple[TableInfo, int]] = {}
        for info in self.store.tables(session):  # oldest first: the newest table wins
            for seat in info.seats:
                if seat.is_human and seat.name:
                    latest[seat.name] = (info, seat.seat)
        groups: dict[str, tuple[TableInfo, list[tuple[str, int]]]] = {}
        for name, (info, seat) in latest.items():
            if info.status == OVER:
                groups.setdefault(info.code, (info, []))[1].append((name, seat))
        if not groups:
            raise ClassroomError(
                "nobody to regroup: new groups are drawn from the students whose table is over"
            )
        people = [(info.code, *member) for info, members in groups.values() for member in members]
        random.SystemRandom().shuffle(people)
        moves: dict[tuple[str, int], tuple[str, int]] = {}
        for info, members in groups.values():
            chunk, people = people[: len(members)], people[len(members) :]
            bots = [s.kind for s in info.seats if not s.is_human]
            table = self.store.create_table(
                info.edition,
                [HUMAN] * len(chunk) + bots,
                session,
                None,
                info.fill,
                self.store.settings(info.code),
            )
            seconds = self.store.clock(info.code)[0]
            if seconds is not None:
                self.store.set_timer(table.code, seconds)
            for code, _, seat in chunk:
                moves[(code, seat)] = (table.code, self.store.move_student(code, seat, table.code))
        return (
            f"New groups: {len(moves)} students at {len(groups)} new "
            f"table{'s' if len(groups) > 1 else ''}.",
            moves,
        )

    def set_timer(self, session: str, seconds: Any) -> str:
        """Give every unfinished table of ``session`` a turn timer of ``seconds`` (0: none)."""
        whole(seconds, "The turn timer", 0, int(TIMER_RANGE[1]))
        if seconds and seconds < TIMER_RANGE[0]:
            raise ClassroomError(f"a turn timer is from 5 to 600 seconds, got {seconds!r}")
        for info in self.store.tables(session):
            if info.status not in (ENDED, OVER):
                self.store.set_timer(info.code, seconds or None)
        return f"Turn timer: {seconds} s" if seconds else "No turn timer"

    def pause_or_resume(self, code: str) -> None:
        """Pause a playing table; let a paused one play on."""
        store = self.store
        (store.resume if store.info(code).status == PAUSED else store.pause)(code)

    def new_key(self, code: str, seat: int | None) -> str:
        """A new seat key for a locked-out student: the sentence that shows it (to the
        lecturer only)."""
        if seat is None:
            raise ClassroomError("choose the student's seat")
        ticket = self.store.reissue_key(code, seat)
        name = self.store.info(code).seats[seat].name or ""
        key = f"{ticket.key[:4]}-{ticket.key[4:8]}-{ticket.key[8:]}"
        return (
            f"New seat key for {html.escape(name)} (seat {seat + 1}, table {pretty_code(code)}): "
            f"<b style='font:bold 1.3em monospace'>{key}</b>. Tell only them; the old key no longer works."
        )

    def free_seat(self, code: str, seat: int | None) -> str:
        """Free a seat someone took who should not have (the next student to join sits there)."""
        if seat is None:
            raise ClassroomError("choose the seat to free")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ClassroomError("name the seat by its number")
        seats = self.store.info(code).seats
        name = seats[seat].name if 0 <= seat < len(seats) else None
        self.store.free_seat(code, seat)
        return (
            f"Seat {seat + 1} of table {pretty_code(code)} is free again "
            f"({html.escape(name or '')} is no longer there); the next student to join sits there."
        )

    def export(self, session: str) -> tuple[Path, str]:
        """Export ``session``'s records and tables: the folder, and the sentence saying where."""
        target = export_session(self.store, session, self.export_folder)
        files = sorted(p.name for p in target.iterdir())
        return target, (
            f"Exported {len(files)} files to <code>{html.escape(str(target.resolve()))}</code>: "
            f"{html.escape(', '.join(files))}"
        )


__all__ = [
    "DOUBLE_CLICK_SECONDS",
    "EXPORT_ENV",
    "Desk",
    "bot_choices",
    "card_html",
    "game_choices",
    "setup_fields",
    "unused",
    "whole",
]
