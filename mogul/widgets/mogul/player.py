"""Mogul's game player: the kit's ``SessionPlayer`` with the auction's live charts beside it.

``GamePlayer`` is what a class plays Mogul with: the controls, the buttons and the table of
``mogul.widgets.session_player.SessionPlayer`` (whose ``GameTable`` is re-exported here), and
beside the table the pot of the current auction move by move, the human's payoff curve, a
share-value dashboard, "analyse this position" and, in the 2013 edition, the railway map.
No rules live here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
import plotly.graph_objects as go

from mogul.auction.mogul import chain_payoff_curve
from mogul.kit.session import HUMAN
from mogul.plots.auction import payoff_curve_figure
from mogul.plots.mogul.game import auction_steps, game_pot_ladder_figure
from mogul.plots.mogul.network import branch_choices, network_figure
from mogul.plots.template import rounded
from mogul.widgets.live import live_figure
from mogul.widgets.mogul.analysis import PositionAnalysis
from mogul.widgets.mogul.dashboard import ShareValueDashboard
from mogul.widgets.session_player import LOG_LINES, GameTable, SessionPlayer

__all__ = ["HUMAN", "LOG_LINES", "GamePlayer", "GameTable"]

_CHART_HEIGHT = 300
_MAP_HEIGHT = 460


class GamePlayer(SessionPlayer):
    """A game with human and bot seats, stepped by buttons: a view of a ``GameSession``.

    ``seats`` gives one spec per seat: ``"human"`` or a bot (a registry name such as
    ``"value"`` or ``"threshold:drop_at=3"``, a bot class, a function that builds a bot, or
    a bot instance). ``game``: the edition (``"classic"``, ``"rio-grande"``); ``names``: the
    people's names. Setup keywords (``deck``, ``starting_shares``, ``start_player``,
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

    stage_word = "round"
    secret_hands = True  # chips are held covered in hand: hot seat hides other humans' chips

    def __init__(
        self,
        seats: Sequence[Any] = (HUMAN, "value", "value", "value"),
        names: Sequence[str] | None = None,
        seed: int = 0,
        game: str = "classic",
        hot_seat: bool | None = None,
        autoplay: bool | None = None,
        payoff_curve: bool = False,
        dashboard: bool = False,
        analysis: bool = False,
        **setup: Any,
    ) -> None:
        self._asked = {"payoff_curve": payoff_curve, "dashboard": dashboard, "analysis": analysis}
        self._auction_drawn: tuple | None = None
        self._map_drawn: tuple | None = None
        super().__init__(game, seats, names, seed, hot_seat, autoplay, **setup)

    def side(self) -> list[w.Widget]:
        """The railway map (2013), the auction chart, the payoff curve, dashboard and analysis."""
        session = self.session
        self.auction_chart = live_figure(
            game_pot_ladder_figure([session.history[0]], 0), height=_CHART_HEIGHT
        )
        self.curve: go.FigureWidget | None = None  # the human's payoff curve, if asked for
        self.curve_box = w.VBox(layout=w.Layout(display="none"))
        if self._asked["payoff_curve"]:
            self.curve = live_figure(_curve_figure(), height=_CHART_HEIGHT)
            self.curve_box.children = (self.curve,)
        self.dashboard = ShareValueDashboard(session) if self._asked["dashboard"] else None
        self.analysis = PositionAnalysis(session) if self._asked["analysis"] else None
        self.network_map: go.FigureWidget | None = None  # the railway map (2013 edition)
        if getattr(session.state.edition, "stations", None):
            self.network_map = live_figure(network_figure(session.state), height=_MAP_HEIGHT)
        charts = [
            self.network_map,
            self.auction_chart,
            self.curve_box,
            self.dashboard,
            self.analysis,
        ]
        return [c for c in charts if c is not None]

    def draw(self, state: Any, deciding: bool) -> None:
        """Follow the auction (and the map, and the human's payoff curve) to ``state``."""
        self._draw_auction()
        if self.network_map is not None:
            self._draw_map()
        if self.curve is not None:
            self._draw_curve(state if deciding else None)

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

    def _draw_curve(self, state: Any) -> None:
        curve = (
            chain_payoff_curve(self.history, state.current_player) if state is not None else None
        )
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
            # both axes follow the auction: the pot climbs as the moves go on
            chart.layout.xaxis.range = fig.layout.xaxis.range
            chart.layout.yaxis.range = fig.layout.yaxis.range

    def _draw_map(self) -> None:
        """Redraw the railway map when the houses, the choices or the last house changed."""
        state = self.state
        last = self.last_house()
        choices = tuple(branch_choices(state))
        # the winner and then the runner-up may see the same choices: the title names who decides
        key = (
            tuple(p.houses for p in state.players),
            choices,
            last,
            state.current_player if choices else None,
        )
        if key == self._map_drawn:
            return
        self._map_drawn = key
        fig = network_figure(state, highlight=last)
        live = self.network_map
        with live.batch_update():  # type: ignore[union-attr]
            for trace, new in zip(live.data, fig.data, strict=True):  # type: ignore[union-attr]
                trace.update(x=new.x, y=new.y, text=new.text, name=new.name)
            live.layout.title.text = fig.layout.title.text  # type: ignore[union-attr]


def _curve_figure() -> go.Figure:
    """An empty payoff-curve figure (line, equilibrium, best k) plus a "pot now" marker."""
    empty = pd.DataFrame({"k": [0], "payoff": [0.0], "equilibrium": [0.0]})
    fig = payoff_curve_figure(empty, title="Payoff of 'drop when the pot reaches k'")
    fig.update_traces(cliponaxis=False)  # the best k and the pot marker sit on the axes at times
    fig.add_scatter(
        x=[0],
        y=[0.0],
        mode="markers",
        name="pot now",
        showlegend=False,
        cliponaxis=False,
        marker={"symbol": "line-ns-open", "size": 30, "color": "#b22222", "line": {"width": 3}},
    )
    return fig
