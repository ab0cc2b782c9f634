"""Private values: value draws, threshold play in bulk, best-response dynamics."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mogul.auction.model import MAX_SEATS, MIN_SEATS, _check_inputs

# --------------------------------------------------------------------------- private values

ValueDraw = Callable[[np.random.Generator], Sequence[float]]
"""Draws one seat's (win, second, out) values from a numpy Generator."""


def uniform_values(
    win: tuple[float, float] = (4.0, 12.0),
    second: tuple[float, float] = (0.0, 4.0),
    out: tuple[float, float] = (0.0, 0.0),
    step: float | None = None,
) -> ValueDraw:
    """A ``ValueDraw`` with independent uniform win, second and out values.

    Each of ``win``, ``second``, ``out`` is a (low, high) range; with ``step`` the values are
    rounded to multiples of it (e.g. ``step=1`` for whole points).
    """
    for name, (lo, hi) in (("win", win), ("second", second), ("out", out)):
        if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
            raise ValueError(
                f"{name} must be a finite (low, high) range with low <= high; got {(lo, hi)}"
            )
    if step is not None and not step > 0:
        raise ValueError(f"step must be > 0 or None; got {step!r}")

    def draw(rng: np.random.Generator) -> tuple[float, float, float]:
        vals = rng.uniform((win[0], second[0], out[0]), (win[1], second[1], out[1]))
        if step is not None:
            vals = np.round(vals / step) * step
        return float(vals[0]), float(vals[1]), float(vals[2])

    return draw


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


