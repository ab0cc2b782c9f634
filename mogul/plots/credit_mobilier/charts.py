"""Credit Mobilier's charts: treasuries, dividends, holdings and what a share is worth."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from mogul.games.credit_mobilier.components import (
    COMPANIES,
    CREDIT_MOBILIER,
)
from mogul.plots.credit_mobilier.board import company_colours
from mogul.plots.template import KIT_TEMPLATE, rounded


def _label(company: str) -> str:
    """A company's name in a legend: its colour word, or "Credit Mobilier" for purple."""
    return "Credit Mobilier" if company == CREDIT_MOBILIER else company


def treasuries_figure(treasuries: pd.DataFrame, title: str = "Company treasuries") -> go.Figure:
    """Dollars in each company's treasury as each turn begins, and at the end.

    ``treasuries`` is a game's ``treasuries`` table (``record.table("treasuries")``): one row
    per turn and company with ``turn``, ``company`` and ``treasury``.
    """
    colours = company_colours()
    frame = treasuries.drop_duplicates(["turn", "company"], keep="last")
    fig = go.Figure()
    for company in COMPANIES:
        rows = frame[frame["company"] == company]
        fig.add_scatter(
            x=rounded(rows["turn"]),
            y=rounded(rows["treasury"]),
            name=_label(company),
            mode="lines",
            line={"color": colours[company], "shape": "hv", "width": 2.5},
            hovertemplate=f"{_label(company)}: $%{{y}}<extra>turn %{{x}}</extra>",
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        xaxis_title="turn",
        yaxis_title="dollars in the treasury",
        height=340,
    )
    fig.update_yaxes(rangemode="tozero")
    return fig


def dividends_figure(
    dividends: pd.DataFrame, players: Sequence[str], title: str = "Dividends received"
) -> go.Figure:
    """Dollars of dividends each player received over the game, stacked by company.

    ``dividends`` is a game's ``dividends`` table: one row per round paid and seat with
    ``seat``, ``company`` and ``paid``. ``players`` names the seats (a game may pay none).
    """
    colours = company_colours()
    totals = (
        dividends.groupby(["company", "seat"])["paid"].sum()
        if len(dividends)
        else pd.Series(dtype=int)
    )
    fig = go.Figure()
    for company in COMPANIES:
        ys = [int(totals.get((company, seat), 0)) for seat in range(len(players))]
        fig.add_bar(
            x=list(players),
            y=ys,
            name=_label(company),
            marker={"color": colours[company]},
            hovertemplate=f"%{{x}}: $%{{y}} from {_label(company)}<extra></extra>",
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        barmode="stack",
        title=title,
        xaxis_title="player",
        yaxis_title="dollars of dividends",
        height=320,
        legend_traceorder="normal",
    )
    return fig


def stock_figure(
    holdings: pd.DataFrame, turn: int | None = None, title: str | None = None
) -> go.Figure:
    """Shares each player holds, stacked by company, as ``turn`` begins (default: at the end).

    ``holdings`` is a game's ``holdings`` table: one row per turn and player with ``turn``,
    ``player`` and a ``stock_<company>`` column per company; the last rows are the end.
    """
    colours = company_colours()
    if turn is None:
        turn = int(holdings["turn"].max())
    rows = holdings[holdings["turn"] == turn].drop_duplicates("seat", keep="last")
    over = "final" in rows and bool(rows["final"].any())
    fig = go.Figure()
    for company in COMPANIES:
        fig.add_bar(
            x=list(rows["player"]),
            y=rounded(rows[f"stock_{company}"]),
            name=_label(company),
            marker={"color": colours[company]},
            hovertemplate=f"%{{x}}: %{{y}} {_label(company)}<extra></extra>",
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        barmode="stack",
        title=title or ("Shares held at the end" if over else f"Shares held as turn {turn} begins"),
        xaxis_title="player",
        yaxis_title="shares held",
        height=320,
        legend_traceorder="normal",
    )
    return fig


# --- many games -----------------------------------------------------------------------------


