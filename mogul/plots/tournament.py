"""Figures for strategy tournaments: data in (``Tournament.summary()``), ``go.Figure`` out,
and the summary as a table a reader can read (``summary_table``)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from mogul.plots.template import error_bars, laid_out, rounded

__all__ = ["head_to_head_figure", "summary_table", "win_rate_figure"]


def summary_table(summary: pd.DataFrame) -> pd.DataFrame:
    """``Tournament.summary()`` for reading: columns in words, the win rate in per cent and the
    mean score to one decimal, each with its 95% interval beside it, the mean rank to two
    decimals (a notebook shows it as a table; the numbers stay in ``summary``).

    >>> import pandas as pd
    >>> row = {"games": 480, "wins": 309, "win_rate": 0.64375, "win_low": 0.6001,
    ...        "win_high": 0.6853, "mean_score": 36.352, "score_low": 35.446,
    ...        "score_high": 37.258, "mean_rank": 1.456}
    >>> summary_table(pd.DataFrame([row], index=pd.Index(["value"], name="bot"))).iloc[0, 2:].tolist()
    ['64.4% (60.0 to 68.5%)', '36.4 (35.4 to 37.3)', '1.46']
    """
    table = pd.DataFrame(
        {
            "games": summary["games"],
            "wins": summary["wins"],
            "win rate (95% interval)": [
                f"{r:.1%} ({lo * 100:.1f} to {hi:.1%})"
                for r, lo, hi in zip(
                    summary["win_rate"], summary["win_low"], summary["win_high"], strict=True
                )
            ],
            "mean score (95% interval)": [
                f"{m:.1f} ({lo:.1f} to {hi:.1f})"
                for m, lo, hi in zip(
                    summary["mean_score"], summary["score_low"], summary["score_high"], strict=True
                )
            ],
            "mean rank": [f"{r:.2f}" for r in summary["mean_rank"]],
        },
        index=summary.index,
    )
    if "failures" in summary:
        table["failures"] = summary["failures"]
    return table


def win_rate_figure(summary: pd.DataFrame, title: str = "Win rate with 95% interval") -> go.Figure:
    """One bar per bot: its win rate, with the 95% interval as an error bar.

    ``summary`` is ``Tournament.summary()`` (index: bot; columns win_rate, win_low,
    win_high, games). Bars keep the table's order (best first). A dotted line marks the win
    rate of a bot no better than the others, one over the seats per game (the summary's
    ``attrs["players"]``).
    """
    bots = [str(b) for b in summary.index]
    rate = summary["win_rate"]
    fig = go.Figure(
        go.Bar(
            x=bots,
            y=rounded(rate),
            error_y=error_bars(rate, summary["win_low"], summary["win_high"], color="#444"),
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
    seats = summary.attrs.get("players")
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
