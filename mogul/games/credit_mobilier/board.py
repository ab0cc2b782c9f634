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
from functools import cache, lru_cache

from mogul.kit.data import data_path

COAST = "coast"
"""The Pacific Coast space: goods that reach it stay there."""

WEST, NORTH, SOUTH, EAST = "west", "north", "south", "east"


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
    sections: tuple[Section, ...]
    eastern: frozenset[str]  # squares on the eastern edge

    @property
    def spaces(self) -> tuple[str, ...]:
        """Every space goods can stand on: the coast, then the squares."""
        return (COAST, *self.squares)

    def section(self, section_id: str) -> Section:
        """The track space called ``section_id``; ``ValueError`` shows the form of a name."""
        found = _lookups(self)[0].get(section_id)
        if found is None:
            raise ValueError(
                f"no track space {section_id!r}; name one by its two ends, west or north end first, "
                f"such as 'B3-B4', 'A2-B2' or 'coast-C1'"
            )
        return found

    def between(self, here: str, there: str) -> Section | None:
        """The track space joining two spaces, or None when they are not neighbours."""
        return _lookups(self)[1].get((here, there))

    def direction(self, here: str, there: str) -> str:
        """Which way a move from ``here`` to the neighbouring ``there`` goes: west, north, south or east."""
        if there == COAST:
            return WEST
        if here == COAST:
            return EAST
        (r1, c1), (r2, c2) = _position(here), _position(there)
        if r1 == r2:
            return WEST if c2 < c1 else EAST
        return NORTH if self.rows.index(r2) < self.rows.index(r1) else SOUTH

    def column(self, space: str) -> int:
        """The column of a square (1 = west ... 6 = east); 0 for the coast."""
        return 0 if space == COAST else _position(space)[1]


def _position(square: str) -> tuple[str, int]:
    return square[0], int(square[1:])


@cache
def board() -> Board:
    """The board, built once from ``data/credit-mobilier/board.json``."""
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
    built = Board(rows, columns, squares, tuple(sections), frozenset(f"{r}{columns}" for r in rows))
    if len(built.sections) != raw["track_spaces"]["count"]:
        raise ValueError(
            f"board.json promises {raw['track_spaces']['count']} track spaces; the grid has {len(built.sections)}"
        )
    return built


@cache
def _lookups(b: Board) -> tuple[dict[str, Section], dict[tuple[str, str], Section]]:
    """Track spaces by name, and by the pair of spaces they join (both ways round)."""
    between = {}
    for s in b.sections:
        between[s.a, s.b] = s
        between[s.b, s.a] = s
    return {s.id: s for s in b.sections}, between


@cache
def moves_from(b: Board, space: str) -> tuple[tuple[str, str, str], ...]:
    """(section id, neighbour, direction) for every way out of ``space`` except east.

    Goods move west, north or south along a track space; the coast has no way out.
    """
    if space == COAST:
        return ()
    out = []
    for (here, there), s in _lookups(b)[1].items():
        if here == space:
            way = b.direction(here, there)
            if way != EAST:
                out.append((s.id, there, way))
    order = {WEST: 0, NORTH: 1, SOUTH: 2}
    return tuple(sorted(out, key=lambda m: order[m[2]]))


@cache
def _neighbours(b: Board) -> dict[str, tuple[tuple[str, str], ...]]:
    """(track space, neighbour) for every way out of each space, east included."""
    out: dict[str, list[tuple[str, str]]] = {}
    for (here, there), s in _lookups(b)[1].items():
        out.setdefault(here, []).append((s.id, there))
    return {space: tuple(ways) for space, ways in out.items()}


@lru_cache(maxsize=8192)
def connected_spaces(b: Board, built: frozenset[str]) -> frozenset[str]:
    """Spaces joined to the eastern edge: the eastern squares and all they reach over built track."""
    neighbours = _neighbours(b)
    reached = set(b.eastern)
    frontier = list(reached)
    while frontier:
        for section, there in neighbours[frontier.pop()]:
            if section in built and there not in reached:
                reached.add(there)
                frontier.append(there)
    return frozenset(reached)


@cache
def section_order(b: Board) -> dict[str, int]:
    """The board order of each track space (``b.sections``' order): sections sort by it."""
    return {s.id: i for i, s in enumerate(b.sections)}


@cache
def touching(b: Board, space: str) -> tuple[str, ...]:
    """The track spaces with ``space`` at one end, in board order."""
    return tuple(s.id for s in b.sections if space in (s.a, s.b))


@cache
def ways(b: Board) -> dict[tuple[str, str], tuple[str, str]]:
    """(track space, direction) of the move between two neighbouring spaces, either way round."""
    return {pair: (s.id, b.direction(*pair)) for pair, s in _lookups(b)[1].items()}


@lru_cache(maxsize=8192)
def buildable(b: Board, built: frozenset[str]) -> tuple[str, ...]:
    """Free track spaces that would join the track already connected to the eastern edge.

    A section may be built when it is free and one of its ends is on the eastern edge or on
    built track that reaches it (any colours), in board order.
    """
    joined = connected_spaces(b, built)
    return tuple(s.id for s in b.sections if s.id not in built and (s.a in joined or s.b in joined))


@cache
def space_order(b: Board) -> dict[str, int]:
    """The board order of each space (``b.spaces``' order: the coast, then the squares row by row)."""
    return {space: i for i, space in enumerate(b.spaces)}
