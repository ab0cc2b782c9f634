"""Private values: how each seat's (win, second, out) values are drawn.

A ``ValueDraw`` draws one seat's values from a numpy Generator; ``uniform_values`` makes one
(on an interval, or on a grid whose points it can give the chance of); ``draw_values`` draws
a sample of value profiles, the types of the model in ``mogul.auction.private``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from mogul.auction.model import MAX_SEATS, MIN_SEATS

ValueDraw = Callable[[np.random.Generator], Sequence[float]]
"""Draws one seat's (win, second, out) values from a numpy Generator."""


def uniform_values(
    win: tuple[float, float] = (4.0, 12.0),
    second: tuple[float, float] = (0.0, 4.0),
    out: tuple[float, float] = (0.0, 0.0),
    step: float | None = None,
) -> ValueDraw:
    """A ``ValueDraw`` with independent uniform win, second and out values.

    Each of ``win``, ``second``, ``out`` is a (low, high) range. Without ``step`` a value is
    uniform on the interval; with ``step`` it is uniform on the grid low, low + step, ...,
    high (each grid point equally likely: ``win=(2, 10), step=1`` gives 2..10, 1/9 each),
    and the draw's ``chance(values)`` gives the probability of one (win, second, out) triple.
    """
    ranges = (("win", win), ("second", second), ("out", out))
    for name, (lo, hi) in ranges:
        if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
            raise ValueError(
                f"{name} must be a finite (low, high) range with low <= high; got {(lo, hi)}"
            )
    if step is not None and not step > 0:
        raise ValueError(f"step must be > 0 or None; got {step!r}")
    lows = np.array([lo for _, (lo, _) in ranges], dtype=float)
    if step is None:
        highs = np.array([hi for _, (_, hi) in ranges], dtype=float)

        def draw(rng: np.random.Generator) -> tuple[float, float, float]:
            v = rng.uniform(lows, highs)
            return float(v[0]), float(v[1]), float(v[2])

        return draw
    counts = []
    for name, (lo, hi) in ranges:
        k = round((hi - lo) / step)
        if abs(lo + k * step - hi) > 1e-9:
            raise ValueError(f"{name} range {(lo, hi)} is not a whole number of steps of {step}")
        counts.append(k + 1)

    def draw_grid(rng: np.random.Generator) -> tuple[float, float, float]:
        v = lows + step * rng.integers(0, counts)
        return float(v[0]), float(v[1]), float(v[2])

    def chance(values: Sequence[float]) -> float:
        """The probability of drawing exactly these (win, second, out) values."""
        on_grid = all(
            abs((x - lo) / step - round((x - lo) / step)) < 1e-9 and 0 <= round((x - lo) / step) < c
            for x, lo, c in zip(values, lows, counts, strict=True)
        )
        return 1 / math.prod(counts) if on_grid else 0.0

    draw_grid.chance = chance  # type: ignore[attr-defined]
    return draw_grid


def draw_values(
    draws: ValueDraw | Sequence[ValueDraw],
    seats: int,
    samples: int,
    seed: int | np.random.Generator = 0,
) -> np.ndarray:
    """``samples`` value profiles as an array of shape (samples, seats, 3).

    ``draws`` is one ``ValueDraw`` for every seat (independent, identically distributed
    private values) or one per seat. Only the seeded numpy Generator is used: the same seed
    gives the same array.
    """
    per_seat = list(draws) if isinstance(draws, Sequence) else [draws] * seats
    if len(per_seat) != seats:
        raise ValueError(
            f"give one value draw for all seats or one per seat; got {len(per_seat)} for {seats} seats"
        )
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"the auction needs {MIN_SEATS}..{MAX_SEATS} seats; got {seats}")
    if samples < 1:
        raise ValueError(f"samples must be >= 1; got {samples}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    out = np.array([[tuple(d(rng)) for d in per_seat] for _ in range(samples)], dtype=float)
    if out.shape != (samples, seats, 3) or not np.isfinite(out).all():
        raise ValueError("every value draw must return three finite numbers (win, second, out)")
    return out
