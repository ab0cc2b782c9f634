"""Mogul's widgets: the game player (``GamePlayer``) and the live charts beside it, the
share-value dashboard (``ShareValueDashboard``) and "analyse this position" in Mogul's words
(``PositionAnalysis``). No rules live here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
import plotly.graph_objects as go

from mogul.analysis.mogul import analyse_position
from mogul.auction.mogul import chain_payoff_curve
from mogul.games.mogul.events import CardRevealed, CrashRevealed, SharesSold
from mogul.games.mogul.rules import GameState
from mogul.games.mogul.tables import auctions_table, rounds_table
from mogul.kit.session import HUMAN
from mogul.plots.auction import flat_from, payoff_curve_figure
from mogul.plots.mogul.board import branch_choices, network_figure
from mogul.plots.mogul.game import (
    auction_steps,
    game_pot_ladder_figure,
    last_auction,
    market_data,
    market_traces,
    score_data,
    score_traces,
)
from mogul.plots.template import laid_out, rounded
from mogul.widgets.live import live_figure
from mogul.widgets.position_analysis import PositionAnalysis as Panel
from mogul.widgets.session_player import SessionPlayer

__all__ = ["GamePlayer", "PositionAnalysis", "ShareValueDashboard"]


class ShareValueDashboard(w.VBox):
    """Market value per company and scores over the rounds, live for a game.

    Two live charts, one above the other: ``market`` (the company lines plus a "sale" marker
    trace) and ``scores`` (one line per player), each with its legend along its own bottom,
    so a legend that wraps to more rows on a phone makes its own chart taller instead of
    running into the next one. ``update(states)`` redraws both from any state sequence;
    ``follow(game)`` redraws after every change of a ``GamePlayer`` or a ``GameSession``. The
    charts read the table as each auction opens, so they only change when a card is revealed
    or shares are sold; other steps cost nothing.
    """

    def __init__(self, game: Any = None) -> None:
        self.market: go.FigureWidget | None = None
        self.scores: go.FigureWidget | None = None
        self._drawn: GameState | None = None  # the last state that changed what is drawn
        super().__init__([])
        self.add_class("mogul-dashboard")  # a hook for the browser tests and for CSS
        if game is not None:
            self.follow(game)

    def follow(self, game: Any) -> None:
        """Draw ``game``'s states now and after each of its changes (a player or a session)."""
        game.on_change(lambda g: self.update(g.history))
        self.update(game.history)

    def _build(self, states: Sequence[GameState]) -> None:
        ed = states[0].edition
        first = rounds_table(states[:1])
        market = laid_out(
            go.Figure(market_traces(first, ed)),
            "Market value per company",
            x="round",
            y="points per<br>share sold",  # two short lines fit a 260 px chart
            legend_title_text="company",
        )
        market.update_yaxes(rangemode="tozero")
        scores = laid_out(
            go.Figure(score_traces(first, ed.score_track)),
            "Scores",
            x="round",
            y="score (points,<br>+1 per 5 chips)",
            legend_title_text="player",
        )
        for fig in (market, scores):
            # the legend along the chart's own bottom: plotly makes room for as many rows as
            # it wraps to, where a legend placed between two panels runs into the lower one
            legend = {"yref": "container", "y": 0, "yanchor": "bottom", "font": {"size": 12}}
            fig.update_layout(legend={**legend, "title": {"side": "left"}})
        self.market = live_figure(market, height=260)
        self.scores = live_figure(scores, height=260)
        self.players = len(states[0].players)
        self.children = (self.market, self.scores)

    def update(self, states: Sequence[GameState]) -> None:
        """Redraw both charts from a game's states (first decision to now)."""
        if not states:
            return
        if self.market is None or self.players != len(states[0].players):
            self._build(states)
        change = _last_change(states)
        if change is self._drawn:
            return
        self._drawn = change
        ed = states[0].edition
        rounds = rounds_table(states)
        market = market_data(rounds, ed, auctions_table(states))
        scores = score_data(rounds, ed.score_track)
        lines = self.market.data[: len(market["values"])]
        sales = self.market.data[len(market["values"])]
        rounds_shown = [0.5, max(5, states[-1].round) + 0.5]
        with self.market.batch_update():
            self.market.layout.xaxis.range = rounds_shown
            for line, values in zip(lines, market["values"].values(), strict=True):
                line.x, line.y = market["x"], values
            marks = market["sales"]
            sales.x, sales.y, sales.text, sales.marker.color = (
                marks["x"],
                marks["y"],
                marks["text"],
                marks["colour"],
            )
        with self.scores.batch_update():
            self.scores.layout.xaxis.range = rounds_shown
            for line, d in zip(self.scores.data, scores, strict=True):
                line.x, line.y, line.customdata = d["x"], d["score"], d["customdata"]


