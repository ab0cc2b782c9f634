"""``ShareValueDashboard``: market values and scores of a game, live as the game goes on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from mogul.games.mogul.events import CardRevealed, CrashRevealed, SharesSold
from mogul.games.mogul.state import GameState
from mogul.games.mogul.tables import auctions_table, rounds_table
from mogul.plots.mogul.game import SCORE_TITLE, market_data, market_traces, score_data, score_traces
from mogul.plots.template import KIT_TEMPLATE
from mogul.widgets.live import live_figure

__all__ = ["ShareValueDashboard"]


class ShareValueDashboard(w.VBox):
    """Market value per company and scores over the rounds, live for a game.

    ``figure`` is a ``go.FigureWidget`` with two panels, each with its own legend: the
    company lines plus a "sale" marker trace (top) and one score line per player (below). ``update(states)`` redraws
    it from any state sequence; ``follow(game)`` redraws after every change of a
    ``GamePlayer`` or a ``GameSession``. The panels read the table as each auction opens, so
    they only change when a card is revealed or shares are sold; other steps cost nothing.
    """

    def __init__(self, game: Any = None, height: int = 520) -> None:
        self.figure: go.FigureWidget | None = None
        self.height = height
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
        fig = make_subplots(
            rows=2,
            cols=1,
            subplot_titles=("Market value per company", "Scores"),
            vertical_spacing=0.28,
        )
        first = rounds_table(states[:1])
        for trace in market_traces(first, ed):
            fig.add_trace(trace, row=1, col=1)
        for trace in score_traces(first, ed.score_track):
            trace.legend = "legend2"  # players get their own legend, under their own panel
            fig.add_trace(trace, row=2, col=1)
        legend = {
            "orientation": "h",
            "x": 0,
            "xanchor": "left",
            "xref": "paper",
            "yanchor": "top",
            "font": {"size": 12},
            "title": {"side": "left"},
        }
        fig.update_layout(
            template=KIT_TEMPLATE,
            height=self.height,
            # under the market panel's tick labels; along the bottom of the figure
            legend={
                **legend,
                "y": 0.56,
                "yref": "paper",
                "title": {**legend["title"], "text": "company"},
            },
            legend2={
                **legend,
                "y": 0,
                "yanchor": "bottom",
                "yref": "container",
                "title": {**legend["title"], "text": "player"},
            },
        )
        fig.update_xaxes(title_text="round", row=2, col=1, title_standoff=4)
        fig.update_yaxes(title_text="points per share sold", rangemode="tozero", row=1, col=1)
        fig.update_yaxes(title_text=SCORE_TITLE, row=2, col=1)
        self.figure = live_figure(fig)
        self.players = len(states[0].players)
        self.children = (self.figure,)

    def update(self, states: Sequence[GameState]) -> None:
        """Redraw both panels from a game's states (first decision to now)."""
        if not states:
            return
        if self.figure is None or self.players != len(states[0].players):
            self._build(states)
        change = _last_change(states)
        if change is self._drawn:
            return
        self._drawn = change
        ed = states[0].edition
        rounds = rounds_table(states)
        market = market_data(rounds, auctions_table(states), ed)
        scores = score_data(rounds, ed.score_track)
        lines = self.figure.data[: len(market["values"])]
        sales = self.figure.data[len(market["values"])]
        last = max(5, states[-1].round)
        with self.figure.batch_update():
            self.figure.layout.xaxis.range = self.figure.layout.xaxis2.range = [0.5, last + 0.5]
            for line, values in zip(lines, market["values"].values(), strict=True):
                line.x, line.y = market["x"], values
            marks = market["sales"]
            sales.x, sales.y, sales.text, sales.marker.color = (
                marks["x"],
                marks["y"],
                marks["text"],
                marks["colour"],
            )
            for line, d in zip(self.figure.data[len(lines) + 1 :], scores, strict=True):
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
