"""Figures for the auction: data in, ``go.Figure`` out, no state.

Each builder takes what ``mogul.auction`` returns (a payoff-curve DataFrame, a path of
``Step`` s, a best-response trace, a mechanism table) and draws it with the kit template.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from mogul.plots.template import SEAT_COLOURS, laid_out, rounded

__all__ = [
    "convergence_figure",
    "flat_from",
    "mechanism_figure",
    "payoff_curve_figure",
    "pot_ladder_data",
    "pot_ladder_figure",
    "pot_ladder_ranges",
    "seat_name",
    "winner_regions_figure",
]

POT_ROOM = 4
"""The pot axis of an auction chart reaches at least this many chips."""

_LEGEND_ABOVE = {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0}
"""A legend in one row above the plot, so it never takes width from the plot."""


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat's display name: ``names[seat]`` or "seat N"."""
    return names[seat] if names is not None else f"seat {seat}"


def flat_from(payoffs: Sequence[float]) -> int:
    """The k from which a payoff curve (payoffs for k = 0, 1, ...) no longer changes: past
    the chips a seat can bid, "drop at k" is the same plan for every larger k.

    >>> flat_from([0.2, 0.2, 0.0, 0.4, 0.4, 0.4])
    3
    """
    values = list(payoffs)
    moved = [k for k, value in enumerate(values) if value != values[-1]]
    return moved[-1] + 1 if moved else 0


def payoff_curve_figure(
    curves: pd.DataFrame | Mapping[str, pd.DataFrame],
    title: str = "Payoff of 'drop when the pot reaches k'",
    x_max: int | None = None,
) -> go.Figure:
    """Payoff against the threshold k, one line per curve, equilibrium payoffs dashed.

    ``curves`` is one ``payoff_curve`` DataFrame or a mapping label -> DataFrame. The best k
    of each curve is marked. ``x_max`` limits the k axis (e.g. to where the curves change) and
    the curves drawn with it (markers are drawn whole at the axes: a point past ``x_max``
    would sit outside the chart's range).
    """
    named = {"payoff": curves} if isinstance(curves, pd.DataFrame) else dict(curves)
    fig = go.Figure()
    for n, (label, df) in enumerate(named.items()):
        if x_max is not None:
            df = df[df["k"] <= x_max]
        colour = SEAT_COLOURS[n % len(SEAT_COLOURS)]
        fig.add_scatter(
            x=rounded(df["k"]),
            y=rounded(df["payoff"]),
            name=label,
            mode="lines+markers",
            line={"color": colour, "shape": "hv"},
            marker={"size": 5},
        )
        eq = float(df["equilibrium"].iloc[0])
        fig.add_scatter(
            x=[0, int(df["k"].iloc[-1])],
            y=rounded([eq, eq]),
            name=f"{label}: equilibrium",
            mode="lines",
            line={"color": colour, "dash": "dash", "width": 1},
            showlegend=False,
        )
        best = int(df["payoff"].idxmax())
        fig.add_scatter(
            x=[int(df["k"][best])],
            y=rounded([df["payoff"][best]]),
            mode="markers",
            marker={"color": colour, "size": 12, "symbol": "star"},
            name=f"{label}: best k",
            showlegend=False,
        )
    laid_out(
        fig,
        {"text": title, "y": 0.98, "yanchor": "top"},
        x="k: drop when the pot reaches k",
        y="payoff (points)",
        height=400,
        legend=_LEGEND_ABOVE,
        margin={"t": 90},
    )
    fig.update_xaxes(automargin=True, range=None if x_max is None else [-0.5, x_max + 0.5])
    fig.update_yaxes(automargin=True)
    fig.update_traces(cliponaxis=False, selector={"type": "scatter"})  # drawn whole at an axis
    return fig


