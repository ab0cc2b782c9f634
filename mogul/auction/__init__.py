"""The Mogul auction on its own: model, exact equilibrium, payoff curves, private values.

The mechanism (Mogul rulebook, "Auction the Card")
--------------------------------------------------
Seats sit in a circle and act in seat order, wrapping around, starting at ``start``. On its
turn an active seat either *bids* (puts one chip into the pot; only with a chip in hand) or
*drops* (takes the whole pot and leaves this auction for good). A seat without chips must
drop. When one active seat is left it wins; the last seat to drop is the runner-up. The pot
is empty when the auction ends, because the runner-up has just taken it.

This is a war of attrition in which the losers are paid: every bid is a sunk cost for the
bidder and a prize for whoever drops next (the mechanism of "No Thanks!"). For the war of
attrition see Maynard Smith (1974), "The theory of games and the evolution of animal
conflicts", J. Theor. Biol. 47; Bulow & Klemperer (1999), "The generalized war of
attrition", AER 89; Krishna (2010), *Auction Theory*, 2nd ed., ch. 2-3 (all-pay and war of
attrition auctions).

The model
---------
``values[i] = (win, second, out)`` are the points seat ``i`` gets for winning, for second
place (the runner-up) and for dropping out earlier. ``chip_value`` converts chips to points.
A seat's payoff is

    value of its place + chip_value * (final chips - initial chips)

Complete information: everybody knows all values and chips. There is no credit inside the
model (the real game lets a player take a credit of 2 chips for 2 points before bidding;
feed the chips after credit into the model if you want to study that case).

The exact equilibrium (``solve``) is the subgame-perfect equilibrium found by backward
induction (Osborne & Rubinstein (1994), *A Course in Game Theory*, ch. 6, Kuhn's theorem and
Proposition 99.2). The game is finite (every bid spends a chip) and has perfect information,
so backward induction gives a pure equilibrium; it is unique up to ties, and ties are broken
by the ``tie`` rule (default: a seat that is indifferent drops).

The modules: ``model`` (moves, outcomes, bots), ``solve`` (the equilibrium), ``curves``
(payoff curves), ``private`` (private values), ``mechanisms`` (English and all-pay
auctions), ``live`` (the auction of a live game).
"""

from mogul.auction.curves import payoff_curve, payoff_curves
from mogul.auction.live import LiveAuction, chain_payoff_curve, values_from_state
from mogul.auction.mechanisms import compare_mechanisms
from mogul.auction.model import (
    MAX_SEATS,
    MIN_SEATS,
    PLACES,  # noqa: F401  (importable, as before the split)
    AuctionNode,
    Bot,
    Outcome,
    Step,
    play,
    threshold_bot,
)
from mogul.auction.private import (
    BestResponseResult,
    ValueDraw,
    best_response_dynamics,
    draw_values,
    threshold_outcomes,
    uniform_values,
)
from mogul.auction.solve import Solution, solve

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "AuctionNode",
    "BestResponseResult",
    "Bot",
    "LiveAuction",
    "Outcome",
    "Solution",
    "Step",
    "ValueDraw",
    "best_response_dynamics",
    "chain_payoff_curve",
    "compare_mechanisms",
    "draw_values",
    "payoff_curve",
    "payoff_curves",
    "play",
    "solve",
    "threshold_bot",
    "threshold_outcomes",
    "uniform_values",
    "values_from_state",
]
