"""The student's page: type the table code and a name, take a seat, play from your own device.

``StudentApp`` is an ipywidgets box over a ``TableStore``. It shows the table as the student's
seat sees it and, on their turn, one button per legal action. The page asks the store a tiny
question a few times a second (the table's version number) and redraws only when it changed,
so the others' moves appear within a fraction of a second without reloading; a page's own
moves go through ``TableStore.act`` with the step the page showed, so a stale click is
refused with a message instead of playing a move the student never saw.

Only drawn HTML and button labels reach the browser; the game's hidden parts (the order of a
draw pile, say) stay in the kernel. Everything is sized for a phone first.
"""

from __future__ import annotations

import html
import os
import time
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as w

from mogul.classroom.polling import Polling
from mogul.classroom.store import (
    ENDED,
    PAUSED,
    PLAYING,
    WAITING,
    ClassroomError,
    TableInfo,
    TableStore,
    Ticket,
    pretty_code,
    seat_labels,
)
from mogul.kit.session import last_events
from mogul.kit.spec import resolve

POLL_SECONDS = 0.25
"""How often a page asks the store whether its table changed."""
BOT_GRACE_SECONDS = 1.0
"""A bot left to move this long (its mover's page was closed) is moved by any page at the table."""
LOG_LINES = 8

_FULL = {"width": "100%", "max_width": "32em"}


def _box(**layout: Any) -> w.Layout:
    return w.Layout(**{"flex_flow": "column", "width": "100%", **layout})


def status_html(info: TableInfo, states: list[Any], seat: int | None) -> str:
    """One line for the student at ``seat``: whose move it is, or why nothing happens."""
    if info.status == WAITING:
        taken = sum(1 for s in info.seats if s.name is not None)
        return f"Waiting for players: {taken} of {len(info.seats)} seats taken."
    if info.status == PAUSED:
        return "<b>Paused</b> by your lecturer: wait a moment."
    if info.status == ENDED:
        return "<b>This table was ended</b> by your lecturer."
    state = states[-1]
    if state.is_over:
        winners = state.winners()
        best = html.escape(" and ".join(state.names[s] for s in winners))
        mine = seat in winners
        return f"<b>Game over.</b> {'You win' if mine and len(winners) == 1 else best + (' wins' if len(winners) == 1 else ' share the win')}."
    mover = state.current_player
    if mover == seat:
        phase = getattr(state, "phase", None)
        return "<b>Your move</b>" + (f" ({html.escape(phase)})." if phase else ".")
    return f"Waiting for <b>{html.escape(state.names[mover])}</b>."


