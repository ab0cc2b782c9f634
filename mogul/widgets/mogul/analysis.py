"""``PositionAnalysis``: "analyse this position" for a game, live as it goes on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import pandas as pd

from mogul.analysis.mogul import analyse_position
from mogul.games.mogul.display import action_label
from mogul.plots.mogul.analysis import position_analysis_figure, position_traces
from mogul.widgets.live import live_figure

__all__ = ["PositionAnalysis"]


class PositionAnalysis(w.VBox):
    """For the watched seat to move: every legal action's expected final score and win chance.

    ``follow(game)`` (a ``GamePlayer`` or a ``GameSession``) analyses each decision of the
    ``seats`` watched (default: the game's human seats, else every seat) with
    ``analyse_position`` (``rollouts`` per action, ``policy`` for every seat afterwards) and
    draws it in ``figure``. Once the move is made, ``last_figure`` shows that analysis with
    the action chosen marked (it stays there while the next decision is analysed above).
    ``update(history, actions)`` does the same from any game's states and actions.
    """

    def __init__(
        self,
        game: Any = None,
        seats: Sequence[int] | None = None,
        rollouts: int = 2000,
        policy: str = "random",
        seed: int = 0,
        height: int = 300,
    ) -> None:
        self.seats = None if seats is None else tuple(seats)
        self.rollouts, self.policy, self.seed = rollouts, policy, seed
        self.analysis: pd.DataFrame | None = None  # the table of the decision analysed
        self.chosen: str | None = None  # the action taken there, once made
        self._state: Any = None  # the state analysed
        empty = pd.DataFrame(
            {
                "action": [""],
                "mean_score": [0.0],
                "score_low": [0.0],
                "score_high": [0.0],
                "win_chance": [0.0],
                "win_low": [0.0],
                "win_high": [0.0],
            }
        )
        self.figure = live_figure(position_analysis_figure(empty), height=height)
        self.last_figure = live_figure(position_analysis_figure(empty), height=height)
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
        if self._state is not None and self.chosen is None:
            for i in range(len(actions) - 1, -1, -1):
                if history[i] is self._state:
                    self.chosen = action_label(self._state, actions[i])
                    self._draw(
                        self.last_figure,
                        f"{self._name()} chose {self.chosen} (round {self._state.round})",
                    )
                    self.last_box.layout.display = None
                    break
        watched = self.seats is None or state.current in self.seats
        if state.is_over or not watched or state is self._state:
            return
        self._state, self.chosen = state, None
        self.analysis = analyse_position(
            state, rollouts=self.rollouts, policy=self.policy, seed=self.seed
        )
        self._draw(
            self.figure,
            f"{self._name()} to move: what each action is worth ({self.rollouts} games each)",
        )
        self.layout.display = None

    def _name(self) -> str:
        return self._state.names[self._state.current]

    def _draw(self, fig: Any, title: str) -> None:
        with fig.batch_update():
            for bars, trace in zip(
                fig.data, position_traces(self.analysis, self.chosen), strict=True
            ):
                bars.update(trace)
            fig.layout.title.text = title
