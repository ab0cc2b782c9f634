"""Mogul's auction next to English and all-pay auctions on the same private values.

All mechanisms sell the same two prizes to the same sampled types (``private``): the winner
gets its ``win`` value, second place its ``second`` value, everyone else ``out``; bids are
whole chips, and nobody can bid more chips than it holds.

* **Mogul** - the rules of the game: bids go into the pot, a dropper takes the pot; played in
  threshold strategies by seats left (``best_response_dynamics``), or with complete
  information (``solve`` on each profile, a subgame-perfect equilibrium).
* **English** - an ascending auction with one-chip raises (``rule="english"`` in
  ``private``): the last seat in wins and pays the price to the bank, the last to drop is
  second, nobody else pays. Strategies: thresholds by seats left, best-response dynamics.
  (Its textbook form, bidding up to one's value, is a dominant strategy with one prize:
  Vickrey (1961), "Counterspeculation, auctions, and competitive sealed tenders", J. Finance
  16; Krishna (2010), *Auction Theory*, 2nd ed., ch. 2.)
* **All-pay** - sealed bids of whole chips; the highest bid wins, the next is second (equal
  bids: the seat earlier in turn order ranks higher); everyone pays its bid to the bank.
  Strategies: a bid per type, best-response dynamics over all bids (so the deviation check is
  over every strategy). The textbook bid ``E[Y 1{Y < w}]`` (Krishna (2010) ch. 2-3) assumes
  continuous values, one prize and no budgets, none of which holds here.

Each equilibrium comes with ``epsilon``: the most any type of any seat gains by deviating in
any way (0 for the complete-information solve, which is exact).

Measures (means over the sampled profiles): ``efficient`` - share of profiles whose
allocation of both prizes maximises the sum of place values; ``welfare`` - mean sum of place
values (chips only move between players and the bank, so they are transfers, not welfare);
``bidders_surplus`` - mean sum of the seats' payoffs (welfare minus the chips paid to the
bank, times the chip value); ``revenue`` - chips paid to the bank; ``winner_pays`` - chips the
winner gives up; ``droppers_net`` - net chips of all other seats together.

Revenue equivalence (Myerson (1981), "Optimal auction design", Math. Oper. Res. 6; Riley &
Samuelson (1981), "Optimal auctions", AER 71; Krishna (2010) ch. 3) says English and all-pay
auctions raise the same expected revenue when values are independent, continuous, with the
same lowest-type payoff, the same allocation (the highest value wins), one prize, risk
neutrality and no budgets; ``textbook_revenues`` checks it numerically in that setting.
Whole chips, budgets and a second prize each break its assumptions, so the sampled game need
not show it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mogul.auction.model import PLACES, TOLERANCE, _check_inputs
from mogul.auction.private import (
    ValueDraw,
    _payoffs,
    best_response_dynamics,
    draw_values,
    threshold_outcomes,
)
from mogul.auction.solve import solve

MEASURES = ("efficient", "welfare", "bidders_surplus", "revenue", "winner_pays", "droppers_net")
_T975 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)
"""Student's t, 97.5% quantile, for 1..30 degrees of freedom (standard tables)."""


def _rank(bids: np.ndarray, start: int) -> np.ndarray:
    """Seats per game from the highest bid down; equal bids: earlier in turn order first."""
    samples, n = bids.shape
    turn = np.broadcast_to((np.arange(n) - start) % n, bids.shape)
    return np.lexsort((turn, -np.asarray(bids, dtype=float)), axis=1)


