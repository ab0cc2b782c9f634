"""Figures of one game as it was played: data in, ``go.Figure`` out.

The inputs are the kit's tables: ``GameRecord.table("rounds")`` (one row per round and
player), ``GameRecord.table("auctions")`` (one row per auction) and the state sequence of a
game. The figures of Mogul's analyses (the crash, share values, distributions over many
games) are in ``mogul.plots.mogul.analysis`` and importable from here too. Companies are named by their colour words, as on the
cards, buttons and tables ("brown"), with the railroad's name in the hover ("brown: Great
Northern"), and drawn in their own colours (``edition.colours()``); players use
``SEAT_COLOURS``, which are never a company's colour. Markers are not clipped at the axes.
Floats are rounded so stored notebook outputs stay small and stable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd
import plotly.graph_objects as go

from mogul.auction import Step
from mogul.games.mogul.editions import Edition, edition
from mogul.games.mogul.events import CardRevealed, ChipBid, Dropped
from mogul.games.mogul.rules import GameState
from mogul.plots.auction import pot_ladder_figure
from mogul.plots.mogul.analysis import (  # importable from here, as before the split
    crash_hazard_figure,
    distribution_figure,
    share_value_figure,
)
from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS, rounded

__all__ = [
    "auction_steps",
    "crash_hazard_figure",
    "distribution_figure",
    "game_pot_ladder_figure",
    "holdings_figure",
    "market_data",
    "market_traces",
    "market_value_figure",
    "score_data",
    "score_traces",
    "scores_figure",
    "share_value_figure",
]


def _edition(ed: Edition | str | None) -> Edition:
    return edition("classic" if ed is None else ed)


def _companies(rounds: pd.DataFrame) -> list[str]:
    return [c.removeprefix("market_") for c in rounds.columns if c.startswith("market_")]


# --- one game: market values, holdings, scores -------------------------------------------------


def market_data(
    rounds: pd.DataFrame, sales: pd.DataFrame | None = None, ed: Edition | str | None = None
) -> dict:
    """The numbers behind ``market_traces``, as plain lists.

    Returns ``{"x": rounds, "values": {company: market values}, "sales": {"x", "y",
    "colour", "text"}}``: the market value of each company as each auction opens, and one
    entry per sale with ``sold > 0`` in ``sales`` (an auctions table), at the sale price.
    """
    ed = _edition(ed)
    colours = ed.colours()
    companies = _companies(rounds) or list(ed.company_ids)
    per_round = rounds.drop_duplicates("round") if len(rounds) else None
    data: dict = {
        "x": rounded(per_round["round"]) if per_round is not None else [],
        "values": {
            c: rounded(per_round[f"market_{c}"]) if per_round is not None else [] for c in companies
        },
        "sales": {"x": [], "y": [], "colour": [], "text": []},
    }
    if sales is not None and len(sales) and "sold" in sales.columns:
        names = dict(zip(rounds["seat"], rounds["player"], strict=False)) if len(rounds) else {}
        marks = data["sales"]
        for row in sales[sales["sold"] > 0].itertuples():
            marks["x"].append(int(row.round))
            marks["y"].append(int(row.sale_price))
            marks["colour"].append(colours[row.border])
            who = names.get(row.seller, f"seat {row.seller}")
            marks["text"].append(f"{who} sells {row.sold} {row.border} at {row.sale_price}")
    return data


def market_traces(
    rounds: pd.DataFrame, ed: Edition | str | None = None, sales: pd.DataFrame | None = None
) -> list[go.Scatter]:
    """One line per company (market value as each auction opens) and one trace of sales.

    ``rounds`` is one game's rounds table; ``sales`` its auctions table (rows with
    ``sold > 0`` become markers at the sale price, labelled with seller, count and price).
    The sales trace is always there (maybe empty), so a live figure keeps its trace list.
    """
    ed = _edition(ed)
    data = market_data(rounds, sales, ed)
    traces = [
        go.Scatter(
            x=data["x"],
            y=values,
            name=c,
            mode="lines+markers",
            cliponaxis=False,
            line={"color": ed.colours()[c], "shape": "hv"},
            marker={"size": 5},
            hovertemplate=f"{c} ({ed.company(c).name}): %{{y}} shares held<extra>round %{{x}}</extra>",
        )
        for c, values in data["values"].items()
    ]
    marks = data["sales"]
    traces.append(
        go.Scatter(
            x=marks["x"],
            y=marks["y"],
            name="sale",
            mode="markers",
            text=marks["text"],
            cliponaxis=False,
            marker={
                "symbol": "x",
                "size": 11,
                "color": marks["colour"],
                "line": {"width": 1, "color": "#222"},
            },
            hovertemplate="%{text}<extra>round %{x}</extra>",
        )
    )
    return traces


def market_value_figure(
    rounds: pd.DataFrame,
    ed: Edition | str | None = None,
    sales: pd.DataFrame | None = None,
    title: str = "Market value per company",
) -> go.Figure:
    """Market value (shares held by all players) per company over the rounds, sales marked.

    A take raises a company's value by one; a sale of n shares lowers it by n at the next round.
    """
    fig = go.Figure(market_traces(rounds, ed, sales))
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        xaxis_title="round",
        yaxis_title="market value (points<br>per share sold)",
        height=360,
    )
    fig.update_yaxes(rangemode="tozero")
    return fig


def holdings_figure(
    rounds: pd.DataFrame,
    ed: Edition | str | None = None,
    at_round: int | None = None,
    title: str | None = None,
) -> go.Figure:
    """Shares held by each player, stacked by company, at one round (default: the last row)."""
    ed = _edition(ed)
    if at_round is None:
        at_round = int(rounds["round"].max())
    rows = rounds[rounds["round"] == at_round].drop_duplicates("seat", keep="last")
    fig = go.Figure()
    for c in _companies(rounds):
        fig.add_bar(
            x=list(rows["player"]),
            y=rounded(rows[f"shares_{c}"]),
            name=c,
            marker={"color": ed.colours()[c]},
            hovertemplate=f"%{{x}}: %{{y}} {c} ({ed.company(c).name})<extra></extra>",
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        barmode="stack",
        title=title or f"Shares held, round {at_round}",
        xaxis_title="player",
        yaxis_title="shares held",
        height=320,
    )
    return fig


def score_data(rounds: pd.DataFrame, score_track: int = 32) -> list[dict]:
    """The numbers behind ``score_traces``: per seat ``seat``, ``player``, ``x`` (rounds),
    ``score``, ``space`` (points modulo ``score_track``) and ``customdata`` (points, score,
    space) per round."""
    out = []
    for seat, rows in rounds.groupby("seat", sort=True):
        points, scores = [int(p) for p in rows["points"]], [int(s) for s in rows["score"]]
        space = [p % score_track for p in points]
        out.append(
            {
                "seat": int(seat),
                "player": str(rows["player"].iloc[0]),
                "x": rounded(rows["round"]),
                "score": scores,
                "space": space,
                "customdata": [list(row) for row in zip(points, scores, space, strict=True)],
            }
        )
    return out


SCORE_TITLE = "score (points,<br>plus 1 per 5 chips)"
"""The axis title of scores, in words (two lines: one is taller than a small chart's plot)."""


def score_traces(
    rounds: pd.DataFrame, score_track: int = 32, track: bool = False
) -> list[go.Scatter]:
    """One line per player: the score (points plus one per five chips; negative after a
    credit) over the rounds, or with ``track=True`` the space of the rulebook's wrap-around
    score track.

    The hover shows points, score and the space on the ``score_track``-space track (points
    modulo the track length: the markers wrap around the board).
    """
    return [
        go.Scatter(
            x=d["x"],
            y=d["space"] if track else d["score"],
            name=d["player"],
            mode="lines+markers",
            cliponaxis=False,
            line={"color": SEAT_COLOURS[d["seat"] % len(SEAT_COLOURS)]},
            marker={"size": 5},
            customdata=d["customdata"],
            hovertemplate="points %{customdata[0]}, score %{customdata[1]}, track space %{customdata[2]}"
            "<extra>%{fullData.name}, round %{x}</extra>",
        )
        for d in score_data(rounds, score_track)
    ]


def scores_figure(
    rounds: pd.DataFrame, score_track: int = 32, track: bool = False, title: str | None = None
) -> go.Figure:
    """Each player's score over the rounds (negative where negative).

    ``track=True`` draws instead the space of each marker on the rulebook's
    ``score_track``-space track, which wraps around: 35 points and 3 points share space 3,
    and -2 points is space 30. Read scores from the default chart.
    """
    fig = go.Figure(score_traces(rounds, score_track, track))
    label = f"space on the {score_track}-space<br>track (wraps around)" if track else SCORE_TITLE
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title or ("Score track (wraps around)" if track else "Scores"),
        xaxis_title="round",
        yaxis_title=label,
        height=340,
    )
    if track:
        fig.update_yaxes(range=[-0.5, score_track - 0.5])
    return fig


