"""What a Credit Mobilier share is worth: the dividends it still earns before the game ends.

A share costs $1 and pays only dividends (cash is all that counts at the end). In one round
of dividends every share held earns $1 until the treasury runs dry, so one round pays each
share on average ``paid / shares held`` dollars (1 for a full round, less when the money ran
out part way). The **dividends to come** of a company's share as a turn begins is the sum of
that average over every round the company pays from that turn to the end of the game: what
one share held from then on earns, on average over the shares of the company.

Railroad shares earn from their treasury, which fills when their goods (and goods over their
track) move west; the Credit Mobilier (purple) share earns from the construction company's
treasury, which the bank fills with $2 for every section of track anyone builds.

    >>> from mogul.kit.simulate import simulate
    >>> sim = simulate("credit-mobilier", ["dividend"], games=4, players=3, seed=1,
    ...                tables=("games", "treasuries", "dividends"), progress=False)
    >>> values = share_values(sim.treasuries, sim.dividends)
    >>> sorted(values.columns)
    ['company', 'game', 'shares_held', 'to_come', 'treasury', 'turn']

That is an **average**: what the shares already held earn, one with another. What *one more*
share brings its owner is another number, the **marginal value** (``marginal_values``): in
paired games with common random numbers (the same goods, start player and dice, since every
roll comes from the seed and the roll's number) one player buys one extra share for $1 at the
start of a turn, and the difference in that player's final cash is measured. The two differ
because an extra share dilutes the others (a round that runs the treasury dry pays the same
dollars over one more share), because a round stopped part way pays the extra share nothing,
and because the extra share changes who pays out and when (the bots pay out what they own).
A share given for $1 on top of a turn is not what a player can do, though: buying uses up the
turn. ``buy_instead`` sets one share bought (and the turn ended) against the move the bot would
have made, so its gain is the decision's: expected gain against what is given up.

The functions are pure: tables in, tidy frames out (``marginal_values`` and ``buy_instead`` play
their games).
``mogul.plots.credit_mobilier.dividends_to_come_figure`` draws ``by_turn``.

"Analyse this position" (``analyse_position``, the game's face ``"analyse_position"``) has
the same columns as Mogul's, so one widget draws either game's analysis. Credit Mobilier
games last a few hundred decisions, so its rollouts stop after ``horizon`` turns (or at the
end of the game) and read the table there: a seat's ``worth`` is its cash plus half its
stake in every treasury (what ``MonteCarloBot`` scores: money left in a treasury at the end
is lost, so it counts only in part), and a rollout is "won" by the seat whose worth is
highest (shared wins count). At the end of the game worth is the cash alone plus half the
stakes, which ranks as the rules do except for ties on cash.
"""

from __future__ import annotations

from mogul.analysis.credit_mobilier.marginal import (
    buy_by_turn,
    buy_instead,
    buy_pooled,
    buy_table,
    marginal_by_turn,
    marginal_values,
    reversed_ties,
)
from mogul.analysis.credit_mobilier.position import (
    analyse_position,
)
from mogul.analysis.credit_mobilier.share_values import (
    by_turn,
    mean_interval,
    paired_start_difference,
    pay_out_share,
    round_payouts,
    share_values,
    start_difference,
    start_values,
)

__all__ = [
    "analyse_position",
    "buy_by_turn",
    "buy_pooled",
    "buy_table",
    "buy_instead",
    "by_turn",
    "marginal_by_turn",
    "marginal_values",
    "mean_interval",
    "paired_start_difference",
    "pay_out_share",
    "reversed_ties",
    "round_payouts",
    "share_values",
    "start_difference",
    "start_values",
]
