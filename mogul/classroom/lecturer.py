"""The lecturer's Voila dashboard: create a session's tables, project their codes, watch every table.

``mogul classroom`` now gives the lecturer the hall's own dashboard page instead (no kernel:
``mogul.classroom.server.dashboard``); both make the same calls (``mogul.classroom.desk``).

``LecturerDashboard`` is an ipywidgets box over a ``TableStore``: a form to create N tables
(game or edition, people and bots per table, the bot that fills seats left free), one card per
table with its join code in large type, who sits where, the round, the pot, whose turn and
the scores, updated live, with buttons to start a table early (free seats get bots), pause,
resume and end it, and a button that exports the session (``export.export_session``).
It polls the store: one small query for the versions of all the session's tables, then a
redraw of only the cards that changed (``card_html`` draws a table, ``TableCard`` puts its
buttons under it, ``Confirming`` makes a button act only on a second press).

For the room: a projector view (the projector page's drawing, ``mogul.classroom.projector``:
the student page's address, a QR code per table that opens the page with its code filled in,
the codes in large type, "N of M seats joined"); a second press to confirm anything that
cannot be undone (End, Delete, a new seat key); Create that ignores a double click; deleting
an unused table; a new seat key for a locked-out student (shown here only); and a turn timer
(an idle person gets the fill bot's move).
"""

from __future__ import annotations

import asyncio
import datetime
import html
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as w

from mogul.classroom.desk import Desk, bot_choices, card_html, game_choices, unused
from mogul.classroom.projector import (
    Projectors,
    projector_path,
    seats_joined,
    student_address,
)
from mogul.classroom.store import TableStore
from mogul.classroom.table import ENDED, OVER, PAUSED, PLAYING, WAITING, ClassroomError, TableInfo

CONFIRM_SECONDS = 8.0
"""A button that cannot be undone acts on a second press within this many seconds."""


class Confirming:
    """A button whose first press only asks ("Really end?"), and whose second press within
    ``CONFIRM_SECONDS`` acts: for what cannot be undone."""

    def __init__(
        self, button: w.Button, work: Callable[[], Any], run: Callable[[Callable[[], Any]], None]
    ) -> None:
        self.button, self.work, self.run = button, work, run
        self.label, self.armed = button.description, 0.0
        button.on_click(lambda _: self.press())

    def press(self) -> None:
        """Ask on the first press; act on the second."""
        if time.monotonic() - self.armed < CONFIRM_SECONDS:
            self.disarm()
            self.run(self.work)
            return
        self.armed = time.monotonic()
        self.button.description = f"Really {self.label.lower()}? Press again"

    def disarm(self) -> None:
        """Back to the first press."""
        self.armed = 0.0
        self.button.description = self.label


class TableCard(w.VBox):
    """One table on the dashboard: its card and its buttons."""

    def __init__(self, dashboard: Any, code: str):
        """``dashboard``: the ``LecturerDashboard`` whose ``do``, ``store``, ``delete`` and
        ``new_key`` the buttons call."""
        self.dashboard, self.code = dashboard, code
        self.view = w.HTML()

        def small() -> w.Layout:  # one layout per button: hiding one must not hide all
            return w.Layout(width="auto")

        self.start_button = w.Button(
            description="Start now", tooltip="free seats get bots", layout=small()
        )
        self.pause_button = w.Button(description="Pause", layout=small())
        self.end_button = w.Button(description="End", button_style="danger", layout=small())
        self.delete_button = w.Button(
            description="Delete", tooltip="a table nobody has joined", layout=small()
        )
        self.seat_box = w.Dropdown(description="", layout=w.Layout(width="9em"))
        self.key_button = w.Button(
            description="New seat key", tooltip="for a student who lost theirs", layout=small()
        )
        self.free_button = w.Button(
            description="Free seat",
            tooltip="for someone who took a seat not theirs",
            layout=small(),
        )
        self.start_button.on_click(lambda _: dashboard.do(lambda: dashboard.store.start(code)))
        self.pause_button.on_click(
            lambda _: dashboard.do(lambda: dashboard.desk.pause_or_resume(code))
        )
        self.confirms = [
            Confirming(self.end_button, lambda: dashboard.store.end(code), dashboard.do),
            Confirming(self.delete_button, lambda: dashboard.delete(code), dashboard.do),
            Confirming(
                self.key_button, lambda: dashboard.new_key(code, self.seat_box.value), dashboard.do
            ),
            Confirming(
                self.free_button,
                lambda: dashboard.free_seat(code, self.seat_box.value),
                dashboard.do,
            ),
        ]
        buttons = w.HBox(
            [self.start_button, self.pause_button, self.end_button, self.delete_button],
            layout=w.Layout(flex_flow="row wrap"),
        )
        self.key_row = w.HBox(
            [self.seat_box, self.key_button, self.free_button],
            layout=w.Layout(flex_flow="row wrap"),
        )
        super().__init__(
            [self.view, buttons, self.key_row],
            layout=w.Layout(
                border="1px solid #bbb", padding="6px", margin="4px", width="22em", max_width="100%"
            ),
        )
        self.add_class("mogul-table-card")

    def show(self, info: TableInfo, states: list[Any]) -> None:
        """Draw the table and set which buttons apply."""
        self.view.value = card_html(info, states)
        self.start_button.layout.display = None if info.status == WAITING else "none"
        self.pause_button.description = "Resume" if info.status == PAUSED else "Pause"
        self.pause_button.disabled = info.status not in (PLAYING, PAUSED)
        self.end_button.disabled = info.status in (ENDED, OVER)
        self.delete_button.layout.display = None if unused(info) else "none"
        people = [(f"{s.seat + 1}: {s.name}", s.seat) for s in info.seats if s.is_human and s.name]
        if list(self.seat_box.options) != people:
            chosen = self.seat_box.value
            self.seat_box.options = people
            self.seat_box.value = (
                chosen
                if chosen in [seat for _, seat in people]
                else (people[0][1] if people else None)
            )
        self.key_row.layout.display = None if people else "none"
        for confirm in self.confirms:
            confirm.disarm()


