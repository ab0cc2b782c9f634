"""Where a claim about the equilibrium holds: exact regions over the chip value or a value.

Why the regions are exact
-------------------------
Backward induction only ever compares two payoffs of the seat to move, each the payoff of an
end of the auction: ``v[place] + chip_value * net`` with ``net`` a whole number of chips.
Seen as a function of the chip value ``c`` (all values fixed), seat ``i`` is indifferent
between two ends only where ``v_i[p] + c m = v_i[q] + c m'``, i.e. at ``c = (v_i[p] - v_i[q])
/ (m' - m)``. There are finitely many such points (nets lie between ``-sum(chips)`` and
``sum(chips)``); between two neighbours no comparison changes sign, so the whole equilibrium
(path, winner, payments) is constant there, and at the points themselves the tie rule decides.
The same holds for one seat's value of winning ``w``, with points ``w = v_s[q] + c (m' - m)``.
So solving once at every candidate point and once between neighbours gives the regions with
exact (rational) ends. Values are read as exact fractions (``Fraction(x).limit_denominator(10**6)``:
the decimals you typed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

import pandas as pd

from mogul.auction.model import PLACES, _check_inputs
from mogul.auction.solve import Solution, solve

__all__ = [
    "backward_induction_table",
    "chip_value_regions",
    "second_prize_sweep",
    "win_value_regions",
    "winner_map",
]

REGION_COLUMNS = [
    "low",
    "high",
    "low_included",
    "high_included",
    "winner",
    "runner_up",
    "winner_pays",
    "moves",
    "drops",
]


def _exact(x: float) -> Fraction:
    return Fraction(x).limit_denominator(10**6)


def _drops(sol: Solution) -> str:
    return " ".join(f"{st.seat}@{st.pot}" for st in sol.path if st.action == "drop")


def _regions(
    solve_at: Callable[[Fraction], Solution],
    points: Iterable[Fraction],
    low: Fraction,
    high: Fraction,
) -> pd.DataFrame:
    """Solve at every candidate point and between neighbours; merge equal neighbours."""
    cuts = sorted({p for p in points if low < p < high} | {low, high})
    pieces = []  # (low, high, low_in, high_in, solution)
    for i, c in enumerate(cuts):
        pieces.append((c, c, True, True, solve_at(c)))
        if i + 1 < len(cuts):
            mid = (c + cuts[i + 1]) / 2
            pieces.append((c, cuts[i + 1], False, False, solve_at(mid)))
    rows: list[list] = []
    for lo, hi, lo_in, hi_in, sol in pieces:
        key = (sol.path, sol.winner)
        if rows and rows[-1][-1] == key:
            rows[-1][1], rows[-1][3] = hi, hi_in
            continue
        rows.append(
            [
                lo,
                hi,
                lo_in,
                hi_in,
                sol.winner,
                sol.runner_up,
                -sol.net_chips[sol.winner],
                len(sol.path),
                _drops(sol),
                key,
            ]
        )
    return pd.DataFrame([r[:-1] for r in rows], columns=REGION_COLUMNS)


def chip_value_regions(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    low: float = 0.0,
    high: float = 3.0,
    start: int = 0,
    tie: str = "drop",
) -> pd.DataFrame:
    """The equilibrium over chip values ``low..high``, as exact regions (see the module doc).

    One row per maximal region with the same equilibrium path: ``low``, ``high`` (fractions),
    whether each end belongs to it (a single point, ``low == high``, is a tie decided by
    ``tie``), ``winner``, ``runner_up``, ``winner_pays`` (chips), ``moves`` and ``drops``
    ("seat@pot" in order).
    """
    vals, chip_t = _check_inputs(values, chips, start, max(low, 0.0), tie)
    total = sum(chip_t)
    points = {
        (_exact(v[p]) - _exact(v[q])) / d
        for v in vals
        for p in range(3)
        for q in range(3)
        for d in range(1, total + 1)
    }
    return _regions(
        lambda c: solve(vals, chip_t, start, float(c), tie), points, _exact(low), _exact(high)
    )


def win_value_regions(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    seat: int,
    low: float,
    high: float,
    chip_value: float = 1.0,
    start: int = 0,
    tie: str = "drop",
) -> pd.DataFrame:
    """The equilibrium as ``seat``'s value of winning runs over ``low..high``: exact regions.

    Columns as in ``chip_value_regions``; ``values[seat][0]`` is replaced by the swept value.
    """
    vals, chip_t = _check_inputs(values, chips, start, chip_value, tie)
    total, c = sum(chip_t), _exact(chip_value)
    points = {_exact(vals[seat][q]) + c * d for q in (1, 2) for d in range(-total, total + 1)}

    def at(w: Fraction) -> Solution:
        swept = [(float(w), *v[1:]) if i == seat else v for i, v in enumerate(vals)]
        return solve(swept, chip_t, start, chip_value, tie)

    return _regions(at, points, _exact(low), _exact(high))


def winner_map(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    seat: int,
    win_values: Sequence[float],
    low: float = 0.0,
    high: float = 3.0,
    start: int = 0,
    tie: str = "drop",
) -> pd.DataFrame:
    """``chip_value_regions`` for each of ``seat``'s values of winning in ``win_values``.

    The rows of all sweeps with a column ``win`` in front: a phase diagram that is exact
    along the chip value, one row of regions per listed value of winning.
    """
    frames = []
    for w in win_values:
        swept = [(w, *v[1:]) if i == seat else tuple(v) for i, v in enumerate(values)]
        frames.append(chip_value_regions(swept, chips, low, high, start, tie).assign(win=w))
    df = pd.concat(frames, ignore_index=True)
    return df[["win", *REGION_COLUMNS]]


def second_prize_sweep(
    win: float,
    seconds: Sequence[float],
    seats: int,
    chips: int,
    start: int = 0,
    chip_value: float = 1.0,
    tie: str = "drop",
) -> pd.DataFrame:
    """Symmetric auctions (every seat values (win, second, 0), same chips) per second prize.

    One row per value of ``second``: ``moves``, ``winner``, ``winner_pays``, ``drops``
    ("seat@pot"), ``payoffs``.
    """
    rows = []
    for second in seconds:
        s = solve([(win, second, 0)] * seats, [chips] * seats, start, chip_value, tie)
        rows.append(
            {
                "second": second,
                "moves": len(s.path),
                "winner": s.winner,
                "winner_pays": -s.net_chips[s.winner],
                "drops": _drops(s),
                "payoffs": s.payoffs,
            }
        )
    return pd.DataFrame(rows)


def backward_induction_table(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    tie: str = "drop",
) -> pd.DataFrame:
    """Every decision point of a (small) auction with the mover's payoff from each move.

    One row per decision point, the latest pots first (the order backward induction solves
    them): ``seat``, ``pot``, ``chips`` (of the seats still in), ``bid`` and ``drop`` (the
    mover's payoff if it bids / drops there and everyone then plays the equilibrium; ``bid``
    is empty without a chip), ``move`` (the equilibrium move; equal payoffs go by ``tie``).
    """
    sol = solve(values, chips, start, chip_value, tie)
    rows = []
    for node, move in sol.strategy().items():
        have = dict(zip(node.active, node.chips, strict=True))
        options = {"drop": _after(sol, node.seat, node.pot, have, "drop")}
        if have[node.seat] > 0:
            options["bid"] = _after(sol, node.seat, node.pot, have, "bid")
        rows.append(
            {
                "seat": node.seat,
                "pot": node.pot,
                "chips": have,
                "bid": options.get("bid"),
                "drop": options["drop"],
                "move": move,
            }
        )
    df = pd.DataFrame(rows)
    return df.sort_values(["pot", "seat"], ascending=[False, True], ignore_index=True)


def _after(sol: Solution, seat: int, pot: int, have: dict[int, int], first: str) -> float:
    """``seat``'s payoff from this node on (chips counted from here) after move ``first``."""
    n = len(sol.values)
    have, mover, net, dropped = dict(have), seat, 0, []
    move = first
    while True:
        if move == "bid" and have[mover] > 0:
            have[mover] -= 1
            net -= mover == seat
            pot += 1
        else:
            net += pot if mover == seat else 0
            del have[mover]
            dropped.append(mover)
            pot = 0
        if len(have) == 1:
            break
        mover = next(x for x in [*range(mover + 1, n), *range(mover + 1)] if x in have)
        move = sol.action(mover, pot, have)
    place = "win" if seat in have else "second" if dropped[-1] == seat else "out"
    return sol.values[seat][PLACES.index(place)] + sol.chip_value * net
