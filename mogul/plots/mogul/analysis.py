"""Figures of Mogul's analyses: data in, ``go.Figure`` out.

The inputs are the frames of ``mogul.analysis.mogul``: the crash hazard of a state, share
values by round over many games, and any samples of simulated games (scores, lengths), one
group per bot or edition. Companies are named by their colour words and drawn in their own
colours (``edition.colours()``); groups use ``SEAT_COLOURS``. Floats are rounded so stored
notebook outputs stay small and stable. The figures of one game are in
``mogul.plots.mogul.game``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from mogul.games.mogul.editions import Edition, edition
from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS, rounded

__all__ = ["crash_hazard_figure", "distribution_figure", "share_value_figure"]


# --- the crash -------------------------------------------------------------------------------------


def crash_hazard_figure(
    hazard: pd.DataFrame, title: str = "When will the crash come?"
) -> go.Figure:
    """Bars: chance the crash is each remaining card; line: the hazard if the game gets there.

    ``hazard`` is ``mogul.analysis.crash_hazard(state)``.
    """
    fig = go.Figure()
    fig.add_bar(
        x=rounded(hazard["round"]),
        y=rounded(hazard["p_crash"]),
        name="crash is this card",
        marker={"color": "#999"},
        hovertemplate="round %{x}: %{y:.0%}<extra></extra>",
    )
    fig.add_scatter(
        x=rounded(hazard["round"]),
        y=rounded(hazard["hazard"]),
        name="crash now, if the game gets here",
        mode="lines+markers",
        line={"color": "#b22222"},
        hovertemplate="round %{x}: %{y:.0%}<extra></extra>",
        cliponaxis=False,
    )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        xaxis_title="round (card revealed)",
        yaxis_title="chance",
        height=320,
    )
    fig.update_yaxes(range=[0, 1.05], tickformat=".0%")
    return fig


# --- many games -------------------------------------------------------------------------------------


def distribution_figure(
    samples: Sequence[float] | Mapping[str, Sequence[float]],
    title: str = "Distribution",
    x_title: str = "value",
    intervals: bool = False,
) -> go.Figure:
    """Share of samples at each whole value, as bars (one bar series per named group); with
    ``intervals``, each group's mean with its normal 95% interval too (a diamond with error
    bars above the bars; the legend gives the numbers), for comparing groups.

    Values are rounded to whole numbers and counted, so the figure stores one number per
    value, not one per sample.
    """
    groups = dict(samples) if isinstance(samples, Mapping) else {"all": samples}
    fig = go.Figure()
    top = 0.0
    means = []
    for n, (label, values) in enumerate(groups.items()):
        values = [float(v) for v in values]
        counts = Counter(round(v) for v in values)
        total = sum(counts.values()) or 1
        xs = sorted(counts)
        top = max([top, *(counts[x] / total for x in xs)])
        mean = sum(values) / len(values) if values else float("nan")
        sd = (
            (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
            if len(values) > 1
            else 0.0
        )
        half = 1.959963984540054 * sd / len(values) ** 0.5 if values else 0.0
        means.append((n, label, mean, half))
        fig.add_bar(
            x=xs,
            y=rounded(counts[x] / total for x in xs),
            name=f"{label}: mean {mean:.2f} ({mean - half:.2f} to {mean + half:.2f})"
            if intervals
            else str(label),
            marker={"color": SEAT_COLOURS[n % len(SEAT_COLOURS)]},
            legendgroup=str(label),
            hovertemplate="%{x}: %{y:.1%}<extra>" + str(label) + "</extra>",
        )
    for n, label, mean, half in means if intervals else ():
        fig.add_scatter(
            x=[round(mean, 3)],
            y=[round(top * (1.08 + 0.07 * n), 4)],
            mode="markers",
            showlegend=False,
            cliponaxis=False,
            legendgroup=str(label),
            marker={"symbol": "diamond", "size": 9, "color": SEAT_COLOURS[n % len(SEAT_COLOURS)]},
            error_x={"type": "constant", "value": round(half, 3), "thickness": 1.5, "width": 6},
            name=f"{label} mean",
            hovertemplate=f"{label}: mean %{{x}} (95% interval ±{half:.2f})<extra></extra>",
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        xaxis_title=x_title,
        yaxis_title="share of samples",
        barmode="overlay" if len(groups) > 1 else "group",
        height=320,
        showlegend=len(groups) > 1 or intervals,
    )
    if len(groups) > 1:
        fig.update_traces(opacity=0.6, selector={"type": "bar"})
    return fig


def share_value_figure(
    averages: pd.DataFrame,
    ed: Edition | str | None = None,
    columns: Sequence[str] = ("market_value", "premiums_to_come"),
    title: str = "Sell now or hold to the crash?",
) -> go.Figure:
    """Average market value (solid) against premiums to come (dashed) per company and round.

    ``averages`` is ``mogul.analysis.by_round(...)``. Where the solid line is above the dashed
    one, a share sells for more than it is still expected to earn. The legend names each
    company once (click it to hide the company's lines) and shows what each line style means.
    """
    ed = edition("classic" if ed is None else ed)
    styles = {"market_value": "solid", "premiums_to_come": "dash", "premiums_realized": "dot"}
    labels = {
        "market_value": "market value",
        "premiums_to_come": "premiums to come",
        "premiums_realized": "premiums realized",
    }
    fig = go.Figure()
    for c in dict.fromkeys(averages["company"]):
        rows = averages[averages["company"] == c]
        for n, column in enumerate(columns):
            label = labels.get(column, column)
            fig.add_scatter(
                x=rounded(rows["round"]),
                y=rounded(rows[column], 2),
                mode="lines",
                name=c if n == 0 else f"{c}: {label}",
                legendgroup=c,
                showlegend=n == 0,
                line={"color": ed.colours()[c], "dash": styles.get(column, "solid")},
                hovertemplate=f"{c} ({ed.company(c).name}), round %{{x}}: %{{y}}<extra>{label}</extra>",
            )
    for column in columns:  # a key to the line styles
        fig.add_scatter(
            x=[None],
            y=[None],
            mode="lines",
            name=labels.get(column, column),
            hoverinfo="skip",
            line={"color": "#555", "dash": styles.get(column, "solid")},
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        xaxis_title="round",
        yaxis_title="points per share",
        height=420,
    )
    return fig