POLL_SECONDS = 0.5
PANEL_STYLE = (
    "<style>.mogul-projector{font:1.4em/1.3 Helvetica,Arial,sans-serif}"
    ".mogul-projector .address b{font-family:monospace;font-size:1.3em}"
    ".mogul-projector .tables{display:flex;flex-wrap:wrap;gap:1.2em}"
    ".mogul-projector .table{border:2px solid #444;border-radius:10px;padding:.5em;text-align:center}"
    ".mogul-projector .code{font:bold 2.2em/1.1 monospace;letter-spacing:.06em}</style>"
)
"""The dashboard's projector panel: the projector page's drawing (``mogul.classroom.projector``)
at the size of a laptop screen."""


class LecturerDashboard(w.VBox):
    """Create a session's tables and watch them live (see the module docstring).

    ``store``: default ``TableStore()`` (``$MOGUL_CLASSROOM``); ``session``: the session's
    name (default: today's date); ``export_folder``: where "Export" writes (default:
    ``$MOGUL_CLASSROOM_EXPORT``, else ``classroom-export`` in the current folder).
    """

    def __init__(
        self,
        store: TableStore | None = None,
        session: str | None = None,
        export_folder: str | Path | None = None,
        poll_seconds: float = POLL_SECONDS,
    ):
        self.store = store if store is not None else TableStore()
        self.desk = Desk(self.store, export_folder)
        self.poll_seconds = poll_seconds
        self._task: asyncio.Task | None = None
        self.versions: dict[str, int] = {}
        self.cards: dict[str, TableCard] = {}
        style = {"description_width": "9em"}
        narrow = w.Layout(width="16em")
        choices = game_choices()
        self.session_box = w.Text(
            value=session or datetime.date.today().isoformat(),
            description="Session",
            style=style,
            layout=w.Layout(width="24em"),
        )
        self.game_box = w.Dropdown(
            options=choices,
            value=choices[0][1],
            description="Game",
            style=style,
            layout=w.Layout(width="30em", max_width="100%"),
        )
        self.count_box = w.BoundedIntText(
            value=4, min=1, max=60, description="Tables", style=style, layout=narrow
        )
        self.people_box = w.BoundedIntText(
            value=3, min=0, max=8, description="People per table", style=style, layout=narrow
        )
        self.bots_box = w.BoundedIntText(
            value=0, min=0, max=8, description="Bots per table", style=style, layout=narrow
        )
        self.bot_box = w.Dropdown(description="Bot", style=style, layout=w.Layout(width="24em"))
        self.create_button = w.Button(
            description="Create tables", button_style="primary", layout=w.Layout(width="auto")
        )
        self.export_button = w.Button(
            description="Export records and tables", layout=w.Layout(width="auto")
        )
        self.timer_box = w.BoundedIntText(
            value=0,
            min=0,
            max=600,
            description="Turn timer (s)",
            style=style,
            layout=narrow,
            tooltip="0: no timer; else an idle student's bot moves",
        )
        self.timer_button = w.Button(description="Set the timer", layout=w.Layout(width="auto"))
        self.projector_button = w.ToggleButton(
            description="Projector view", layout=w.Layout(width="auto")
        )
        self.address = student_address()
        self.projectors = Projectors(self.store, self.address)
        self.joined = w.HTML()
        self.joined.add_class("mogul-joined-count")
        self.projector = w.HTML(layout=w.Layout(display="none", width="100%"))
        self.message = w.HTML()
        self.grid = w.HBox(layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.game_box.observe(lambda _: self._bots_for_game(), names="value")
        self.session_box.observe(lambda _: self.refresh(), names="value")
        self.create_button.on_click(lambda _: self.do(self.create_tables))
        self.export_button.on_click(lambda _: self.do(self.export))
        self.timer_button.on_click(lambda _: self.do(self.set_timer))
        self.projector_button.observe(lambda _: self.refresh(), names="value")
        self._bots_for_game()
        form = w.HBox(
            [
                w.VBox([self.session_box, self.game_box, self.bot_box]),
                w.VBox([self.count_box, self.people_box, self.bots_box, self.timer_box]),
                w.VBox(
                    [
                        self.create_button,
                        self.export_button,
                        self.timer_button,
                        self.projector_button,
                    ]
                ),
            ],
            layout=w.Layout(flex_flow="row wrap"),
        )
        super().__init__(
            [form, self.message, self.joined, self.projector, self.grid],
            layout=w.Layout(width="100%"),
        )
        self.add_class("mogul-lecturer")
        self.refresh()

    @classmethod
    def for_page(cls) -> LecturerDashboard:
        """The dashboard as the Voila page builds it: the store from ``$MOGUL_CLASSROOM``, polling."""
        board = cls()
        board.start_polling()
        return board

    @property
    def export_folder(self) -> Path:
        """Where "Export" writes (the desk's folder)."""
        return self.desk.export_folder

    @property
    def session(self) -> str:
        """The session shown and created (the session box)."""
        return self.session_box.value.strip()

    def _bots_for_game(self) -> None:
        bots = bot_choices(self.game_box.value)
        self.bot_box.options = bots
        self.bot_box.value = bots[0]

    # --- actions ---------------------------------------------------------------------------------
    def do(self, work: Any) -> None:
        """Run a button's work; show its error (if any) in the message line, then redraw. A
        message the work wrote (an export's folder, a new seat key) stays; an old one goes."""
        before = self.message.value
        try:
            work()
        except (ClassroomError, ValueError) as err:
            self.message.value = f'<p style="color:#b00020"><b>{html.escape(str(err))}</b></p>'
        else:
            if self.message.value == before:
                self.message.value = ""
        self.refresh()

    def create_tables(self) -> list[TableInfo]:
        """Create the form's tables in the session (``Desk.create_tables``)."""
        return self.desk.create_tables(
            self.session,
            self.game_box.value,
            self.people_box.value,
            self.bots_box.value,
            self.bot_box.value,
            self.count_box.value,
            self.timer_box.value,
        )

    def set_timer(self) -> None:
        """Give every unfinished table of the session the turn timer of the box (0: none)."""
        self.message.value = self.desk.set_timer(self.session, self.timer_box.value)

    def delete(self, code: str) -> None:
        """Remove an unused table (the store refuses one somebody joined)."""
        self.store.delete_table(code)
        card = self.cards.pop(code, None)
        self.versions.pop(code, None)
        if card is not None:
            card.close()

    def new_key(self, code: str, seat: int | None) -> None:
        """A new seat key for a locked-out student, shown on this dashboard only."""
        self.message.value = self.desk.new_key(code, seat)

    def free_seat(self, code: str, seat: int | None) -> None:
        """Free a seat someone took who should not have (the next student to join sits there)."""
        self.message.value = self.desk.free_seat(code, seat)

    def export(self) -> Path:
        """Export the session's records and tables; the message line says where."""
        target, self.message.value = self.desk.export(self.session)
        return target

    # --- live view -------------------------------------------------------------------------------
    def poll(self) -> bool:
        """Redraw the cards of the tables that changed; True if any did."""
        versions = self.store.versions(self.session)
        if versions == self.versions:
            return False
        self.refresh()
        return True

    def refresh(self) -> None:
        """Read the session's tables and redraw the cards that changed."""
        infos = self.store.tables(self.session)
        seen = {}
        for info in infos:
            card = self.cards.get(info.code) or TableCard(self, info.code)
            self.cards[info.code] = card
            if self.versions.get(info.code) != info.version:
                card.show(info, self.store.history(info.code))
            seen[info.code] = info.version
        self.versions = seen
        self.grid.children = tuple(self.cards[i.code] for i in infos)
        taken, total = seats_joined(infos)
        projector = html.escape(projector_path(self.session))
        self.joined.value = (
            f"<b>{taken} of {total}</b> seats joined &middot; student page: "
            f"<code>{html.escape(self.address)}</code> &middot; "
            f'<a href="{projector}" target="_blank" rel="noopener">Open the projector page</a>'
        )
        showing = self.projector_button.value
        self.projector.layout.display = None if showing else "none"
        if showing:
            self.projector.value = f'{PANEL_STYLE}<div class="mogul-projector">{self.projectors.draw(self.session)}</div>'

    def poll_failed(self, error: Exception) -> None:
        """Say on the dashboard that the store could not be read (the polling goes on)."""
        self.message.value = f"cannot reach the table store: {html.escape(str(error))}"

    def start_polling(self) -> None:
        """Poll the store every ``poll_seconds`` from the kernel's event loop (in a notebook or
        the Voila page; without a running loop, as in tests, call ``poll`` yourself)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._poll_forever())

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                self.poll()
            except Exception as err:  # a database hiccup: say so, keep polling
                self.poll_failed(err)


__all__ = [
    "CONFIRM_SECONDS",
    "Confirming",
    "LecturerDashboard",
    "TableCard",
    "card_html",
    "game_choices",
]
