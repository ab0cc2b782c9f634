"""Credit Mobilier drawn: the board (``board_figure``), the dice (``dice_html``), one game's
tables as charts (``treasuries_figure``, ``dividends_figure``, ``stock_figure``) and the
studies of ``mogul.analysis.credit_mobilier`` (``dividends_to_come_figure``,
``marginal_value_figure``).

Companies are drawn in their screen colours from ``data/credit-mobilier/components.json``
and named by their colour words, as on the buttons and in the log. The board's trace list is
fixed (``BOARD_TRACES``), so a live figure can be updated in place (``board_data``).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from mogul.games.credit_mobilier.actions import Build, Move
from mogul.games.credit_mobilier.board import COAST, board
from mogul.games.credit_mobilier.components import (
    COMPANIES,
    CREDIT_MOBILIER,
    DIVIDENDS,
    RAILROADS,
    WILD,
)
from mogul.games.credit_mobilier.dice import DIVIDEND, allowance
from mogul.games.credit_mobilier.display import colour_of
from mogul.games.credit_mobilier.events import GoodsMoved, TrackBuilt
from mogul.kit.colours import text_colour
from mogul.plots.template import KIT_TEMPLATE, error_bars, laid_out, rounded

__all__ = [
    "BOARD_TRACES",
    "board_data",
    "board_figure",
    "board_title",
    "company_colours",
    "dice_faces",
    "dice_html",
    "dividends_figure",
    "dividends_to_come_figure",
    "marginal_value_figure",
    "stock_figure",
    "treasuries_figure",
]


# --- the board and the dice -----------------------------------------------------------------------


FREE_TRACK = "#b8b8b8"
HIGHLIGHT = "#111111"  # legal builds and moves: dark, so they read over any company colour
JUST_DONE = "#ffd84d"  # a soft glow under the sections the last step built or crossed
SQUARE_FILL = "#f4ecd8"
COAST_FILL = "#cfe3f2"
USED_DIE = "#d9d9d9"

HALF = 0.3  # half a goods square (squares sit one unit apart)
COAST_X = (-0.55, HALF)  # the Pacific Coast: a strip west of column 1, as tall as the board

BOARD_TRACES = (
    "free track space",
    "just done",
    *(f"{c} track" for c in RAILROADS),
    "can build",
    "can move",
    *(f"{c} goods" for c in RAILROADS),
)
"""The board's traces, in drawing order (bottom first); always all of them, maybe empty."""


def company_colours() -> dict[str, str]:
    """Screen colour per company (colour word -> ``#rrggbb``), plus orange for the dice."""
    return {name: colour_of(name) for name in (*COMPANIES, DIVIDENDS)}


# --- the board --------------------------------------------------------------------------------


def _xy(space: str) -> tuple[float, float]:
    """Where a space's centre is drawn: column along x (coast at 0), rows down from y = 0."""
    b = board()
    if space == COAST:
        return 0.0, -(len(b.rows) - 1) / 2
    return float(b.column(space)), -float(b.rows.index(space[0]))


