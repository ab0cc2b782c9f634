"""The batch simulator's table layout and codes, shared by its compiled modules.

A game's whole table is one record of a numpy structured array (``TABLE``: chips, points,
shares, the pile, the auction...); actions, phases and bots are small integers. The compiled
modules (``fast_kernels``: the rules, the bots, the deal, the play loops and their records;
``fast_rio_kernels``: Rio Grande's) import them from here.

numba caches each compiled function's machine code beside its source file and checks only
that file to decide whether the cache is still good; a function compiled against code or
constants of another file would keep running the old ones after an edit there. So each
compiled module ends with ``drop_stale_caches``: when any of those source files changed
since its caches were written, they are dropped and recompiled (a few seconds, once).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np

MAX_SEATS = 6
COMPANIES = 5
PILE = 32  # the classic box: 31 shares and the crash card

# Phases of a round, as in rules.py.
AUCTION, WINNER, RUNNER_UP, OVER = 0, 1, 2, 3

# Actions: Sell(n) is SELL + n.
BID, DROP, CREDIT, TAKE, SELL = 0, 1, 2, 3, 4
NO_ACTION = -1

CRASH = -1  # the crash card's company in the pile

# Bots: RANDOM (uniform over the legal actions), THRESHOLD (parameter: drop_at), VALUE
# (parameter: chip_value), as in bots.py.
RANDOM, THRESHOLD, VALUE = 0, 1, 2

TABLE = np.dtype(
    [
        # the edition's numbers
        ("players", np.int64),
        ("credit_chips", np.int64),
        ("credit_points", np.int64),
        ("chips_per_point", np.int64),
        ("crash_window", np.int64),
        # the players
        ("chips", np.int64, MAX_SEATS),
        ("points", np.int64, MAX_SEATS),
        ("shares", np.int64, (MAX_SEATS, COMPANIES)),
        ("credits", np.int64, MAX_SEATS),
        ("bank", np.int64),
        # the draw pile, top card at ``top``; the crash card's company is CRASH
        ("pile_company", np.int64, PILE),
        ("pile_border", np.int64, PILE),
        ("pile_size", np.int64),
        ("top", np.int64),
        ("unseen", np.int64, COMPANIES),  # shares of each company still in the pile
        # the round
        ("round", np.int64),
        ("phase", np.int64),
        ("current", np.int64),
        ("start_player", np.int64),
        ("company", np.int64),
        ("border", np.int64),  # of the revealed card
        ("pot", np.int64),
        ("in_auction", np.int64, MAX_SEATS),
        ("seats_in", np.int64),
        ("credited", np.int64, MAX_SEATS),
        ("winner", np.int64),
        ("runner_up", np.int64),
        ("winner_took", np.int64),
        # chips bid in the game (``BatchResult.bids``)
        ("bids", np.int64),
    ]
)
"""One game's table as a numpy record (see the module docstring)."""


# --- Rio Grande (2013): classic's table plus the railway map -----------------------------------
#
# Rio Grande plays the classic round (reveal, premiums, the auction) and adds, as data of its
# edition: a longer pile (37 shares and the crash), credit once per game, "all or none" sales,
# branches (houses on the stations of the railway map, one house per station, moved once all
# are out) and the end bonuses (branches and shares held). ``RIO_TABLE`` is classic's record
# with the pile made long enough and these fields added, so the classic kernels that play the
# same rules (``begin_round``, ``bid``, ``drop``, ``take_credit``, ``settle_auction``...) run on
# it unchanged; ``fast_rio_kernels`` has the rest. The map lives in every record
# (``station_lines``, ``line_stations``): stations are numbered in the edition's order, lines in
# the company order, ``-1`` fills the unused places. A branch is one action code,
# ``branch_code(station, move_from)``, with ``move_from = -1`` for a new house.

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
    ]
)
"""One Rio Grande game's table as a numpy record (see the module docstring)."""


COMPILED = ("fast_table.py", "fast_kernels.py")
"""The source files the compiled functions are built from."""

RIO_COMPILED = (*COMPILED, "fast_rio_kernels.py")
"""The source files the Rio Grande kernels are built from (classic's are compiled into them):
``fast_rio_kernels`` hands them to ``drop_stale_caches``."""


def sources_digest(sources: tuple[str, ...] = COMPILED) -> str:
    """A digest of the source files the compiled functions are built from."""
    digest = hashlib.sha256()
    for name in sources:
        path = Path(__file__).with_name(name)
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.exists() else b""))
    return digest.hexdigest()[:16]


def drop_stale_caches(namespace: dict[str, Any], sources: tuple[str, ...] = COMPILED) -> None:
    """Drop the numba caches of a module's compiled functions if any of their ``sources`` changed.

    The digest of the sources the caches were compiled from is kept beside them, one small
    file per module; where it differs (or is missing), every cache of the module is flushed.
    """
    dispatchers = [f for f in namespace.values() if getattr(f, "_cache", None) is not None]
    if not dispatchers:
        return
    folder = Path(dispatchers[0]._cache._cache_path)
    marker = folder / f"{namespace['__name__'].rpartition('.')[2]}.sources"
    digest = sources_digest(sources)
    try:
        if marker.read_text() == digest:
            return
    except OSError:
        pass
    for function in dispatchers:
        function._cache.flush()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        marker.write_text(digest)
    except OSError:  # a read-only cache folder: numba then compiles in memory anyway
        pass
