"""The figure of "analyse this position" for any game: what each legal action is worth, with
intervals, from the frame every game's ``analyse_position`` face returns."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from mogul.analysis.position import measure
from mogul.plots.template import error_bars, laid_out, rounded

__all__ = [
    "bar_label",
    "figure_height",
    "position_analysis_figure",
    "position_traces",
    "value_axis",
]

PLAIN = "#9aa5b1"
CHOSEN = "#d95f02"


WRAP_AT = 24
"""Bar labels longer than this many characters are drawn on two lines (see ``bar_label``)."""


def bar_label(action: str) -> str:
    """An action's label beside its bar: over ``WRAP_AT`` characters it takes two lines, broken
    before its bracket ("Build red A4-A5<br>(+$2 Credit Mobilier)") or else at the space nearest
    its middle, so that a phone keeps room for the bars.

    >>> bar_label("Bid 1 chip"), bar_label("Credit (+2 chips, -2 points)")
    ('Bid 1 chip', 'Credit<br>(+2 chips, -2 points)')
    """
    if len(action) <= WRAP_AT or " " not in action:
        return action
    cut = action.find(" (")
    if cut < 0:
        spaces = [i for i, c in enumerate(action) if c == " "]
        cut = min(spaces, key=lambda i: abs(i - len(action) / 2))
    return f"{action[:cut]}<br>{action[cut + 1 :]}"


def position_traces(
    analysis: pd.DataFrame, chosen: str | None = None, score: bool = True
) -> list[dict]:
    """The bar traces' data for ``analyse_position``'s table: mean score and win chance, or
    (``score=False``) one measure alone (the win chance, or the mean score when no action won
    a rollout: ``measure``), its bars carrying the mean score with its interval for the hover
    text (``customdata``).

    Each bar carries its 95% interval as an error bar; the ``chosen`` action's bars (its
    ``action`` text, or a row whose ``members`` hold it: ``grouped``) are coloured and
    labelled "chosen"; without ``chosen``, the rows a ``chosen`` column marks True (the
    classroom debrief's frames) are.
    """
    actions = list(analysis["action"])
    if chosen is None and "chosen" in analysis:
        marked = analysis.loc[analysis["chosen"].astype(bool), "action"]
        chosen = marked.iloc[0] if len(marked) else None
    members = analysis["members"] if "members" in analysis else [(a,) for a in actions]
    picked = [
        action == chosen or chosen in group for action, group in zip(actions, members, strict=True)
    ]
    labels = [bar_label(action) for action in actions]
    colours = [CHOSEN if p else PLAIN for p in picked]
    text = ["chosen" if p else "" for p in picked]
    out = []
    measures = (
        ("mean_score", "score_low", "score_high", 2),
        ("win_chance", "win_low", "win_high", 3),
    )
    if not score:
        measures = measures[1:] if measure(analysis) == "win_chance" else measures[:1]
    for value, low, high, digits in measures:
        x = analysis[value]
        out.append(
            {
                "x": rounded(x, digits),
                "y": labels,
                "marker": {"color": colours},
                "text": text,
                "error_x": error_bars(x, analysis[low], analysis[high], digits, color="#333"),
            }
        )
    if not score:
        columns = ["mean_score", "score_low", "score_high", "win_chance"]
        out[0]["customdata"] = [rounded(row, 3) for row in analysis[columns].to_numpy()]
    return out


def value_axis(analysis: pd.DataFrame, score_title: str = "expected final score") -> dict:
    """The x-axis of the one-panel chart (``score=False``) for ``analysis``: the win chance in
    per cent, or, when no action won a rollout (``measure``), the score titled ``score_title``."""
    if measure(analysis) == "win_chance":
        return {"title": {"text": "win chance"}, "tickformat": ".0%", "autorange": True}
    return {
        "title": {"text": f"{score_title} (no action won a game)"},
        "tickformat": "",
        "autorange": True,
    }


def figure_height(actions: int | pd.Series) -> int:
    """Pixels for a figure of ``actions`` bars (a count, or the actions themselves): room for
    the titles, about 28 px a bar and 12 more for a label on two lines (``bar_label``)."""
    if isinstance(actions, int):
        return 170 + 28 * max(actions, 2)
    wrapped = sum("<br>" in bar_label(action) for action in actions)
    return 170 + 28 * max(len(actions), 2) + 12 * wrapped


def position_analysis_figure(
    analysis: pd.DataFrame,
    chosen: str | None = None,
    title: str = "What each action is worth",
    score_title: str = "expected final score",
    score: bool = True,
) -> go.Figure:
    """Horizontal bars per legal action: the score (left, titled ``score_title``) and win chance
    (right), each with its 95% interval; the ``chosen`` action is marked (or, without it, the
    rows of a ``chosen`` column marked True). ``score=False``: the win chance alone, the
    score in the hover text (a chart that fits a phone)."""
    if not score:
        return _win_chance_figure(analysis, chosen, title, score_title)
    fig = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        horizontal_spacing=0.06,
        subplot_titles=(score_title, "win chance"),
    )
    for col, trace in enumerate(position_traces(analysis, chosen), start=1):
        fig.add_bar(
            orientation="h", textposition="inside", showlegend=False, row=1, col=col, **trace
        )
    laid_out(fig, {"text": title}, bargap=0.35, margin={"t": 70})
    fig.update_yaxes(autorange="reversed", row=1, col=1)  # the first action on top
    fig.update_xaxes(tickformat=".0%", rangemode="tozero", row=1, col=2)
    return fig


def _win_chance_figure(
    analysis: pd.DataFrame, chosen: str | None, title: str, score_title: str
) -> go.Figure:
    """``position_analysis_figure`` with ``score=False``: one panel, the win chance (or the
    score when no action won a rollout)."""
    fig = go.Figure()
    (trace,) = position_traces(analysis, chosen, score=False)
    fig.add_bar(
        orientation="h",
        textposition="inside",
        textangle=0,
        insidetextanchor="start",  # clear of the error bar at the end
        showlegend=False,
        hovertemplate=(
            f"%{{y}}<br>win chance %{{customdata[3]:.1%}}<br>{score_title} %{{customdata[0]:.2f}} "
            "(%{customdata[1]:.2f} to %{customdata[2]:.2f})<extra></extra>"
        ),
        **trace,
    )
    laid_out(
        fig,
        {"text": title},
        bargap=0.35,
        margin={"t": 60},
        height=figure_height(analysis["action"]),
        uniformtext={
            "minsize": 11,
            "mode": "hide",
        },  # "chosen" only where it fits: the colour says it
    )
    fig.update_yaxes(autorange="reversed")  # the first action on top
    fig.update_xaxes(rangemode="tozero", nticks=5, **value_axis(analysis, score_title))
    return fig
