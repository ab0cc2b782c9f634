"""Payoff curves: a seat's payoff from committing to "drop when the pot reaches k"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from mogul.auction.model import Bot, Outcome, Step, _check_inputs, _outcome, play, threshold_bot
from mogul.auction.solve import Solution, solve

# --------------------------------------------------------------------------- payoff curves


def payoff_curve(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    seat: int,
    start: int = 0,
    chip_value: float = 1.0,
    max_k: int | None = None,
    opponents: str = "naive",
    bots: Mapping[int, Bot] | None = None,
    tie: str = "drop",
) -> pd.DataFrame:
    """Seat ``seat``'s payoff from committing to "drop when the pot reaches k", k = 0..max_k.

    The seat plays ``threshold_bot(k)``. What the other seats do:

    * ``opponents="naive"``: they keep their subgame-perfect strategies of the game without
      the commitment (they do not know of it). The seat then faces a fixed decision problem
      in which its equilibrium strategy is optimal, so every point of the curve is at most
      the equilibrium payoff, and the best k reaches it whenever the seat's equilibrium play
      on the path is itself a threshold rule (e.g. whenever the seat acts in only one chain).
    * ``opponents="informed"``: they know the commitment and best-respond to it (a new
      backward induction for each k, with the seat as a bot). Slower; the best k can beat
      the equilibrium payoff, because commitment is valuable in a war of attrition.

    ``bots`` (seat -> ``Bot``) fixes some opponents' play in both modes. ``max_k`` defaults to
    the total number of chips (a larger k means "never drop while holding a chip").

    Returns one row per k with columns: ``k``; ``payoff`` (points); ``place`` ("win",
    "second", "out"); ``paid`` (chips the seat bid); ``collected`` (chips it took from the
    pot); ``winner`` (seat); ``equilibrium`` (the seat's payoff in the equilibrium without
    commitment, the same in every row).
    """
    vals, chip_t = _check_inputs(values, chips, start, chip_value, tie)
    n = len(vals)
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat index 0..{n - 1}; got {seat!r}")
    if opponents not in ("naive", "informed"):
        raise ValueError(f"opponents must be 'naive' or 'informed'; got {opponents!r}")
    bots = dict(bots or {})
    if seat in bots:
        raise ValueError(f"seat {seat} is the committed seat; it cannot also be given a bot")
    if max_k is None:
        max_k = sum(chip_t)
    if isinstance(max_k, bool) or not isinstance(max_k, int | np.integer) or max_k < 0:
        raise ValueError(f"max_k must be an integer >= 0; got {max_k!r}")
    base = solve(vals, chip_t, start, chip_value, tie, bots)
    return _curve(base, int(seat), int(max_k), opponents, bots)


def payoff_curves(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    max_k: int | None = None,
    tie: str = "drop",
    solution: Solution | None = None,
) -> dict[int, pd.DataFrame]:
    """``payoff_curve`` (naive opponents) for every seat, sharing one equilibrium solve.

    ``solution`` reuses ``solve(values, chips, start, chip_value, tie)`` if you have it.
    """
    vals, chip_t = _check_inputs(values, chips, start, chip_value, tie)
    if solution is None:
        base = solve(vals, chip_t, start, chip_value, tie)
    else:
        same = (solution.values, solution.chips, solution.start, solution.chip_value, solution.tie)
        if same != (vals, chip_t, start, float(chip_value), tie):
            raise ValueError("solution must be solve(values, chips, start, chip_value, tie)")
        base = solution
    top = sum(chip_t) if max_k is None else int(max_k)
    return {seat: _curve(base, seat, top, "naive", {}) for seat in range(len(vals))}


def _curve(
    base: Solution, seat: int, max_k: int, opponents: str, bots: Mapping[int, Bot]
) -> pd.DataFrame:
    """The rows of a payoff curve, given the equilibrium ``base`` of the game without commitment."""
    vals, chip_t, start, cv, tie = base.values, base.chips, base.start, base.chip_value, base.tie
    n = len(vals)
    rows: list[tuple] = []
    for k in range(max_k + 1):
        if opponents == "naive" and not bots:
            out: Outcome = _naive_play(base, seat, k)
        elif opponents == "naive":
            players = {i: bots.get(i, base.action) for i in range(n)}
            players[seat] = threshold_bot(k)
            out = play(vals, chip_t, players, start, cv)
        else:
            out = solve(vals, chip_t, start, cv, tie, {**bots, seat: threshold_bot(k)})
        rows.append(
            (
                k,
                out.payoffs[seat],
                out.places[seat],
                out.paid[seat],
                out.collected[seat],
                out.winner,
            )
        )
        # Against fixed opponents, a seat that never met a pot >= k plays every larger k alike.
        if opponents == "naive" and all(st.pot < k for st in out.path if st.seat == seat):
            rows.extend((j, *rows[-1][1:]) for j in range(k + 1, max_k + 1))
            break
    df = pd.DataFrame(rows, columns=["k", "payoff", "place", "paid", "collected", "winner"])
    df["equilibrium"] = base.payoffs[seat]
    return df


def _naive_play(base: Solution, seat: int, k: int) -> Outcome:
    """``play`` with ``seat`` on ``threshold_bot(k)`` and the others on ``base.action``.

    The same game, walked chain by chain on the solver's memo instead of move by move: in a
    chain (the bids between two drops) the other seats' moves are ``bid[pot]`` of the chain's
    pot-0 state, so the next drop is the first pot at which a rival's entry is 0, the seat's
    own pot reaches ``k``, or someone has no chip left. Same result, a fraction of the time
    (the AuctionExplorer draws a curve for every seat on every slider change).
    """
    game = base._game
    assert game is not None
    n = len(base.chips)
    order = tuple((base.start + i) % n for i in range(n))
    chips = tuple(base.chips[x] for x in order)
    path: list[Step] = []
    while len(order) > 1:
        s = len(order)
        bid = game.chain(order, chips).bid
        length = min(c * s + p for p, c in enumerate(chips))
        mine = order.index(seat) if seat in order else -1
        j = 0
        while j < length:
            p = j % s
            if (j >= k) if p == mine else not bid[j]:
                break
            j += 1
        path.extend(Step(order[i % s], "bid", i) for i in range(j))
        path.append(Step(order[j % s], "drop", j))
        order, chips = game.after_drop(order, chips, j)
    return _outcome(base.values, base.chip_value, path)
