"""The part of a game player that does not depend on the game: a view of a ``GameSession``.

``SessionPlayer`` holds the controls, the buttons and the table; a game's player
(``GameSpec.faces["player"]``) extends it with its side widgets (charts, a board, dice), and
``mogul.widgets.player`` opens the right one. The session holds the game (history, undo,
bots, record, event log); the game's spec draws the table and names the buttons. No rules live
here. The widgets update widget values (``HTML.value``, figure data), never print into
``Output`` widgets, so they work the same in JupyterLab, Voila, nbval and headless tests.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from mogul.kit.record import GameRecord
from mogul.kit.session import GameSession
from mogul.kit.spec import spec_for
from mogul.widgets.touch import touch_style

__all__ = ["GameTable", "Row", "SessionPlayer", "button"]

LOG_LINES = 8

Row = tuple[str, list[tuple[Any, str]]]
"""A row of action buttons: a caption ("" for none) and (action, button text) pairs."""


def button(text: str, **kwargs: Any) -> w.Button:
    """A button sized to its words (a phone never cuts a label to "...")."""
    return w.Button(
        description=text, layout=w.Layout(width="auto", min_width="fit-content"), **kwargs
    )


def _wrap() -> w.Layout:
    """A row of controls that wraps onto more lines instead of shrinking its buttons."""
    return w.Layout(flex_flow="row wrap", align_items="center", width="100%")


def _column() -> w.Layout:
    """One of the two columns: side by side from 2 x 400 px, else one above the other."""
    return w.Layout(flex="1 1 400px", min_width="0", max_width="100%", margin="0 8px 0 0")


class GameTable(w.HTML):
    """A state drawn as an HTML table (its game's ``table_html``); ``show`` draws the next one."""

    def __init__(
        self,
        state: Any = None,
        hide_chips: Sequence[int] = (),
        log: Sequence[str] = (),
        labels: Sequence[str] | None = None,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self.state = state
        if state is not None:
            self.show(state, hide_chips, log, labels)

    def show(
        self,
        state: Any,
        hide_chips: Sequence[int] = (),
        log: Sequence[str] = (),
        labels: Sequence[str] | None = None,
    ) -> None:
        """Draw ``state`` (see the game's ``table_html`` for the options)."""
        self.state = state
        self.value = spec_for(state).table_html(state, hide_chips, log, labels)


class SessionPlayer(w.VBox):
    """The game-independent part of a game player: a view of a ``GameSession``.

    * ``Next step`` lets the bot to act make one move, ``Next turn`` (or round) plays until the
      next one begins, ``Play to end`` until the game ends; all three stop when a human must
      decide, and a human seat gets one button per legal action (``action_rows`` groups them).
    * ``Undo`` goes back to the previous human decision (one step when no human plays or bots
      do not move on their own); ``New game`` deals again from the seed box.
    * ``hot_seat`` (default: with two or more humans) puts a "pass the laptop" cover over the
      table between two humans' turns.
    * A bot that raises or answers with an illegal move stops the bots; the status line says
      which and why (``session.bot_error``), and Undo or New game go on from there.

    ``game``, ``seats``, ``seed``, ``names``, ``autoplay`` (bots move on their own after a human
    acted; default: when a human plays) and setup keywords are ``GameSession``'s, in its order.
    A subclass gives the widgets of its side column (``side``) and redraws them in ``draw``.
    """

    stage_word = "turn"  # "Next turn": what the session's next_round waits for
    secret_hands = False  # True: in hot seat each human sees only their own chips

    def __init__(
        self,
        game: str | None = None,
        seats: Sequence[Any] | None = None,
        seed: int = 0,
        *,
        names: Sequence[str] | None = None,
        hot_seat: bool | None = None,
        autoplay: bool | None = None,
        **setup: Any,
    ) -> None:
        self.session = GameSession(game, seats, names=names, seed=seed, autoplay=autoplay, **setup)
        self.hot_seat = len(self.humans) > 1 if hot_seat is None else hot_seat
        self.viewer: int | None = None  # the human whose table is shown (hot seat)

        # Words, no icons: clearer, and no icon font fetched from the internet. Buttons size
        # to their words and rows wrap, so a phone never shortens a label to "...".

        self.next_step_button = button("Next step")
        self.next_round_button = button(f"Next {self.stage_word}")
        self.play_to_end_button = button("Play to end")
        self.undo_button = button("Undo")
        self.new_game_button = button("New game")
        self.seed_box = w.IntText(value=seed, description="seed", layout=w.Layout(width="150px"))
        self.autoplay = w.Checkbox(
            value=self.session.autoplay,
            description="bots move on their own",
            indent=False,
            layout=w.Layout(width="auto"),
        )
        self.status = w.HTML()
        self.action_buttons = w.HBox(layout=_wrap())  # buttons, or captioned rows (``action_rows``)
        self._pool: list[w.Button] = []
        self._pool_actions: dict[int, Any] = {}
        self._captions: list[w.HTML] = []
        self.cover_text = w.HTML()
        self.ready_button = button("Show my table", button_style="warning")
        self.cover = w.VBox([self.cover_text, self.ready_button], layout=w.Layout(display="none"))
        # As wide as its column: no side margins (a widget's own 2 px would stick out of it).
        self.table = GameTable(layout=w.Layout(width="100%", margin="2px 0"))

        self.next_step_button.on_click(lambda _: self.step())
        self.next_round_button.on_click(lambda _: self.next_round())
        self.play_to_end_button.on_click(lambda _: self.play_to_end())
        self.undo_button.on_click(lambda _: self.undo())
        self.new_game_button.on_click(lambda _: self.new_game(self.seed_box.value))
        self.ready_button.on_click(lambda _: self._reveal_table())
        self.autoplay.observe(self._autoplay_changed, names="value")
        controls = w.HBox(
            [
                self.next_step_button,
                self.next_round_button,
                self.play_to_end_button,
                self.undo_button,
                self.autoplay,
                self.seed_box,
                self.new_game_button,
            ],
            layout=_wrap(),
        )
        controls.add_class("mogul-controls")
        # Two columns that fold into one on a narrow screen: the table under the buttons on the
        # left, the side widgets (live charts) on the right, below the table on a phone.
        left = w.VBox(
            [*self.side_top(), self.action_buttons, self.cover, self.table], layout=_column()
        )
        right = w.VBox(self.side(), layout=_column())
        right.add_class("mogul-charts")
        body = w.HBox(
            [left, right],
            layout=w.Layout(flex_flow="row wrap", width="100%", align_items="flex-start"),
        )
        super().__init__([self.status, controls, body], layout=w.Layout(width="100%"))
        self.children = (*self.children, touch_style(self))
        self.add_class("mogul-game-player")  # a hook for the browser tests and for CSS
        self.session.on_change(lambda _: self.refresh())
        self.refresh()

    # --- what a subclass adds -------------------------------------------------------------------
    def side_top(self) -> list[w.Widget]:
        """Widgets at the top of the left column, above the action buttons and the table."""
        return []

    def side(self) -> list[w.Widget]:
        """Widgets of the right column (below the table on a phone)."""
        return []

    def position_analysis(self, **options: Any) -> Any:
        """The game's "analyse this position" panel following this player (``options`` go to
        the game's ``analyse_position`` face), or None when the game names none."""
        from mogul.widgets.position_analysis import PositionAnalysis

        if self.session.spec.faces.get("analyse_position") is None:
            return None
        return PositionAnalysis(self.session, stage_word=self.stage_word, **options)

    def draw(self, state: Any, deciding: bool) -> None:
        """Redraw the subclass's widgets for ``state`` (``deciding``: a human's buttons are up)."""

    def shown_rows(self, rows: list[Row]) -> list[Row]:
        """The rows of ``action_rows`` to show now (default: all of them)."""
        return rows

    def action_rows(self, legal: Sequence[Any]) -> list[Row]:
        """The legal actions as rows of buttons: (caption, [(action, button text)]) each.

        Default: one row without a caption, each button labelled by the game.
        """
        return [("", [(a, self.session.action_label(a)) for a in legal])]

    # --- the session, read through ------------------------------------------------------------
    @property
    def history(self) -> list[Any]:
        """Every state of the game so far (``session.history``)."""
        return self.session.history

    @property
    def actions(self) -> list[Any]:
        """The actions between the states of ``history``."""
        return self.session.actions

    @property
    def state(self) -> Any:
        """The state on the table now."""
        return self.session.state

    @property
    def bots(self) -> list[Any]:
        """The bot of each seat (None for a human seat)."""
        return self.session.bots

    @property
    def seats(self) -> list[Any]:
        """The seat specs the game was set up with."""
        return self.session.seats

    @property
    def humans(self) -> tuple[int, ...]:
        """The human seats."""
        return self.session.humans

    def labels(self) -> list[str]:
        """A note per seat: "you" / "human" for people, the bot's name for bots."""
        return self.session.labels()

    def human_to_act(self) -> bool:
        """True when the game waits for a human's decision."""
        return self.session.human_to_act()

    def event_log(self, lines: int = LOG_LINES) -> list[str]:
        """The last ``lines`` sentences of the game's events, oldest first."""
        return self.session.event_log(lines)

    def record(self) -> GameRecord:
        """The game so far as a ``GameRecord``."""
        return self.session.record()

    def on_change(self, callback: Callable[[SessionPlayer], None]) -> None:
        """Call ``callback(player)`` after every change of the state."""
        self.session.on_change(lambda _: callback(self))

    # --- moving ---------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game from ``seed`` (default: the seed box) with fresh bots."""
        seed = self.seed_box.value if seed is None else int(seed)
        self.seed_box.value = seed
        self.viewer = None
        self.session.new_game(seed)

    def act(self, action: Any) -> None:
        """Apply ``action`` for the human to act (raises ``IllegalActionError`` if not legal)."""
        self.session.act(action)

    def step(self) -> bool:
        """Let the bot to act make one move; False (and nothing happens) if a human must act."""
        return self.session.step()

    def next_round(self) -> None:
        """Let bots play until the next turn begins (or a human must act)."""
        self.session.next_round()

    def play_to_end(self) -> None:
        """Let bots play until the game ends (or a human must act)."""
        self.session.play_to_end()

    def undo(self) -> None:
        """Go back one decision: to the last human decision when bots move on their own."""
        self.session.undo()

    def _autoplay_changed(self, change: dict) -> None:
        self.session.set_autoplay(change["new"])
        if not change["new"]:
            self.refresh()

    # --- drawing --------------------------------------------------------------------------------
    def _needs_cover(self) -> bool:
        return self.hot_seat and self.human_to_act() and self.state.current_player != self.viewer

    def _reveal_table(self) -> None:
        self.viewer = self.state.current_player
        self.refresh()

    def refresh(self) -> None:
        """Redraw the status line, the buttons, the table and the subclass's widgets."""
        session, state = self.session, self.state
        covered = self._needs_cover()
        deciding = self.human_to_act() and not covered and not session.bot_error
        if self.hot_seat and deciding:
            self.viewer = state.current_player
        self.status.value = session.status()
        stuck = state.is_over or self.human_to_act() or bool(session.bot_error)
        for b in (self.next_step_button, self.next_round_button, self.play_to_end_button):
            b.disabled = stuck
        self.undo_button.disabled = session.undo_target() is None
        self._show_actions(state if deciding else None)
        self.cover.layout.display = None if covered else "none"
        self.table.layout.display = "none" if covered else None
        if covered:
            name = html.escape(state.names[state.current_player])
            alone = "only you can see the screen" if self.secret_hands else "you are at the screen"
            self.cover_text.value = (
                f"<h3>Pass the laptop to {name}.</h3><p>{name}: press the button when {alone}.</p>"
            )
        else:
            self.table.show(state, self._hidden_chips(), self.event_log(), self.labels())
        self.draw(state, deciding)

    def _hidden_chips(self) -> list[int]:
        """Other humans' seats in hot-seat mode, where hands are secret (chips held covered)."""
        if not self.secret_hands or self.state.is_over or not self.hot_seat:
            return []
        return [s for s in self.humans if s != self.viewer]

    def _show_actions(self, state: Any) -> None:
        legal = list(state.legal_actions()) if state is not None else []
        while len(self._pool) < len(legal):
            b = button("", button_style="primary")
            b.on_click(self._clicked)
            self._pool.append(b)
        while len(self._captions) < len(legal):
            self._captions.append(w.HTML(layout=w.Layout(width="100%", margin="4px 0 0 0")))
        self._pool_actions = {}
        rows = self.shown_rows(self.action_rows(legal)) if legal else []
        if len(rows) == 1 and not rows[0][0]:  # one row, no caption: the buttons themselves
            for b, (action, text) in zip(self._pool, rows[0][1], strict=False):
                b.description, b.tooltip = text, ""
                self._pool_actions[id(b)] = action
            self.action_buttons.children = tuple(self._pool[: len(rows[0][1])])
            return
        boxes: list[w.Widget] = []
        used = 0
        for n, (caption, row) in enumerate(rows):
            if caption:
                self._captions[n].value = f"<b>{html.escape(caption)}</b>"
                boxes.append(self._captions[n])
            buttons = self._pool[used : used + len(row)]
            used += len(row)
            for b, (action, text) in zip(buttons, row, strict=True):
                b.description = text
                b.tooltip = self.session.action_label(action)
                self._pool_actions[id(b)] = action
            boxes.append(w.HBox(buttons, layout=_wrap()))
        self.action_buttons.children = tuple(boxes)

    def buttons(self) -> list[w.Button]:
        """The action buttons shown now, row by row."""
        out: list[w.Button] = []
        for child in self.action_buttons.children:
            if isinstance(child, w.Button):
                out.append(child)
            elif isinstance(child, w.HBox):
                out += [b for b in child.children if isinstance(b, w.Button)]
        return out

    def _clicked(self, b: w.Button) -> None:
        action = self._pool_actions.get(id(b))
        if action is not None and self.human_to_act():
            self.act(action)