class StudentApp(w.VBox, Polling):
    """The student page: a join form, then the table from the student's seat.

    ``store``: the table store (default: ``TableStore()``, the one ``$MOGUL_CLASSROOM``
    names); ``code``: a table code to fill in. ``join``, ``choose`` and ``poll`` are what the
    buttons and the timer call; tests call them directly.
    """

    def __init__(
        self, store: TableStore | None = None, code: str = "", poll_seconds: float = POLL_SECONDS
    ):
        self.store = store if store is not None else TableStore()
        self.poll_seconds = poll_seconds
        self.ticket: Ticket | None = None
        self.info: TableInfo | None = None
        self.states: list[Any] = []
        self.version = -1
        self.changed_at = time.monotonic()
        self._offered: dict[int, str] = {}

        style = {"description_width": "6em"}
        self.code_box = w.Text(
            value=code,
            description="Table code",
            placeholder="ABCD-EFGH",
            style=style,
            layout=w.Layout(**_FULL),
        )
        self.name_box = w.Text(description="Your name", style=style, layout=w.Layout(**_FULL))
        self.key_box = w.Text(
            description="Seat key",
            placeholder="only to get your seat back",
            style=style,
            layout=w.Layout(**_FULL),
        )
        self.join_button = w.Button(
            description="Join the table",
            button_style="primary",
            layout=w.Layout(width="auto", min_width="12em"),
        )
        self.join_button.on_click(lambda _: self.join())
        self.name_box.continuous_update = False
        self.form = w.VBox(
            [self.code_box, self.name_box, self.key_box, self.join_button], layout=_box()
        )
        self.form.add_class("mogul-join")

        self.header = w.HTML()
        self.status = w.HTML()
        self.status.add_class("mogul-status")
        self.buttons = w.HBox(layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.buttons.add_class("mogul-moves")
        self._pool: list[w.Button] = []
        self.table = w.HTML(
            layout=w.Layout(width="100%", margin="2px 0")
        )  # no side margin: fits its column
        self.play_box = w.VBox(
            [self.header, self.status, self.buttons, self.table], layout=_box(display="none")
        )
        self.message = w.HTML()
        self.message.add_class("mogul-message")
        super().__init__([self.form, self.message, self.play_box], layout=_box(max_width="60em"))
        self.add_class("mogul-student")

    @classmethod
    def for_page(cls) -> StudentApp:
        """The app as the Voila page builds it: the store from ``$MOGUL_CLASSROOM``, the table
        code from the address (``...?table=ABCD-EFGH``), polling started."""
        query = parse_qs(os.environ.get("QUERY_STRING", ""))
        app = cls(code=(query.get("table") or [""])[0][:20])
        app.start_polling()
        return app

    # --- what the buttons do ---------------------------------------------------------------------
    def join(self) -> None:
        """Take a seat with the form's code and name (or seat key); errors go to the message line."""
        try:
            self.ticket = self.store.join(
                self.code_box.value, self.name_box.value, self.key_box.value.strip() or None
            )
        except ClassroomError as err:
            self._say(str(err))
            return
        self._say("")
        self.form.layout.display = "none"
        self.play_box.layout.display = None
        self.refresh()

    def choose(self, action: str) -> bool:
        """Play ``action`` (its text) at the step this page shows; True if the store took it."""
        if self.ticket is None:
            return False
        try:
            self.store.act(self.ticket, len(self.states) - 1, action)
        except ClassroomError as err:
            self._say(str(err))
            self.refresh()
            return False
        self._say("")
        self.refresh()
        return True

    def poll(self) -> bool:
        """Redraw if the table changed since the last look; True if it did.

        A bot left to move for ``BOT_GRACE_SECONDS`` (the page that should have moved it
        was closed) is moved from here.
        """
        if self.ticket is None:
            return False
        version = self.store.version(self.ticket.code)
        if version != self.version:
            self.refresh()
            return True
        if self._bot_stuck():
            self.store.move_bots(self.ticket.code)
            self.refresh()
            return True
        return False

    def _bot_stuck(self) -> bool:
        if self.info is None or self.info.status != PLAYING or not self.states:
            return False
        state = self.states[-1]
        waited = time.monotonic() - self.changed_at > BOT_GRACE_SECONDS
        return waited and not state.is_over and not self.info.seats[state.current_player].is_human

    def poll_failed(self, error: Exception) -> None:
        """Say on the page that the store could not be read (the polling goes on)."""
        self._say(f"cannot reach the table store: {error}")

    # --- drawing ---------------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        self.message.value = (
            f'<p style="color:#b00020"><b>{html.escape(text)}</b></p>' if text else ""
        )

    def refresh(self) -> None:
        """Read the table from the store and redraw the page."""
        ticket = self.ticket
        if ticket is None:
            return
        self.version = self.store.version(ticket.code)
        self.info = info = self.store.info(ticket.code)
        self.states = self.store.history(ticket.code)
        self.changed_at = time.monotonic()
        me = html.escape(info.seats[ticket.seat].name or "")
        self.header.value = (
            f'<div style="font-size:1.1em">Table <b>{pretty_code(info.code)}</b> &middot; you are <b>{me}</b> '
            f'(seat {ticket.seat + 1}) &middot; seat key <code title="type it with the table code to get '
            f'this seat back after a reload">{ticket.key}</code></div>'
        )
        self.status.value = status_html(info, self.states, ticket.seat)
        if not self.states:
            taken = ", ".join(html.escape(s.name) for s in info.seats if s.name)
            self.table.value = f"<p>At the table: {taken}.</p>"
            self._show_moves(None)
            return
        state = self.states[-1]
        spec = resolve(info.edition)[0]
        labels = [
            "you" if s.seat == ticket.seat else label
            for s, label in zip(info.seats, seat_labels(info), strict=True)
        ]
        self.table.value = spec.table_html(state, (), self._log(), labels)
        mine = info.status == PLAYING and not state.is_over and state.current_player == ticket.seat
        self._show_moves(state if mine else None)

    def _log(self) -> list[str]:
        return last_events(self.states, LOG_LINES)

    def _show_moves(self, state: Any) -> None:
        legal = state.legal_actions() if state is not None else []
        spec = resolve(self.info.edition)[0] if self.info else None
        while len(self._pool) < len(legal):
            button = w.Button(
                button_style="primary",
                layout=w.Layout(width="auto", min_width="fit-content", margin="2px"),
            )
            button.on_click(self._clicked)
            self._pool.append(button)
        self._offered = {}
        for button, action in zip(self._pool, legal, strict=False):
            button.description = spec.action_label(state, action)
            self._offered[id(button)] = str(action)
        self.buttons.children = tuple(self._pool[: len(legal)])

    def _clicked(self, button: w.Button) -> None:
        action = self._offered.get(id(button))
        if action is not None:
            self.buttons.children = ()  # one click, one move
            self.choose(action)


__all__ = ["StudentApp", "status_html"]
