"""The toy race drawn as a track: the running total as a bar, the target as a line."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS


def race_figure(state: Any, height: int = 160) -> go.Figure:
    """The total so far against the target, in the colour of the player to move."""
    who = state.current_player
    colour = SEAT_COLOURS[who % len(SEAT_COLOURS)] if who is not None else "#888888"
    fig = go.Figure(
        go.Bar(
            x=[state.total],
            y=["total"],
            orientation="h",
            marker={"color": colour},
            hovertemplate="total %{x}<extra></extra>",
        )
    )
    fig.add_vline(x=state.target, line={"dash": "dash"}, annotation_text=f"target {state.target}")
    fig.update_layout(
        template=KIT_TEMPLATE,
        height=height,
        showlegend=False,
        title=f"Total {state.total} of {state.target}",
        xaxis={"range": [0, state.target + 1], "title": "running total"},
    )
    return fig
