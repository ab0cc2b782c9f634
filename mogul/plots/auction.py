"""Figures for the auction: data in, ``go.Figure`` out, no state.

Each builder takes what ``mogul.auction`` returns (a payoff-curve DataFrame, a path of
``Step`` s, a best-response trace, a mechanism table) and draws it with the kit template.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS, rounded

__all__ = [
    "convergence_figure",
    "mechanism_figure",
    "payoff_curve_figure",
    "pot_ladder_figure",
    "seat_name",
]


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat's display name: ``names[seat]`` or "seat N"."""
    return names[seat] if names is not None else f"seat {seat}"


def payoff_curve_figure(
    curves: pd.DataFrame | Mapping[str, pd.DataFrame],
    title: str = "Payoff of 'drop when the pot reaches k'",
) -> go.Figure:
    """Payoff against the threshold k, one line per curve, equilibrium payoffs dashed.

    ``curves`` is one ``payoff_curve`` DataFrame or a mapping label -> DataFrame. The best k
    of each curve is marked.
    """
    named = {"payoff": curves} if isinstance(curves, pd.DataFrame) else dict(curves)
    fig = go.Figure()
    for n, (label, df) in enumerate(named.items()):
        colour = SEAT_COLOURS[n % len(SEAT_COLOURS)]
        fig.add_scatter(
            x=rounded(df["k"]), y=rounded(df["payoff"]), name=label, mode="lines+markers",
            line={"color": colour, "shape": "hv"}, marker={"size": 5},
        )  # fmt: skip
        eq = float(df["equilibrium"].iloc[0])
        fig.add_scatter(
            x=[0, int(df["k"].iloc[-1])], y=rounded([eq, eq]), name=f"{label}: equilibrium",
            mode="lines", line={"color": colour, "dash": "dash", "width": 1}, showlegend=False,
        )  # fmt: skip
        best = int(df["payoff"].idxmax())
        fig.add_scatter(
            x=[int(df["k"][best])], y=rounded([df["payoff"][best]]), mode="markers",
            marker={"color": colour, "size": 12, "symbol": "star"}, name=f"{label}: best k",
            showlegend=False,
        )  # fmt: skip
    fig.update_layout(
        template=KIT_TEMPLATE, title=title, xaxis_title="k (drop when the pot reaches k)",
        yaxis_title="payoff (points)", height=380,
    )  # fmt: skip
    return fig


def pot_ladder_figure(
    path: Sequence, names: Sequence[str] | None = None, title: str = "The pot, step by step"
) -> go.Figure:
    """The pot before each move: dots for bids, big markers (with labels) for drops.

    ``path`` is a sequence of ``Step`` (seat, action, pot), e.g. ``solve(...).path``.
    """
    steps = list(range(len(path)))
    pots = [st.pot for st in path]
    fig = go.Figure()
    fig.add_scatter(
        x=steps,
        y=pots,
        mode="lines",
        line={"color": "#bbb", "shape": "hv"},
        showlegend=False,
        name="pot",
    )
    bids = [i for i, st in enumerate(path) if st.action == "bid"]
    drops = [i for i, st in enumerate(path) if st.action == "drop"]
    fig.add_scatter(
        x=bids, y=[pots[i] for i in bids], mode="markers", name="bid",
        marker={"color": [SEAT_COLOURS[path[i].seat % len(SEAT_COLOURS)] for i in bids], "size": 8},
        text=[seat_name(path[i].seat, names) for i in bids], hovertemplate="%{text} bids at pot %{y}<extra></extra>",
    )  # fmt: skip
    fig.add_scatter(
        x=drops, y=[pots[i] for i in drops], mode="markers+text", name="drop",
        marker={"color": [SEAT_COLOURS[path[i].seat % len(SEAT_COLOURS)] for i in drops], "size": 15,
                "symbol": "triangle-down", "line": {"color": "#222", "width": 1}},
        text=[f"{seat_name(path[i].seat, names)} takes {pots[i]}" for i in drops], textposition="top center",
    )  # fmt: skip
    fig.update_layout(
        template=KIT_TEMPLATE, title=title, xaxis_title="move", yaxis_title="pot before the move",
        height=340, showlegend=False,
    )  # fmt: skip
    fig.update_yaxes(rangemode="tozero")
    return fig


def convergence_figure(trace: pd.DataFrame, title: str = "Best-response dynamics") -> go.Figure:
    """Mean threshold per seat (top) and share of types that changed (bottom) per iteration.

    ``trace`` is ``best_response_dynamics(...).trace``.
    """
    fig = make_subplots(
        rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08, row_heights=[0.65, 0.35]
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
            x=x, y=rounded(rows["changed"]), line={"color": colour}, showlegend=False, name=f"seat {seat}", row=2, col=1
        )  # fmt: skip
    fig.update_layout(template=KIT_TEMPLATE, title=title, height=420)
    fig.update_yaxes(title_text="mean threshold k", row=1, col=1)
    fig.update_yaxes(title_text="share changed", row=2, col=1)
    fig.update_xaxes(title_text="iteration", dtick=1, row=2, col=1)
    return fig


def mechanism_figure(
    table: pd.DataFrame, title: str = "Four auctions on the same values"
) -> go.Figure:
    """Bars per mechanism: efficiency, chips the winner pays, net chips to the droppers.

    ``table`` is ``compare_mechanisms(...)`` (index: mechanism).
    """
    panels = [
        ("efficiency", "efficiency"),
        ("winner_pays", "winner pays (chips)"),
        ("droppers_net", "droppers' net (chips)"),
    ]
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[label for _, label in panels])
    names = [str(x) for x in table.index]
    for col, (column, _) in enumerate(panels, start=1):
        fig.add_bar(
            x=names, y=rounded(table[column]), marker={"color": list(SEAT_COLOURS[: len(names)])},
            showlegend=False, name=column, row=1, col=col,
        )  # fmt: skip
    fig.update_layout(template=KIT_TEMPLATE, title=title, height=380)
    fig.update_xaxes(tickangle=-30)
    return fig
