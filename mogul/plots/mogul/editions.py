"""Figures for the 2013 edition's sell right and for the two editions side by side.

The inputs are the frames of ``mogul.analysis``: ``sell_right_by_fill`` (the sell right's
value as the map fills) and ``use_shares`` (what the sell right was used for, per edition). For the distributions
of game length, auction length and winning score, ``distribution_figure`` of
``mogul.plots.mogul.analysis`` takes one group per edition.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS, rounded

__all__ = ["sell_right_figure", "sell_right_use_figure"]

EDITION_COLOURS = (SEAT_COLOURS[1], SEAT_COLOURS[2])
"""The two editions' bars, in the order of the table."""


def sell_right_figure(
    by_fill: pd.DataFrame, title: str = "Branch or sell? The map fills up"
) -> go.Figure:
    """Mean value of selling all against the best branch, by houses already on the map.

    ``by_fill`` is ``mogul.analysis.sell_right_by_fill(...)``: both values in end points, with
    their 95% intervals as error bars. The hover adds how many uses each point averages and how
    often a branch was chosen.
    """
    x = rounded(by_fill.index)
    extra = [
        f"{u} uses, branch chosen {b:.0%}"
        for u, b in zip(by_fill["uses"], by_fill["chose_branch"], strict=True)
    ]
    fig = go.Figure()
    for column, label, colour, dash in (
        ("sell", "sell all", SEAT_COLOURS[1], "solid"),
        ("branch", "best branch", SEAT_COLOURS[2], "solid"),
        ("best", "the better of the two", "#555555", "dot"),
    ):
        bars = None
        if f"{column}_low" in by_fill:  # the 95% interval of the mean
            bars = {
                "type": "data",
                "symmetric": False,
                "thickness": 1.5,
                "array": rounded(by_fill[f"{column}_high"] - by_fill[column], 2),
                "arrayminus": rounded(by_fill[column] - by_fill[f"{column}_low"], 2),
            }
        fig.add_scatter(
            x=x,
            y=rounded(by_fill[column], 2),
            mode="lines+markers",
            name=label,
            cliponaxis=False,
            line={"color": colour, "dash": dash},
            marker={"size": 7},
            text=extra,
            error_y=bars,
            hovertemplate=f"{label}: %{{y}} points<br>%{{x}} houses on the map<br>%{{text}}<extra></extra>",
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        height=360,
        xaxis_title="houses on the map (start of group)",
        yaxis_title="end points (mean)",
        yaxis_rangemode="tozero",
    )
    return fig


def sell_right_use_figure(
    shares: pd.DataFrame, title: str = "What the sell right was used for"
) -> go.Figure:
    """Share of the sell right's uses that sold, founded a branch or did nothing: one bar per
    edition and use, with its 95% interval over games as an error bar.

    ``shares`` is ``mogul.analysis.use_shares(...)`` (index: edition, use). Bars side by side,
    not stacked: a stacked bar has no place for each share's interval. The numbers are in the
    hover and in ``mogul.analysis.use_share_table`` (printed beside the chart in notebook 06).
    """
    editions = list(dict.fromkeys(shares.index.get_level_values("edition")))
    fig = go.Figure()
    for n, name in enumerate(editions):
        rows = shares.loc[name]
        uses = [str(u) for u in rows.index]
        fig.add_bar(
            y=uses,
            x=rounded(rows["share"], 4),
            name=str(name),
            orientation="h",
            marker={"color": EDITION_COLOURS[n % len(EDITION_COLOURS)]},
            error_x={
                "type": "data",
                "symmetric": False,
                "thickness": 1.5,
                "array": rounded(rows["high"] - rows["share"], 4),
                "arrayminus": rounded(rows["share"] - rows["low"], 4),
            },
            customdata=list(zip(rounded(rows["low"], 4), rounded(rows["high"], 4), strict=True)),
            hovertemplate=(
                f"{name}: %{{y}} in %{{x:.1%}} of the uses"
                "<br>95% interval %{customdata[0]:.1%} to %{customdata[1]:.1%}<extra></extra>"
            ),
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        barmode="group",
        height=300,
        xaxis_title="share of uses (95% interval)",
        xaxis_tickformat=".0%",
        xaxis_range=[0, 1],
        yaxis_autorange="reversed",
        legend_traceorder="normal",
    )
    return fig
