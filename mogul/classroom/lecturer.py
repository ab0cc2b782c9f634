"""The lecturer's dashboard: create a session's tables, project their codes, watch every table.

``LecturerDashboard`` is an ipywidgets box over a ``TableStore``: a form to create N tables
(game or edition, people and bots per table, the bot that fills seats left free), one card per
table with its join code in large type, who sits where, the round, the pot, whose turn and
the scores, updated live, with buttons to start a table early (free seats get bots), pause,
resume and end it, and a button that exports the session (``export.export_session``).
It polls the store like the student page does: one small query for the versions of all the
session's tables, then a redraw of only the cards that changed.
"""

from __future__ import annotations

import datetime
import html
import os
from pathlib import Path
from typing import Any

import ipywidgets as w

from mogul.classroom.export import export_session
from mogul.classroom.polling import Polling
from mogul.classroom.store import (
    ENDED,
    OVER,
    PAUSED,
    PLAYING,
    WAITING,
    ClassroomError,
    TableInfo,
    TableStore,
    pretty_code,
)
from mogul.kit.session import HUMAN
from mogul.kit.spec import default_game, games, get_game, resolve

POLL_SECONDS = 0.5
EXPORT_ENV = "MOGUL_CLASSROOM_EXPORT"
"""The environment variable naming the folder that "Export" writes into."""
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


def card_html(info: TableInfo, states: list[Any]) -> str:
    """A table's card: its code, large; status; each seat's name and score; round, pot, turn."""
    state = states[-1] if states else None
    lines = [f'<div class="mogul-card-code">{pretty_code(info.code)}</div>', f"<div><b>{info.status}</b>"]
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

    def __init__(self, dashboard: LecturerDashboard, code: str):
        self.dashboard, self.code = dashboard, code
        self.view = w.HTML()
        def small() -> w.Layout:  # one layout per button: hiding one must not hide all
            return w.Layout(width="auto")

        self.start_button = w.Button(description="Start now", tooltip="free seats get bots", layout=small())
        self.pause_button = w.Button(description="Pause", layout=small())
        self.end_button = w.Button(description="End", button_style="danger", layout=small())
        self.start_button.on_click(lambda _: dashboard.do(lambda: dashboard.store.start(code)))
        self.pause_button.on_click(lambda _: dashboard.do(self._pause_or_resume))
        self.end_button.on_click(lambda _: dashboard.do(lambda: dashboard.store.end(code)))
        buttons = w.HBox([self.start_button, self.pause_button, self.end_button],
                         layout=w.Layout(flex_flow="row wrap"))  # fmt: skip
        super().__init__([self.view, buttons], layout=w.Layout(
            border="1px solid #bbb", padding="6px", margin="4px", width="22em", max_width="100%"))  # fmt: skip
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


class LecturerDashboard(w.VBox, Polling):
    """Create a session's tables and watch them live (see the module docstring).

    ``store``: default ``TableStore()`` (``$MOGUL_CLASSROOM``); ``session``: the session's
    name (default: today's date); ``export_folder``: where "Export" writes (default:
    ``$MOGUL_CLASSROOM_EXPORT``, else ``classroom-export`` in the current folder).
    """

    def __init__(self, store: TableStore | None = None, session: str | None = None,
                 export_folder: str | Path | None = None, poll_seconds: float = POLL_SECONDS):  # fmt: skip
        self.store = store if store is not None else TableStore()
        self.export_folder = Path(export_folder or os.environ.get(EXPORT_ENV) or "classroom-export")
        self.poll_seconds = poll_seconds
        self.versions: dict[str, int] = {}
        self.cards: dict[str, TableCard] = {}
        style = {"description_width": "9em"}
        narrow = w.Layout(width="16em")
        choices = game_choices()
        self.session_box = w.Text(value=session or datetime.date.today().isoformat(), description="Session",
                                  style=style, layout=w.Layout(width="24em"))  # fmt: skip
        self.game_box = w.Dropdown(options=choices, value=choices[0][1], description="Game", style=style,
                                   layout=w.Layout(width="30em", max_width="100%"))  # fmt: skip
        self.count_box = w.BoundedIntText(value=4, min=1, max=60, description="Tables", style=style, layout=narrow)
        self.people_box = w.BoundedIntText(value=3, min=0, max=8, description="People per table", style=style,
                                           layout=narrow)  # fmt: skip
        self.bots_box = w.BoundedIntText(value=0, min=0, max=8, description="Bots per table", style=style,
                                         layout=narrow)  # fmt: skip
        self.bot_box = w.Dropdown(description="Bot", style=style, layout=w.Layout(width="24em"))
        self.create_button = w.Button(description="Create tables", button_style="primary", layout=w.Layout(width="auto"))
        self.export_button = w.Button(description="Export records and tables", layout=w.Layout(width="auto"))
        self.message = w.HTML()
        self.grid = w.HBox(layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.game_box.observe(lambda _: self._bots_for_game(), names="value")
        self.session_box.observe(lambda _: self.refresh(), names="value")
        self.create_button.on_click(lambda _: self.do(self.create_tables))
        self.export_button.on_click(lambda _: self.do(self.export))
        self._bots_for_game()
        form = w.HBox([
            w.VBox([self.session_box, self.game_box, self.bot_box]),
            w.VBox([self.count_box, self.people_box, self.bots_box]),
            w.VBox([self.create_button, self.export_button]),
        ], layout=w.Layout(flex_flow="row wrap"))  # fmt: skip
        super().__init__([form, self.message, self.grid], layout=w.Layout(width="100%"))
        self.add_class("mogul-lecturer")
        self.refresh()

    @classmethod
    def for_page(cls) -> LecturerDashboard:
        """The dashboard as the Voila page builds it: the store from ``$MOGUL_CLASSROOM``, polling."""
        board = cls()
        board.start_polling()
        return board

    @property
    def session(self) -> str:
        """The session shown and created (the session box)."""
        return self.session_box.value.strip()

    def _bots_for_game(self) -> None:
        bots = list(resolve(self.game_box.value)[0].bots)
        self.bot_box.options = bots
        self.bot_box.value = "value" if "value" in bots else bots[0]

    # --- actions ---------------------------------------------------------------------------------
    def do(self, work: Any) -> None:
        """Run a button's work; show its error (if any) in the message line, then redraw."""
        try:
            work()
        except (ClassroomError, ValueError) as err:
            self.message.value = f'<p style="color:#b00020"><b>{html.escape(str(err))}</b></p>'
        else:
            if work != self.export:
                self.message.value = ""
        self.refresh()

    def create_tables(self) -> list[TableInfo]:
        """Create the form's tables in the session."""
        seats = [HUMAN] * self.people_box.value + [self.bot_box.value] * self.bots_box.value
        return self.store.create_tables(self.count_box.value, self.game_box.value, seats,
                                        session=self.session, fill=self.bot_box.value)  # fmt: skip

    def export(self) -> Path:
        """Export the session's records and tables; the message line says where."""
        target = export_session(self.store, self.session, self.export_folder)
        files = sorted(p.name for p in target.iterdir())
        self.message.value = (f"Exported {len(files)} files to <code>{html.escape(str(target.resolve()))}</code>: "
                              f"{html.escape(', '.join(files))}")  # fmt: skip
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

    def poll_failed(self, error: Exception) -> None:
        """Say on the dashboard that the store could not be read (the polling goes on)."""
        self.message.value = f"cannot reach the table store: {html.escape(str(error))}"


__all__ = ["LecturerDashboard", "TableCard", "card_html", "game_choices"]
