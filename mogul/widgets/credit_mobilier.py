"""Play Credit Mobilier in a notebook: the dice, a live board, the table and a button per action.

``CreditMobilierPlayer`` is a view of a ``mogul.kit.session.GameSession`` of the game
"credit-mobilier", with the controls of ``GamePlayer`` (next step, next turn, play to end,
undo, new game from the seed box, bots moving on their own, hot seat) and:

* the five dice of the player on turn (``dice``): grey once used, faded when they do not
  count for the colour and kind chosen (``mogul.plots.credit_mobilier.dice_html``);
* the board as a live figure (``board``, updated in place): track by colour, goods pawns,
  the legal builds (dashed) and moves (arrows) of the player to act, a glow on what the last
  step built or crossed;
* one button per legal unit action for a human seat: builds and moves in a short row per
  colour under a caption of the words their labels share, then buys, dividends and End turn
  (each button's tooltip is the game's whole ``action_label``);
* the game's table (cash, stock, treasuries) with the event log.

``SessionPlayer`` holds the parts that do not depend on the game (controls, buttons, hot-seat
cover, table, status line); a player for another game can extend it the same way. No rules
live here: the session applies the actions, the game labels them and draws its table.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from mogul.games.credit_mobilier.actions import Build, Buy, EndTurn, Move, PayRound
from mogul.kit.record import GameRecord
from mogul.kit.session import HUMAN, GameSession
from mogul.plots.credit_mobilier import board_data, board_figure, board_title, dice_html
from mogul.widgets.live import live_figure
from mogul.widgets.player import LOG_LINES, GameTable, _column, _wrap

__all__ = ["CreditMobilierPlayer", "SessionPlayer"]

BOARD_HEIGHT = 300

Row = tuple[str, list[tuple[Any, str]]]
"""A row of action buttons: a caption ("" for none) and (action, button text) pairs."""


def button(text: str, **kwargs: Any) -> w.Button:
    """A button sized to its words (a phone never cuts a label to "...")."""
    return w.Button(description=text, layout=w.Layout(width="auto", min_width="fit-content"), **kwargs)


class SessionPlayer(w.VBox):
    """The game-independent part of a game player: a view of a ``GameSession``.

    Controls (``Next step``, ``Next turn``, ``Play to end``, ``Undo``, bots moving on their
    own, the seed box and ``New game``), the status line, one button per legal action for a
    human seat (``action_rows`` groups them), a "pass the laptop" cover between two humans'
    turns in hot-seat mode, and the game's table with the event log. A subclass gives the
    widgets of its side column (``side``) and redraws them in ``draw``.
    """

    stage_word = "turn"  # "Next turn": what the session's next_round waits for

    def __init__(
        self,
        game: str,
        seats: Sequence[Any],
        players: Sequence[str] | None = None,
        seed: int = 0,
        hot_seat: bool | None = None,
        autoplay: bool | None = None,
        **setup: Any,
    ) -> None:
        self.session = GameSession(game, seats, players, seed, autoplay, **setup)
        self.hot_seat = len(self.humans) > 1 if hot_seat is None else hot_seat
        self.viewer: int | None = None  # the human who last saw the table (hot seat)

        self.next_step_button = button("Next step")
        self.next_round_button = button(f"Next {self.stage_word}")
        self.play_to_end_button = button("Play to end")
        self.undo_button = button("Undo")
        self.new_game_button = button("New game")
        self.seed_box = w.IntText(value=seed, description="seed", layout=w.Layout(width="150px"))
        self.autoplay = w.Checkbox(
            value=self.session.autoplay, description="bots move on their own",
            indent=False, layout=w.Layout(width="auto"),
        )  # fmt: skip
        self.status = w.HTML()
        self.action_buttons = w.VBox(layout=w.Layout(width="100%"))
        self._pool: list[w.Button] = []
        self._pool_actions: dict[int, Any] = {}
        self._captions: list[w.HTML] = []
        self.cover_text = w.HTML()
        self.ready_button = button("Show my table", button_style="warning")
        self.cover = w.VBox([self.cover_text, self.ready_button], layout=w.Layout(display="none"))
        self.table = GameTable(layout=w.Layout(width="100%"))

        self.next_step_button.on_click(lambda _: self.step())
        self.next_round_button.on_click(lambda _: self.next_round())
        self.play_to_end_button.on_click(lambda _: self.play_to_end())
        self.undo_button.on_click(lambda _: self.undo())
        self.new_game_button.on_click(lambda _: self.new_game(self.seed_box.value))
        self.ready_button.on_click(lambda _: self._reveal_table())
        self.autoplay.observe(self._autoplay_changed, names="value")
        controls = w.HBox([self.next_step_button, self.next_round_button, self.play_to_end_button,
                           self.undo_button, self.autoplay, self.seed_box, self.new_game_button],
                          layout=_wrap())  # fmt: skip
        controls.add_class("mogul-controls")
        left = w.VBox([*self.side_top(), self.action_buttons, self.cover, self.table], layout=_column())
        right = w.VBox(self.side(), layout=_column())
        right.add_class("mogul-charts")
        body = w.HBox([left, right], layout=w.Layout(flex_flow="row wrap", width="100%", align_items="flex-start"))
        super().__init__([self.status, controls, body], layout=w.Layout(width="100%"))
        self.add_class("mogul-game-player")
        self.session.on_change(lambda _: self.refresh())
        self.refresh()

    # --- what a subclass adds -------------------------------------------------------------------
    def side_top(self) -> list[w.Widget]:
        """Widgets at the top of the left column, above the action buttons and the table."""
        return []

    def side(self) -> list[w.Widget]:
        """Widgets of the right column (below the table on a phone)."""
        return []

    def draw(self, state: Any, deciding: bool) -> None:
        """Redraw the subclass's widgets for ``state`` (``deciding``: a human's buttons are up)."""

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
            self.cover_text.value = (
                f"<h3>Pass the laptop to {name}.</h3>"
                f"<p>{name}: press the button when you are at the screen.</p>"
            )
        else:
            self.table.show(state, (), self.event_log(), self.labels())
        self.draw(state, deciding)

    def _show_actions(self, state: Any) -> None:
        legal = list(state.legal_actions()) if state is not None else []
        while len(self._pool) < len(legal):
            b = w.Button(layout=w.Layout(width="auto", min_width="fit-content"), button_style="primary")
            b.on_click(self._clicked)
            self._pool.append(b)
        while len(self._captions) < len(legal):
            self._captions.append(w.HTML(layout=w.Layout(width="100%", margin="4px 0 0 0")))
        self._pool_actions = {}
        boxes: list[w.Widget] = []
        used = 0
        for n, (caption, row) in enumerate(self.action_rows(legal) if legal else []):
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
        return [b for box in self.action_buttons.children if isinstance(box, w.HBox) for b in box.children]

    def _clicked(self, b: w.Button) -> None:
        action = self._pool_actions.get(id(b))
        if action is not None and self.human_to_act():
            self.act(action)


KIND_ORDER = (Build, Move, Buy, PayRound, EndTurn)


def shared_words(actions: Sequence[Any], labels: Sequence[str]) -> Row:
    """A row for several similar actions: the words all labels share at the start and at the
    end become the caption (with "..." between), the rest of each label its button's text.

    A single action keeps its whole label and no caption.
    """
    if len(actions) < 2:
        return "", list(zip(actions, labels, strict=True))
    words = [label.split() for label in labels]
    shortest = min(len(each) for each in words)
    head = 0
    while head < shortest - 1 and len({each[head] for each in words}) == 1:
        head += 1
    tail = 0
    while tail < shortest - head - 1 and len({each[-1 - tail] for each in words}) == 1:
        tail += 1
    first = words[0]
    caption = " ".join([*first[:head], "...", *first[len(first) - tail :]])
    return caption, [(a, " ".join(each[head : len(each) - tail])) for a, each in zip(actions, words, strict=True)]


class CreditMobilierPlayer(SessionPlayer):
    """A game of Credit Mobilier with human and bot seats, stepped by buttons.

    ``seats``: one spec per seat, ``"human"`` or a bot name of the game (``"dividend"``,
    ``"random"``, ``"mc:rollouts=8"``), a bot class, a factory or an instance. ``players``:
    names (default Ann, Ben ...). Scripted setup keywords (``dice``, ``money``, ``stocks``,
    ``treasuries``, ``goods``, ``track``, ``start_player``) go to the game's ``new_game``.
    ``hot_seat`` (default: with two or more humans) covers the table between two humans'
    turns; nothing on this game's table is secret, so no one's cash is hidden.
    """

    def __init__(
        self,
        seats: Sequence[Any] = (HUMAN, "dividend", "dividend"),
        players: Sequence[str] | None = None,
        seed: int = 0,
        hot_seat: bool | None = None,
        autoplay: bool | None = None,
        **setup: Any,
    ) -> None:
        self.dice = w.HTML(layout=w.Layout(width="100%"))
        self.dice.add_class("mogul-dice-box")
        self._drawn: Any = None  # the state the board shows (kept, so its id is never reused)
        super().__init__("credit-mobilier", seats, players, seed, hot_seat, autoplay, **setup)

    def side_top(self) -> list[w.Widget]:
        return [self.dice]

    def side(self) -> list[w.Widget]:
        self.board = live_figure(board_figure(self.session.state), height=BOARD_HEIGHT)
        self.board.add_class("mogul-board")
        return [self.board]

    def action_rows(self, legal: Sequence[Any]) -> list[Row]:
        """A row per kind of action (build, move, buy, dividends, end turn).

        Builds and moves come in a row per colour when there are several: the caption holds
        the words their labels share ("Build red ... (+$2 Credit Mobilier)"), each button the
        rest ("A5-A6"), and its tooltip the whole label. A phone then shows a few short rows
        instead of a screen of long buttons.
        """
        rows: list[Row] = []
        for kind in KIND_ORDER:
            of_kind = [a for a in legal if type(a) is kind]
            if kind in (Build, Move):
                for colour in dict.fromkeys(a.colour for a in of_kind):
                    group = [a for a in of_kind if a.colour == colour]
                    rows.append(shared_words(group, [self.session.action_label(a) for a in group]))
            elif of_kind:
                rows.append(("", [(a, self.session.action_label(a)) for a in of_kind]))
        return rows

    def draw(self, state: Any, deciding: bool) -> None:
        """Redraw the dice and the board (the board only when its picture changes)."""
        self.dice.value = dice_html(state)
        if state is self._drawn:
            return
        self._drawn = state
        data = board_data(state, state.legal_actions())
        with self.board.batch_update():
            for trace in self.board.data:
                d = data[trace.name]
                trace.x, trace.y, trace.text = d["x"], d["y"], d["text"]
                if "size" in d:
                    trace.marker.size = d["size"]
            self.board.layout.title.text = board_title(state)
