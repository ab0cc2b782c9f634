"""What the theory predicts a seat bids, for each mechanism of the lab.

* **Second-price** sealed bids: bid your value (weakly dominant; Vickrey (1961),
  "Counterspeculation, auctions, and competitive sealed tenders", J. Finance 16).
* **English** auction with one-chip raises: raise while the new price is below your value
  (weakly dominant, as in the second-price auction; at a new price equal to the value a seat
  is indifferent and drops, the kit's tie rule). ``deviation_gains`` of ``mogul.auction``
  finds no gain from any deviation (the tests check it).
* **First-price** sealed bids: the symmetric Bayesian Nash bid for values independent and
  uniform on [L, H]: b(v) = L + (n - 1)/n (v - L) (Krishna (2010), *Auction Theory*, 2nd ed.,
  ch. 2; with L = 0 the familiar (n - 1)/n v).
* **All-pay** sealed bids: the symmetric Bayesian Nash bid for the same values:
  b(v) = E[Y 1{Y < v}], Y the best rival's value, which for uniform values is
  L F(v)^(n-1) + (H - L) (n - 1)/n F(v)^n with F(v) = (v - L)/(H - L) (Krishna (2010) ch. 2-3).
* **Mogul's** auction: no textbook bid. ``mogul.auction.auction_lab`` computes an
  epsilon-equilibrium in threshold strategies ("drop when the pot reaches k") by best-response
  dynamics over a sample of the group's values (``mogul.auction.best_response_dynamics``, as
  in notebook 02), with ``epsilon``, the most any sampled type gains by any deviation; the
  thresholds are kept in ``thresholds.json`` for the settings computed (``mogul_thresholds``).

The textbook bids assume continuous values, risk-neutral seats and no budget. In the lab
values and bids are whole chips and bids cannot pass the budget, so each bid is rounded to
the nearest whole chip (halves up) and cut at the budget. With "common" values (a common part
plus private noise) the values are not independent; the bids are then those for uniform
values over the whole range the values can take (an approximation, not an equilibrium).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

from mogul.games.auction_lab.values import Values

THRESHOLDS = Path(__file__).with_name("thresholds.json")
"""Mogul's equilibrium thresholds for the settings computed so far (``mogul_thresholds``)."""


def whole(bid: float, budget: int) -> int:
    """A bid in whole chips: rounded to the nearest (halves up), from 0 to the budget."""
    return max(0, min(budget, math.floor(bid + 0.5)))


def _uniform_share(value: float, dist: Values) -> float:
    """F(value) for values uniform over the distribution's whole range."""
    return min(1.0, max(0.0, (value - dist.lowest) / (dist.highest - dist.lowest)))


def first_price_bid(value: int, players: int, dist: Values) -> float:
    """The textbook first-price bid L + (n - 1)/n (v - L) (module docstring), not rounded."""
    low = dist.lowest
    return low + (players - 1) / players * max(0, value - low)


def all_pay_bid(value: int, players: int, dist: Values) -> float:
    """The textbook all-pay bid E[Y 1{Y < v}] for uniform values (module docstring)."""
    share, low, span = _uniform_share(value, dist), dist.lowest, dist.highest - dist.lowest
    return low * share ** (players - 1) + span * (players - 1) / players * share**players


def english_threshold(value: int, budget: int) -> int:
    """The price up to which the equilibrium raises: value - 1, within the budget."""
    return max(0, min(value - 1, budget))


def textbook_revenue(players: int, dist: Values) -> float:
    """Expected revenue of the textbook auctions (one prize, values uniform on [L, H]):
    the expected second-highest value L + (H - L)(n - 1)/(n + 1), the same for English,
    first-, second-price and all-pay (revenue equivalence: Myerson (1981), Riley &
    Samuelson (1981); Krishna (2010) ch. 3)."""
    low, high = dist.lowest, dist.highest
    return low + (high - low) * (players - 1) / (players + 1)


def mogul_thresholds(players: int, values: str, budget: int, second: int) -> list | None:
    """The Mogul equilibrium's thresholds for these settings, from ``thresholds.json``:
    ``table[position][value - lowest]`` is the k per number of seats still in (index: seats
    left - 2) of the seat ``position`` places after the start seat; None when the file has no
    entry for these settings (``python -m mogul.auction.auction_lab`` writes entries: it
    runs ``mogul.auction``'s best-response dynamics, which this layer may not import)."""
    for entry in _table():
        if (entry["players"], entry["values"], entry["budget"], entry["second"]) == (
            players,
            values,
            budget,
            second,
        ):
            return entry["thresholds"]
    return None


@functools.cache
def _table() -> list[dict]:
    return json.loads(THRESHOLDS.read_text())


__all__ = [
    "all_pay_bid",
    "english_threshold",
    "first_price_bid",
    "mogul_thresholds",
    "textbook_revenue",
    "whole",
]
