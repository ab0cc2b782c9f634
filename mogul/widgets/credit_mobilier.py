"""Play Credit Mobilier in a notebook: ``CreditMobilierPlayer``, a ``SessionPlayer`` (controls,
buttons, hot-seat cover, table and log) with the dice and a live board. No rules live here: the
session applies the actions, the game labels them and draws its table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as w

from mogul.games.credit_mobilier.actions import Build, Buy, EndTurn, Move, PayRound
from mogul.kit.session import HUMAN
from mogul.plots.credit_mobilier import board_data, board_figure, board_title, dice_html
from mogul.widgets.live import live_figure
from mogul.widgets.session_player import Row, SessionPlayer

__all__ = ["CreditMobilierPlayer"]

BOARD_HEIGHT = 300

KIND_ORDER = (Build, Move, Buy, PayRound, EndTurn)

MANY_BUTTONS = 16
"""More action buttons than this, and the player shows one row at a time, picked by its name."""


def row_name(row: Row) -> str:
    """What a row of ``action_rows`` holds, in a word or two: its caption up to the "...",
    else the first word of its first button ("Buy")."""
    caption, buttons = row
    return caption.split(" ...")[0] if caption else buttons[0][1].split(" ")[0]


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
    return caption, [
        (a, " ".join(each[head : len(each) - tail])) for a, each in zip(actions, words, strict=True)
    ]


class CreditMobilierPlayer(SessionPlayer):
    """A game of Credit Mobilier with human and bot seats, stepped by buttons.

    Beside ``SessionPlayer``'s controls and table: the dice of the player on turn (``dice``:
    grey once used, faded when they do not count for the colour and kind chosen) and the board
    as a live figure (``board``: the legal builds dashed, the legal moves as arrows, a glow on
    what the last step built or crossed). The buttons come in a short row per kind and colour
    (``action_rows``); with more than ``MANY_BUTTONS``, one row at a time, picked in ``kinds``.

    ``game``: ``"credit-mobilier"``. ``seats``: one spec per seat, ``"human"`` or a bot name
    of the game (``"dividend"``, ``"random"``, ``"mc:rollouts=8"``), a bot class, a factory or
    an instance. ``seed`` deals the game; ``names``: the people's names (default Ann, Ben ...).
    Scripted setup keywords (``dice``, ``money``, ``stocks``,
    ``treasuries``, ``goods``, ``track``, ``start_player``) go to the game's ``new_game``.
    ``hot_seat`` (default: with two or more humans) covers the table between two humans'
    turns; nothing on this game's table is secret, so no one's cash is hidden.
    ``analysis=True`` adds "analyse this position" for the human seats (the generic
    ``PositionAnalysis`` panel with the game's ``analyse_position``; a mapping instead of True
    holds its options, such as ``{"rollouts": 12}``).
    """

    def __init__(
        self,
        game: str = "credit-mobilier",
        seats: Sequence[Any] = (HUMAN, "dividend", "dividend"),
        seed: int = 0,
        *,
        analysis: bool | Mapping[str, Any] = False,
        **options: Any,
    ) -> None:
        self._asked_analysis = analysis
        self.dice = w.HTML(layout=w.Layout(width="100%", margin="2px 0"))
        self.dice.add_class("mogul-dice-box")
        # with many legal actions (45 builds late in a game): one row at a time, picked here
        self.kinds = w.ToggleButtons(options=[], layout=w.Layout(display="none"))
        self.kinds.style.button_width = "auto"
        self._kind: str | None = None  # the row picked (its name)
        self._quiet = False
        self.kinds.observe(self._kind_picked, names="value")
        self._drawn: Any = None  # the state the board shows (kept, so its id is never reused)
        super().__init__(game, seats, seed, **options)

    def side_top(self) -> list[w.Widget]:
        return [self.dice, self.kinds]

    def shown_rows(self, rows: list[Row]) -> list[Row]:
        """All rows while they hold at most ``MANY_BUTTONS`` buttons; else the one picked in
        ``kinds`` (a button per row, named with its count: "Build red (15)"), the first at
        first, the same kind again while it stays legal."""
        if sum(len(buttons) for _, buttons in rows) <= MANY_BUTTONS:
            self.kinds.layout.display = "none"
            return rows
        names = [row_name(row) for row in rows]
        if self._kind not in names:
            self._kind = names[0]
        options = [
            f"{name} ({len(buttons)})" for name, (_, buttons) in zip(names, rows, strict=True)
        ]
        self._quiet = True
        try:
            self.kinds.options = options
            self.kinds.value = options[names.index(self._kind)]
        finally:
            self._quiet = False
        self.kinds.layout.display = None
        return [rows[names.index(self._kind)]]

    def _kind_picked(self, change: dict) -> None:
        if self._quiet or change["new"] is None:
            return
        self._kind = change["new"].rsplit(" (", 1)[0]
        self.refresh()

    def side(self) -> list[w.Widget]:
        self.board = live_figure(board_figure(self.session.state), height=BOARD_HEIGHT)
        self.board.add_class("mogul-board")
        asked = self._asked_analysis
        self.analysis = (
            self.position_analysis(**(asked if isinstance(asked, Mapping) else {}))
            if asked
            else None
        )
        return [self.board] if self.analysis is None else [self.board, self.analysis]

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
