"""``PositionAnalysis``: "analyse this position" for any game, live as it goes on.

A game names its analysis as the face ``"analyse_position"`` of its spec (``mogul.kit.spec``):
``analyse_position(state, seat=None, ...)`` returns one row per legal action with the columns
``action``, ``mean_score``, ``score_low``, ``score_high``, ``win_chance``, ``win_low``,
``win_high`` and ``rollouts``. This panel draws that frame for every game; a
``SessionPlayer`` shows it with ``position_analysis()``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
import plotly.graph_objects as go

from mogul.analysis.position import grouped, reading
from mogul.kit.spec import GameSpec, spec_for
from mogul.plots.analysis import (
    figure_height,
    position_analysis_figure,
    position_traces,
    value_axis,
)
from mogul.widgets.live import live_figure
from mogul.widgets.touch import touch_style

__all__ = ["COLUMNS", "DecisionBrowser", "PositionAnalysis"]

COLUMNS = ("action", "mean_score", "score_low", "score_high", "win_chance", "win_low", "win_high")
"""The columns every game's ``analyse_position`` frame has (and ``rollouts``)."""


def _caption(text: str) -> str:
    """A line of text above a chart, as HTML that wraps on a narrow screen."""
    return f'<div style="line-height: 1.3">{html.escape(text)}</div>'


def _fitting(**layout: str) -> w.Layout:
    """A box as wide as its column that may shrink with it."""
    return w.Layout(width="100%", min_width="0", **layout)


def _no_analysis(score_title: str) -> go.Figure:
    """The one-panel chart before any analysis: one blank bar."""
    empty = pd.DataFrame({c: [""] if c == "action" else [0.0] for c in COLUMNS})
    return position_analysis_figure(empty, score_title=score_title, score=False)


def _redraw(
    fig: Any, shown: pd.DataFrame, chosen: str | None, title: str, score_title: str
) -> None:
    """Draw the analysis ``shown`` in the live chart ``fig``, the ``chosen`` action marked."""
    with fig.batch_update():
        for bars, trace in zip(fig.data, position_traces(shown, chosen, score=False), strict=True):
            bars.update(trace)
        fig.layout.title.text = title
        fig.layout.xaxis.update(value_axis(shown, score_title))
        fig.layout.height = figure_height(shown["action"])


class PositionAnalysis(w.VBox):
    """For the watched seat to move: every legal action's win chance and mean score.

    ``follow(game)`` (a ``SessionPlayer`` or a ``GameSession``) analyses each decision of the
    ``seats`` watched (default: the game's human seats, else every seat) with the game's
    ``analyse_position`` face (or ``analyse``, any function of a state returning that frame;
    ``options`` go to it) and draws it in ``figure``: a bar per action, its win chance with the
    95% interval, the mean score (named ``score_title``) in the hover text (when no action won
    a single rollout, the bars are the mean score); actions whose rollouts came out exactly
    alike share one bar (``grouped``); one panel, so that a phone or a player's side column
    holds it. The chart is 300 px tall until the first analysis; then it grows with the number
    of actions. Once the game is over, the panel says so. Once the move is made,
    ``last_figure`` shows that analysis with the action chosen marked, its stage named with
    ``stage_word`` ("turn 3"). ``update(history, actions)`` does the same from any game's
    states and actions.
    """

    def __init__(
        self,
        game: Any = None,
        seats: Sequence[int] | None = None,
        analyse: Callable[..., pd.DataFrame] | None = None,
        score_title: str = "mean score",
        stage_word: str = "turn",
        **options: Any,
    ) -> None:
        self.seats = None if seats is None else tuple(seats)
        self.stage_word = stage_word
        self.analyse, self.options, self.score_title = analyse, options, score_title
        self.analysis: pd.DataFrame | None = None  # the table of the decision analysed
        self.shown: pd.DataFrame | None = None  # that table as drawn: alike actions grouped
        self._reading = ""  # the caption of that analysis
        self.chosen: str | None = None  # the action taken there, once made
        self._state: Any = None  # the state analysed
        self._spec: GameSpec | None = None
        self.figure = live_figure(_no_analysis(score_title), height=300)
        self.last_figure = live_figure(_no_analysis(score_title), height=300)
        self.caption = w.HTML(layout=w.Layout(margin="0 0 0 8px"))
        self.last_caption = w.HTML(layout=w.Layout(margin="0 0 0 8px"))
        self.figure_box = w.VBox([self.figure], layout=_fitting())  # hidden once the game is over
        # min_width 0: the boxes may shrink below the width a chart was drawn at (700 px while
        # hidden), so the charts can follow a phone's or a side column's width
        self.last_box = w.VBox(
            [self.last_caption, self.last_figure], layout=_fitting(display="none")
        )
        super().__init__(
            [self.caption, self.figure_box, self.last_box], layout=_fitting(display="none")
        )
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
                    when = self.when(self._state)
                    self.last_caption.value = _caption(
                        f"{self._name()} chose {self.chosen} ({when}), marked below."
                    )
                    self._draw(self.last_figure, f"{self._name()}'s move, {when}")
                    self.last_box.layout.display = None
                    break
        if state.is_over:
            self.figure_box.layout.display = "none"
            self.caption.value = _caption("Game over: no decision is left to analyse.")
            self.layout.display = None if self._state is not None else "none"
            return
        self.figure_box.layout.display = None
        watched = self.seats is None or state.current_player in self.seats
        if not watched or state is self._state:
            if self._state is not None:
                self.caption.value = self._reading
            return
        analyse = self.analyse or spec.face("analyse_position")
        if analyse is None:
            raise ValueError(f"the game {spec.name!r} names no analyse_position face")
        self._state, self.chosen = state, None
        self.analysis = analyse(state, **self.options)
        rollouts = int(self.analysis["rollouts"].iloc[0]) if len(self.analysis) else 0
        self.shown = grouped(self.analysis)
        alike = " Moves whose games came out exactly alike share a bar." * (
            len(self.shown) < len(self.analysis)
        )
        self.caption.value = self._reading = _caption(
            f"What each action is worth to {self._name()}: the win chance with its 95% interval "
            f"over {rollouts} games each; hover a bar for the {self.score_title}.{alike} "
            f"{reading(self.shown)}".rstrip()
        )
        self._draw(self.figure, f"{self._name()} to move")
        self.layout.display = None

    def when(self, state: Any) -> str:
        """Where in the game ``state`` is, in words ("turn 3": ``stage_word`` and the game's
        stage number)."""
        return f"{self.stage_word} {self._spec.stage(state)}"

    def _name(self) -> str:
        return self._state.names[self._state.current_player]

    def _draw(self, fig: Any, title: str) -> None:
        _redraw(fig, self.shown, self.chosen, title, self.score_title)


