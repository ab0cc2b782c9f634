"""Mogul's charts: one game as it was played (its ``rounds`` and ``auctions`` tables, its
states) and the analyses of many games (the frames of ``mogul.analysis.mogul``). Data in,
``go.Figure`` out.

Companies are named by their colour words, as on the cards, buttons and tables ("brown"), with
the railroad's name in the hover ("brown: Great Northern"), and drawn in their own colours
(``edition.colours()``); players and groups use ``SEAT_COLOURS``, which are never a
company's colour. Floats are rounded so stored notebook outputs stay small and stable.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from mogul.analysis.intervals import Z95
from mogul.auction import Step
from mogul.games.mogul.editions import Edition, edition
from mogul.games.mogul.events import CardRevealed, ChipBid, Dropped
from mogul.games.mogul.rules import GameState
from mogul.plots.auction import pot_ladder_figure
from mogul.plots.template import SEAT_COLOURS, error_bars, laid_out, rounded

__all__ = [
    "auction_steps",
    "crash_hazard_figure",
    "distribution_figure",
    "game_pot_ladder_figure",
    "holdings_figure",
    "last_auction",
    "market_data",
    "market_traces",
    "market_value_figure",
    "score_data",
    "score_traces",
    "scores_figure",
    "sell_right_figure",
    "sell_right_use_figure",
    "share_value_figure",
    "stacked_shares",
]


def _edition(ed: Edition | str | None) -> Edition:
    return edition("classic" if ed is None else ed)


def _companies(rounds: pd.DataFrame) -> list[str]:
    return [c.removeprefix("market_") for c in rounds.columns if c.startswith("market_")]


# --- one game: market values, holdings, scores -------------------------------------------------


def market_data(
    rounds: pd.DataFrame, ed: Edition | str | None = None, sales: pd.DataFrame | None = None
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
    data = market_data(rounds, ed, sales)
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
    laid_out(fig, title, x="round", y="market value (points<br>per share sold)", height=360)
    fig.update_yaxes(rangemode="tozero")
    return fig


def holdings_figure(
    rounds: pd.DataFrame,
    ed: Edition | str | None = None,
    title: str | None = None,
) -> go.Figure:
    """Shares held by each player, stacked by company, at the table's last round."""
    ed = _edition(ed)
    at_round = int(rounds["round"].max())
    rows = rounds[rounds["round"] == at_round].drop_duplicates("seat", keep="last")
    shares = {c: rounded(rows[f"shares_{c}"]) for c in _companies(rounds)}
    return stacked_shares(
        list(rows["player"]), shares, ed, title or f"Shares held, round {at_round}"
    )


def stacked_shares(
    players: list[str], shares: Mapping[str, list[int]], ed: Edition, title: str
) -> go.Figure:
    """Shares each player holds, stacked by company: ``shares`` maps a company to each
    player's count."""
    fig = go.Figure()
    for c, counts in shares.items():
        fig.add_bar(
            x=players,
            y=counts,
            name=c,
            marker={"color": ed.colours()[c]},
            hovertemplate=f"%{{x}}: %{{y}} {c} ({ed.company(c).name})<extra></extra>",
        )
    return laid_out(fig, title, barmode="stack", x="player", y="shares held", height=320)


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
    laid_out(
        fig,
        title or ("Score track (wraps around)" if track else "Scores"),
        x="round",
        y=label,
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


def last_auction(states: Iterable[GameState]) -> int | None:
    """The round of the last auction with a move in ``states`` (None before the first bid):
    what the auction chart shows once the crash has ended the game."""
    current = last = None
    for state in states:
        for event in state.events:
            if type(event) is CardRevealed:
                current = event.round
            elif type(event) in (ChipBid, Dropped):
                last = current
    return last


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
    laid_out(fig, title, x="round (card revealed)", y="chance", height=320)
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
        mean = statistics.fmean(values) if values else float("nan")
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        half = Z95 * sd / len(values) ** 0.5 if values else 0.0
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
    laid_out(
        fig,
        title,
        x=x_title,
        y="share of samples",
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
    ed = _edition(ed)
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
    return laid_out(fig, title, x="round", y="points per share", height=420)


# --- the two editions and the 2013 sell right -----------------------------------------------------


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
            low, high = by_fill[f"{column}_low"], by_fill[f"{column}_high"]
            bars = error_bars(by_fill[column], low, high, 2, thickness=1.5)
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
    return laid_out(
        fig,
        title,
        height=360,
        x="houses on the map (start of group)",
        y="end points (mean)",
        yaxis_rangemode="tozero",
    )


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
            error_x=error_bars(rows["share"], rows["low"], rows["high"], thickness=1.5),
            customdata=list(zip(rounded(rows["low"], 4), rounded(rows["high"], 4), strict=True)),
            hovertemplate=(
                f"{name}: %{{y}} in %{{x:.1%}} of the uses"
                "<br>95% interval %{customdata[0]:.1%} to %{customdata[1]:.1%}<extra></extra>"
            ),
        )
    return laid_out(
        fig,
        title,
        barmode="group",
        height=300,
        x="share of uses (95% interval)",
        xaxis_tickformat=".0%",
        xaxis_range=[0, 1],
        yaxis_autorange="reversed",
        legend_traceorder="normal",
    )
