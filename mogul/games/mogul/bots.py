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
class with ``name`` and ``choose`` can play (see ``mogul.kit.tournament``). The bots that
read the table alone (``ThresholdBot``, ``ValueBot``) are written in ``simple_bots.py``, below
the batch simulator that plays them too; ``MonteCarloBot`` is here, above it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mogul.games.mogul.actions import CREDIT, Action, Branch
from mogul.games.mogul.determinize import determinize
from mogul.games.mogul.network import branch_gain, branch_gains
from mogul.games.mogul.pile import expected_reveals, premium_outlook  # noqa: F401 - part of the bots API
from mogul.games.mogul.rules import PlayerView
from mogul.games.mogul.simple_bots import (  # noqa: F401 - the bots that read the table, listed here
    ALL_ACTIONS,
    CLASSIC_ACTIONS,
    ThresholdBot,
    ValueBot,
    best_branch,
    share_value,
)
from mogul.kit import bots as kit
from mogul.kit.bots import BotFactory, BotSpec, RandomBot, play_out

# --- the bot that looks ahead -----------------------------------------------------------------


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
    does not need yet), of the branches only the ``branches`` best by their sure gain on
    the map (``candidates``), and a decision with a single option costs nothing.

    ``engine="auto"`` plays the rollouts in the batch simulator (``mogul.games.mogul.fast``)
    when it plays the edition and the rollout policy (random, threshold or value bots, in
    the classic and the Rio Grande edition), else in the readable engine
    (``engine="readable"``: always). The piles are the same either way, so with a
    deterministic rollout policy both engines give the same values and the same choice; the
    batch simulator is about a hundred times faster.
    """

    traits = {"stochastic": True, "lookahead": True}
    understands = ALL_ACTIONS

    def __init__(
        self,
        rollouts: int = 16,
        rollout_policy: BotSpec = "value",
        objective: str = "margin",
        seed: int | None = None,
        engine: str = "auto",
        branches: int = 3,
    ):
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be a whole number >= 1, got {rollouts!r}")
        if objective not in ("margin", "score"):
            raise ValueError(f"objective must be 'margin' or 'score', got {objective!r}")
        if engine not in ("auto", "readable"):
            raise ValueError(f"engine must be 'auto' or 'readable', got {engine!r}")
        if isinstance(branches, bool) or not isinstance(branches, int) or branches < 1:
            raise ValueError(f"branches must be a whole number >= 1, got {branches!r}")
        self.objective = objective
        self.engine = engine
        self.branches = branches
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

    def _fast_action_values(
        self, view: PlayerView, legal_actions: Sequence[Action]
    ) -> list[float] | None:
        """``action_values`` on the same piles in the batch simulator; None where it cannot play."""
        from mogul.games.mogul import fast  # compiled code (numba): loaded when first needed

        if fast.bot_policy(self.policy) is None:
            return None
        try:
            fast.check_edition(view.edition, rio_grande=True)
        except ValueError:
            return None
        seeds = [self.rng.getrandbits(32) for _ in range(self.rollouts)]
        piles = [fast.pile_codes(determinize(view, random.Random(seed))) for seed in seeds]
        scores, _ = fast.rollouts(
            view,
            legal_actions,
            self.rollouts,
            [self.policy] * len(view.players),
            seed=seeds[0] >> 1,
            piles=piles,
        )
        totals = [0.0] * len(legal_actions)
        for rollout in scores.tolist():  # summed in the order of the readable loop
            for i, final in enumerate(rollout):
                totals[i] += final[view.seat]
                if self.objective == "margin":
                    totals[i] -= max(s for seat, s in enumerate(final) if seat != view.seat)
        return [t / self.rollouts for t in totals]

    def candidates(self, view: PlayerView, legal_actions: Sequence[Action]) -> list[Action]:
        """The actions worth trying: all legal ones, but a credit only when out of chips, and
        of the branches (2013 edition) only the ``branches`` the map ranks first.

        The map's ranking (``rank_branches``): first what the house adds for sure to this
        seat's end bonus (``branch_gain``: houses stay where they are), then, among equal
        gains, what the station would add to the rival it suits best (a house there keeps
        it from them), then the legal order. With all six houses out a sell right offers up
        to 42 branch moves, most of which lose points; and equal gains are common (every
        plain station of a line without own houses adds 1), so the second key, not the
        order along the line, picks among them.
        """
        options = (
            [a for a in legal_actions if a != CREDIT] if view.me.chips > 0 else list(legal_actions)
        )
        branches = [a for a in options if type(a) is Branch]
        if len(branches) > self.branches:
            kept = set(rank_branches(view, branches)[: self.branches])
            options = [a for a in options if type(a) is not Branch or a in kept]
        return options

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The candidate with the best mean rollout score (the first one on a tie)."""
        options = self.candidates(view, legal_actions)
        if len(options) == 1:
            return options[0]
        values = self.action_values(view, options)
        return options[values.index(max(values))]


def rank_branches(view: PlayerView, branches: Sequence[Branch]) -> list[Branch]:
    """``branches`` best first, by the map: the sure gain to this seat's end bonus
    (``branch_gain``), then the most a rival's end bonus would gain with a house on the
    station (``branch_gains``, moves included once their houses are all out), then the
    given order."""
    ed, seat = view.edition, view.seat
    rivals = [p.houses for s, p in enumerate(view.players) if s != seat]
    denied: dict[str, int] = {}
    for b in branches:
        if b.station not in denied:
            gains = [g for houses in rivals for g, _, _ in branch_gains(ed, houses, [b.station])]
            denied[b.station] = max(gains, default=0)
    gain = {b: branch_gain(ed, view.me.houses, b.station, b.move_from) for b in branches}
    return sorted(branches, key=lambda b: (-gain[b], -denied[b.station]))


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