def threshold_outcomes(
    thresholds: np.ndarray, chips: Sequence[int], start: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Play many auctions at once in which every seat plays a threshold rule.

    ``thresholds`` has shape (games, seats): seat i drops at its first turn with pot >= its
    threshold (or without a chip). Returns ``places`` (0 = win, 1 = second, 2 = out) and
    ``net`` chips (collected - bid), both of shape (games, seats). Vectorised with numpy;
    it plays exactly like ``play`` with ``threshold_bot``.
    """
    thr = np.asarray(thresholds)
    games, n = thr.shape
    have = np.tile(np.asarray(chips, dtype=np.int64), (games, 1))
    active = np.ones((games, n), dtype=bool)
    left = np.full(games, n)
    seat = np.full(games, start)
    pot = np.zeros(games, dtype=np.int64)
    net = np.zeros((games, n), dtype=np.int64)
    places = np.full((games, n), 2, dtype=np.int8)
    offsets = np.arange(1, n)
    rows = np.arange(games)
    while True:
        r = rows[left > 1]
        if r.size == 0:
            break
        m = seat[r]
        bids = (pot[r] < thr[r, m]) & (have[r, m] > 0)
        rb, mb = r[bids], m[bids]
        have[rb, mb] -= 1
        net[rb, mb] -= 1
        pot[rb] += 1
        rd, md = r[~bids], m[~bids]
        net[rd, md] += pot[rd]
        pot[rd] = 0
        active[rd, md] = False
        left[rd] -= 1
        last = left[rd] == 1
        places[rd[last], md[last]] = 1
        cand = (m[:, None] + offsets) % n
        first = np.argmax(active[r[:, None], cand], axis=1)
        seat[r] = cand[np.arange(r.size), first]
    places[active] = 0
    return places, net


def _payoffs(
    values: np.ndarray, places: np.ndarray, net: np.ndarray, chip_value: float
) -> np.ndarray:
    """Payoff per game and seat: value of the place + chip_value * net chips."""
    return (
        np.take_along_axis(values, places[..., None].astype(np.intp), axis=-1)[..., 0]
        + chip_value * net
    )


@dataclass(frozen=True)
class BestResponseResult:
    """Best-response dynamics over threshold strategies with private values.

    ``values`` (samples, seats, 3) are the drawn types; ``thresholds`` (samples, seats) the
    threshold each seat plays for its own type in each sample, at the end; ``trace`` has one
    row per iteration and seat (columns ``iteration``, ``seat``, ``mean_threshold``,
    ``changed`` = share of types whose threshold changed, ``expected_payoff``);
    ``converged`` tells whether a sweep changed nothing (a fixed point on the sample).
    """

    values: np.ndarray
    chips: tuple[int, ...]
    start: int
    chip_value: float
    thresholds: np.ndarray
    trace: pd.DataFrame
    converged: bool


def best_response_dynamics(
    values: np.ndarray,
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    max_iter: int = 30,
    initial: np.ndarray | None = None,
    min_gain: float = 0.05,
) -> BestResponseResult:
    """Iterate best responses among threshold strategies to a fixed point.

    Model: independent private values. Each seat knows its own (win, second, out) values and
    its rivals' distribution (the empirical distribution of ``values``, e.g. from
    ``draw_values``), and commits to "drop when the pot reaches k" with k depending on its own
    values. A best response of seat i, for each of its sampled types v, is the k that
    maximises v . P_k(place) + chip_value * E_k[net chips] against the rivals' current
    thresholds over all sampled rival types (a Monte-Carlo expectation with common random
    numbers; ties go to the smallest k). A type switches only if that gains more than
    ``min_gain`` points over its current threshold (a little inertia that stops the
    dynamics from cycling over near-ties). Seats update one after another (Gauss-Seidel
    best-response dynamics, cf. Fudenberg & Levine (1998), *The Theory of Learning in Games*,
    ch. 2); the loop stops when a full sweep changes nothing (a Bayesian equilibrium in
    threshold strategies on the sample, Krishna (2010) ch. 2) or after ``max_iter`` sweeps.
    ``initial`` thresholds default to "bid up to the value of winning": round((win - out) /
    chip_value), clipped to 0..total chips.
    """
    vals = np.asarray(values, dtype=float)
    if vals.ndim != 3 or vals.shape[2] != 3 or not np.isfinite(vals).all():
        raise ValueError(
            f"values must be a finite array of shape (samples, seats, 3); got shape {vals.shape}"
        )
    samples, n, _ = vals.shape
    _, chip_t = _check_inputs(vals[0], chips, start, chip_value, "drop")
    max_k = sum(chip_t)
    if initial is None:
        worth = (
            (vals[:, :, 0] - vals[:, :, 2]) / chip_value
            if chip_value > 0
            else np.full((samples, n), max_k)
        )
        thr = np.clip(np.round(worth), 0, max_k).astype(np.int64)
    else:
        thr = np.array(initial, dtype=np.int64)
        if thr.shape != (samples, n):
            raise ValueError(f"initial thresholds must have shape {(samples, n)}; got {thr.shape}")
    ks = np.arange(max_k + 1)
    rows, converged = [], False
    for it in range(1, max_iter + 1):
        changed_any = False
        for i in range(n):
            trial = np.repeat(thr[None, :, :], ks.size, axis=0)  # (k, samples, seats)
            trial[:, :, i] = ks[:, None]
            places, net = threshold_outcomes(trial.reshape(-1, n), chip_t, start)
            place_i = places[:, i].reshape(ks.size, samples)
            share = np.stack([(place_i == p).mean(axis=1) for p in range(3)], axis=1)  # (k, 3)
            mean_net = net[:, i].reshape(ks.size, samples).mean(axis=1)
            utility = vals[:, i, :] @ share.T + chip_value * mean_net  # (samples, k)
            best = np.argmax(np.round(utility, 9), axis=1)
            now = utility[np.arange(samples), thr[:, i]]
            best = np.where(utility[np.arange(samples), best] > now + min_gain, best, thr[:, i])
            changed = best != thr[:, i]
            changed_any |= bool(changed.any())
            thr[:, i] = best
            rows.append((it, i, float(best.mean()), float(changed.mean()),
                         float(utility[np.arange(samples), best].mean())))  # fmt: skip
        if not changed_any:
            converged = True
            break
    trace = pd.DataFrame(
        rows, columns=["iteration", "seat", "mean_threshold", "changed", "expected_payoff"]
    )
    return BestResponseResult(vals, chip_t, int(start), float(chip_value), thr, trace, converged)
