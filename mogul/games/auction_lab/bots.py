"""The lab's bots: what the theory predicts, what a naive bidder does, and chance.

Each sees only its seat's view (its own value) and decides from it alone, so a timer can
put one in any idle seat. ``REGISTRY`` is what ``simulate("auction-lab", ["equilibrium",
"naive", "random"], ...)`` and the classroom find by name.
"""

from __future__ import annotations

from collections.abc import Sequence

from mogul.games.auction_lab.actions import Action, Bid, Drop
from mogul.games.auction_lab.equilibrium import (
    all_pay_bid,
    english_threshold,
    first_price_bid,
    mogul_thresholds,
    whole,
)
from mogul.games.auction_lab.rules import LabView
from mogul.games.auction_lab.values import parse_values
from mogul.kit.bots import RandomBot


def _stay_or_drop(stays: bool, legal: Sequence[Action]) -> Action:
    """Pay or raise if ``stays`` and that is legal; else drop."""
    return legal[0] if stays and not isinstance(legal[0], Drop) else Drop()


class EquilibriumBot:
    """Plays what the theory predicts for its value (``equilibrium.py`` states each rule and
    its assumptions): second-price, its value; first-price, L + (n - 1)/n (v - L); all-pay,
    E[Y 1{Y < v}] (each rounded to whole chips within the budget); English, raises while the
    new price is below its value; Mogul's auction, the threshold ("drop when the pot reaches
    k") of the epsilon-equilibrium computed by ``mogul.auction.auction_lab`` for its place
    after the start seat, its value and the seats still in (``thresholds`` if given, else the
    entry of ``thresholds.json`` for the session's settings). For settings without one it
    plays Mogul's auction as ``NaiveBot`` does.
    """

    name = "equilibrium"
    traits = {"stochastic": False, "lookahead": False}

    def __init__(self, seed: int | None = None, thresholds: list | None = None):
        """``thresholds``: Mogul's table for settings the file does not hold, as
        ``mogul.auction.auction_lab.lab_equilibrium(...).table`` computes it."""
        self.thresholds = thresholds

    def bid(self, view: LabView) -> int:
        """The sealed bid for this seat's value."""
        dist, n, value = parse_values(view.values), len(view.names), view.value
        if view.mechanism == "first-price":
            return whole(first_price_bid(value, n, dist), view.budget)
        if view.mechanism == "all-pay":
            return whole(all_pay_bid(value, n, dist), view.budget)
        return min(value, view.budget)

    def threshold(self, view: LabView) -> int | None:
        """English or Mogul's auction: the pot (price) at which this seat drops (None: Mogul's
        auction with settings ``thresholds.json`` does not hold)."""
        if view.mechanism == "english":
            return english_threshold(view.value, view.budget)
        table = self.thresholds or mogul_thresholds(
            len(view.names), view.values, view.budget, view.second
        )
        if table is None:
            return None
        by_value = table[view.position]
        lowest = parse_values(view.values).lowest  # a scripted value off the range: its end's
        ks = by_value[min(max(view.value - lowest, 0), len(by_value) - 1)]
        return ks[min(len(view.active) - 2, len(ks) - 1)]

    def choose(self, view: LabView, legal_actions: Sequence[Action]) -> Action:
        """The bid, or stay while the pot (price) is below the threshold."""
        if isinstance(legal_actions[0], Bid):
            return Bid(self.bid(view))
        k = self.threshold(view)
        if k is None:
            return NaiveBot().choose(view, legal_actions)
        return _stay_or_drop(view.pot < k, legal_actions)


class NaiveBot:
    """Bids its value (within the budget); in an English auction raises while the price is
    below its value; in Mogul's auction pays while the chips it has paid are below its value
    (as if the pot it might win were bought at its own chips' price)."""

    name = "naive"
    traits = {"stochastic": False, "lookahead": False}

    def __init__(self, seed: int | None = None):
        pass

    def choose(self, view: LabView, legal_actions: Sequence[Action]) -> Action:
        """Bid the value, or stay while below it."""
        if isinstance(legal_actions[0], Bid):
            return Bid(min(view.value, view.budget))
        price = view.paid if view.mechanism == "mogul" else view.pot
        return _stay_or_drop(price < view.value, legal_actions)


REGISTRY: dict[str, type] = {
    "equilibrium": EquilibriumBot,
    "naive": NaiveBot,
    "random": RandomBot,
}
"""The lab's bots by name."""

__all__ = ["REGISTRY", "EquilibriumBot", "NaiveBot"]
