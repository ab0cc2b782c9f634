"""Best-response dynamics over threshold strategies with private values.

Each seat in turn switches every one of its sampled types to its best threshold strategy
against the others' current ones, until a sweep changes nothing (an equilibrium of the game
restricted to threshold strategies); after each sweep ``deviation_gains`` measures how far the
profile is off. The model is in the docstring of ``mogul.auction.private``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mogul.auction.model import TOLERANCE, _check_inputs
from mogul.auction.private.deviation import _rivals, deviation_gains
from mogul.auction.private.play import RULES, threshold_outcomes

MAX_STRATEGIES = 5000


@dataclass(frozen=True)
class BestResponseResult:
    """Best-response dynamics over threshold strategies with private values.

    ``values`` (samples, seats, 3) are the drawn types; ``thresholds`` (samples, seats,
    seats - 1) - or (samples, seats) with one k for the whole auction - the strategy of each
    seat's type in each sample, at the end; ``rule`` is "mogul" or "english"; ``trace`` has
    one row per iteration and seat (``iteration``, ``seat``, ``mean_threshold`` over types
    and seats-left, ``changed`` = share of types that switched, ``expected_payoff``);
    ``converged`` tells whether a sweep changed nothing; ``gains`` (samples, seats) is each
    type's gain from its best deviation of any kind (``deviation_gains``) and ``epsilon`` the
    largest.
    """

    values: np.ndarray
    chips: tuple[int, ...]
    start: int
    chip_value: float
    thresholds: np.ndarray
    trace: pd.DataFrame
    converged: bool
    rule: str = "mogul"
    gains: np.ndarray | None = None

    @property
    def epsilon(self) -> float:
        """The largest gain any type of any seat gets from any deviation (points)."""
        assert self.gains is not None
        return float(self.gains.max())


def _strategies(max_k: int, phases: int) -> np.ndarray:
    """All threshold strategies: one k in 0..max_k per phase, shape (count, phases)."""
    count = (max_k + 1) ** phases
    if count > MAX_STRATEGIES:
        raise ValueError(
            f"{count} threshold strategies per type are too many (at most {MAX_STRATEGIES}): "
            "use fewer chips or seats, or by_seats_left=False"
        )
    return np.array(list(itertools.product(range(max_k + 1), repeat=phases)), dtype=np.int64)


def _expected(
    vals_i: np.ndarray,
    seat: int,
    options: np.ndarray,
    strategy: np.ndarray,
    chips: tuple[int, ...],
    start: int,
    cv: float,
    rule: str,
) -> np.ndarray:
    """Expected payoff (types, options) of each of the seat's options against the rivals."""
    rivals, weights = _rivals(strategy, seat)
    c, r = len(options), len(rivals)
    trial = np.repeat(rivals[None], c, axis=0)
    trial[:, :, seat] = options[:, None]
    flat = trial.reshape(c * r, *rivals.shape[1:])
    places, net = threshold_outcomes(flat, chips, start, rule)
    place = places[:, seat].reshape(c, r)
    share = np.stack([(place == p) @ weights for p in range(3)], axis=1)  # (options, 3)
    mean_net = net[:, seat].reshape(c, r) @ weights
    return vals_i @ share.T + cv * mean_net


