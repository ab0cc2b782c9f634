"""The Rio Grande (2013) table of the batch simulator: classic's ``TABLE`` plus the railway map.

Rio Grande plays the classic round (reveal, premiums, the auction) and adds, as data of its
edition: a longer pile (37 shares and the crash), credit once per game, "all or none" sales,
branches (houses on the stations of the railway map, one house per station, moved once all
are out) and the end bonuses (branches and shares held). ``RIO_TABLE`` is classic's record
with the pile made long enough and these fields added, so the classic kernels that play the
same rules (``begin_round``, ``bid``, ``drop``, ``take_credit``, ``settle_auction``...) run on
it unchanged; ``fast_rio_kernels`` has the rest.

The map lives in every record (``station_lines``, ``line_stations``): stations are numbered
in the edition's order, lines in the company order, ``-1`` fills the unused places. A branch
is one action code, ``branch_code(station, move_from)``, with ``move_from = -1`` for a new
house.

numba checks only a compiled function's own file to decide whether its cached machine code
is still good; the Rio Grande kernels are compiled together with classic's, so
``drop_stale_caches(globals(), RIO_COMPILED)`` drops their caches whenever any of those
source files changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mogul.games.mogul.fast_table import COMPANIES, COMPILED, MAX_SEATS, TABLE

RIO_PILE = 40  # the 2013 box: 37 shares and the crash card, with room to spare
MAX_STATIONS = 40  # the 2013 map has 30
MAX_LINE = 12  # stations on one line (the 2013 map: 7)
MAX_HOUSES = 6  # houses per player for branches

BRANCH = 64  # the first branch code; Sell(n) is SELL + n, below it
NO_STATION = -1


def branch_code(station: int, move_from: int = NO_STATION) -> int:
    """The action code of a house on ``station`` (moved from ``move_from``, or a new one)."""
    return BRANCH + station * (MAX_STATIONS + 1) + move_from + 1


def branch_of(code: int) -> tuple[int, int]:
    """``(station, move_from)`` of a branch code (``move_from`` -1 for a new house)."""
    station, moved = divmod(code - BRANCH, MAX_STATIONS + 1)
    return station, moved - 1


def _fields() -> list[tuple[Any, ...]]:
    """Classic's fields, the pile's made ``RIO_PILE`` long."""
    if not {"pile_company", "pile_border"} <= set(TABLE.names):
        raise ImportError(
            "fast_rio_table reads classic's pile as TABLE's pile_company and pile_border"
        )
    out: list[tuple[Any, ...]] = []
    for name in TABLE.names:
        dtype = TABLE.fields[name][0]
        if name in ("pile_company", "pile_border"):  # the 2013 pile is longer than classic's
            out.append((name, dtype.base, RIO_PILE))
        else:
            out.append((name, dtype.base, dtype.shape) if dtype.shape else (name, dtype))
    return out


RIO_TABLE = np.dtype(
    _fields()
    + [
        # the edition's numbers
        ("houses_per_player", np.int64),
        ("share_bonus", np.int64),  # points per share held at the end
        ("branch_bonus", np.int64),  # 1: houses score at the end
        # the railway map
        ("stations", np.int64),
        ("station_lines", np.int64, (MAX_STATIONS, 2)),  # -1: the station has one line
        ("line_stations", np.int64, (COMPANIES, MAX_LINE)),  # along each line, -1 after its end
        ("line_length", np.int64, COMPANIES),
        # the houses: per seat in the order they were placed (a moved house keeps its place)
        ("houses", np.int64, (MAX_SEATS, MAX_HOUSES)),
        ("house_count", np.int64, MAX_SEATS),
        ("owner", np.int64, MAX_STATIONS),  # the seat whose house stands there, or -1
        # the end
        ("end_bonus", np.int64, MAX_SEATS),  # branches and shares, once the crash came
        ("branches", np.int64),  # branches founded in the game (moves included)
    ]
)
"""One Rio Grande game's table as a numpy record (see the module docstring)."""


RIO_COMPILED = (*COMPILED, "fast_rio_table.py", "fast_rio_kernels.py")
"""The source files the Rio Grande kernels are built from (classic's are compiled into them):
``fast_rio_kernels`` hands them to ``fast_table.drop_stale_caches``."""