def pot_ladder_data(path: Sequence, names: Sequence[str] | None = None) -> list[dict]:
    """The three traces of ``pot_ladder_figure`` as plain dicts: the pot line, bids, drops.

    Each dict holds ``x``, ``y``, ``text`` and ``marker_color`` (the seat colour of each
    marker); a live figure copies them into its traces without building a new figure.
    """
    pots = [st.pot for st in path]
    bids = [i for i, st in enumerate(path) if st.action == "bid"]
    drops = [i for i, st in enumerate(path) if st.action == "drop"]

    def colours(idx: list[int]) -> list[str]:
        return [SEAT_COLOURS[path[i].seat % len(SEAT_COLOURS)] for i in idx]

    return [
        {"x": list(range(len(path))), "y": pots, "text": None, "marker_color": None},
        {
            "x": bids,
            "y": [pots[i] for i in bids],
            "marker_color": colours(bids),
            "text": [seat_name(path[i].seat, names) for i in bids],
        },
        {
            "x": drops,
            "y": [pots[i] for i in drops],
            "marker_color": colours(drops),
            "text": [f"{seat_name(path[i].seat, names)} takes {pots[i]}" for i in drops],
        },
    ]


def pot_ladder_ranges(path: Sequence) -> tuple[list[float], list[float]]:
    """The x and y ranges of ``pot_ladder_figure``: room for the markers and their labels,
    and for a pot of at least ``POT_ROOM`` chips (an auction's first moves are not drawn on
    a pot axis of -0.8 to 1.5, in half chips, that jumps at every bid)."""
    top = max((st.pot for st in path), default=0)
    return [-0.8, len(path) - 0.2], [-0.8, max(top, POT_ROOM) + 1.5]


def pot_ladder_figure(
    path: Sequence, names: Sequence[str] | None = None, title: str = "The pot, step by step"
) -> go.Figure:
    """The pot before each move: dots for bids, big markers (with labels) for drops.

    ``path`` is a sequence of ``Step`` (seat, action, pot), e.g. ``solve(...).path``.
    """
    line, bids, drops = pot_ladder_data(path, names)
    fig = go.Figure()
    fig.add_scatter(
        x=line["x"],
        y=line["y"],
        mode="lines",
        line={"color": "#bbb", "shape": "hv"},
        showlegend=False,
        name="pot",
    )
    fig.add_scatter(
        x=bids["x"],
        y=bids["y"],
        mode="markers",
        name="bid",
        marker={"color": bids["marker_color"], "size": 8},
        text=bids["text"],
        hovertemplate="%{text} bids at pot %{y}<extra></extra>",
    )
    fig.add_scatter(
        x=drops["x"],
        y=drops["y"],
        mode="markers+text",
        name="drop",
        marker={
            "color": drops["marker_color"],
            "size": 15,
            "symbol": "triangle-down",
            "line": {"color": "#222", "width": 1},
        },
        text=drops["text"],
        textposition="top center",
    )
    laid_out(fig, title, x="move", y="pot before the move", height=340, showlegend=False)
    x_range, y_range = pot_ladder_ranges(path)
    fig.update_yaxes(range=y_range, automargin=True)  # room for markers and labels
    fig.update_xaxes(range=x_range, automargin=True)
    fig.update_traces(cliponaxis=False, selector={"type": "scatter"})  # drawn whole at an axis
    return fig


def convergence_figure(trace: pd.DataFrame, title: str = "Best-response dynamics") -> go.Figure:
    """Mean threshold per seat (top) and share of types that switched (bottom) per sweep.

    ``trace`` is ``best_response_dynamics(...).trace``.
    """
    fig = make_subplots(
        rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1, row_heights=[0.6, 0.4]
    )
    for seat, rows in trace.groupby("seat"):
        colour = SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
        x = rounded(rows["iteration"])
        fig.add_scatter(
            x=x,
            y=rounded(rows["mean_threshold"]),
            name=f"seat {seat}",
            line={"color": colour},
            row=1,
            col=1,
        )
        fig.add_scatter(
            x=x,
            y=rounded(rows["changed"]),
            line={"color": colour},
            showlegend=False,
            name=f"seat {seat}",
            row=2,
            col=1,
        )
    laid_out(
        fig,
        {"text": title, "y": 0.98, "yanchor": "top"},
        height=440,
        legend=_LEGEND_ABOVE,
        margin={"t": 90},
    )
    fig.update_yaxes(title_text="mean threshold", automargin=True, row=1, col=1)
    fig.update_yaxes(title_text="share switched", automargin=True, row=2, col=1)
    fig.update_xaxes(title_text="sweep", row=2, col=1)
    fig.update_xaxes(automargin=True)
    fig.update_traces(cliponaxis=False, selector={"type": "scatter"})  # drawn whole at an axis
    return fig