def _ends(section_id: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of a track space as drawn: across the gap between its two spaces."""
    s = board().section(section_id)
    (xa, ya), (xb, yb) = _xy(s.a), _xy(s.b)
    if s.a == COAST:
        ya = yb  # the coast is a strip: its track runs straight west from the square
    start = (xa + HALF * (xb - xa), ya + HALF * (yb - ya)) if s.a != COAST else (HALF, ya)
    end = (xb - HALF * (xb - xa), yb - HALF * (yb - ya))
    return start, end


def _segments(sections: Iterable[str], texts: Iterable[str]) -> dict[str, list]:
    """Line data for track spaces: start, middle and end of each (hover anywhere), then a gap."""
    x: list = []
    y: list = []
    text: list = []
    for section, label in zip(sections, texts, strict=True):
        (x0, y0), (x1, y1) = _ends(section)
        x += [x0, (x0 + x1) / 2, x1, None]
        y += [y0, (y0 + y1) / 2, y1, None]
        text += [label, label, label, None]
    return {"x": rounded(x, 3), "y": rounded(y, 3), "text": text}


def _pawn_slots(count: int, coast: bool) -> list[tuple[float, float]]:
    """Offsets from a space's centre for ``count`` pawns, so stacked pawns stay apart."""
    if coast:  # three to a row down the coast strip
        top = (len(board().rows) - 1) / 2 + 0.25
        step = min(0.42, (2 * top) / max(1, (count + 2) // 3 - 1 or 1))
        return [(-0.4 + 0.25 * (i % 3), top - step * (i // 3)) for i in range(count)]
    if count == 1:
        return [(0.0, 0.0)]
    side = 2 if count <= 4 else 3
    step = 0.26 if side == 2 else 0.19
    first = -step * (side - 1) / 2
    return [(first + step * (i % side), -first - step * (i // side)) for i in range(count)]


def _pawns(state: Any) -> dict[str, dict[str, list]]:
    """Marker positions of every goods pawn, by colour."""
    by_space: dict[str, list[str]] = {}
    for space, colour in state.goods:
        by_space.setdefault(space, []).append(colour)
    out = {c: {"x": [], "y": [], "text": []} for c in RAILROADS}
    for space, colours in by_space.items():
        cx, cy = _xy(space)
        for colour, (dx, dy) in zip(
            colours, _pawn_slots(len(colours), space == COAST), strict=True
        ):
            where = "the Pacific Coast" if space == COAST else space
            out[colour]["x"].append(round(cx + dx, 3))
            out[colour]["y"].append(round(cy + dy, 3))
            out[colour]["text"].append(f"{colour} goods on {where}")
    return out


def _just_done(state: Any) -> list[str]:
    """Track spaces the step that made ``state`` built or moved goods over."""
    out = []
    for event in state.events:
        if isinstance(event, TrackBuilt):
            out.append(event.section)
        elif isinstance(event, GoodsMoved):
            out.append(board().between(event.from_space, event.to_space).id)
    return out


def _moves(actions: Sequence[Any]) -> dict[str, list]:
    """Arrows for legal moves: from the pawn's space towards the space it may reach."""
    paths: dict[tuple[str, str], list[str]] = {}
    for a in actions:
        if isinstance(a, Move):
            paths.setdefault((a.from_space, a.to_space), []).append(a.colour)
    x: list = []
    y: list = []
    text: list = []
    for (here, there), colours in paths.items():
        (x0, y0), (x1, y1) = _xy(here), _xy(there)
        if there == COAST:
            y1 = y0
            x1 = HALF - 0.05
        # from just off the pawn to just short of the next space's centre
        sx, sy = x0 + 0.22 * (x1 - x0), y0 + 0.22 * (y1 - y0)
        ex, ey = x0 + 0.78 * (x1 - x0), y0 + 0.78 * (y1 - y0)
        label = f"{' or '.join(colours)} goods may move {here} to {'the coast' if there == COAST else there}"
        x += [sx, ex, None]
        y += [sy, ey, None]
        text += [label, label, None]
    return {"x": rounded(x, 3), "y": rounded(y, 3), "text": text, "size": [0, 11, 0] * len(paths)}


def board_data(state: Any, highlight: Iterable[Any] | None = None) -> dict[str, dict[str, list]]:
    """The numbers behind ``board_figure``: ``x``, ``y`` and ``text`` per trace name.

    The keys are ``BOARD_TRACES``. ``highlight`` is a list of actions to mark (for instance
    ``state.legal_actions()``): ``Build`` actions mark their track space, ``Move`` actions draw
    an arrow; others are ignored.
    """
    actions = list(highlight or ())
    owners = dict(state.track)
    free = [s.id for s in board().sections if s.id not in owners]
    data = {"free track space": _segments(free, [f"{s}: free track space" for s in free])}
    done = _just_done(state)
    data["just done"] = _segments(done, [f"{s}: the last step" for s in done])
    for colour in RAILROADS:
        mine = [s for s, c in state.track if c == colour]
        data[f"{colour} track"] = _segments(mine, [f"{s}: {colour} track" for s in mine])
    builds: dict[str, list[str]] = {}
    for a in actions:
        if isinstance(a, Build):
            builds.setdefault(a.section, []).append(a.colour)
    data["can build"] = _segments(
        builds, [f"{s}: may build {' or '.join(c)} track" for s, c in builds.items()]
    )
    data["can move"] = _moves(actions)
    for colour, pawns in _pawns(state).items():
        data[f"{colour} goods"] = pawns
    return data


def board_title(state: Any) -> str:
    """The board's title: the turn, who is on turn and what they chose (or game over)."""
    if state.is_over:
        return f"The board after {state.turn} turns: game over"
    name = state.names[state.current_player]
    doing = "to choose" if state.kind is None else f"{state.kind} {state.colour}"
    return f"Turn {state.turn}: {name}, {doing}"


def _trace_style(name: str, data: dict[str, list], colours: dict[str, str]) -> dict:
    """How the board draws its trace ``name`` (``BOARD_TRACES``): moves as arrows, goods as
    pawns, track spaces as lines."""
    if name == "can move":
        arrow = {
            "symbol": "arrow",
            "angleref": "previous",
            "size": data["size"],
            "color": HIGHLIGHT,
        }
        return {"mode": "lines+markers", "line": {"color": HIGHLIGHT, "width": 2}, "marker": arrow}
    if name.endswith(" goods"):
        colour = colours[name.removesuffix(" goods")]
        pawn = {"color": colour, "size": 11, "line": {"color": "#222", "width": 1.5}}
        return {"mode": "markers", "marker": pawn}
    lines = {
        "free track space": {"color": FREE_TRACK, "width": 2, "dash": "dot"},
        "just done": {"color": JUST_DONE, "width": 16},
        "can build": {"color": HIGHLIGHT, "width": 3, "dash": "dash"},
    }
    if name not in lines:  # a railroad's track
        lines[name] = {"color": colours[name.removesuffix(" track")], "width": 7}
    return {"mode": "lines", "line": lines[name]}


def board_figure(
    state: Any, highlight: Iterable[Any] | None = None, title: str | None = None
) -> go.Figure:
    """The board of ``state``: squares, coast, track spaces, goods pawns, actions marked.

    Free track spaces are dotted grey, built ones thick in their railroad's colour; a soft
    yellow glow marks what the last step built or crossed. ``highlight``: actions to mark, for
    instance ``state.legal_actions()``: legal builds as dashed dark sections, legal moves as
    arrows. Hover over anything to read its name.
    """
    b = board()
    colours = company_colours()
    data = board_data(state, highlight)
    fig = go.Figure()
    for name in BOARD_TRACES:
        d = data[name]
        fig.add_scatter(
            x=d["x"],
            y=d["y"],
            text=d["text"],
            name=name,
            showlegend=False,
            cliponaxis=False,
            hovertemplate="%{text}<extra></extra>",
            **_trace_style(name, d, colours),
        )
    rows = len(b.rows)
    shapes = [
        {
            "type": "rect",
            "x0": COAST_X[0],
            "x1": COAST_X[1],
            "y0": -(rows - 1) - HALF,
            "y1": HALF,
            "fillcolor": COAST_FILL,
            "line": {"width": 0},
            "layer": "below",
        },
        {
            "type": "line",
            "x0": b.columns + 0.45,
            "x1": b.columns + 0.45,
            "y0": -(rows - 1) - HALF,
            "y1": HALF,
            "line": {"color": "#555", "width": 3},
        },
    ]
    for square in b.squares:
        x, y = _xy(square)
        shapes.append(
            {
                "type": "rect",
                "x0": x - HALF,
                "x1": x + HALF,
                "y0": y - HALF,
                "y1": y + HALF,
                "fillcolor": SQUARE_FILL,
                "line": {"color": "#c9bb98", "width": 1},
                "layer": "below",
            }
        )
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title or board_title(state),
        height=300,
        shapes=shapes,
        plot_bgcolor="#ffffff",
        hovermode="closest",
        dragmode=False,
        annotations=[
            {
                "x": (COAST_X[0] + COAST_X[1]) / 2,
                "y": -(rows - 1) / 2,
                "text": "Pacific Coast",
                "textangle": -90,
                "showarrow": False,
                "font": {"size": 11, "color": "#35607f"},
            },
            {
                "x": b.columns + 0.45,
                "y": HALF + 0.05,
                "yanchor": "bottom",
                "text": "east",
                "showarrow": False,
                "font": {"size": 11, "color": "#555"},
            },
        ],
    )
    fig.update_xaxes(
        range=[COAST_X[0] - 0.05, b.columns + 0.55],
        tickvals=list(range(b.columns + 1)),
        ticktext=["coast", *(str(c) for c in range(1, b.columns + 1))],
        showgrid=False,
        fixedrange=True,
        constrain="domain",
        title_text="column, west to east",
        title_standoff=2,
    )
    fig.update_yaxes(
        range=[-(rows - 1) - 0.45, 0.55],
        tickvals=[-i for i in range(rows)],
        ticktext=list(b.rows),
        showgrid=False,
        fixedrange=True,
        scaleanchor="x",
        constrain="domain",
    )
    return fig


# --- the dice ---------------------------------------------------------------------------------


def dice_faces(state: Any) -> list[tuple[str, str]]:
    """Each die of the roll with how it stands this turn: "free", "used" or "idle".

    Before the turn's first unit action every die is "free". Once the colour and kind are
    fixed, the dice that count for them (the colour's dice, then purple wilds; for dividends
    the larger of that group and the orange dice) are used up one per unit action; the
    others are "idle" for the rest of the turn.
    """
    dice = list(state.dice)
    if state.is_over:
        return [(d, "idle") for d in dice]
    if state.kind is None:
        return [(d, "free") for d in dice]
    colour = state.colour
    group = [i for i, d in enumerate(dice) if d == colour]
    if colour != CREDIT_MOBILIER:
        group += [i for i, d in enumerate(dice) if d == WILD]
    if state.kind == DIVIDEND:
        orange = [i for i, d in enumerate(dice) if d == DIVIDENDS]
        if len(orange) > len(group):
            group = orange
    used = set(group[: state.used])
    return [
        (d, "used" if i in used else "free" if i in group else "idle") for i, d in enumerate(dice)
    ]


def dice_html(state: Any) -> str:
    """The roll of the player on turn as five coloured dice (HTML), with a line on the turn.

    Grey dice are used; faded dice do not count for the colour and kind chosen.
    """
    colours = company_colours()
    faces = []
    for face, status in dice_faces(state):
        fill = USED_DIE if status == "used" else colours[face]
        ink = "#555" if status == "used" else text_colour(fill)
        look = "opacity:0.35;" if status == "idle" else ""
        mark = "text-decoration:line-through;" if status == "used" else ""
        faces.append(
            f'<span class="mogul-die" title="{face} ({status})" style="display:inline-block;width:3.6em;'
            f"height:3.6em;line-height:3.6em;margin:0 6px 6px 0;border-radius:8px;text-align:center;"
            f'font-size:0.8em;font-weight:600;background:{fill};color:{ink};border:2px solid #333;{look}{mark}">'
            f"{html.escape(face)}</span>"
        )
    if state.is_over:
        line = "Game over."
    else:
        line = f"<b>{html.escape(state.names[state.current_player])}</b>'s roll: "
        if state.kind is None:
            line += "choose a colour and an action"
        else:
            allowed = allowance(state.dice, state.colour, state.kind)
            line += f"{html.escape(state.kind)} {html.escape(state.colour)}, {state.used} of {allowed} done"
    return (
        f'<div class="mogul-dice" style="margin:4px 0"><div style="margin-bottom:4px">{line}</div>'
        f'<div style="display:flex;flex-wrap:wrap">{"".join(faces)}</div></div>'
    )


# --- charts of the tables and of the studies ------------------------------------------------------


PRICE = 1.0
"""What a share costs, in dollars."""


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
    laid_out(fig, title, x="turn", y="dollars in the treasury", height=340)
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
    return laid_out(
        fig,
        title,
        barmode="stack",
        x="player",
        y="dollars of dividends",
        height=320,
        legend_traceorder="normal",
    )


def stock_figure(holdings: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Shares each player holds, stacked by company, at the end of the table.

    ``holdings`` is a game's ``holdings`` table: one row per turn and player with ``turn``,
    ``player`` and a ``stock_<company>`` column per company; the last rows are the end.
    """
    colours = company_colours()
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
    return laid_out(
        fig,
        title or ("Shares held at the end" if over else f"Shares held as turn {turn} begins"),
        barmode="stack",
        x="player",
        y="shares held",
        height=320,
        legend_traceorder="normal",
    )


# --- many games -----------------------------------------------------------------------------


def dividends_to_come_figure(
    averages: pd.DataFrame, title: str = "What is a share still worth?"
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
            y=[PRICE, PRICE],
            name="price of a share",
            mode="lines",
            line={"color": "#555555", "dash": "dash", "width": 1.5},
            hoverinfo="skip",
        )
    laid_out(fig, title, x="turn", y="dividends to come per share ($)", height=400)
    fig.update_yaxes(rangemode="tozero")
    return fig


def marginal_value_figure(
    summary: pd.DataFrame, title: str = "One more share: marginal vs average"
) -> go.Figure:
    """Per company and turn: what one more share adds to its owner's final cash (filled
    diamonds) beside the average payout per share held (open circles), each with its 95%
    interval; the dashed line is the $1 price.

    ``summary`` is ``mogul.analysis.credit_mobilier.marginal_by_turn(...)``. The expected gain
    of buying is the marginal value minus the price; an interval says how well one sample pins
    a value down (with ten of them, one may leave out the price by chance alone), it is not a
    rule for buying.
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
                error_y=error_bars(
                    rows[what], rows[f"{what}_low"], rows[f"{what}_high"], 2, thickness=1.5
                ),
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
        y=PRICE,
        line={"color": "#555555", "dash": "dash", "width": 1.5},
        annotation_text="price $1",
        annotation_position="top left",
    )
    return laid_out(
        fig,
        title,
        y="dollars per share",
        height=420,
        scattermode="group",
        legend={"orientation": "h", "y": -0.2},
    )
