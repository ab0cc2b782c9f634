"""Bots: players that choose an action from what their seat can see.

A bot is any object with a ``name`` and a ``choose(view, legal_actions) -> action`` method.
It sees a ``PlayerView`` (never the order of the draw pile) and draws any randomness from its
own seeded ``random.Random``, so a game with bots replays exactly from its seeds.

The kit's bots, from simplest to strongest:

========================  ====================================================================
``RandomBot``             any legal action, uniformly at random (the baseline)
``ThresholdBot(k)``       stays in the auction until the pot holds ``k`` chips
``ValueBot``              values winning, second place and dropping from the table, and bids
                          while the pot is worth less than the difference
``MonteCarloBot``         tries every option on many random piles consistent with what it sees
========================  ====================================================================

Every bot the kit ships is listed in ``REGISTRY``. A student's bot needs no registration: any
class with ``name`` and ``choose`` can play (see ``mogul.kit.tournament``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

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
from mogul.games.mogul.determinize import determinize
from mogul.games.mogul.network import branch_gain, free_stations
from mogul.games.mogul.pile import expected_reveals, premium_outlook  # noqa: F401 - part of the bots API
from mogul.games.mogul.state import AUCTION, PlayerView
from mogul.kit import bots as kit
from mogul.kit.bots import BotFactory, BotSpec, RandomBot, play_out

CLASSIC_ACTIONS = (Bid, Drop, Credit, Take, Sell)
"""The options of the 2002 rules: bots that know only these are never offered anything else."""

ALL_ACTIONS = CLASSIC_ACTIONS + (Branch,)
"""The options of both editions (``Branch`` only in the 2013 edition)."""


# --- what a bot may reckon with -------------------------------------------------------------


def share_value(view: PlayerView, company: str) -> float:
    """Points one more share of ``company`` is expected to bring this seat: the premiums it
    will still earn (``premium_outlook``) plus, in the 2013 edition, its end bonus."""
    bonus = view.edition.share_bonus
    return premium_outlook(view, company) + bonus if bonus else premium_outlook(view, company)


def best_branch(view: PlayerView) -> tuple[int, Branch | None]:
    """The branch on the revealed card's border line that adds most to this seat's end bonus,
    and that gain (2013 edition). Houses are never removed by others, so the gain is sure.

    With all houses out, a house is moved: the gain is then what the new station adds minus
    what the old one scored. ``(0, None)`` when no station is free.
    """
    ed = view.edition
    houses = view.me.houses
    best: tuple[int, Branch | None] = (0, None)
    for station in free_stations(view, view.revealed.border):
        olds = houses if len(houses) >= ed.houses_per_player else (None,)
        for old in olds:
            gain = branch_gain(ed, houses, station, old)
            if best[1] is None or gain > best[0]:
                best = (gain, Branch(station, old))
    return best


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


class MonteCarloBot:
    """Tries every legal action on many random piles and keeps the one that did best.

    Determinised rollouts ("flat Monte Carlo"): for each of ``rollouts`` deals it invents a
    hidden pile consistent with its view (``mogul.games.mogul.determinize``: unseen shares shuffled, the
    crash card placed by the crash rule), then for every legal action plays the game to the
    end with ``rollout_policy`` in every seat. The same deals serve every action (common
    random numbers), so the comparison is fair. The score of a rollout is the bot's final
    score minus the best other final score (``objective="margin"``: it plays to win), or just
    its own final score (``objective="score"``).

    With the greedy ``ValueBot`` as rollout policy this is the *rollout algorithm* of
    Tesauro & Galperin (1996), "On-line policy improvement using Monte-Carlo search", NIPS 9,
    and Bertsekas, Tsitsiklis & Wu (1997), "Rollout algorithms for combinatorial optimization",
    J. Heuristics 3: one step of policy improvement over the rollout policy.
    It tries a credit only when it has no chips left (a credit trades points for chips it
    does not need yet), and a decision with a single option costs nothing.

    ``engine="auto"`` plays the rollouts in the batch simulator (``mogul.games.mogul.fast``)
    when it plays the edition and the rollout policy (random, threshold or value bots in the
    classic game), else in the readable engine (``engine="readable"``: always). The piles
    are the same either way, so with a deterministic rollout policy both engines give the
    same values and the same choice; the batch simulator is about a hundred times faster.
    """

    traits = {"stochastic": True, "lookahead": True}
    understands = ALL_ACTIONS

    def __init__(
        self, rollouts: int = 16, rollout_policy: BotSpec = "value", objective: str = "margin",
        seed: int | None = None, engine: str = "auto",
    ):
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be a whole number >= 1, got {rollouts!r}")
        if objective not in ("margin", "score"):
            raise ValueError(f"objective must be 'margin' or 'score', got {objective!r}")
        if engine not in ("auto", "readable"):
            raise ValueError(f"engine must be 'auto' or 'readable', got {engine!r}")
        self.objective = objective
        self.engine = engine
        self.rollouts = rollouts
        self.policy = bot_factory(rollout_policy)
        self.rng = random.Random(seed)
        policy_name = self.policy(0).name
        self.name = f"mc-{rollouts}" + ("" if policy_name == "value" else f"-{policy_name}")
        self.name += "" if objective == "margin" else f"-{objective}"

    def action_values(self, view: PlayerView, legal_actions: Sequence[Action]) -> list[float]:
        """Mean rollout score of each action (own score, minus the best other with "margin")."""
        if self.engine == "auto":
            values = self._fast_action_values(view, legal_actions)
            if values is not None:
                return values
        totals = [0.0] * len(legal_actions)
        seats = range(len(view.players))
        for _ in range(self.rollouts):
            seed = self.rng.getrandbits(32)
            state = determinize(view, random.Random(seed))
            for i, action in enumerate(legal_actions):
                bots = [self.policy(seed + seat) for seat in seats]
                scores = play_out(state.apply(action), bots).final_scores()
                totals[i] += scores[view.seat]
                if self.objective == "margin":
                    totals[i] -= max(s for seat, s in enumerate(scores) if seat != view.seat)
        return [t / self.rollouts for t in totals]

    def _fast_action_values(self, view: PlayerView, legal_actions: Sequence[Action]) -> list[float] | None:
        """``action_values`` on the same piles in the batch simulator; None where it cannot play."""
        from mogul.games.mogul import fast  # compiled code: loaded when first needed

        policy = fast.bot_policy(self.policy)
        if policy is None or view.edition.name != "classic":
            return None
        seeds = [self.rng.getrandbits(32) for _ in range(self.rollouts)]
        piles = [fast.pile_codes(determinize(view, random.Random(seed))) for seed in seeds]
        scores, _ = fast.rollouts(
            view, legal_actions, self.rollouts, [self.policy] * len(view.players), seed=seeds[0] >> 1,
            piles=np.stack(piles),
        )  # fmt: skip
        totals = [0.0] * len(legal_actions)
        for rollout in scores.tolist():  # summed in the order of the readable loop
            for i, final in enumerate(rollout):
                totals[i] += final[view.seat]
                if self.objective == "margin":
                    totals[i] -= max(s for seat, s in enumerate(final) if seat != view.seat)
        return [t / self.rollouts for t in totals]

    def candidates(self, view: PlayerView, legal_actions: Sequence[Action]) -> list[Action]:
        """The actions worth trying: all legal ones, but a credit only when out of chips."""
        if view.me.chips > 0:
            return [a for a in legal_actions if a != CREDIT]
        return list(legal_actions)

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The candidate with the best mean rollout score (the first one on a tie)."""
        options = self.candidates(view, legal_actions)
        if len(options) == 1:
            return options[0]
        values = self.action_values(view, options)
        return options[values.index(max(values))]


# --- the registry ----------------------------------------------------------------------------------

# Every bot the kit ships for Mogul, by name. Each entry builds a bot from keyword arguments and a seed.
REGISTRY: dict[str, type] = {
    "random": RandomBot,
    "threshold": ThresholdBot,
    "value": ValueBot,
    "mc": MonteCarloBot,
}


def bot_factory(spec: BotSpec | BotFactory) -> BotFactory:
    """A ``BotFactory`` from a Mogul bot name (``"threshold:drop_at=3"``), a class or a factory."""
    return kit.bot_factory(spec, REGISTRY)
