"""``PositionAnalysis``: "analyse this position" for any game, live as it goes on.

A game names its analysis as the face ``"analyse_position"`` of its spec (``mogul.kit.spec``):
``analyse_position(state, seat=None, ...)`` returns one row per legal action with the columns
``action``, ``mean_score``, ``score_low``, ``score_high``, ``win_chance``, ``win_low``,
``win_high`` and ``rollouts``. This panel draws that frame for every game; a
``SessionPlayer`` shows it with ``position_analysis()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from mogul.kit.spec import GameSpec, spec_for
from mogul.plots.template import KIT_TEMPLATE, rounded
from mogul.widgets.live import live_figure

__all__ = ["PositionAnalysis", "analysis_figure", "analysis_traces"]

PLAIN = "#9aa5b1"
CHOSEN = "#d95f02"
COLUMNS = ("action", "mean_score", "score_low", "score_high", "win_chance", "win_low", "win_high")
"""The columns every game's ``analyse_position`` frame has (and ``rollouts``)."""


def analysis_traces(analysis: pd.DataFrame, chosen: str | None = None) -> list[dict]:
    """The two bar traces' data (mean score, win chance), each with its 95% interval as an
    error bar; the ``chosen`` action's bars (its ``action`` text) are coloured and labelled."""
    labels = list(analysis["action"])
    colours = [CHOSEN if label == chosen else PLAIN for label in labels]
    text = ["chosen" if label == chosen else "" for label in labels]
    out = []
    for value, low, high, digits in (
        ("mean_score", "score_low", "score_high", 2),
        ("win_chance", "win_low", "win_high", 3),
    ):
        x = analysis[value]
        out.append(
            {
                "x": rounded(x, digits),
                "y": labels,
                "marker": {"color": colours},
                "text": text,
                "error_x": {
                    "type": "data",
                    "symmetric": False,
                    "array": rounded(analysis[high] - x, digits),
                    "arrayminus": rounded(x - analysis[low], digits),
                    "color": "#333",
                },
            }
        )
    return out


def analysis_figure(
    analysis: pd.DataFrame, chosen: str | None = None, title: str = "What each action is worth"
) -> go.Figure:
    """Horizontal bars per legal action: mean score (left) and win chance (right), with intervals."""
    fig = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        horizontal_spacing=0.06,
        subplot_titles=("mean score", "win chance"),
    )
    for col, trace in enumerate(analysis_traces(analysis, chosen), start=1):
        fig.add_bar(
            orientation="h", textposition="inside", showlegend=False, row=1, col=col, **trace
        )
    fig.update_layout(template=KIT_TEMPLATE, title={"text": title}, bargap=0.35, margin={"t": 70})
    fig.update_yaxes(autorange="reversed", row=1, col=1)  # the first action on top
    fig.update_xaxes(tickformat=".0%", rangemode="tozero", row=1, col=2)
    return fig


class PositionAnalysis(w.VBox):
    """For the watched seat to move: every legal action's mean score and win chance.

    ``follow(game)`` (a ``SessionPlayer`` or a ``GameSession``) analyses each decision of the
    ``seats`` watched (default: the game's human seats, else every seat) with the game's
    ``analyse_position`` face (or ``analyse``, any function of a state returning that frame;
    ``options`` go to it) and draws it in ``figure``. Once the move is made, ``last_figure``
    shows that analysis with the action chosen marked. ``update(history, actions)`` does the
    same from any game's states and actions.
    """

    def __init__(
        self,
        game: Any = None,
        seats: Sequence[int] | None = None,
        analyse: Callable[..., pd.DataFrame] | None = None,
        height: int = 300,
        **options: Any,
    ) -> None:
        self.seats = None if seats is None else tuple(seats)
        self.analyse, self.options = analyse, options
        self.analysis: pd.DataFrame | None = None  # the table of the decision analysed
        self.chosen: str | None = None  # the action taken there, once made
        self._state: Any = None  # the state analysed
        self._spec: GameSpec | None = None
        empty = pd.DataFrame({c: [""] if c == "action" else [0.0] for c in COLUMNS})
        self.figure = live_figure(analysis_figure(empty), height=height)
        self.last_figure = live_figure(analysis_figure(empty), height=height)
        self.last_box = w.VBox([self.last_figure], layout=w.Layout(display="none"))
        super().__init__([self.figure, self.last_box], layout=w.Layout(display="none"))
        self.add_class("mogul-position-analysis")
        if game is not None:
            self.follow(game)

    def follow(self, game: Any) -> None:
        """Analyse ``game``'s decisions now and after each of its changes."""
        if self.seats is None:
            self.seats = tuple(getattr(game, "humans", ())) or None
        game.on_change(lambda g: self.update(g.history, g.actions))
        self.update(game.history, game.actions)

    def update(self, history: Sequence[Any], actions: Sequence[Any]) -> None:
        """Mark the move made at the state analysed; analyse the state now if a watched seat moves."""
        state = history[-1]
        spec = self._spec = self._spec or spec_for(state)
        if self._state is not None and self.chosen is None:
            for i in range(len(actions) - 1, -1, -1):
                if history[i] is self._state:
                    self.chosen = spec.action_label(self._state, actions[i])
                    stage = spec.stage(self._state)
                    self._draw(self.last_figure, f"{self._name()} chose {self.chosen} (at {stage})")
                    self.last_box.layout.display = None
                    break
        watched = self.seats is None or state.current_player in self.seats
        if state.is_over or not watched or state is self._state:
            return
        analyse = self.analyse or spec.face("analyse_position")
        if analyse is None:
            raise ValueError(f"the game {spec.name!r} names no analyse_position face")
        self._state, self.chosen = state, None
        self.analysis = analyse(state, **self.options)
        rollouts = int(self.analysis["rollouts"].iloc[0]) if len(self.analysis) else 0
        self._draw(
            self.figure,
            f"{self._name()} to move: what each action is worth ({rollouts} games each)",
        )
        self.layout.display = None

    def _name(self) -> str:
        return self._state.names[self._state.current_player]

    def _draw(self, fig: Any, title: str) -> None:
        with fig.batch_update():
            for bars, trace in zip(
                fig.data, analysis_traces(self.analysis, self.chosen), strict=True
            ):
                bars.update(trace)
            fig.layout.title.text = title
