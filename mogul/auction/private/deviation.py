"""How far a profile is off: each type's gain from its best deviation of any kind.

``deviation_gains`` solves, for every type of every seat, the best reply to the others'
threshold strategies over all strategies (any function of the public history, by backward
induction), and subtracts the payoff of the type's own strategy; ``gain_step`` and
``share_of_types`` count the types above a threshold exactly. The model is in the docstring
of ``mogul.auction.private``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from mogul.auction.private.values import ValueDraw

RIVALS = ("sample", "independent")


def _rivals(
    strategy: np.ndarray,
    seat: int,
    rivals: str = "sample",
    values: np.ndarray | None = None,
    draw: ValueDraw | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rival profiles (the seat's own entries zeroed) and their weights.

    ``rivals="sample"``: the rows of the sample, each equally likely (the rivals' types come
    together, as drawn). ``"independent"``: the rivals' types are independent, each rival's
    drawn from ``draw``'s distribution (``draw.chance``; a type plays the strategies of its
    sampled rows, each equally likely), or without ``draw`` from the sample's marginal.
    """
    if rivals == "independent":
        samples, n = strategy.shape[:2]
        cols = []
        for j in range(n):
            if j == seat:
                continue
            weight = _row_weights(np.asarray(values)[:, j], draw, j)
            flat = strategy[:, j].reshape(samples, -1)
            uniq, inverse = np.unique(flat, axis=0, return_inverse=True)
            cols.append((j, uniq, np.bincount(inverse.ravel(), weights=weight)))
        shape = strategy.shape[2:]
        combos = list(itertools.product(*[range(len(u)) for _, u, _ in cols]))
        out = np.zeros((len(combos), n, *shape), dtype=strategy.dtype)
        weights = np.ones(len(combos))
        for c, pick in enumerate(combos):
            for (j, uniq, w), r in zip(cols, pick, strict=True):
                out[c, j] = uniq[r].reshape(shape)
                weights[c] *= w[r]
        return out, weights
    rival = strategy.copy()
    rival[:, seat] = 0
    flat = rival.reshape(rival.shape[0], -1)
    uniq, counts = np.unique(flat, axis=0, return_counts=True)
    return uniq.reshape(-1, *rival.shape[1:]), counts / flat.shape[0]


def deviation_gains(
    values: np.ndarray,
    thresholds: np.ndarray,
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    rule: str = "mogul",
    rivals: str = "sample",
    draw: ValueDraw | None = None,
) -> np.ndarray:
    """Each type's gain from its best deviation of any kind, shape (samples, seats).

    ``thresholds`` (samples, seats, seats - 1) is the profile played. For seat ``i`` and each
    of its sampled types, backward induction over the public histories (who did what at which
    pot) that the sampled rival profiles can produce gives the best payoff of any strategy
    (it may depend on the whole history); the gain is that minus the payoff of the type's own
    threshold strategy. ``rivals="sample"``: the sampled rival profiles count equally, as in
    ``best_response_dynamics`` (rivals' types drawn together, so correlated in a finite
    sample); ``"independent"``: each rival's type independently, from ``draw``'s distribution
    if given (the distribution the values were drawn from), else from the sample's marginal.
    """
    if rivals not in RIVALS:
        raise ValueError(f"rivals must be one of {RIVALS}; got {rivals!r}")
    vals = np.asarray(values, dtype=float)
    thr = np.asarray(thresholds, dtype=np.int64)
    if thr.ndim == 2:
        thr = np.repeat(thr[:, :, None], max(thr.shape[1] - 1, 1), axis=2)
    chip_t = tuple(int(c) for c in chips)
    samples, n, _ = vals.shape
    if thr.shape[2] < n - 1:  # one k for the whole auction
        thr = np.repeat(thr[:, :, :1], n - 1, axis=2)
    gains = np.zeros((samples, n))
    for i in range(n):
        profiles, weights = _rivals(thr, i, rivals, vals, draw)
        best, now = _Deviation(
            vals[:, i], i, thr[:, i], profiles, weights, chip_t, chip_value, rule
        ).value(start)
        gains[:, i] = best - now
    return np.maximum(gains, 0.0)


def _row_weights(column: np.ndarray, draw: ValueDraw | None, seat: int) -> np.ndarray:
    """Weights of one seat's sampled rows: its type's chance, shared by the type's rows."""
    samples = len(column)
    if draw is None:
        return np.full(samples, 1 / samples)
    chance = getattr(draw, "chance", None)
    if chance is None:
        raise ValueError(
            "draw must know its types' chances (a grid draw: uniform_values(step=...))"
        )
    types = [tuple(float(x) for x in row) for row in column]
    count: dict[tuple, int] = {}
    for t in types:
        count[t] = count.get(t, 0) + 1
    if abs(sum(chance(t) for t in count) - 1) > 1e-9:
        raise ValueError(
            f"some types of the distribution never appear among seat {seat}'s {samples} "
            "sampled rows: draw more samples"
        )
    return np.array([chance(t) / count[t] for t in types])