def mechanism_figure(
    table: pd.DataFrame, title: str = "Mogul, English and all-pay: same values"
) -> go.Figure:
    """Horizontal bars per mechanism: efficient share, welfare and revenue, with 95% intervals.

    One bar per row of ``table`` (Mogul may have several rows: private values and each tie
    rule with complete information), so the title should not count the bars.

    ``table`` is ``compare_over_seeds(...)`` (columns ``<measure>`` and ``<measure>_ci``) or
    ``compare_mechanisms(...)`` (no intervals); its index names the mechanisms.
    """
    panels = [
        ("efficient", "efficient allocations (share)"),
        ("welfare", "welfare (points)"),
        ("revenue", "chips to the bank"),
    ]
    fig = make_subplots(
        rows=1,
        cols=len(panels),
        shared_yaxes=True,
        horizontal_spacing=0.04,
        subplot_titles=[label for _, label in panels],
    )
    names = [str(x) for x in table.index]
    for col, (column, _) in enumerate(panels, start=1):
        ci = table.get(f"{column}_ci")
        fig.add_bar(
            y=names,
            x=rounded(table[column]),
            orientation="h",
            showlegend=False,
            name=column,
            marker={"color": list(SEAT_COLOURS[: len(names)])},
            error_x=None if ci is None else {"type": "data", "array": rounded(ci)},
            row=1,
            col=col,
        )
    laid_out(
        fig,
        {"text": title, "y": 0.98, "yanchor": "top"},
        height=120 + 45 * len(names),
        margin={"t": 90},
    )
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(automargin=True, rangemode="tozero")
    return fig


def winner_regions_figure(
    regions: pd.DataFrame,
    title: str = "Who wins, by chip value",
    row_title: str = "value of winning",
) -> go.Figure:
    """The winner over chip value as exact intervals: one horizontal band per row.

    ``regions`` is ``chip_value_regions(...)`` (one band) or ``winner_map(...)`` (one band per
    ``win``). Single points (ties decided by the tie rule) are drawn as diamonds.
    """
    df = regions if "win" in regions.columns else regions.assign(win="")
    fig = go.Figure()
    for seat in sorted(df["winner"].unique()):
        mine = df[df["winner"] == seat]
        spans, points = mine[mine["low"] < mine["high"]], mine[mine["low"] == mine["high"]]
        colour = SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
        fig.add_bar(
            y=rounded(spans["win"]),
            x=rounded(spans["high"] - spans["low"]),
            base=rounded(spans["low"]),
            orientation="h",
            name=f"seat {seat} wins",
            marker={"color": colour, "line": {"width": 0}},
            width=0.9 if len(df["win"].unique()) > 1 else 0.5,
            customdata=rounded(spans["high"]),
            hovertemplate="chip value %{base} to %{customdata}<extra></extra>",
        )
        if len(points):
            fig.add_scatter(
                y=rounded(points["win"]),
                x=rounded(points["low"]),
                mode="markers",
                marker={
                    "color": colour,
                    "symbol": "diamond",
                    "size": 9,
                    "line": {"color": "#222", "width": 1},
                },
                name=f"seat {seat} wins (tie point)",
                cliponaxis=False,
            )
    laid_out(
        fig,
        {"text": title, "y": 0.98, "yanchor": "top"},
        barmode="overlay",
        bargap=0,
        height=420 if "win" in regions.columns else 240,
        legend=_LEGEND_ABOVE,
        margin={"t": 90},
        x="chip value (points per chip)",
        y=row_title if "win" in regions.columns else None,
    )
    fig.update_xaxes(automargin=True)
    fig.update_yaxes(automargin=True, showticklabels="win" in regions.columns)
    return fig
