"""A game table and a game player: the widgets a class plays with.

* ``GameTable`` draws one state as HTML (the game's ``table_html``).
* ``GamePlayer`` is a view of a ``mogul.kit.session.GameSession``: buttons for the instructor
  (next step, next round, play to end, undo, new game), one button per legal action for a
  human seat, the table, and a "pass the laptop" cover in hot-seat mode. The session holds
  the game (history, undo, bots, record, event log); the game's spec draws the table and
  names the buttons. No rules live here.

The widgets update widget values (``HTML.value``, figure data), never print into ``Output``
widgets, so they work the same in JupyterLab, Voila, nbval and headless tests.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
import plotly.graph_objects as go

from mogul.analysis import chain_payoff_curve
from mogul.kit.record import GameRecord
from mogul.kit.session import HUMAN, GameSession
from mogul.kit.spec import spec_for
from mogul.plots.auction import payoff_curve_figure
from mogul.plots.template import rounded
from mogul.widgets.live import keep_views_current

__all__ = ["HUMAN", "GamePlayer", "GameTable"]

LOG_LINES = 12


class GameTable(w.HTML):
    """A state drawn as an HTML table (its game's ``table_html``); ``show`` draws the next one."""

    def __init__(
        self,
        state: Any = None,
        hide_chips: Sequence[int] = (),
        log: Sequence[str] = (),
        labels: Sequence[str] | None = None,
    ):
        super().__init__()
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


class GamePlayer(w.VBox):
    """A game with human and bot seats, stepped by buttons: a view of a ``GameSession``.

    ``seats`` gives one spec per seat: ``"human"`` or a bot (a registry name such as
    ``"value"`` or ``"threshold:drop_at=3"``, a bot class, a function that builds a bot, or
    a bot instance). Setup keywords (``deck``, ``starting_shares``, ``start_player``,
    ``chips``, ``quick_start``) go to the game's ``new_game``.

    * ``Next step`` lets the bot to act make one move; ``Next round`` plays until the next card
      is revealed; ``Play to end`` until the crash. All three stop when a human must decide.
    * A human seat gets one button per legal action (``action_buttons``).
    * ``Undo`` goes back to the previous human decision (one step when no human plays or
      bots do not move on their own); ``New game`` deals again from the seed box.
    * ``autoplay``: bots move on their own after a human acted (default: when a human plays).
    * ``hot_seat``: with several humans at one screen, a "pass the laptop" cover hides the
      table between two humans' turns and each human sees only their own chips (default: on
      with two or more humans).
    * A bot that raises or answers with an illegal move stops the bots; the status line
      says which and why (``session.bot_error``), and Undo or New game go on from there.
    """

    def __init__(
        self,
        seats: Sequence[Any] = (HUMAN, "value", "value", "value"),
        players: Sequence[str] | None = None,
        seed: int = 0,
        edition: str = "classic",
        hot_seat: bool | None = None,
        autoplay: bool | None = None,
        payoff_curve: bool = False,
        **setup: Any,
    ) -> None:
        self.session = GameSession(edition, seats, players, seed, autoplay, **setup)
        self.hot_seat = len(self.humans) > 1 if hot_seat is None else hot_seat
        self.viewer: int | None = None  # the human whose table is shown (hot seat)

        button = {"layout": w.Layout(width="auto")}
        self.next_step_button = w.Button(description="Next step", icon="step-forward", **button)
        self.next_round_button = w.Button(description="Next round", icon="forward", **button)
        self.play_to_end_button = w.Button(description="Play to end", icon="fast-forward", **button)
        self.undo_button = w.Button(description="Undo", icon="undo", **button)
        self.new_game_button = w.Button(description="New game", icon="refresh", **button)
        self.seed_box = w.IntText(value=seed, description="seed", layout=w.Layout(width="160px"))
        self.autoplay = w.Checkbox(
            value=self.session.autoplay, description="bots move on their own",
            indent=False, layout=w.Layout(width="auto"),
        )  # fmt: skip
        self.status = w.HTML()
        self.action_buttons = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self._pool: list[w.Button] = []
        self._pool_actions: dict[int, Any] = {}
        self.cover_text = w.HTML()
        self.ready_button = w.Button(description="Show my table", button_style="warning", icon="eye")
        self.cover = w.VBox([self.cover_text, self.ready_button], layout=w.Layout(display="none"))
        self.table = GameTable()
        self.curve: go.FigureWidget | None = None  # the human's payoff curve, if asked for
        self.curve_box = w.VBox(layout=w.Layout(display="none"))
        if payoff_curve:
            self.curve = go.FigureWidget(_curve_figure())
            self.curve.layout.height = 300
            self.curve_box.children = (self.curve,)

        self.next_step_button.on_click(lambda _: self.step())
        self.next_round_button.on_click(lambda _: self.next_round())
        self.play_to_end_button.on_click(lambda _: self.play_to_end())
        self.undo_button.on_click(lambda _: self.undo())
        self.new_game_button.on_click(lambda _: self.new_game(self.seed_box.value))
        self.ready_button.on_click(lambda _: self._reveal_table())
        self.autoplay.observe(self._autoplay_changed, names="value")
        controls = w.HBox([self.next_step_button, self.next_round_button, self.play_to_end_button,
                           self.undo_button, self.autoplay])  # fmt: skip
        restart = w.HBox([self.seed_box, self.new_game_button])
        parts = [self.status, controls, restart, self.action_buttons, self.cover, self.table]
        super().__init__(parts + [self.curve_box])
        self.add_class("mogul-game-player")  # a hook for the browser tests and for CSS
        self.session.on_change(lambda _: self.refresh())
        self.refresh()

    # --- the session, read through ---------------------------------------------------------------
    @property
    def history(self) -> list[Any]:
        """Every state of the game so far, the first deal first (``session.history``)."""
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
        """The game so far as a ``GameRecord`` (save it, replay it, make tables of it)."""
        return self.session.record()

    def on_change(self, callback: Callable[[GamePlayer], None]) -> None:
        """Call ``callback(player)`` after every change of the state (for dashboards)."""
        self.session.on_change(lambda _: callback(self))

    # --- moving: the session does it, the session's followers redraw -----------------------------
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
        """Let bots play until the next card is revealed (or a human must act)."""
        self.session.next_round()

    def play_to_end(self) -> None:
        """Let bots play until the crash (or a human must act)."""
        self.session.play_to_end()

    def undo(self) -> None:
        """Go back one decision: to the last human decision when bots move on their own."""
        self.session.undo()

    def _autoplay_changed(self, change: dict) -> None:
        self.session.set_autoplay(change["new"])
        if not change["new"]:
            self.refresh()  # what undo goes back to has changed

    # --- drawing ------------------------------------------------------------------------------
    def _needs_cover(self) -> bool:
        return self.hot_seat and self.human_to_act() and self.state.current_player != self.viewer

    def _reveal_table(self) -> None:
        self.viewer = self.state.current_player
        self.refresh()

    def refresh(self) -> None:
        """Redraw the status line, the buttons and the table from the session."""
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
                f"<p>{name}: press the button when only you can see the screen.</p>"
            )
        else:
            self.table.value = session.spec.table_html(state, self._hidden_chips(), self.event_log(), self.labels())
            self.table.state = state
        if self.curve is not None:
            self._draw_curve(state if deciding else None)

    def _hidden_chips(self) -> list[int]:
        """Other humans' seats in hot-seat mode (their chips are held covered in hand)."""
        if self.state.is_over or not self.hot_seat:
            return []
        return [s for s in self.humans if s != self.viewer]

    def _draw_curve(self, state: Any) -> None:
        curve = chain_payoff_curve(self.history, state.current_player) if state is not None else None
        self.curve_box.layout.display = None if curve is not None else "none"
        if curve is None:
            return
        line, eq, best, now = self.curve.data  # type: ignore[union-attr]
        k = int(curve["payoff"].idxmax())
        top = float(curve["payoff"].max())
        with self.curve.batch_update():  # type: ignore[union-attr]
            line.x, line.y = rounded(curve["k"]), rounded(curve["payoff"])
            eq.x, eq.y = [0, int(curve["k"].iloc[-1])], rounded([curve["equilibrium"].iloc[0]] * 2)
            best.x, best.y = [k], rounded([top])
            now.x, now.y = [state.pot], rounded([top])
            self.curve.layout.title.text = (  # type: ignore[union-attr]
                f"{state.names[state.current_player]}: payoff of 'drop when the pot reaches k' (pot now {state.pot})"
            )
        keep_views_current(self.curve)

    def _show_actions(self, state: Any) -> None:
        legal = state.legal_actions() if state is not None else []
        while len(self._pool) < len(legal):
            button = w.Button(layout=w.Layout(width="auto"), button_style="primary")
            button.on_click(self._clicked)
            self._pool.append(button)
        self._pool_actions = {}
        for button, action in zip(self._pool, legal, strict=False):
            button.description = self.session.action_label(action)
            self._pool_actions[id(button)] = action
        self.action_buttons.children = tuple(self._pool[: len(legal)])

    def _clicked(self, button: w.Button) -> None:
        action = self._pool_actions.get(id(button))
        if action is not None and self.human_to_act():
            self.act(action)


def _curve_figure() -> go.Figure:
    """An empty payoff-curve figure (line, equilibrium, best k) plus a "pot now" marker."""
    empty = pd.DataFrame({"k": [0], "payoff": [0.0], "equilibrium": [0.0]})
    fig = payoff_curve_figure(empty, title="Payoff of 'drop when the pot reaches k'")
    fig.add_scatter(
        x=[0], y=[0.0], mode="markers", name="pot now", showlegend=False,
        marker={"symbol": "line-ns-open", "size": 30, "color": "#b22222", "line": {"width": 3}},
    )  # fmt: skip
    return fig