def share_of_types(
    gains: np.ndarray, threshold: float | Fraction, step: Fraction, at_least: bool = False
) -> Fraction:
    """The exact share of types whose gain is above ``threshold`` (or at least it).

    Gains computed in floats carry rounding noise, so a gain that is exactly the threshold
    may come out a hair above or below it. When every gain is a whole multiple of ``step``
    (for integer values, a rational chip value and rival profiles weighted 1/samples, the
    step is ``Fraction(1, samples)`` divided by the values' and chip value's denominators),
    each gain is snapped to its multiple and compared exactly. Raises ValueError if a gain
    is not within 1e-6 steps of a multiple of ``step``.
    """
    g = np.asarray(gains, dtype=float).ravel()
    units = np.round(g / float(step))
    if np.abs(g / float(step) - units).max(initial=0.0) > 1e-6:
        raise ValueError(f"the gains are not whole multiples of {step}; give their exact step")
    limit = Fraction(threshold).limit_denominator(10**9) / step
    hits = sum(1 for u in units if (u >= limit if at_least else u > limit))
    return Fraction(hits, g.size)


def gain_step(values: np.ndarray, chip_value: float, profiles: int) -> Fraction:
    """The exact step of which every payoff (and gain) is a multiple: see ``share_of_types``.

    ``profiles`` is the number of equally likely rival profiles (the sample size, or its
    power ``seats - 1`` for ``rivals="independent"``).
    """
    den = 1
    for x in [*np.unique(np.asarray(values, dtype=float)), chip_value]:
        den = math.lcm(den, Fraction(float(x)).limit_denominator(10**6).denominator)
    return Fraction(1, profiles * den)


class _Deviation:
    """Backward induction over public histories for one seat, vectorised over its types."""

    def __init__(self, vals_i, seat, own, rivals, weights, chips, cv, rule) -> None:
        self.vals, self.seat, self.own = vals_i, seat, own
        self.rivals, self.weights, self.chips = rivals, weights, chips
        self.cv, self.english = cv, rule == "english"

    def value(self, start: int) -> tuple[np.ndarray, np.ndarray]:
        """(best payoff, payoff of the own strategy) per type."""
        idx = np.arange(len(self.rivals))
        n = len(self.chips)
        return self._node(tuple(range(n)), start, 0, self.chips, 0, idx)

    def _next(self, active: tuple[int, ...], mover: int) -> int:
        later = [x for x in active if x > mover]
        return later[0] if later else active[0]

    def _can(self, have: tuple[int, ...], seat: int, pot: int) -> bool:
        return have[seat] > pot if self.english else have[seat] > 0

    def _node(self, active, mover, pot, have, net, idx):
        cv, vals, w = self.cv, self.vals, self.weights[idx].sum()
        s = len(active)
        if mover == self.seat:
            place = 1 if s == 2 else 2
            drop = w * (vals[:, place] + cv * (net if self.english else net + pot))
            if not self._can(have, mover, pot):
                return drop, drop
            nxt = have if self.english else have[:mover] + (have[mover] - 1,) + have[mover + 1 :]
            paid = net if self.english else net - 1
            bid_best, bid_now = self._node(
                active, self._next(active, mover), pot + 1, nxt, paid, idx
            )
            stays = pot < self.own[:, s - 2]
            return np.maximum(bid_best, drop), np.where(stays, bid_now, drop)
        k = self.rivals[idx, mover, s - 2]
        bids = (pot < k) & self._can(have, mover, pot)
        best = np.zeros(len(vals))
        now = np.zeros(len(vals))
        if bids.any():
            nxt = have if self.english else have[:mover] + (have[mover] - 1,) + have[mover + 1 :]
            b, c = self._node(active, self._next(active, mover), pot + 1, nxt, net, idx[bids])
            best, now = best + b, now + c
        if not bids.all():
            group = idx[~bids]
            rest = tuple(x for x in active if x != mover)
            if len(rest) == 1:  # the seat wins
                win = self.weights[group].sum() * (vals[:, 0] + cv * (net - pot * self.english))
                best, now = best + win, now + win
            else:
                b, c = self._node(
                    rest, self._next(rest, mover), pot if self.english else 0, have, net, group
                )
                best, now = best + b, now + c
        return best, now