def _last_change(states: Sequence[GameState]) -> GameState:
    """The latest state whose step revealed a card (or the crash) or sold shares.

    The dashboard's data (``rounds_table`` rows at each reveal, sales) depends only on the
    states up to this one, so an unchanged answer means there is nothing to redraw.
    """
    for state in reversed(states):
        for event in state.events:
            kind = type(event)
            if (
                kind is CardRevealed
                or kind is CrashRevealed
                or (kind is SharesSold and event.count)
            ):
                return state
    return states[0]


class PositionAnalysis(Panel):
    """The kit's "analyse this position" panel (``mogul.widgets.position_analysis``) in Mogul's
    words: ``analyse_position``'s expected final score and win chance, stages named rounds."""

    def __init__(
        self,
        game: Any = None,
        seats: Sequence[int] | None = None,
        **options: Any,
    ) -> None:
        """``options`` (``rollouts=2000``, ``policy="random"``, ``seed=0``) go to
        ``analyse_position``."""
        super().__init__(game, seats, analyse_position, "expected final score", "round", **options)


_CHART_HEIGHT = 300
_MAP_HEIGHT = 460


class GamePlayer(SessionPlayer):
    """A game of Mogul with human and bot seats, stepped by buttons: a ``SessionPlayer``.

    ``game``: the edition (``"classic"``, ``"rio-grande"``). ``seats`` gives one spec per
    seat: ``"human"`` or a bot (a registry name such as ``"value"`` or
    ``"threshold:drop_at=3"``, a bot class, a function that builds a bot, or a bot instance).
    ``seed`` deals the game; ``names``: the people's names. Setup keywords (``deck``,
    ``starting_shares``, ``start_player``, ``chips``, ``quick_start``) go to the game's
    ``new_game``. ``Next round`` plays until the next card is revealed; in hot seat each human
    sees only their own chips.

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
        game: str = "classic",
        seats: Sequence[Any] = (HUMAN, "value", "value", "value"),
        seed: int = 0,
        *,
        payoff_curve: bool = False,
        dashboard: bool = False,
        analysis: bool = False,
        **options: Any,
    ) -> None:
        self._asked = {"payoff_curve": payoff_curve, "dashboard": dashboard, "analysis": analysis}
        self._auction_drawn: tuple | None = None
        self._map_drawn: tuple | None = None
        super().__init__(game, seats, seed, **options)

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
        # the k axis stops where the curve stops changing (past the chips this player can
        # bid it is flat): the decision fills the chart, not a sixth of it
        reach = max(flat_from(curve["payoff"]), state.pot + 1)
        curve = curve.iloc[: reach + 1]
        k = int(curve["payoff"].idxmax())
        top, floor = float(curve["payoff"].max()), float(curve["payoff"].min())
        with self.curve.batch_update():  # type: ignore[union-attr]
            line.x, line.y = rounded(curve["k"]), rounded(curve["payoff"])
            eq.x, eq.y = [0, int(curve["k"].iloc[-1])], rounded([curve["equilibrium"].iloc[0]] * 2)
            best.x, best.y = [k], rounded([top])
            now.x, now.y = [state.pot], rounded([floor])  # at the foot, clear of the best k's star
            self.curve.layout.xaxis.range = [-0.5, int(curve["k"].iloc[-1]) + 0.5]  # type: ignore[union-attr]
            self.curve.layout.title.text = (  # type: ignore[union-attr]
                f"{state.names[state.current_player]}: payoff of dropping at pot k (now {state.pot})"
            )

    def _draw_auction(self) -> None:
        """Redraw the auction chart when the current auction's moves changed."""
        state = self.state
        # once the crash has ended the game there is no auction of its round: the last one
        shown = last_auction(self.history) if state.is_over else state.round
        shown = state.round if shown is None else shown
        steps = tuple(auction_steps(self.history, shown))
        if (shown, steps) == self._auction_drawn:
            return
        self._auction_drawn = (shown, steps)
        title = f"The last auction (round {shown}): game over" if state.is_over else None
        fig = game_pot_ladder_figure(self.history, shown, title)
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
