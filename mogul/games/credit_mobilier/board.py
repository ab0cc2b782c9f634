"""The board: goods squares, the Pacific Coast, track spaces and connection to the eastern edge.

The rulebook shows no map, so the board is modeled (``data/credit-mobilier/board.json``):
rows A-D run north to south, columns 1-6 west to east. Square ``B3`` is row B, column 3.
The Pacific Coast (``"coast"``) lies west of column 1 and touches its four squares; column 6
touches the eastern edge. A track space lies on every orthogonal adjacency::

    coast - A1 - A2 - A3 - A4 - A5 - A6 | eastern
    coast - B1 - B2 ...                  | edge
            (and A1 | B1, B1 | C1 ... north-south)

A track section is named by its two ends, west (or north) end first: ``"B3-B4"``,
``"A2-B2"``, ``"coast-C1"``. Goods move only along built track, never east.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from mogul.kit.data import data_path

COAST = "coast"
"""The Pacific Coast space: goods that reach it stay there."""

WEST, NORTH, SOUTH, EAST = "west", "north", "south", "east"
DIRECTIONS = (WEST, NORTH, SOUTH, EAST)
"""The ways out of a space, in the order the kit lists them (goods never move east)."""


@dataclass(frozen=True)
class Section:
    """A track space between two spaces: ``a`` is the west (or north) end, ``b`` the other."""

    id: str
    a: str
    b: str
    direction: str  # "east-west" or "north-south"


@dataclass(frozen=True, eq=False)
class Board:
    """The modeled board: spaces, track spaces and what touches the eastern edge.

    There is one board (``board()``); it compares and hashes by identity.
    """

    rows: tuple[str, ...]
    columns: int
    squares: tuple[str, ...]  # goods squares, row by row from the north-west
    spaces: tuple[str, ...]  # every space goods can stand on: the coast, then the squares
    sections: tuple[Section, ...]
    eastern: frozenset[str]  # squares on the eastern edge
    ways: dict[str, tuple[tuple[str, str, str], ...]]
    """Space -> (track space, neighbour, direction) for each way out: west, north, south, east."""

    def section(self, section_id: str) -> Section:
        """The track space called ``section_id``; ``ValueError`` shows the form of a name."""
        for s in self.sections:
            if s.id == section_id:
                return s
        raise ValueError(
            f"no track space {section_id!r}; name one by its two ends, west or north end first, "
            f"such as 'B3-B4', 'A2-B2' or 'coast-C1'"
        )

    def between(self, here: str, there: str) -> Section | None:
        """The track space joining two spaces, or None when they are not neighbours."""
        for section_id, neighbour, _ in self.ways.get(here, ()):
            if neighbour == there:
                return self.section(section_id)
        return None

    def direction(self, here: str, there: str) -> str:
        """Which way a move from ``here`` to the neighbouring ``there`` goes: west, north, south or east."""
        return _direction(self.rows, here, there)

    def column(self, space: str) -> int:
        """The column of a square (1 = west ... 6 = east); 0 for the coast."""
        return 0 if space == COAST else _position(space)[1]


def _position(square: str) -> tuple[str, int]:
    return square[0], int(square[1:])


def _direction(rows: tuple[str, ...], here: str, there: str) -> str:
    if there == COAST:
        return WEST
    if here == COAST:
        return EAST
    (r1, c1), (r2, c2) = _position(here), _position(there)
    if r1 == r2:
        return WEST if c2 < c1 else EAST
    return NORTH if rows.index(r2) < rows.index(r1) else SOUTH


@cache
def board() -> Board:
    """The board, read once from ``data/credit-mobilier/board.json`` (there is one board)."""
    raw = json.loads(data_path("credit-mobilier", "board.json").read_text(encoding="utf-8"))
    rows = tuple(raw["rows"]["names"])
    columns = int(raw["columns"]["count"])
    squares = tuple(f"{r}{c}" for r in rows for c in range(1, columns + 1))
    sections = []
    for r in rows:
        sections.append(Section(f"{COAST}-{r}1", COAST, f"{r}1", "east-west"))
        for c in range(1, columns):
            sections.append(Section(f"{r}{c}-{r}{c + 1}", f"{r}{c}", f"{r}{c + 1}", "east-west"))
    for north, south in zip(rows, rows[1:], strict=False):
        for c in range(1, columns + 1):
            sections.append(
                Section(f"{north}{c}-{south}{c}", f"{north}{c}", f"{south}{c}", "north-south")
            )
    ways = {}
    for space in (COAST, *squares):
        out = [(s.id, s.b, _direction(rows, space, s.b)) for s in sections if s.a == space]
        out += [(s.id, s.a, _direction(rows, space, s.a)) for s in sections if s.b == space]
        ways[space] = tuple(sorted(out, key=lambda way: DIRECTIONS.index(way[2])))
    eastern = frozenset(f"{r}{columns}" for r in rows)
    built = Board(rows, columns, squares, (COAST, *squares), tuple(sections), eastern, ways)
    if len(built.sections) != raw["track_spaces"]["count"]:
        raise ValueError(
            f"board.json promises {raw['track_spaces']['count']} track spaces; the grid has {len(built.sections)}"
        )
    return built


def moves_from(b: Board, space: str) -> tuple[tuple[str, str, str], ...]:
    """(section id, neighbour, direction) for every way out of ``space`` except east.

    Goods move west, north or south along a track space; from the coast every way leads east.
    """
    return tuple(way for way in b.ways[space] if way[2] != EAST)


def connected_spaces(b: Board, built: frozenset[str]) -> frozenset[str]:
    """Spaces joined to the eastern edge: the eastern squares and all they reach over built track."""
    reached = set(b.eastern)
    frontier = list(reached)
    while frontier:
        for section, there, _ in b.ways[frontier.pop()]:
            if section in built and there not in reached:
                reached.add(there)
                frontier.append(there)
    return frozenset(reached)


def buildable(b: Board, built: frozenset[str]) -> tuple[str, ...]:
    """Free track spaces that would join the track already connected to the eastern edge.

    A section may be built when it is free and one of its ends is on the eastern edge or on
    built track that reaches it (any colours), in board order.
    """
    joined = connected_spaces(b, built)
    return tuple(s.id for s in b.sections if s.id not in built and (s.a in joined or s.b in joined))


def space_order(b: Board) -> dict[str, int]:
    """The board order of each space (``b.spaces``' order: the coast, then the squares row by row)."""
    return {space: i for i, space in enumerate(b.spaces)}
