"""The Mogul auction on its own: model, exact equilibrium, payoff curves, private values.

The mechanism (Mogul rulebook, "Auction the Card")
--------------------------------------------------
Seats sit in a circle and act in seat order, wrapping around, starting at ``start``. On its
turn an active seat either *bids* (puts one chip into the pot; only with a chip in hand) or
*drops* (takes the whole pot and leaves this auction for good). A seat without chips must
drop. When one active seat is left it wins; the last seat to drop is the runner-up. The pot
is empty when the auction ends, because the runner-up has just taken it.

Every bid is a chip for whoever drops next. With two seats left the duel is an ascending
auction whose price goes to the *loser*: the dropper collects all bids, its own and the
winner's. That is not a war of attrition, where every bid is lost by whoever makes it (Bulow
& Klemperer (1999), "The generalized war of attrition", AER 89(1)); it is closer to
dissolving a partnership, where the partner who leaves is paid (Cramton, Gibbons & Klemperer
(1987), "Dissolving a partnership efficiently", Econometrica 55(3)), and to auctions in which
losers receive part of the price (Engelbrecht-Wiggans (1994), "Auctions with
price-proportional benefits to bidders", Games and Economic Behavior 6(3)).

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

The modules: ``model`` (moves, outcomes, bots), ``solve`` (the equilibrium), ``regions``
(exact regions over the chip value or a value, where a claim holds), ``curves`` (payoff
curves), ``private`` (private values, epsilon-equilibria), ``mechanisms`` (English and
all-pay auctions on the same values). The model names no game; ``mogul`` is the auction on
a live Mogul table (``LiveAuction``, ``values_from_state``, ``chain_payoff_curve``).
"""

from mogul.auction.curves import payoff_curve, payoff_curves
from mogul.auction.mechanisms import (
    AllPayResult,
    all_pay_dynamics,
    all_pay_outcomes,
    all_pay_pure_equilibria,
    compare_mechanisms,
    compare_over_seeds,
    textbook_revenues,
)
from mogul.auction.model import (
    MAX_SEATS,
    MIN_SEATS,
    PLACES,
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
    deviation_gains,
    draw_values,
    gain_step,
    share_of_types,
    threshold_outcomes,
    uniform_values,
)
from mogul.auction.regions import (
    backward_induction_table,
    chip_value_regions,
    second_prize_sweep,
    win_value_regions,
    winner_map,
)
from mogul.auction.solve import Solution, solve

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "PLACES",
    "AllPayResult",
    "AuctionNode",
    "BestResponseResult",
    "Bot",
    "Outcome",
    "Solution",
    "Step",
    "ValueDraw",
    "all_pay_dynamics",
    "all_pay_pure_equilibria",
    "all_pay_outcomes",
    "backward_induction_table",
    "best_response_dynamics",
    "chip_value_regions",
    "compare_mechanisms",
    "compare_over_seeds",
    "deviation_gains",
    "draw_values",
    "gain_step",
    "payoff_curve",
    "payoff_curves",
    "play",
    "second_prize_sweep",
    "share_of_types",
    "solve",
    "textbook_revenues",
    "threshold_bot",
    "threshold_outcomes",
    "uniform_values",
    "win_value_regions",
    "winner_map",
]
