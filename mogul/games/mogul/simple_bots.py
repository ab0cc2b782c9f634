"""The bots that decide from the table alone: ``ThresholdBot`` and ``ValueBot``.

Neither looks ahead: each reads its seat's ``PlayerView`` and answers by a rule of a few
lines, so the batch simulator (``fast_kernels.py``) plays the same rules with the same
arithmetic. ``bots.py`` lists every bot of the game and adds the one that looks ahead
(``MonteCarloBot``); import the bots from there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mogul.games.mogul.actions import (
    BID,
    CREDIT,
    DROP,
    TAKE,
    Action,
    Bid,
    Branch,
    Credit,
    Drop,
    Sell,
    Take,
)
from mogul.games.mogul.network import branch_gains, free_stations
from mogul.games.mogul.pile import premium_outlook
from mogul.games.mogul.rules import AUCTION, PlayerView

CLASSIC_ACTIONS = (Bid, Drop, Credit, Take, Sell)
"""The options of the 2002 rules: bots that know only these are never offered anything else."""

ALL_ACTIONS = CLASSIC_ACTIONS + (Branch,)
"""The options of both editions (``Branch`` only in the 2013 edition)."""


# --- what a bot may reckon with -------------------------------------------------------------


def share_value(view: PlayerView, company: str) -> float:
    """Points one more share of ``company`` is expected to bring this seat: the premiums it
    will still earn (``premium_outlook``) plus, in the 2013 edition, its end bonus."""
    return premium_outlook(view, company) + view.edition.share_bonus


def best_branch(view: PlayerView) -> tuple[int, Branch | None]:
    """The branch on the revealed card's border line that adds most to this seat's end bonus,
    and that gain (2013 edition). Houses are never removed by others, so the gain is sure.

    With all houses out, a house is moved: the gain is then what the new station adds minus
    what the old one scored. ``(0, None)`` when no station is free.
    """
    free = free_stations(view, view.revealed.border)
    options = branch_gains(view.edition, view.me.houses, free)
    gain, station, move_from = max(options, key=lambda option: option[0], default=(0, None, None))
    return (0, None) if station is None else (gain, Branch(station, move_from))


# --- the bots -------------------------------------------------------------------------------


class ThresholdBot:
    """Stays in every auction until the pot holds ``drop_at`` chips, then drops and takes it.

    The simplest lesson of Mogul's auction: dropping out pays the whole pot, so a player
    only has to decide how big a pot is worth more than the card. This bot ignores the card:
    as the winner it takes the share, as the runner-up it sells all it may. It never takes
    a credit, and in the 2013 edition it never founds a branch.
    """

    traits = {"stochastic": False, "lookahead": False}
    understands = CLASSIC_ACTIONS

    def __init__(self, drop_at: int = 3, seed: int | None = None):
        if isinstance(drop_at, bool) or not isinstance(drop_at, int) or drop_at < 0:
            raise ValueError(f"drop_at must be a whole number of chips >= 0, got {drop_at!r}")
        self.drop_at = drop_at
        self.name = f"threshold-{drop_at}"
        self.rng = random.Random(seed)  # unused: the bot is deterministic

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Bid below the threshold; take as winner; sell everything as runner-up."""
        if view.phase == AUCTION:
            return BID if view.pot < self.drop_at and BID in legal_actions else DROP
        if TAKE in legal_actions:
            return TAKE
        return max((a for a in legal_actions if type(a) is Sell), key=lambda a: a.count)


class ValueBot:
    """Values the three places of the auction from the table; bids while that pays.

    For the revealed card (company ``c``, border ``b``) it reckons in points:

    * **a share** of a company is worth the premiums it is still expected to earn: the
      company's unseen shares times the expected number of reveals before the crash, over
      all unseen shares (``premium_outlook``). The crash hazard is in there: late in the
      game few reveals are left, so shares are worth little.
      In the 2013 edition a share held at the end also scores its ``share_bonus`` (1 point).
    * **take** = the value of a share of ``c``;
      **sell** = ``n_b * (market value of b - value of a share of b)`` for its ``n_b``
      shares of ``b`` when the market pays more than keeping them, else 0. In the 2013 edition
      the sell right may found a branch instead: worth what the best free station of line
      ``b`` adds to the bot's end bonus, given the houses it already has (``best_branch``).
    * **win** = the better of take and sell; **second** = the other one (the winner picks
      first); **out** = 0.

    Auction: a chip is worth ``chip_value`` points. The bot stays in while the pot is worth
    less than what staying can still gain over dropping now (``win - second`` when only two
    are left, because the one who drops becomes runner-up, else ``win - out``). With no chips
    left it takes a credit only if that gain beats the credit's net cost. Action phase: it
    takes, sells all or builds its best branch, whichever is worth more. (Schacht's own advice, "take credit only if
    necessary", is built in.)

    Why a chip is worth a whole point (``chip_value=1``) although it scores only 1/5 at the
    end: while the game runs chips buy shares. In tournaments among ValueBots with chip
    values from 0.5 to 1.5, values of 1 to 1.2 won most often.
    """

    traits = {"stochastic": False, "lookahead": False}
    understands = ALL_ACTIONS

    def __init__(self, chip_value: float = 1.0, seed: int | None = None):
        self.chip_value = chip_value
        self.name = "value" if chip_value == 1.0 else f"value-{chip_value:g}"
        self.rng = random.Random(seed)  # unused: the bot is deterministic

    def place_values(self, view: PlayerView) -> tuple[float, float, float]:
        """(win, second, out) in points for this seat, for the card on the table."""
        take, sell = self.option_values(view)
        return max(take, sell), min(take, sell), 0.0

    def option_values(self, view: PlayerView) -> tuple[float, float]:
        """(take, sell): points this seat expects from taking the card or from the sell right
        (2013: the better of selling all and the best branch)."""
        card = view.revealed
        owned = view.me.shares[card.border]
        sell = 0.0
        if owned:
            gain_per_share = view.market_value(card.border) - share_value(view, card.border)
            sell = max(0.0, owned * gain_per_share)
        if view.edition.houses_per_player:
            sell = max(sell, best_branch(view)[0])
        return share_value(view, card.company), sell

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Bid while the pot is worth less than the gain; then take, sell or build, whichever is
        worth more."""
        if view.phase == AUCTION:
            return self._auction(view, legal_actions)
        take, sell = self.option_values(view)
        sells = [a for a in legal_actions if isinstance(a, Sell)]
        if TAKE in legal_actions and (take >= sell or not sells):
            return TAKE
        gain, branch = best_branch(view) if view.edition.houses_per_player else (0, None)
        if branch in legal_actions and gain >= sell > 0:
            return branch
        return max(sells, key=lambda a: a.count) if sell > 0 else min(sells, key=lambda a: a.count)

    def _auction(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        win, second, out = self.place_values(view)
        if_dropping = second if len(view.in_auction) == 2 else out
        gain = win - if_dropping - self.chip_value * view.pot
        if gain <= 0:
            return DROP
        if BID in legal_actions:
            return BID
        edition = view.edition
        credit_cost = edition.credit_points - self.chip_value * edition.credit_chips
        return CREDIT if CREDIT in legal_actions and gain > credit_cost else DROP
