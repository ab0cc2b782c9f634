"""Figures for strategy tournaments: data in (``Tournament.summary()``), ``go.Figure`` out."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from mogul.plots.template import laid_out, rounded

__all__ = ["head_to_head_figure", "win_rate_figure"]


def win_rate_figure(
    summary: pd.DataFrame, players: int | None = None, title: str = "Win rate with 95% interval"
) -> go.Figure:
    """One bar per bot: its win rate, with the 95% interval as an error bar.

    ``summary`` is ``Tournament.summary()`` (index: bot; columns win_rate, win_low,
    win_high, games). Bars keep the table's order (best first). A dotted line marks the win
    rate of a bot no better than the others, one over ``players`` (the seats per game; read
    from ``summary.attrs`` when not given).
    """
    bots = [str(b) for b in summary.index]
    rate = summary["win_rate"]
    fig = go.Figure(
        go.Bar(
            x=bots,
            y=rounded(rate),
            error_y={
                "type": "data",
                "symmetric": False,
                "array": rounded(summary["win_high"] - rate),
                "arrayminus": rounded(rate - summary["win_low"]),
                "color": "#444",
            },
            marker={"color": "#2f6db5"},
            customdata=[[int(g)] for g in summary["games"]],
            hovertemplate="%{x}: %{y:.1%} of %{customdata[0]} games<extra></extra>",
        )
    )
    laid_out(
        fig,
        title,
        height=360,
        showlegend=False,
        x="bot",
        yaxis={"title": "win rate", "tickformat": ".0%", "rangemode": "tozero"},
    )
    seats = players or summary.attrs.get("players")
    if seats:
        fig.add_hline(
            y=round(1 / seats, 4),
            line={"dash": "dot", "color": "#888"},
            annotation_text=f"fair share 1/{seats}",
            annotation_position="top right",
        )
    return fig


def head_to_head_figure(
    table: pd.DataFrame, title: str = "Head to head: row ahead of column"
) -> go.Figure:
    """A heat map of ``Tournament.head_to_head()``: share of games the row bot finished ahead."""
    bots = [str(b) for b in table.index]
    z = [[None if pd.isna(v) else round(float(v), 3) for v in row] for row in table.to_numpy()]
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=bots,
            y=bots,
            zmin=0,
            zmax=1,
            colorscale="RdBu",
            reversescale=False,
            text=[["" if v is None else f"{v:.0%}" for v in row] for row in z],
            texttemplate="%{text}",
            hovertemplate="%{y} ahead of %{x}: %{z:.1%}<extra></extra>",
            colorbar={"tickformat": ".0%"},
        )
    )
    return laid_out(
        fig, title, height=360, yaxis={"autorange": "reversed"}, x="column bot", y="row bot"
    )
