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
from mogul.games.mogul.rules import GameState, PlayerView
from mogul.games.mogul.simple_bots import (  # noqa: F401 - the bots that read the table, listed here
    ALL_ACTIONS,
    CLASSIC_ACTIONS,
    ThresholdBot,
    ValueBot,
    best_branch,
    share_value,
)
from mogul.kit import bots as kit
from mogul.kit.bots import BotFactory, BotSpec, RandomBot

# --- the bot that looks ahead -----------------------------------------------------------------


class MonteCarloBot(kit.MonteCarloBot):
    """Tries every legal action on many random piles and keeps the one that did best.

    ``mogul.kit.bots.MonteCarloBot`` (flat Monte Carlo, its engines and its objectives) on
    Mogul: each future is a hidden pile consistent with the view
    (``mogul.games.mogul.determinize``: unseen shares shuffled, the crash card placed by the
    crash rule), played to the end; a rollout is worth the final scores. With the greedy
    ``ValueBot`` as rollout policy this is the *rollout algorithm* of Tesauro & Galperin
    (1996), NIPS 9, and Bertsekas, Tsitsiklis & Wu (1997), "Rollout algorithms for
    combinatorial optimization", J. Heuristics 3. It tries a credit only when it has no chips
    left (a credit trades points for chips it does not need yet), and of the branches only the
    ``branches`` best on the map (``candidates``). The batch simulator (``mogul.games.mogul.fast``)
    plays random, threshold and value rollout policies in both editions, about a hundred times
    faster than the readable engine, on the same piles.
    """

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
        kit.whole_number("branches", branches)
        super().__init__(rollouts, bot_factory(rollout_policy), seed, engine, objective)
        self.branches = branches
        policy_name = self.policy(0).name
        self.name = f"mc-{rollouts}" + ("" if policy_name == "value" else f"-{policy_name}")
        self.name += "" if objective == "margin" else f"-{objective}"

    def future(self, view: PlayerView, rng: random.Random) -> tuple[GameState, int]:
        """A random pile behind ``view``, dealt from a seed that also seeds the policy bots."""
        seed = rng.getrandbits(32)
        return determinize(view, random.Random(seed)), seed

    def seat_values(self, state: GameState) -> tuple[int, ...]:
        """The final scores."""
        return state.final_scores()

    def batch_values(
        self, view: PlayerView, futures: Sequence[tuple[GameState, int]], actions: Sequence[Action]
    ) -> list | None:
        """The final scores of every rollout in the batch simulator; None where it cannot play."""
        from mogul.games.mogul import fast  # compiled code (numba): loaded when first needed

        if fast.bot_policy(self.policy) is None:
            return None
        try:
            fast.check_edition(view.edition, rio_grande=True)
        except ValueError:
            return None
        scores, _ = fast.rollouts(
            view,
            actions,
            len(futures),
            [self.policy] * len(view.players),
            seed=futures[0][1] >> 1,
            piles=[fast.pile_codes(state) for state, _ in futures],
        )
        return scores.tolist()

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
