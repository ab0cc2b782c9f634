"""Mogul's board as a figure (the game's ``board`` face, ``GameSpec.faces``): the 2013 railway
map with the houses (``network_figure``), or, in the classic game, which has no board beyond
the cards in front of each player, the shares each player holds with the card on offer named.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import plotly.graph_objects as go

from mogul.games.mogul.actions import Branch
from mogul.plots.mogul.game import stacked_shares
from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS, rounded

__all__ = ["board_figure", "branch_choices", "network_figure"]


STATION_RING = "#666666"
INTERCHANGE_RING = "#1a1a1a"
MARK = "#111111"  # rings of the choices and of the highlighted station: no company or seat colour


def branch_choices(state: Any) -> list[str]:
    """The stations the player to act may branch on now, in the game's order (may be empty)."""
    if state.is_over:
        return []
    return list(dict.fromkeys(a.station for a in state.legal_actions() if type(a) is Branch))


def _points(stations: Any, ids: Iterable[str]) -> dict:
    """Where the stations ``ids`` are drawn, or one empty point (``None``) when there are none,
    so that plotly keeps the trace's legend entry (a live map's legend does not grow)."""
    xs = rounded(stations[s].x for s in ids)
    ys = rounded(stations[s].y for s in ids)
    return {"x": xs or [None], "y": ys or [None]}


def network_figure(state: Any, highlight: str | Iterable[str] | None = None) -> go.Figure:
    """The map of ``state``'s edition: each line in its company's colour, stations as small
    white circles, interchanges (a station on two lines) with a heavy dark ring, houses as
    squares in their owner's seat colour, and, when the player to act may branch, a ring and
    the id on every station they may branch on now.

    ``highlight``: a station id (or several) to ring heavily, such as the last house placed.
    Raises ``ValueError`` for an edition without a map (the classic game has none).
    """
    ed = state.edition
    stations = getattr(ed, "stations", None)
    if not stations:
        raise ValueError(f"the {ed.name!r} edition has no network map (only 'rio-grande' has one)")
    marked = [highlight] if isinstance(highlight, str) else list(highlight or ())
    unknown = [s for s in marked if s not in stations]
    if unknown:
        raise ValueError(
            f"no station {unknown[0]!r} on the map; stations are {', '.join(stations)}"
        )
    colours = ed.colours()
    fig = go.Figure()
    for company, ids in ed.lines.items():
        fig.add_scatter(
            x=rounded(stations[s].x for s in ids),
            y=rounded(stations[s].y for s in ids),
            mode="lines",
            name=company,
            line={"color": colours[company], "width": 6},
            hoverinfo="skip",
        )
    plain = [s for s in stations if len(stations[s].lines) < 2]
    interchanges = [s for s in stations if len(stations[s].lines) >= 2]
    for name, ids, size, ring, width in (
        ("station", plain, 11, STATION_RING, 1.5),
        ("interchange", interchanges, 17, INTERCHANGE_RING, 3.5),
    ):
        fig.add_scatter(
            x=rounded(stations[s].x for s in ids),
            y=rounded(stations[s].y for s in ids),
            mode="markers",
            name=name,
            showlegend=name == "interchange",
            cliponaxis=False,
            marker={
                "symbol": "circle",
                "size": size,
                "color": "#ffffff",
                "line": {"color": ring, "width": width},
            },
            text=[f"{s}: {' / '.join(stations[s].lines)}" for s in ids],
            hovertemplate="%{text}<extra></extra>",
        )
    for seat, (name, player) in enumerate(zip(state.names, state.players, strict=True)):
        fig.add_scatter(
            **_points(stations, player.houses),
            mode="markers",
            name=name,
            cliponaxis=False,
            marker={
                "symbol": "square",
                "size": 13,
                "color": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                "line": {"color": "#ffffff", "width": 1.5},
            },
            text=[f"{name}'s house at {s} ({', '.join(stations[s].lines)})" for s in player.houses],
            hovertemplate="%{text}<extra></extra>",
        )
    choices = branch_choices(state)
    fig.add_scatter(
        **_points(stations, choices),
        text=choices,
        mode="markers+text",
        name="free now",
        cliponaxis=False,
        textposition="top center",
        textfont={"size": 12, "color": MARK},
        hovertemplate="branch on %{text}<extra></extra>",
        marker={"symbol": "circle-open", "size": 23, "color": MARK, "line": {"width": 2}},
    )
    fig.add_scatter(
        **_points(stations, marked),
        text=marked,
        mode="markers",
        name="last house",
        cliponaxis=False,
        hovertemplate="%{text}<extra></extra>",
        marker={"symbol": "circle-open", "size": 31, "color": MARK, "line": {"width": 4}},
    )
    if choices:
        line = state.revealed.border if getattr(state, "revealed", None) is not None else "a line"
        title = f"{state.names[state.current_player]} may branch on {line}: {len(choices)} free"
    else:
        placed = sum(len(p.houses) for p in state.players)
        title = f"Network: {placed} of {len(stations)} stations taken"
    xs = [st.x for st in stations.values()]
    ys = [st.y for st in stations.values()]
    pad = 0.08 * max(max(xs) - min(xs), max(ys) - min(ys), 1)
    hidden = {"showgrid": False, "showticklabels": False, "zeroline": False, "title": None}
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=title,
        height=420,
        hovermode="closest",
        margin={"t": 60},  # the title's own band: the map's top station would sit under it
        xaxis={**hidden, "range": rounded([min(xs) - pad, max(xs) + pad]), "constrain": "domain"},
        yaxis={
            **hidden,
            "range": rounded([min(ys) - pad, max(ys) + pad]),
            "scaleanchor": "x",
            "scaleratio": 1,
            "constrain": "domain",
        },
    )
    return fig


def board_figure(state: Any) -> go.Figure:
    """The table of ``state`` as a figure: the map (2013) or the shares in front of each player."""
    ed = state.edition
    if getattr(ed, "stations", None):
        return network_figure(state)
    shares = {c: [p.shares[c] for p in state.players] for c in ed.company_ids}
    offer = f", round {state.round}: {state.revealed}" if state.revealed is not None else ""
    return stacked_shares(list(state.names), shares, ed, f"Shares held{offer}")
