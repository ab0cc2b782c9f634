"""Threshold play in bulk: many auctions at once, every seat dropping at its own pot.

The rules are those of ``mogul.auction.model`` (``rule="mogul"``) or the English auction of
``mogul.auction.private`` (``rule="english"``), played with numpy over a whole sample.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

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