def dividends_to_come_figure(
    averages: pd.DataFrame, price: float = 1.0, title: str = "What is a share still worth?"
) -> go.Figure:
    """Average dividends one share still earns until the end, per company, by turn.

    ``averages`` is ``mogul.analysis.credit_mobilier.by_turn(...)``: ``turn``, ``company`` and
    ``to_come`` (with ``low`` and ``high``, a shaded 95% interval per company). The dashed line
    is the price of a share. This is the average payout of the shares held: whether one more
    share is worth buying is its marginal value (``marginal_value_figure``).
    """
    colours = company_colours()
    fig = go.Figure()
    for company in COMPANIES:
        rows = averages[averages["company"] == company]
        if {"low", "high"} <= set(rows.columns) and len(rows):
            fig.add_scatter(
                x=rounded(pd.concat([rows["turn"], rows["turn"][::-1]])),
                y=rounded(pd.concat([rows["high"], rows["low"][::-1]]), 2),
                fill="toself",
                mode="lines",
                line={"width": 0},
                fillcolor=colours[company],
                opacity=0.18,
                hoverinfo="skip",
                showlegend=False,
                name=f"{_label(company)} 95% interval",
            )
        fig.add_scatter(
            x=rounded(rows["turn"]),
            y=rounded(rows["to_come"], 2),
            name=_label(company),
            mode="lines",
            line={"color": colours[company], "width": 3.5 if company == CREDIT_MOBILIER else 2},
            hovertemplate=f"{_label(company)}, turn %{{x}}: $%{{y}} still to come<extra></extra>",
        )
    if len(averages):
        turns = [int(averages["turn"].min()), int(averages["turn"].max())]
        fig.add_scatter(
            x=turns,
            y=[price, price],
            name="price of a share",
            mode="lines",
            line={"color": "#555555", "dash": "dash", "width": 1.5},
            hoverinfo="skip",
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        xaxis_title="turn",
        yaxis_title="dividends to come per share ($)",
        height=400,
    )
    fig.update_yaxes(rangemode="tozero")
    return fig


def marginal_value_figure(
    summary: pd.DataFrame, price: float = 1.0, title: str = "One more share: marginal vs average"
) -> go.Figure:
    """Per company and turn: what one more share adds to its owner's final cash (filled
    diamonds) beside the average payout per share held (open circles), each with its 95%
    interval; the dashed line is the $1 price.

    ``summary`` is ``mogul.analysis.credit_mobilier.marginal_by_turn(...)``. A share is worth
    buying when the marginal value's interval lies above the price.
    """
    colours = company_colours()
    turns = list(dict.fromkeys(summary["turn"])) if len(summary) else []
    fig = go.Figure()
    for what, symbol, label in (
        ("average", "circle-open", "average payout"),
        ("value", "diamond", "marginal value"),
    ):
        for turn in turns:
            rows = summary[summary["turn"] == turn]
            x = [[f"turn {turn}"] * len(rows), [_label(c) for c in rows["company"]]]
            fig.add_scatter(
                x=x,
                y=rounded(rows[what], 2),
                mode="markers",
                name=label,
                legendgroup=what,
                cliponaxis=False,
                showlegend=turn == turns[0],
                marker={
                    "symbol": symbol,
                    "size": 11,
                    "color": [colours[c] for c in rows["company"]],
                    "line": {"width": 2, "color": [colours[c] for c in rows["company"]]},
                },
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": rounded(rows[f"{what}_high"] - rows[what], 2),
                    "arrayminus": rounded(rows[what] - rows[f"{what}_low"], 2),
                    "thickness": 1.5,
                },
                customdata=list(
                    zip(
                        rows[f"{what}_low"].round(2),
                        rows[f"{what}_high"].round(2),
                        rows["pairs"],
                        strict=True,
                    )
                ),
                hovertemplate=f"%{{x}}: {label} $%{{y}} (95%: %{{customdata[0]}} to %{{customdata[1]}}; "
                "%{customdata[2]} games)<extra></extra>",
                offsetgroup=what,
            )
    fig.add_hline(
        y=price,
        line={"color": "#555555", "dash": "dash", "width": 1.5},
        annotation_text="price $1",
        annotation_position="top left",
    )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        yaxis_title="dollars per share",
        height=420,
        scattermode="group",
        legend={"orientation": "h", "y": -0.2},
    )
    return fig
