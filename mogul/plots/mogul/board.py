"""Mogul's board as a figure (the game's ``board`` face, ``GameSpec.faces``): the 2013 railway
map with the houses (``network_figure``), or, in the classic game, which has no board beyond
the cards in front of each player, the shares each player holds with the card on offer named.

``network_data`` gives the numbers behind the map as plain lists, so a live figure can be
updated in place: the trace list is the same for every state of a game, and a trace with no
point yet holds one empty point (``None``), so its legend entry is there from the start (a
live figure's legend does not grow as the game goes on).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import plotly.graph_objects as go

from mogul.games.mogul.actions import Branch
from mogul.plots.mogul.game import stacked_shares
from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS, rounded

__all__ = ["board_figure", "branch_choices", "network_data", "network_figure"]


STATION_RING = "#666666"
INTERCHANGE_RING = "#1a1a1a"
MARK = "#111111"  # rings of the choices and of the highlighted station: no company or seat colour


def branch_choices(state: Any) -> list[str]:
    """The stations the player to act may branch on now, in the game's order (may be empty)."""
    if state.is_over:
        return []
    return list(dict.fromkeys(a.station for a in state.legal_actions() if type(a) is Branch))


def _stations(highlight: str | Iterable[str] | None) -> list[str]:
    if highlight is None:
        return []
    if isinstance(highlight, str):
        return [highlight]
    return list(highlight)


def network_data(state: Any, highlight: str | Iterable[str] | None = None) -> dict:
    """The numbers behind ``network_figure`` as plain lists.

    Returns ``{"houses": [{"name", "x", "y", "text"} per seat], "choices": {"x", "y",
    "text"}, "highlight": {"x", "y", "text"}, "title": str}``. Raises ``ValueError`` for a
    highlighted station the map does not have.
    """
    ed = state.edition
    stations = ed.stations
    marked = _stations(highlight)
    unknown = [s for s in marked if s not in stations]
    if unknown:
        raise ValueError(
            f"no station {unknown[0]!r} on the map; stations are {', '.join(stations)}"
        )

    def points(ids: Iterable[str]) -> dict:
        ids = list(ids)
        return {
            "x": rounded(stations[s].x for s in ids),
            "y": rounded(stations[s].y for s in ids),
            "text": ids,
        }

    houses = []
    for name, player in zip(state.names, state.players, strict=True):
        here = points(player.houses)
        here["name"] = name
        here["hover"] = [
            f"{name}'s house at {s} ({', '.join(stations[s].lines)})" for s in player.houses
        ]
        houses.append(here)
    choices = branch_choices(state)
    placed = sum(len(p.houses) for p in state.players)
    if choices:
        seat = state.current_player
        line = state.revealed.border if getattr(state, "revealed", None) is not None else "a line"
        title = f"{state.names[seat]} may branch on {line}: {len(choices)} free"
    else:
        title = f"Network: {placed} of {len(stations)} stations taken"
    return {
        "houses": houses,
        "choices": points(choices),
        "highlight": points(marked),
        "title": title,
    }


def _keyed(values: list) -> list:
    """``values``, or one empty point so that plotly keeps the trace's legend entry."""
    return values if values else [None]


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
    data = network_data(state, highlight)
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
    for seat, houses in enumerate(data["houses"]):
        fig.add_scatter(
            x=_keyed(houses["x"]),
            y=_keyed(houses["y"]),
            mode="markers",
            name=houses["name"],
            cliponaxis=False,
            marker={
                "symbol": "square",
                "size": 13,
                "color": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                "line": {"color": "#ffffff", "width": 1.5},
            },
            text=houses["hover"],
            hovertemplate="%{text}<extra></extra>",
        )
    choices, marked = data["choices"], data["highlight"]
    fig.add_scatter(
        x=_keyed(choices["x"]),
        y=_keyed(choices["y"]),
        text=choices["text"],
        mode="markers+text",
        name="free now",
        cliponaxis=False,
        textposition="top center",
        textfont={"size": 12, "color": MARK},
        hovertemplate="branch on %{text}<extra></extra>",
        marker={"symbol": "circle-open", "size": 23, "color": MARK, "line": {"width": 2}},
    )
    fig.add_scatter(
        x=_keyed(marked["x"]),
        y=_keyed(marked["y"]),
        text=marked["text"],
        mode="markers",
        name="last house",
        cliponaxis=False,
        hovertemplate="%{text}<extra></extra>",
        marker={"symbol": "circle-open", "size": 31, "color": MARK, "line": {"width": 4}},
    )
    xs = [st.x for st in stations.values()]
    ys = [st.y for st in stations.values()]
    pad = 0.08 * max(max(xs) - min(xs), max(ys) - min(ys), 1)
    hidden = {"showgrid": False, "showticklabels": False, "zeroline": False, "title": None}
    fig.update_layout(
        template=KIT_TEMPLATE,
        title=data["title"],
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
