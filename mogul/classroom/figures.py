"""The debrief's figures: data from ``mogul.classroom.mogul.debrief`` in, a plotly ``Figure`` out."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from mogul.plots.template import KIT_TEMPLATE, rounded

VERDICT_COLOURS = {"best response": "#2e7d32", "under-bid": "#1f77b4", "over-bid": "#c62828"}
_AGAINST = {"best_drop": "best response to the others' bids", "equilibrium_drop": "equilibrium"}


def drop_points_figure(
    bids: pd.DataFrame, against: str = "best_drop", title: str | None = None
) -> go.Figure:
    """The class's real drop points (up) against the best responses to what the others did, or
    the equilibrium's (across); ``debrief.ASSUMPTIONS`` is the model they rest on.

    One marker per (x, real drop, verdict), its area growing with how many auctions it stands
    for. On the diagonal the class dropped where the model says; above it they stayed in
    longer (over-bid), below it they left earlier. Winners, who never dropped, and seats that
    win in equilibrium (no equilibrium drop point) are left out.
    """
    if against not in _AGAINST:
        raise ValueError(f"against must be one of {sorted(_AGAINST)}; got {against!r}")
    shown = bids.dropna(subset=["real_drop", against])
    fig = go.Figure()
    top = 1
    for verdict, colour in VERDICT_COLOURS.items():
        rows = shown[shown["verdict"] == verdict]
        counts = rows.groupby([against, "real_drop"]).size().reset_index(name="n")
        if counts.empty:
            continue
        top = max(top, int(counts[[against, "real_drop"]].max().max()))
        fig.add_scatter(
            x=rounded(counts[against]),
            y=rounded(counts["real_drop"]),
            mode="markers",
            name=verdict,
            marker={
                "color": colour,
                "size": rounded(6 + 4 * counts["n"] ** 0.5, 2),
                "opacity": 0.75,
            },
            text=rounded(counts["n"]),
            hovertemplate=f"{_AGAINST[against]} %{{x}}, real %{{y}}: %{{text}} auctions<extra>{verdict}</extra>",
        )
    fig.add_scatter(
        x=[0, top],
        y=[0, top],
        mode="lines",
        name="as the model says",
        line={"color": "#777", "dash": "dot", "width": 1},
        hoverinfo="skip",
    )
    fig.update_layout(
        template=KIT_TEMPLATE,
        height=420,
        title=title or f"Where the class dropped, against the {_AGAINST[against]}",
        xaxis_title=f"drop point of the {_AGAINST[against]} (pot)",
        yaxis_title="real drop point (pot)",
    )
    return fig


def cost_figure(
    bidders: pd.DataFrame,
    title: str = "Model loss: points below the best response to the others' bids",
    note: str | None = None,
) -> go.Figure:
    """Each player's total model loss (``total_loss`` of ``debrief.bidders``), the largest on top.

    A loss in the auction model against a stated benchmark (the best response to the others'
    recorded play), not points lost in the game; ``note`` (e.g. ``debrief.ASSUMPTIONS``) is
    written under the chart.
    """
    rows = bidders.sort_values("total_loss")
    # each player with their table, as the dashboard spells its code (bidders' "table")
    labels = [f"{n} ({t})" for n, t in zip(rows["name"], rows["table"], strict=True)]
    fig = go.Figure(
        go.Bar(
            x=rounded(rows["total_loss"], 2),
            y=labels,
            orientation="h",
            marker={"color": "#c62828"},
            hovertemplate="%{y}: %{x} points in the model<extra></extra>",
        )
    )
    height = 120 + 24 * len(rows)
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        height=height + (110 if note else 0),
        xaxis_title="model loss (points), summed over the auctions",
    )
    if note:
        fig.update_layout(margin={"b": 180})
        fig.add_annotation(
            text=_wrap(note, 110),
            xref="paper",
            yref="paper",
            x=0,
            y=0,
            yshift=-60,  # pixels below the plot: under the tick labels and the axis title
            xanchor="left",
            yanchor="top",
            showarrow=False,
            align="left",
            font={"size": 11},
        )
    return fig


def _wrap(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` characters, joined by ``<br>``."""
    import textwrap

    return "<br>".join(textwrap.wrap(text, width))
