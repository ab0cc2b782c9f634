"""A table on the lecturer's dashboard: its card, and buttons that ask twice before the irreversible.

``card_html`` draws a table: its join code in large type, its status, the round, the pot and
the step, each seat's name (a bot's kind too) and score, and whose turn it is. ``TableCard``
puts the buttons under it (start now, pause or resume, end, delete an unused table, a new
seat key); ``Confirming`` makes a button act only on a second press. The dashboard itself is
``mogul.classroom.lecturer``.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from mogul.classroom.store import (
    ENDED,
    OVER,
    PAUSED,
    PLAYING,
    WAITING,
    TableInfo,
    pretty_code,
)
from mogul.kit.spec import get_game

CONFIRM_SECONDS = 8.0
"""A button that cannot be undone acts on a second press within this many seconds."""
_CARD = (
    "<style>.mogul-card-code{font:bold 3em/1.1 monospace;letter-spacing:.06em}"
    ".mogul-card td{padding:0 .6em 0 0}</style>"
)


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


def card_html(info: TableInfo, states: list[Any]) -> str:
    """A table's card: its code, large; status; each seat's name and score; round, pot, turn."""
    state = states[-1] if states else None
    lines = [
        f'<div class="mogul-card-code">{pretty_code(info.code)}</div>',
        f"<div><b>{info.status}</b>",
    ]
    if state is not None:
        stage = get_game(info.game).stage(state)
        lines[-1] += f" &middot; round {stage}"
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
        self.start_button.on_click(lambda _: dashboard.do(lambda: dashboard.store.start(code)))
        self.pause_button.on_click(lambda _: dashboard.do(self._pause_or_resume))
        self.confirms = [
            Confirming(self.end_button, lambda: dashboard.store.end(code), dashboard.do),
            Confirming(self.delete_button, lambda: dashboard.delete(code), dashboard.do),
            Confirming(
                self.key_button, lambda: dashboard.new_key(code, self.seat_box.value), dashboard.do
            ),
        ]
        buttons = w.HBox(
            [self.start_button, self.pause_button, self.end_button, self.delete_button],
            layout=w.Layout(flex_flow="row wrap"),
        )
        self.key_row = w.HBox(
            [self.seat_box, self.key_button], layout=w.Layout(flex_flow="row wrap")
        )
        super().__init__(
            [self.view, buttons, self.key_row],
            layout=w.Layout(
                border="1px solid #bbb", padding="6px", margin="4px", width="22em", max_width="100%"
            ),
        )
        self.add_class("mogul-table-card")

    def _pause_or_resume(self) -> None:
        store = self.dashboard.store
        (store.resume if store.info(self.code).status == PAUSED else store.pause)(self.code)

    def show(self, info: TableInfo, states: list[Any]) -> None:
        """Draw the table and set which buttons apply."""
        self.view.value = card_html(info, states)
        self.start_button.layout.display = None if info.status == WAITING else "none"
        self.pause_button.description = "Resume" if info.status == PAUSED else "Pause"
        self.pause_button.disabled = info.status not in (PLAYING, PAUSED)
        self.end_button.disabled = info.status in (ENDED, OVER)
        unused = info.step == 0 and not any(s.is_human and s.name for s in info.seats)
        self.delete_button.layout.display = (
            None if unused and info.status in (WAITING, ENDED) else "none"
        )
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


__all__ = ["CONFIRM_SECONDS", "Confirming", "TableCard", "card_html"]