# --- one auction of a game ----------------------------------------------------------------------


def auction_steps(states: Iterable[GameState], round_number: int) -> list[Step]:
    """The moves of the auction of round ``round_number`` as ``mogul.auction.Step`` s.

    Read from the states' events: each bid and each drop, with the pot before the move.
    """
    steps: list[Step] = []
    current = None
    for state in states:
        for event in state.events:
            kind = type(event)
            if kind is CardRevealed:
                current = event.round
            elif current != round_number:
                continue
            elif kind is ChipBid:
                steps.append(Step(event.seat, "bid", event.pot - 1))
            elif kind is Dropped:
                steps.append(Step(event.seat, "drop", event.chips))
    return steps


def game_pot_ladder_figure(
    states: Sequence[GameState], round_number: int, title: str | None = None
) -> go.Figure:
    """The pot ladder of one auction of a game (``mogul.plots.auction.pot_ladder_figure``).

    Markers are coloured by player; a legend entry per player says whose colour is whose.
    The figure always has three traces plus one per player, so a live chart keeps its traces.
    """
    states = list(states)
    names = states[0].names if states else None
    steps = auction_steps(states, round_number)
    fig = pot_ladder_figure(steps, names, title or f"The auction of round {round_number}")
    fig.update_traces(cliponaxis=False, showlegend=False)
    for seat, name in enumerate(names or ()):
        fig.add_scatter(
            x=[None],
            y=[None],
            mode="markers",
            name=name,
            hoverinfo="skip",
            cliponaxis=False,
            marker={"color": SEAT_COLOURS[seat % len(SEAT_COLOURS)], "size": 9},
        )
    fig.update_layout(
        showlegend=True,
        xaxis_title="move in this auction",
        yaxis_title="pot before the<br>move (chips)",  # two lines fit a 300 px chart on a phone
    )
    fig.update_xaxes(dtick=1, range=[-0.5, max(len(steps), 4) - 0.5])  # room for a short auction
    return fig
