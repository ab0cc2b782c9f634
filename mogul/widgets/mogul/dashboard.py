"""``ShareValueDashboard``: market values and scores of a game, live as the game goes on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go

from mogul.games.mogul.events import CardRevealed, CrashRevealed, SharesSold
from mogul.games.mogul.rules import GameState
from mogul.games.mogul.tables import auctions_table, rounds_table
from mogul.plots.mogul.game import market_data, market_traces, score_data, score_traces
from mogul.plots.template import KIT_TEMPLATE
from mogul.widgets.live import live_figure

__all__ = ["ShareValueDashboard"]


class ShareValueDashboard(w.VBox):
    """Market value per company and scores over the rounds, live for a game.

    Two live charts, one above the other: ``market`` (the company lines plus a "sale" marker
    trace) and ``scores`` (one line per player), each with its legend along its own bottom,
    so a legend that wraps to more rows on a phone makes its own chart taller instead of
    running into the next one. ``figure`` is the market chart. ``update(states)`` redraws
    both from any state sequence; ``follow(game)`` redraws after every change of a
    ``GamePlayer`` or a ``GameSession``. The charts read the table as each auction opens, so
    they only change when a card is revealed or shares are sold; other steps cost nothing.
    """

    def __init__(self, game: Any = None, height: int = 520) -> None:
        self.market: go.FigureWidget | None = None
        self.scores: go.FigureWidget | None = None
        self.height = height
        self._drawn: GameState | None = None  # the last state that changed what is drawn
        super().__init__([])
        self.add_class("mogul-dashboard")  # a hook for the browser tests and for CSS
        if game is not None:
            self.follow(game)

    @property
    def figure(self) -> go.FigureWidget | None:
        """The market chart (the first of the two)."""
        return self.market

    def follow(self, game: Any) -> None:
        """Draw ``game``'s states now and after each of its changes (a player or a session)."""
        game.on_change(lambda g: self.update(g.history))
        self.update(game.history)

    def _build(self, states: Sequence[GameState]) -> None:
        ed = states[0].edition
        first = rounds_table(states[:1])
        market = go.Figure(market_traces(first, ed))
        market.update_layout(
            template=KIT_TEMPLATE,
            title="Market value per company",
            xaxis_title="round",
            yaxis_title="points per<br>share sold",  # two short lines fit a 260 px chart
            legend_title_text="company",
        )
        market.update_yaxes(rangemode="tozero")
        scores = go.Figure(score_traces(first, ed.score_track))
        scores.update_layout(
            template=KIT_TEMPLATE,
            title="Scores",
            xaxis_title="round",
            yaxis_title="score (points,<br>+1 per 5 chips)",
            legend_title_text="player",
        )
        for fig in (market, scores):
            # the legend along the chart's own bottom: plotly makes room for as many rows as
            # it wraps to, where a legend placed between two panels runs into the lower one
            legend = {"yref": "container", "y": 0, "yanchor": "bottom", "font": {"size": 12}}
            fig.update_layout(legend={**legend, "title": {"side": "left"}})
        self.market = live_figure(market, height=self.height // 2)
        self.scores = live_figure(scores, height=self.height // 2)
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
        market = market_data(rounds, auctions_table(states), ed)
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
