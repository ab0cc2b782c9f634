"""Private values: value draws, threshold play in bulk, equilibria and how far they are off.

One module each, all importable from here: ``values`` (the draws), ``play`` (threshold play
in bulk), ``dynamics`` (best-response dynamics) and ``deviation`` (the gains of deviations).

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

from mogul.auction.private.deviation import RIVALS, deviation_gains, gain_step, share_of_types
from mogul.auction.private.dynamics import (
    MAX_STRATEGIES,
    BestResponseResult,
    best_response_dynamics,
)
from mogul.auction.private.play import RULES, threshold_outcomes
from mogul.auction.private.values import ValueDraw, draw_values, uniform_values

__all__ = [  # the model's parts, one module each: values, play, dynamics, deviation
    "MAX_STRATEGIES",
    "RIVALS",
    "RULES",
    "BestResponseResult",
    "ValueDraw",
    "best_response_dynamics",
    "deviation_gains",
    "draw_values",
    "gain_step",
    "share_of_types",
    "threshold_outcomes",
    "uniform_values",
]
