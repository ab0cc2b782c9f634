"""Private values: value draws, threshold play in bulk, equilibria and how far they are off.

In the order of this module: the draws of the values (``uniform_values``, ``draw_values``),
threshold play in bulk (``threshold_outcomes``), the gains of deviations (``deviation_gains``)
and best-response dynamics (``best_response_dynamics``).

The game
--------
Each seat draws its (win, second, out) values independently; it knows its own values and the
distribution of the others' (the rows of a sample from ``draw_values``: a seat expects its
rivals to be one of the sampled rival profiles, each equally likely). Everything else is as in
the complete-information model: the rules, the chips, who starts, the chip value.

Strategies and equilibrium
--------------------------
A *threshold strategy by seats left* says, for each number of seats still in, "drop when the
pot reaches k" (``thresholds[..., s - 2]`` is the k used while ``s`` seats are in). The same k
throughout is the special case ``by_seats_left=False``. ``best_response_dynamics`` lets each
seat in turn switch every one of its types to its best threshold strategy against the others'
current ones, until a sweep changes nothing: then no type gains by another *threshold*
strategy (a Bayesian equilibrium of the game restricted to threshold strategies).

A real deviation may use everything a player sees: who dropped and when. ``deviation_gains``
computes, for every type, the best payoff against the others' strategies over *all* strategies
(any function of the public history, by backward induction over the histories the rivals'
sampled types can produce) minus its payoff now. Its maximum ``epsilon`` makes the profile an
epsilon-equilibrium of the (sampled) Bayesian game: no type of any seat gains more than
``epsilon`` points by any deviation. It bounds what a deviation gains; it is not a distance
from the profile to an equilibrium.

The sample's rows draw a seat's rivals together, so in a finite sample their types are
correlated. ``deviation_gains(..., rivals="independent", draw=draw)`` measures the same
profile against the independent distribution the values were drawn from (each rival's type
with its own chance, independently). Gains are then whole multiples of a known step
(``gain_step``), so ``share_of_types`` counts the types above a threshold exactly. (Bayesian games: Harsanyi (1967-68), "Games with
incomplete information played by Bayesian players", Management Science 14; Krishna (2010),
*Auction Theory*, 2nd ed., ch. 2. Best-response dynamics: Fudenberg & Levine (1998), *The
Theory of Learning in Games*, ch. 2.)

The English auction of ``mechanisms`` uses the same machinery with ``rule="english"``: on its
turn a seat stays (raising the price by one chip; only if it could pay the new price) or
drops (leaving, paying nothing); the last seat in wins and pays the price to the bank.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from mogul.auction.model import MAX_SEATS, MIN_SEATS, TOLERANCE, _check_inputs

# --- the draws ------------------------------------------------------------------------------------


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


# --- threshold play in bulk -----------------------------------------------------------------------


RULES = ("mogul", "english")


def threshold_outcomes(
    thresholds: np.ndarray, chips: Sequence[int], start: int = 0, rule: str = "mogul"
) -> tuple[np.ndarray, np.ndarray]:
    """Play many auctions at once in which every seat plays a threshold rule.

    ``thresholds`` has shape (games, seats) - one k per seat - or (games, seats, seats - 1) -
    one k per number of seats still in (index ``s - 2`` while ``s`` seats are in). A seat drops
    at its first turn with pot >= its k, or when it cannot bid. Returns ``places`` (0 = win,
    1 = second, 2 = out) and ``net`` chips (collected - bid), both of shape (games, seats).
    ``rule="mogul"`` plays exactly like ``play`` with ``threshold_bot``; ``rule="english"``
    plays the English auction of the module docstring (the pot is the price; a seat stays only
    if its chips cover the raised price; only the winner pays).
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}; got {rule!r}")
    thr = np.asarray(thresholds)
    if thr.ndim == 2:
        thr = np.repeat(thr[:, :, None], max(thr.shape[1] - 1, 1), axis=2)
    games, n, phases = thr.shape
    english = rule == "english"
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
        can = have[r, m] > pot[r] if english else have[r, m] > 0
        bids = (pot[r] < thr[r, m, np.minimum(left[r] - 2, phases - 1)]) & can
        rb, mb = r[bids], m[bids]
        if not english:
            have[rb, mb] -= 1
            net[rb, mb] -= 1
        pot[rb] += 1
        rd, md = r[~bids], m[~bids]
        if not english:
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
    if english:
        net[active] -= pot
    return places, net


def _payoffs(
    values: np.ndarray, places: np.ndarray, net: np.ndarray, chip_value: float
) -> np.ndarray:
    """Payoff per game and seat: value of the place + chip_value * net chips."""
    return (
        np.take_along_axis(values, places[..., None].astype(np.intp), axis=-1)[..., 0]
        + chip_value * net
    )


# --- how far a profile is off: the gains of deviations --------------------------------------------


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

    A "type" here is an entry of ``gains``: a seat's type in one sampled row (a seat-row), so
    a type drawn into several rows counts once per row; 200 rows of 3 seats give 600 of them.

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


# --- best-response dynamics -------------------------------------------------------------------------


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