def _dynamics(
    vals: np.ndarray,
    chips: tuple[int, ...],
    start: int,
    cv: float,
    rule: str,
    options: np.ndarray,
    strategy: np.ndarray,
    max_iter: int,
    min_gain: float,
    damping: float,
    seed: int,
) -> tuple[np.ndarray, pd.DataFrame, bool, np.ndarray]:
    """Damped Gauss-Seidel best responses; keeps the profile with the smallest epsilon."""
    samples, n, _ = vals.shape
    rng = np.random.default_rng(seed)
    idx = np.arange(samples)
    rows, converged = [], False
    kept, kept_gains = strategy.copy(), None
    for it in range(1, max_iter + 1):
        changed_any = False
        for i in range(n):
            utility = _expected(vals[:, i], i, options, strategy, chips, start, cv, rule)
            now = np.argmax((strategy[:, i, None, :] == options[None]).all(axis=2), axis=1)
            best = np.argmax(np.round(utility, 9), axis=1)
            # a gain of exactly min_gain (up to float noise) is not above it: the rule
            # must not depend on rounding (gains are multiples of 1/samples here)
            better = utility[idx, best] - utility[idx, now] > min_gain + TOLERANCE
            changed_any |= bool(better.any())
            switch = better & (rng.random(samples) < damping)
            strategy[:, i] = options[np.where(switch, best, now)]
            rows.append(
                (
                    it,
                    i,
                    float(strategy[:, i].mean()),
                    float(switch.mean()),
                    float(utility[idx, np.where(switch, best, now)].mean()),
                )
            )
        gains = deviation_gains(vals, strategy, chips, start, cv, rule)
        if kept_gains is None or gains.max() < kept_gains.max() or not changed_any:
            kept, kept_gains = strategy.copy(), gains
        if not changed_any:
            converged = True
            break
    trace = pd.DataFrame(
        rows, columns=["iteration", "seat", "mean_threshold", "changed", "expected_payoff"]
    )
    return kept, trace, converged, kept_gains


def best_response_dynamics(
    values: np.ndarray,
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    max_iter: int = 30,
    initial: np.ndarray | None = None,
    min_gain: float = 0.0,
    by_seats_left: bool = True,
    rule: str = "mogul",
    damping: float = 0.5,
    seed: int = 0,
) -> BestResponseResult:
    """Iterate best responses among threshold strategies, then measure every deviation.

    The game and the strategies are those of the module docstring. A best response of seat
    ``i`` gives each of its sampled types the threshold strategy that maximises its expected
    payoff (exactly, over all sampled rival profiles; ties keep the current strategy, then go
    to the first in (k_2, k_3, ...) order). A type switches only if that gains more than
    ``min_gain`` points (0 by default: no inertia; a gain of exactly ``min_gain``, up to
    1e-9 of float noise, does not count), and then only with chance ``damping``
    (seeded by ``seed``; 1 = every improving type switches, which tends to cycle). Seats
    update one after another; the loop stops when a full sweep finds no improving type
    (``converged``: an equilibrium in threshold strategies) or after ``max_iter`` sweeps. After
    each sweep ``deviation_gains`` measures every deviation; the result is the final profile
    if it converged, else the one with the smallest ``epsilon`` seen.
    ``initial`` thresholds default to "bid up to the value of winning": round((win - out) /
    chip_value), clipped to 0..total chips, in every phase.
    """
    vals = np.asarray(values, dtype=float)
    if vals.ndim != 3 or vals.shape[2] != 3 or not np.isfinite(vals).all():
        raise ValueError(
            f"values must be a finite array of shape (samples, seats, 3); got shape {vals.shape}"
        )
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}; got {rule!r}")
    samples, n, _ = vals.shape
    _, chip_t = _check_inputs(vals[0], chips, start, chip_value, "drop")
    max_k = sum(chip_t)
    phases = n - 1 if by_seats_left else 1
    if initial is None:
        worth = (
            (vals[:, :, 0] - vals[:, :, 2]) / chip_value
            if chip_value > 0
            else np.full((samples, n), max_k)
        )
        thr = np.clip(np.round(worth), 0, max_k).astype(np.int64)
        thr = np.repeat(thr[:, :, None], phases, axis=2)
    else:
        thr = np.array(initial, dtype=np.int64).reshape(samples, n, -1)
        if thr.shape != (samples, n, phases):
            raise ValueError(
                f"initial thresholds must have shape {(samples, n, phases)[: 2 + by_seats_left]}"
            )
    if not 0 < damping <= 1:
        raise ValueError(f"damping must be in (0, 1]; got {damping!r}")
    thr, trace, converged, gains = _dynamics(
        vals,
        chip_t,
        int(start),
        float(chip_value),
        rule,
        _strategies(max_k, phases),
        thr,
        max_iter,
        min_gain,
        damping,
        seed,
    )
    out_thr = thr if by_seats_left else thr[:, :, 0]
    return BestResponseResult(
        vals, chip_t, int(start), float(chip_value), out_thr, trace, converged, rule, gains
    )
