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

from mogul.auction import chain_payoff_curve
from mogul.kit.record import GameRecord
from mogul.kit.session import HUMAN, GameSession
from mogul.kit.spec import spec_for
from mogul.plots.auction import payoff_curve_figure
from mogul.plots.game import auction_steps, game_pot_ladder_figure
from mogul.plots.network import branch_choices, network_figure
from mogul.plots.template import rounded
from mogul.widgets.analysis import PositionAnalysis
from mogul.widgets.dashboard import ShareValueDashboard
from mogul.widgets.live import live_figure

__all__ = ["HUMAN", "GamePlayer", "GameTable"]

LOG_LINES = 8
_CHART_HEIGHT = 300
_MAP_HEIGHT = 460


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

    Beside the table (below it on a phone), ``auction_chart`` follows the pot of the current
    auction move by move; ``payoff_curve=True`` adds the human's payoff curve for it and
    ``dashboard=True`` a ``ShareValueDashboard`` (market values and scores), ``analysis=True``
    a ``PositionAnalysis`` ("analyse this position" for the human seats).

    In an edition with a railway map (``"rio-grande"``) the ``network_map`` comes first beside
    the table: the lines, the houses in seat colours, the stations the player to act may
    branch on now (a human with the sell right gets one button per such station) and a heavy
    ring on the house placed or moved last (``last_house``).
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
        dashboard: bool = False,
        analysis: bool = False,
        **setup: Any,
    ) -> None:
        self.session = GameSession(edition, seats, players, seed, autoplay, **setup)
        self.hot_seat = len(self.humans) > 1 if hot_seat is None else hot_seat
        self.viewer: int | None = None  # the human whose table is shown (hot seat)

        # Words, no icons: clearer, and no icon font fetched from the internet. Buttons size
        # to their words ("auto") and rows wrap, so a phone never shortens a label to "...".
        def button(text: str, **kwargs: Any) -> w.Button:
            return w.Button(description=text, layout=w.Layout(width="auto", min_width="fit-content"), **kwargs)

        self.next_step_button = button("Next step")
        self.next_round_button = button("Next round")
        self.play_to_end_button = button("Play to end")
        self.undo_button = button("Undo")
        self.new_game_button = button("New game")
        self.seed_box = w.IntText(value=seed, description="seed", layout=w.Layout(width="150px"))
        self.autoplay = w.Checkbox(
            value=self.session.autoplay, description="bots move on their own",
            indent=False, layout=w.Layout(width="auto"),
        )  # fmt: skip
        self.status = w.HTML()
        self.action_buttons = w.HBox(layout=_wrap())
        self._pool: list[w.Button] = []
        self._pool_actions: dict[int, Any] = {}
        self.cover_text = w.HTML()
        self.ready_button = button("Show my table", button_style="warning")
        self.cover = w.VBox([self.cover_text, self.ready_button], layout=w.Layout(display="none"))
        self.table = GameTable(layout=w.Layout(width="100%"))
        self.auction_chart = live_figure(game_pot_ladder_figure([self.session.history[0]], 0), height=_CHART_HEIGHT)
        self._auction_drawn: tuple | None = None
        self.curve: go.FigureWidget | None = None  # the human's payoff curve, if asked for
        self.curve_box = w.VBox(layout=w.Layout(display="none"))
        if payoff_curve:
            self.curve = live_figure(_curve_figure(), height=_CHART_HEIGHT)
            self.curve_box.children = (self.curve,)
        self.dashboard = ShareValueDashboard(self.session) if dashboard else None
        self.analysis = PositionAnalysis(self.session) if analysis else None
        self.network_map: go.FigureWidget | None = None  # the railway map (2013 edition)
        self._map_drawn: tuple | None = None
        if getattr(self.state.edition, "stations", None):
            self.network_map = live_figure(network_figure(self.state), height=_MAP_HEIGHT)

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
        # Two columns that fold into one on a narrow screen: the table under the buttons on the
        # left, the live charts on the right (below the table on a phone).
        left = w.VBox([self.action_buttons, self.cover, self.table], layout=_column())
        charts = [self.auction_chart, self.curve_box] + [x for x in (self.dashboard, self.analysis) if x]
        if self.network_map is not None:
            charts.insert(0, self.network_map)
        right = w.VBox(charts, layout=_column())
        right.add_class("mogul-charts")
        body = w.HBox([left, right], layout=w.Layout(flex_flow="row wrap", width="100%", align_items="flex-start"))
        super().__init__([self.status, controls, body], layout=w.Layout(width="100%"))
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

    def last_house(self) -> str | None:
        """The station of the house placed or moved last in this game (None before the first)."""
        history = self.history
        for i in range(len(history) - 1, 0, -1):
            before, after = history[i - 1].players, history[i].players
            for old, new in zip(before, after, strict=True):
                if new.houses != old.houses:
                    placed = set(new.houses) - set(old.houses)
                    if placed:
                        return placed.pop()
        return None

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
        self._draw_auction()
        if self.network_map is not None:
            self._draw_map()
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
                f"{state.names[state.current_player]}: payoff of dropping at pot k (now {state.pot})"
            )

    def _draw_auction(self) -> None:
        """Redraw the auction chart when the current auction's moves changed."""
        state = self.state
        steps = tuple(auction_steps(self.history, state.round))
        if (state.round, steps) == self._auction_drawn:
            return
        self._auction_drawn = (state.round, steps)
        fig = game_pot_ladder_figure(self.history, state.round)
        chart = self.auction_chart
        with chart.batch_update():
            for live, new in zip(chart.data, fig.data, strict=True):
                live.update(x=new.x, y=new.y, text=new.text, marker=new.marker, name=new.name)
            chart.layout.title.text = fig.layout.title.text
            chart.layout.xaxis.range = fig.layout.xaxis.range

    def _draw_map(self) -> None:
        """Redraw the railway map when the houses, the choices or the last house changed."""
        state = self.state
        last = self.last_house()
        choices = tuple(branch_choices(state))
        # the winner and then the runner-up may see the same choices: the title names who decides
        key = (tuple(p.houses for p in state.players), choices, last, state.current_player if choices else None)
        if key == self._map_drawn:
            return
        self._map_drawn = key
        fig = network_figure(state, highlight=last)
        live = self.network_map
        with live.batch_update():  # type: ignore[union-attr]
            for trace, new in zip(live.data, fig.data, strict=True):  # type: ignore[union-attr]
                trace.update(x=new.x, y=new.y, text=new.text, name=new.name)
            live.layout.title.text = fig.layout.title.text  # type: ignore[union-attr]

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
    fig.update_traces(cliponaxis=False)  # the best k and the pot marker sit on the axes at times
    fig.add_scatter(
        x=[0], y=[0.0], mode="markers", name="pot now", showlegend=False, cliponaxis=False,
        marker={"symbol": "line-ns-open", "size": 30, "color": "#b22222", "line": {"width": 3}},
    )  # fmt: skip
    return fig