class DecisionBrowser(w.VBox):
    """The debrief's "analyse this position": pick a table and one of its recorded decisions,
    see what every legal action was worth to the seat that moved, the move made marked.

    ``moves`` has one row per decision, in order, with a ``table`` column (the tables offered
    in the dropdown) and whatever ``analyse`` and ``title`` read; ``analyse(row)`` returns the
    ``analyse_position`` frame of that decision with a ``chosen`` column (True for the move
    made), ``title(row)`` the chart's title (default: "<name> chose <chosen>"), ``caption(row)``
    a line above it (default: none). The chart shows the win chance of every action with its
    95% interval, the mean score in the hover text: one panel, which a phone can hold. Nothing
    is analysed before it is shown: ``show(table, index)`` (or the slider) runs one analysis.
    """

    def __init__(
        self,
        moves: pd.DataFrame,
        analyse: Callable[[pd.Series], pd.DataFrame],
        title: Callable[[pd.Series], str] | None = None,
        caption: Callable[[pd.Series], str] | None = None,
        score_title: str = "mean final score",
    ) -> None:
        if moves.empty:
            raise ValueError("there are no decisions to browse: moves has no rows")
        self.moves, self._analyse = moves.reset_index(drop=True), analyse
        self._title = title or (lambda row: f"{row['name']} chose {row['chosen']}")
        self._caption = caption or (lambda row: "")
        self._score_title = score_title
        self.analysis: pd.DataFrame | None = None  # the decision shown
        self.row: pd.Series | None = None
        self._quiet = False  # True while show() sets both controls
        tables = list(dict.fromkeys(self.moves["table"]))
        self.table = w.Dropdown(options=tables, description="table", layout=w.Layout(width="auto"))
        self.decision = w.IntSlider(
            min=0,
            max=len(self.rows(tables[0])) - 1,
            description="decision",
            continuous_update=False,
            layout=w.Layout(width="100%", max_width="36em"),
        )
        self.figure = live_figure(_no_analysis(score_title))
        self.caption = w.HTML(layout=w.Layout(margin="0 0 0 8px"))
        # the style before the caption: the caption stays the browser's last text
        super().__init__([self.table, self.decision, touch_style(self), self.caption, self.figure])
        self.add_class("mogul-decision-browser")
        self.table.observe(lambda _: self._quiet or self.show(self.table.value, 0), names="value")
        self.decision.observe(lambda _: self._quiet or self._draw(), names="value")
        self._draw()

    def rows(self, table: str | None = None) -> pd.DataFrame:
        """The decisions of ``table`` (default: the one picked), in order."""
        return self.moves[self.moves["table"] == (table or self.table.value)]

    def show(self, table: str, index: int) -> None:
        """Analyse and draw decision ``index`` (from 0) of ``table``."""
        if table not in self.table.options:
            raise ValueError(f"no table {table!r}; the tables: {', '.join(self.table.options)}")
        count = len(self.rows(table))
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise ValueError(f"table {table} has decisions 0 to {count - 1}, not {index!r}")
        self._quiet = True
        try:
            self.table.value = table
            self.decision.max = count - 1
            self.decision.value = index
        finally:
            self._quiet = False
        self._draw()

    def _draw(self) -> None:
        self.row = self.rows().iloc[self.decision.value]
        self.analysis = self._analyse(self.row)
        shown = grouped(self.analysis)
        if "chosen" in self.analysis:  # a group holding the move made is marked
            made = set(self.analysis.loc[self.analysis["chosen"].astype(bool), "action"])
            shown["chosen"] = [bool(made & set(m)) for m in shown["members"]]
        _redraw(self.figure, shown, None, self._title(self.row), self._score_title)
        where, ranked = self._caption(self.row), reading(shown)
        # the slider's number, said in the caption too: the caption's own numbers (a move of
        # the game, counting every seat's) are another count
        where = f"Decision {self.decision.value} (of 0 to {self.decision.max})" + (
            f": {where}" if where else ""
        )
        self.caption.value = _caption(f"{where}. {ranked}" if ranked else where)
