"""The 2013 railway map: free stations, houses per line, and what a network scores at the end.

Each player's houses stand on stations (one house per station). A line is a company's chain
of stations; an interchange station lies on two lines. At the end every house scores, for each
line its station lies on, the number of the owner's houses on that line. So ``h`` houses on
one line score ``h * h`` (three on the blue line: 3 + 3 + 3 = 9), and a house on an
interchange counts on both of its lines.

The functions take anything that shows the table: a ``GameState`` or a seat's ``PlayerView``.

    >>> from mogul.games.mogul.editions import edition
    >>> branch_points(edition("rio-grande"), ["BL1", "BL2", "BL3"])
    9
    >>> branch_points(edition("rio-grande"), ["BL1", "BL-PI", "PI1"])  # BL-PI: blue and pink
    8
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mogul.games.mogul.editions import Edition


def taken_stations(table: Any) -> set[str]:
    """Every station that holds a house, whoever owns it."""
    return {station for p in table.players for station in p.houses}


def free_stations(table: Any, line: str) -> tuple[str, ...]:
    """The stations of ``line`` without a house, in their order along the line."""
    taken = taken_stations(table)
    return tuple(s for s in table.edition.lines.get(line, ()) if s not in taken)


def houses_per_line(edition: Edition, houses: Iterable[str]) -> dict[str, int]:
    """How many of these houses stand on each line (an interchange counts on both its lines)."""
    counts = dict.fromkeys(edition.lines, 0)
    for station in houses:
        for line in edition.stations[station].lines:
            counts[line] += 1
    return counts


def branch_points(edition: Edition, houses: Iterable[str]) -> int:
    """End bonus of one player's houses: each house scores its owner's house count on each of
    its lines, so a line with ``h`` of them scores ``h * h``."""
    return sum(h * h for h in houses_per_line(edition, houses).values())


def branch_gain(
    edition: Edition, houses: tuple[str, ...], station: str, move_from: str | None = None
) -> int:
    """How much a player's end bonus grows when they put a house on ``station``
    (taken off ``move_from`` first, if given)."""
    after = tuple(s for s in houses if s != move_from) + (station,)
    return branch_points(edition, after) - branch_points(edition, houses)


def branch_gains(
    edition: Edition, houses: tuple[str, ...], stations: Iterable[str]
) -> list[tuple[int, str, str | None]]:
    """``(branch_gain, station, move_from)`` for a house on each of ``stations``, with every
    house to move from when all are out (``move_from`` None while houses are left), station by
    station: the same numbers as ``branch_gain``, with the line counts worked out once.

    A line counted ``c`` times scores ``c * c``, so one more house on it adds ``2c + 1``.

    >>> from mogul.games.mogul.editions import edition
    >>> branch_gains(edition("rio-grande"), ("BL1",), ["BL2", "PI1"])
    [(3, 'BL2', None), (1, 'PI1', None)]
    """
    counts = houses_per_line(edition, houses)
    before = sum(c * c for c in counts.values())
    olds: tuple[str | None, ...] = houses if len(houses) >= edition.houses_per_player else (None,)
    left_after = []  # (line counts, points) once each old house is taken off
    for old in olds:
        left = dict(counts)
        for line in edition.stations[old].lines if old is not None else ():
            left[line] -= 1
        left_after.append((old, left, sum(c * c for c in left.values())))
    out = []
    for station in stations:
        lines = edition.stations[station].lines
        for old, left, points in left_after:
            out.append((points + sum(2 * left[line] + 1 for line in lines) - before, station, old))
    return out