def all_pay_outcomes(bids: np.ndarray, start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Places (0 win, 1 second, 2 out) and net chips (minus the bid) of sealed all-pay bids."""
    bids = np.asarray(bids)
    ranking = _rank(bids, start)
    places = np.full(bids.shape, 2, dtype=np.int8)
    idx = np.arange(bids.shape[0])
    places[idx, ranking[:, 0]] = 0
    places[idx, ranking[:, 1]] = 1
    return places, -bids


def all_pay_pure_equilibria(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
) -> list[tuple[int, ...]]:
    """Every equilibrium in pure bids of the all-pay auction with complete information.

    Exhaustive: every bid profile (seat i bids 0..chips[i]) is checked against every
    single-seat deviation to another bid; a profile is kept when no seat gains more than
    1e-9 points. Places and ties as in ``all_pay_outcomes``. An empty list shows that this
    instance has no pure equilibrium (Nash (1951) equilibrium; the check is the definition).
    """
    vals, chip_t = _check_inputs(values, chips, start, chip_value, "drop")
    n = len(vals)
    grid = np.array(list(itertools.product(*[range(c + 1) for c in chip_t])), dtype=np.int64)
    places, net = all_pay_outcomes(grid, start)
    pay = (
        np.take_along_axis(
            np.array(vals)[None].repeat(len(grid), 0), places[..., None].astype(np.intp), axis=-1
        )[..., 0]
        + chip_value * net
    )
    shape = tuple(c + 1 for c in chip_t)
    stable = np.ones(len(grid), dtype=bool)
    for i in range(n):
        table = pay[:, i].reshape(shape)
        best = np.broadcast_to(table.max(axis=i, keepdims=True), shape).ravel()
        stable &= pay[:, i] >= best - TOLERANCE
    return [tuple(int(b) for b in grid[r]) for r in np.nonzero(stable)[0]]


@dataclass(frozen=True)
class AllPayResult:
    """Fictitious play in the sealed all-pay auction with whole-chip bids.

    ``mix`` (samples, seats, bids) is each type's mixed strategy: the chance of each bid
    0..max chips (zero above the seat's own chips); ``gains`` (samples, seats) what each type
    gains from its best bid against the others' mixes, ``epsilon`` the largest; ``trace``
    has ``iteration`` and ``epsilon``.
    """

    values: np.ndarray
    chips: tuple[int, ...]
    start: int
    chip_value: float
    mix: np.ndarray
    trace: pd.DataFrame
    gains: np.ndarray

    @property
    def epsilon(self) -> float:
        """The largest gain any type of any seat gets from another bid (points)."""
        return float(self.gains.max())


def _all_pay_utility(vals_i: np.ndarray, seat: int, mix: np.ndarray, start: int, cv: float):
    """Expected payoff (types, bids) of each own bid against the rivals' mixed bids."""
    samples, n, bids = mix.shape
    turn = (np.arange(n) - start) % n
    below = np.cumsum(mix, axis=2) - mix  # P(rival bid < b), per row, seat, b
    beat = below + mix * (turn[seat] < turn)[None, :, None]  # (rows, seats, b)
    count = np.zeros((samples, bids, n))  # P(beats exactly m rivals)
    count[:, :, 0] = 1.0
    for j in range(n):
        if j == seat:
            continue
        p = beat[:, j, :]
        count[:, :, 1:] = count[:, :, 1:] * (1 - p[..., None]) + count[:, :, :-1] * p[..., None]
        count[:, :, 0] *= 1 - p
    share = np.stack(
        [count[:, :, n - 1], count[:, :, n - 2], count[:, :, : n - 2].sum(axis=2)], axis=2
    ).mean(axis=0)
    return vals_i @ share.T - cv * np.arange(bids)


def all_pay_dynamics(
    values: np.ndarray,
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    iterations: int = 1000,
) -> AllPayResult:
    """Fictitious play (Brown (1951); Fudenberg & Levine (1998) ch. 2) in the all-pay auction.

    Every round each type of each seat best-responds with a whole-chip bid (0..its chips) to
    the others' current mixed strategies over all sampled rival profiles (exact expectations),
    and its mixed strategy moves to the running average of its best responses. The result is
    an epsilon-equilibrium in mixed strategies; a bid is a whole strategy in a sealed-bid
    auction, so ``epsilon`` bounds every deviation.
    """
    vals = np.asarray(values, dtype=float)
    _, chip_t = _check_inputs(vals[0], chips, start, chip_value, "drop")
    samples, n, _ = vals.shape
    bids = max(chip_t) + 1
    allowed = np.arange(bids)[None, :] <= np.array(chip_t)[:, None]  # (seats, bids)
    mix = np.zeros((samples, n, bids))
    mix[:, :, 0] = 1.0
    rows = []
    for it in range(1, iterations + 1):
        best = np.zeros((samples, n), dtype=np.int64)
        for i in range(n):
            u = np.where(
                allowed[i], _all_pay_utility(vals[:, i], i, mix, start, chip_value), -np.inf
            )
            best[:, i] = np.argmax(np.round(u, 9), axis=1)
        mix *= it / (it + 1)
        mix[np.arange(samples)[:, None], np.arange(n)[None, :], best] += 1 / (it + 1)
        if it % 25 == 0 or it == iterations:
            rows.append((it, _all_pay_gains(vals, mix, allowed, start, chip_value).max()))
    gains = _all_pay_gains(vals, mix, allowed, start, chip_value)
    trace = pd.DataFrame(rows, columns=["iteration", "epsilon"])
    return AllPayResult(vals, chip_t, int(start), float(chip_value), mix, trace, gains)


def _all_pay_gains(vals, mix, allowed, start, cv) -> np.ndarray:
    samples, n, _ = mix.shape
    gains = np.zeros((samples, n))
    for i in range(n):
        u = np.where(allowed[i], _all_pay_utility(vals[:, i], i, mix, start, cv), -np.inf)
        gains[:, i] = u.max(axis=1) - (np.where(allowed[i], u, 0.0) * mix[:, i]).sum(axis=1)
    return np.maximum(gains, 0.0)


def _all_pay_profiles(result: AllPayResult) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every bid profile each sampled row can produce: (row per profile, bids, chance)."""
    samples, n, bids = result.mix.shape
    combos = np.array(list(itertools.product(range(bids), repeat=n)))  # (C, seats)
    chance = np.prod(result.mix[:, np.arange(n), combos], axis=2)  # (samples, C)
    row, c = np.nonzero(chance > 1e-12)
    return row, combos[c], chance[row, c]


def _measures(
    values: np.ndarray, places: np.ndarray, net: np.ndarray, cv: float, weights=None
) -> dict:
    """The measures of the module docstring for one mechanism's outcomes (weighted rows)."""
    n = values.shape[1]
    w = np.full(len(values), 1 / len(values)) if weights is None else weights / weights.sum()
    worth = np.take_along_axis(values, places[..., None].astype(np.intp), axis=-1)[..., 0]
    best = np.full(len(values), -np.inf)
    for a, b in itertools.permutations(range(n), 2):
        alloc = values[:, :, 2].sum(axis=1) + values[:, a, 0] - values[:, a, 2]
        best = np.maximum(best, alloc + values[:, b, 1] - values[:, b, 2])
    winner = places == 0
    return {
        "efficient": float((worth.sum(axis=1) >= best - 1e-9) @ w),
        "welfare": float(worth.sum(axis=1) @ w),
        "bidders_surplus": float(_payoffs(values, places, net, cv).sum(axis=1) @ w),
        "revenue": float(-net.sum(axis=1) @ w),
        "winner_pays": float(-(net * winner).sum(axis=1) @ w),
        "droppers_net": float((net * ~winner).sum(axis=1) @ w),
    }


def compare_mechanisms(
    values: np.ndarray,
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    ties: Sequence[str] = ("drop",),
    max_iter: int = 30,
) -> pd.DataFrame:
    """The measures of each mechanism (module docstring) on the same sampled ``values``.

    Rows: ``mogul, private values``; ``mogul, complete information`` (one row per tie rule in
    ``ties``, named with the rule when there are several); ``english``; ``all-pay``. Columns:
    the measures, then ``epsilon`` (largest gain from any deviation) and ``converged``.
    """
    vals = np.asarray(values, dtype=float)
    _, chip_t = _check_inputs(vals[0], chips, start, chip_value, "drop")
    samples, n, _ = vals.shape
    rows: dict[str, dict] = {}
    mogul = best_response_dynamics(vals, chip_t, start, chip_value, max_iter)
    rows["mogul, private values"] = {
        **_measures(vals, *threshold_outcomes(mogul.thresholds, chip_t, start), chip_value),
        "epsilon": mogul.epsilon,
        "converged": mogul.converged,
    }
    for tie in ties:
        places = np.zeros((samples, n), dtype=np.int8)
        net = np.zeros((samples, n))
        for s in range(samples):
            sol = solve(vals[s], chip_t, start, chip_value, tie)
            places[s] = [PLACES.index(p) for p in sol.places]
            net[s] = sol.net_chips
        name = "mogul, complete information" + (f" (tie: {tie})" if len(ties) > 1 else "")
        rows[name] = {**_measures(vals, places, net, chip_value), "epsilon": 0.0, "converged": True}
    english = best_response_dynamics(vals, chip_t, start, chip_value, max_iter, rule="english")
    rows["english"] = {
        **_measures(
            vals, *threshold_outcomes(english.thresholds, chip_t, start, "english"), chip_value
        ),
        "epsilon": english.epsilon,
        "converged": english.converged,
    }
    allpay = all_pay_dynamics(vals, chip_t, start, chip_value)
    row, bids, chance = _all_pay_profiles(allpay)
    rows["all-pay"] = {
        **_measures(vals[row], *all_pay_outcomes(bids, start), chip_value, chance),
        "epsilon": allpay.epsilon,
        "converged": False,
    }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "mechanism"
    return table


def compare_over_seeds(
    draw: ValueDraw,
    seats: int,
    chips: Sequence[int],
    samples: int,
    seeds: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    ties: Sequence[str] = ("drop",),
) -> pd.DataFrame:
    """``compare_mechanisms`` on a fresh sample per seed: mean and 95% interval per measure.

    Columns ``<measure>`` (mean over seeds) and ``<measure>_ci`` (half-width of the 95%
    confidence interval, Student's t with seeds - 1 degrees of freedom), plus the largest
    ``epsilon`` over seeds. ``runs`` (one table per seed) is in ``.attrs["runs"]``.
    """
    if not 2 <= len(seeds) <= len(_T975) + 1:
        raise ValueError(f"give 2..{len(_T975) + 1} seeds; got {len(seeds)}")
    runs = [
        compare_mechanisms(draw_values(draw, seats, samples, seed), chips, start, chip_value, ties)
        for seed in seeds
    ]
    stacked = pd.concat(runs, keys=list(seeds), names=["seed"])
    by = stacked.groupby(level="mechanism", sort=False)
    out = pd.DataFrame(index=runs[0].index)
    t = _T975[len(seeds) - 2]
    for m in MEASURES:
        out[m] = by[m].mean()
        out[f"{m}_ci"] = t * by[m].std(ddof=1) / np.sqrt(len(seeds))
    out["epsilon"] = by["epsilon"].max()
    out.attrs["runs"] = stacked
    return out


def seeds_table(table: pd.DataFrame, measures: Sequence[str], decimals: int = 3) -> pd.DataFrame:
    """Columns ``measures`` of ``compare_over_seeds`` as a table that fits a notebook column:
    each measure's mean and the half-width of its 95% interval in one column ("0.762 ± 0.023");
    ``epsilon`` (no interval: the largest over seeds) as a number.

    >>> t = pd.DataFrame({"revenue": [5.4281], "revenue_ci": [0.0649], "epsilon": [0.0]},
    ...                  index=pd.Index(["english"], name="mechanism"))
    >>> seeds_table(t, ["revenue", "epsilon"]).loc["english"].astype(str).tolist()
    ['5.428 ± 0.065', '0.0']
    """
    out = pd.DataFrame(index=table.index)
    for m in measures:
        if f"{m}_ci" in table:
            out[m] = [
                f"{v:.{decimals}f} ± {h:.{decimals}f}"
                for v, h in zip(table[m], table[f"{m}_ci"], strict=True)
            ]
        else:
            out[m] = table[m].round(decimals)
    return out


def textbook_revenues(seats: int, low: float, high: float, points: int = 20001) -> dict:
    """Expected revenue of English and all-pay auctions, one prize, values uniform on [low, high].

    The symmetric equilibria of the textbook model (no budgets, continuous values): English -
    the winner pays the second-highest value; all-pay - every bidder pays beta(w) =
    integral of y dG(y) from low to w, G = F^(seats - 1) (Krishna (2010) ch. 2). Both
    integrals are taken numerically (trapezoid rule on ``points`` values); revenue
    equivalence says both equal low + (high - low) (seats - 1) / (seats + 1) (``exact``).
    """
    w = np.linspace(low, high, points)
    f = np.full_like(w, 1 / (high - low))
    cdf = (w - low) / (high - low)
    g = (seats - 1) * cdf ** (seats - 2) * f  # density of the best rival's value
    beta = np.concatenate([[0.0], np.cumsum(np.diff(w) * 0.5 * ((w * g)[1:] + (w * g)[:-1]))])
    all_pay = seats * np.trapezoid(beta * f, w)
    second = seats * (seats - 1) * cdf ** (seats - 2) * (1 - cdf) * f  # density of the 2nd value
    english = np.trapezoid(w * second, w)
    exact = low + (high - low) * (seats - 1) / (seats + 1)
    return {"english": float(english), "all_pay": float(all_pay), "exact": float(exact)}
