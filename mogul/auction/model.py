"""The auction's model: moves, decision points, outcomes, input checks, and playing bots.

See the package docstring (``mogul.auction``) for the mechanism and the model.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

MIN_SEATS = 2
MAX_SEATS = 8
PLACES = ("win", "second", "out")
TOLERANCE = 1e-9

Bot = Callable[[int, int, Mapping[int, int]], str]
"""A bot is ``bot(seat, pot, chips) -> "bid" | "drop"``.

``chips`` maps each seat still in the auction (in seat order) to its chips, so
``tuple(chips)`` is the tuple of active seats. A bot must not depend on anything else (the
solver memoises on exactly this state). A "bid" from a seat without chips counts as a drop.
"""


class Step(NamedTuple):
    """One move of the auction: ``seat`` plays ``action`` when the pot holds ``pot`` chips."""

    seat: int
    action: str
    pot: int


class AuctionNode(NamedTuple):
    """A decision point: ``seat`` to move, the ``pot``, and ``chips`` of the active seats.

    ``active`` lists the seats still in, in seat order; ``chips`` is aligned with it.
    """

    active: tuple[int, ...]
    seat: int
    pot: int
    chips: tuple[int, ...]


@dataclass(frozen=True)
class Outcome:
    """How one auction went: the moves, the places, the chips and the payoffs per seat.

    ``places[i]`` is "win", "second" or "out"; ``net_chips[i]`` = chips collected - chips bid;
    ``payoffs[i]`` = value of the place + chip_value * net_chips[i].
    """

    path: tuple[Step, ...]
    places: tuple[str, ...]
    net_chips: tuple[int, ...]
    payoffs: tuple[float, ...]
    winner: int
    runner_up: int

    @property
    def paid(self) -> tuple[int, ...]:
        """Chips each seat put into the pot."""
        n = len(self.places)
        return tuple(
            sum(1 for st in self.path if st.seat == i and st.action == "bid") for i in range(n)
        )

    @property
    def collected(self) -> tuple[int, ...]:
        """Chips each seat took from the pot when it dropped."""
        n = len(self.places)
        return tuple(
            sum(st.pot for st in self.path if st.seat == i and st.action == "drop")
            for i in range(n)
        )


# --------------------------------------------------------------------------- validation


def _check_inputs(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    start: int,
    chip_value: float,
    tie: str,
) -> tuple[tuple[tuple[float, float, float], ...], tuple[int, ...]]:
    """Validate and normalise the model's inputs; raise ValueError saying what is wrong."""
    try:
        vals = [tuple(v) for v in values]
    except TypeError:
        raise ValueError(
            "values must be a sequence of (win, second, out) triples, one per seat"
        ) from None
    n = len(vals)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"the auction needs {MIN_SEATS}..{MAX_SEATS} seats; got {n} value triples")
    out_vals = []
    for i, v in enumerate(vals):
        if len(v) != 3:
            raise ValueError(f"values[{i}] must be a (win, second, out) triple; got {v!r}")
        try:
            fv = tuple(float(x) for x in v)
        except (TypeError, ValueError):
            raise ValueError(f"values[{i}] must hold numbers; got {v!r}") from None
        if not all(math.isfinite(x) for x in fv):
            raise ValueError(f"values[{i}] must be finite numbers; got {v!r}")
        out_vals.append(fv)
    chip_list = list(chips)
    if len(chip_list) != n:
        raise ValueError(
            f"chips must give one count per seat: {n} seats, {len(chip_list)} chip counts"
        )
    for i, c in enumerate(chip_list):
        if isinstance(c, bool) or not isinstance(c, int | np.integer) or c < 0:
            raise ValueError(f"chips[{i}] must be a non-negative integer; got {c!r}")
    if isinstance(start, bool) or not isinstance(start, int | np.integer) or not 0 <= start < n:
        raise ValueError(f"start must be a seat index 0..{n - 1}; got {start!r}")
    if (
        not isinstance(chip_value, int | float | np.number)
        or not math.isfinite(chip_value)
        or chip_value < 0
    ):
        raise ValueError(
            f"chip_value must be a finite number >= 0 (points per chip); got {chip_value!r}"
        )
    if tie not in ("drop", "bid"):
        raise ValueError(f"tie must be 'drop' or 'bid'; got {tie!r}")
    return tuple(out_vals), tuple(int(c) for c in chip_list)  # type: ignore[return-value]


def _outcome(
    values: tuple[tuple[float, float, float], ...], chip_value: float, path: list[Step]
) -> Outcome:
    """Places, chips and payoffs of a finished auction, from its moves."""
    n = len(values)
    net = [0] * n
    dropped: list[int] = []
    for st in path:
        if st.action == "bid":
            net[st.seat] -= 1
        else:
            net[st.seat] += st.pot
            dropped.append(st.seat)
    winner = next(i for i in range(n) if i not in dropped)
    places = ["out"] * n
    places[winner] = "win"
    places[dropped[-1]] = "second"
    payoffs = tuple(values[i][PLACES.index(places[i])] + chip_value * net[i] for i in range(n))
    return Outcome(tuple(path), tuple(places), tuple(net), payoffs, winner, dropped[-1])


# --------------------------------------------------------------------------- playing bots


def threshold_bot(k: int) -> Bot:
    """A bot that commits to "drop when the pot reaches k".

    It bids while the pot is below ``k`` and it has a chip; it drops at its first turn with
    pot >= k, or when it has no chip. Its commitment applies afresh after every drop.
    """

    def bot(seat: int, pot: int, chips: Mapping[int, int]) -> str:
        return "bid" if pot < k and chips[seat] > 0 else "drop"

    bot.__name__ = bot.__qualname__ = f"threshold_bot_{k}"
    return bot


def play(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    bots: Mapping[int, Bot] | Sequence[Bot],
    start: int = 0,
    chip_value: float = 1.0,
) -> Outcome:
    """Run one auction in which every seat is played by a bot; return its outcome."""
    vals, chip_t = _check_inputs(values, chips, start, chip_value, "drop")
    n = len(vals)
    players = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
    if sorted(players) != list(range(n)):
        raise ValueError(
            f"play needs one bot for each seat 0..{n - 1}; got seats {sorted(players)}"
        )
    have = dict(enumerate(chip_t))
    seat, pot, path = start, 0, []
    while len(have) > 1:
        move = players[seat](seat, pot, dict(have)) if have[seat] > 0 else "drop"
        if move not in ("bid", "drop"):
            raise ValueError(f"bot for seat {seat} returned {move!r}; expected 'bid' or 'drop'")
        if move == "bid" and have[seat] > 0:
            path.append(Step(seat, "bid", pot))
            have[seat] -= 1
            pot += 1
        else:
            path.append(Step(seat, "drop", pot))
            del have[seat]
            pot = 0
        seat = next(x for x in [*range(seat + 1, n), *range(seat + 1)] if x in have)
    return _outcome(vals, float(chip_value), path)
