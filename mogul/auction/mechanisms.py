"""Mogul's auction next to English and all-pay auctions on the same private values."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mogul.auction.model import PLACES
from mogul.auction.private import BestResponseResult, _payoffs, threshold_outcomes
from mogul.auction.solve import solve


def _english(
    vals: np.ndarray, chips: tuple[int, ...], start: int, cv: float
) -> tuple[np.ndarray, np.ndarray]:
    """Places and net chips of an English (ascending clock) auction on each value profile."""
    samples, n, _ = vals.shape
    worth = (vals[:, :, 0] - vals[:, :, 2]) / cv if cv > 0 else np.full((samples, n), np.inf)
    top = np.clip(np.minimum(np.floor(worth), np.asarray(chips)), 0, None)
    return _rank(top, start, "second_price")


def _rank(bids: np.ndarray, start: int, rule: str) -> tuple[np.ndarray, np.ndarray]:
    """Places by bid (ties to the seat earlier in turn order) and payments per rule."""
    samples, n = bids.shape
    order_rank = (np.arange(n) - start) % n  # position in turn order
    key = bids * (n + 1) - order_rank[None, :] / (n + 1)  # higher bid first, then turn order
    ranking = np.argsort(-key, axis=1)
    places = np.full((samples, n), 2, dtype=np.int8)
    idx = np.arange(samples)
    places[idx, ranking[:, 0]] = 0
    places[idx, ranking[:, 1]] = 1
    net = np.zeros((samples, n))
    if rule == "second_price":
        net[idx, ranking[:, 0]] = -bids[idx, ranking[:, 1]]
    else:  # all pay
        net = -bids
    return places, net


def _all_pay_bids(vals: np.ndarray, chips: tuple[int, ...], cv: float) -> np.ndarray:
    """Symmetric all-pay equilibrium bids beta(w) = E[Y 1{Y < w}], Y = best rival's worth."""
    samples, n, _ = vals.shape
    worth = (
        (vals[:, :, 0] - vals[:, :, 2]) / cv if cv > 0 else np.full((samples, n), float(sum(chips)))
    )
    worth = np.clip(worth, 0, None)
    pooled = np.sort(worth.ravel())
    cdf = np.arange(1, pooled.size + 1) / pooled.size
    g = cdf ** (n - 1)  # G = F^(n-1), the distribution of the highest of n-1 rivals
    dg = np.diff(np.concatenate([[0.0], g]))
    integral = np.cumsum(pooled * dg)  # beta at each pooled point
    pos = np.searchsorted(pooled, worth, side="left")  # points strictly below w
    beta = np.where(pos > 0, integral[np.maximum(pos - 1, 0)], 0.0)
    return np.minimum(beta, np.asarray(chips, dtype=float))


def compare_mechanisms(
    result: BestResponseResult, complete_information: bool = True
) -> pd.DataFrame:
    """Efficiency and chip flows of four mechanisms on the same sampled values.

    Rows: ``mogul (private values)`` - the threshold profile of ``result``; ``mogul
    (complete information)`` - ``solve`` on each sampled profile; ``english`` - an ascending
    clock auction in which each seat stays in up to min(its chips, floor((win - out) /
    chip_value)) and the winner pays the runner-up's limit to the bank (the dominant
    strategy of the standard model, Krishna (2010) ch. 2.2; the second prize is ignored in the
    bidding); ``all-pay`` - sealed bids beta(w) = E[Y 1{Y < w}] with w = (win - out) /
    chip_value and Y the best of the n - 1 rivals' w under the pooled sample distribution (the
    symmetric equilibrium, Krishna (2010) ch. 2.5 / 3.2.2; exact for identically distributed
    values, an approximation otherwise; bids capped at the budget, not rounded), everyone pays
    its bid to the bank. In English and all-pay the bidder ranked second takes second place.

    Columns: ``efficiency`` (share of samples in which a seat with the highest win value
    wins); ``winner_pays`` (mean chips the winner gives up); ``droppers_net`` (mean net chips
    of all non-winners together: in Mogul the winner's payment goes to them, in the others to
    the bank); ``runner_up_net`` (mean net chips of second place); ``welfare`` (mean sum of
    all seats' payoffs in points).
    """
    vals, chips, start, cv = result.values, result.chips, result.start, result.chip_value
    samples, n, _ = vals.shape
    rows = {}
    places, net = threshold_outcomes(result.thresholds, chips, start)
    rows["mogul (private values)"] = (places, net)
    if complete_information:
        ci_places = np.zeros((samples, n), dtype=np.int8)
        ci_net = np.zeros((samples, n))
        for s in range(samples):
            sol = solve(vals[s], chips, start, cv)
            ci_places[s] = [PLACES.index(p) for p in sol.places]
            ci_net[s] = sol.net_chips
        rows["mogul (complete information)"] = (ci_places, ci_net)
    rows["english"] = _english(vals, chips, start, cv)
    rows["all-pay"] = _rank(_all_pay_bids(vals, chips, cv), start, "all_pay")
    best = vals[:, :, 0] >= vals[:, :, 0].max(axis=1, keepdims=True)
    table = []
    for name, (pl, nt) in rows.items():
        winner = pl == 0
        table.append({
            "mechanism": name,
            "efficiency": float(best[winner].mean()),
            "winner_pays": float(-(nt * winner).sum(axis=1).mean()),
            "droppers_net": float((nt * ~winner).sum(axis=1).mean()),
            "runner_up_net": float((nt * (pl == 1)).sum(axis=1).mean()),
            "welfare": float(_payoffs(vals, pl, nt, cv).sum(axis=1).mean()),
        })  # fmt: skip
    return pd.DataFrame(table).set_index("mechanism")
