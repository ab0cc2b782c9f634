"""The 2013 edition's network map: lines, stations, interchanges, houses, choices, highlight.

A tiny hand-made map first (every count checkable by eye), then the edition's own map.

    brown:  a --- b --- X          X is an interchange (brown and blue)
                        |
    blue:         c --- X --- d
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple

import pytest

import mogul
from mogul import Branch, Sell
from mogul.kit.colours import SEAT_COLOURS
from mogul.plots.mogul.board import branch_choices, network_figure

CLASSIC = mogul.edition("classic")


class Station(NamedTuple):
    id: str
    lines: tuple[str, ...]
    x: float
    y: float


STATIONS = {
    "a": Station("a", ("brown",), 0, 2),
    "b": Station("b", ("brown",), 1, 2),
    "X": Station("X", ("brown", "blue"), 2, 2),
    "c": Station("c", ("blue",), 2, 1),
    "d": Station("d", ("blue",), 2, 3),
}
MINI = SimpleNamespace(
    name="mini",
    stations=STATIONS,
    lines={"brown": ("a", "b", "X"), "blue": ("c", "X", "d")},
    colours=CLASSIC.colours,
    company=CLASSIC.company,
)


def mini_state(houses, legal=(), current=1, border="blue"):
    """A stand-in state on the tiny map: ``houses`` per seat, ``legal`` the actions now."""
    return SimpleNamespace(
        edition=MINI,
        names=("Ann", "Ben", "Cai"),
        players=[SimpleNamespace(houses=tuple(h)) for h in houses],
        is_over=False,
        current_player=current,
        revealed=mogul.Card("pink", border),
        legal_actions=lambda: list(legal),
    )


def trace(fig, name):
    (found,) = [t for t in fig.data if t.name == name]
    return found


def test_lines_stations_and_interchanges():
    fig = network_figure(mini_state([(), (), ()]))
    brown, blue = trace(fig, "brown"), trace(fig, "blue")
    assert (brown.x, brown.y) == ((0, 1, 2), (2, 2, 2))  # a, b, X in order along the line
    assert (blue.x, blue.y) == ((2, 2, 2), (1, 2, 3))
    assert (
        brown.line.color == CLASSIC.company("brown").colour
        and blue.line.color == CLASSIC.company("blue").colour
    )
    plain, inter = trace(fig, "station"), trace(fig, "interchange")
    assert len(plain.x) == 4 and len(inter.x) == 1 and (inter.x, inter.y) == ((2,), (2,))
    assert (
        inter.marker.size > plain.marker.size and inter.marker.line.width > plain.marker.line.width
    )
    assert inter.text == ("X: brown / blue",)
    assert fig.layout.title.text == "Network: 0 of 5 stations taken"


def test_houses_in_seat_colours_one_trace_per_player():
    fig = network_figure(mini_state([("a", "X"), (), ("d",)]))
    ann, ben, cai = (trace(fig, n) for n in ("Ann", "Ben", "Cai"))
    assert (ann.x, ann.y) == ((0, 2), (2, 2)) and (cai.x, cai.y) == ((2,), (3,))
    assert ben.x == (None,)  # no house yet: one empty point keeps Ben in the legend
    assert [t.marker.color for t in (ann, ben, cai)] == list(SEAT_COLOURS[:3])
    assert ann.text == ("Ann's house at a (brown)", "Ann's house at X (brown, blue)")
    assert fig.layout.title.text == "Network: 3 of 5 stations taken"


def test_choices_of_the_sell_right_are_ringed_and_named():
    state = mini_state([("X",), (), ()], legal=[Sell(0), Branch("c"), Branch("d")], current=1)
    assert branch_choices(state) == ["c", "d"]
    fig = network_figure(state)
    free = trace(fig, "free now")
    assert free.text == ("c", "d") and (free.x, free.y) == ((2, 2), (1, 3))
    assert fig.layout.title.text == "Ben may branch on blue: 2 free"
    # with all houses out a move names the same destination once per house it could come from
    moves = mini_state([(), (), ()], legal=[Branch("c", "a"), Branch("c", "b"), Branch("d", "a")])
    assert branch_choices(moves) == ["c", "d"]


def test_highlight_rings_the_last_house_and_nothing_else():
    fig = network_figure(mini_state([("a",), (), ()]), highlight="a")
    last = trace(fig, "last house")
    assert (last.x, last.y, last.text) == ((0,), (2,), ("a",))
    assert last.marker.size > trace(fig, "free now").marker.size
    quiet = network_figure(mini_state([(), (), ()]))
    assert trace(quiet, "last house").x == (None,) and trace(quiet, "free now").x == (None,)
    # every trace but the plain stations has its legend entry from the start: the legend keeps its size
    assert [t.name for t in quiet.data if t.showlegend is not False] == [
        "brown",
        "blue",
        "interchange",
        "Ann",
        "Ben",
        "Cai",
        "free now",
        "last house",
    ]


def test_bad_highlight_and_maps_without_stations_say_what_is_wrong():
    with pytest.raises(ValueError, match="no station 'z' on the map; stations are a, b, X, c, d"):
        network_figure(mini_state([(), (), ()]), highlight="z")
    with pytest.raises(ValueError, match="'classic' edition has no network map"):
        network_figure(mogul.new_game("classic", players=3, seed=1))


def test_the_trace_list_is_the_same_for_every_state():
    empty = network_figure(mini_state([(), (), ()]))
    full = network_figure(
        mini_state([("a", "b"), ("X",), ("c", "d")], legal=[Branch("c")]), highlight="d"
    )
    assert [t.name for t in empty.data] == [t.name for t in full.data]
    # a trace with nothing to show yet holds one empty point, so its legend entry is there
    choices = next(t for t in empty.data if t.name == "free now")
    assert choices.x == choices.y == (None,) and not choices.text


def test_the_map_keeps_its_shape_and_hides_its_axes():
    fig = network_figure(mini_state([(), (), ()]))
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1
    assert fig.layout.xaxis.showticklabels is False and fig.layout.yaxis.showgrid is False
    lo, hi = fig.layout.xaxis.range
    assert lo < 0 and hi > 2  # room around the outer stations for the rings


# --- the edition's own map -----------------------------------------------------------------------


def test_the_rio_grande_map_five_lines_thirty_stations_five_interchanges():
    state = mogul.new_game(
        "rio-grande", players=4, seed=7, houses=[["BR1", "GR-BR"], ["YE2"], [], ["BL-PI"]]
    )
    fig = network_figure(state, highlight="BL-PI")
    ed = state.edition
    lines = [t for t in fig.data if t.mode == "lines"]
    assert [t.name for t in lines] == ["brown", "yellow", "blue", "pink", "green"]
    assert all(len(t.x) == 7 and t.line.color == ed.company(t.name).colour for t in lines)
    assert len(trace(fig, "station").x) == 25 and len(trace(fig, "interchange").x) == 5
    assert set(trace(fig, "interchange").text) == {
        "GR-BR: green / brown",
        "BR-YE: brown / yellow",
        "YE-BL: yellow / blue",
        "BL-PI: blue / pink",
        "PI-GR: pink / green",
    }
    houses = [trace(fig, n) for n in state.names]
    assert [len([x for x in t.x if x is not None]) for t in houses] == [2, 1, 0, 1]
    assert (trace(fig, "last house").x, trace(fig, "last house").y) == ((0,), (-3,))  # BL-PI
    assert fig.layout.title.text == "Network: 4 of 30 stations taken"
