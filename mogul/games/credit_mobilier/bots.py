"""Bots for Credit Mobilier: a dividend heuristic and a Monte-Carlo player.

A bot has a ``name`` and ``choose(view, legal_actions) -> action``; it sees a ``PlayerView``
(the whole table, not the dice to come) and draws any randomness from its own seeded
``random.Random``. ``RandomBot`` is the kit's.

=================  ===========================================================================
``RandomBot``      any legal action, uniformly at random (the baseline)
``DividendBot``    buys what pays and pays out what it owns (a one-step money heuristic)
``MonteCarloBot``  tries every option on many random futures of the dice, a few turns deep
=================  ===========================================================================

``DividendBot`` and ``worth`` are written in ``simple_bots.py``, below the batch simulator
that plays them too; ``MonteCarloBot`` is here, above it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from mogul.games.credit_mobilier.actions import Action, Build
from mogul.games.credit_mobilier.determinize import determinize
from mogul.games.credit_mobilier.rules import GameState, PlayerView
from mogul.games.credit_mobilier.simple_bots import (  # noqa: F401 - the bots that read the table, listed here
    ACTIONS,
    DividendBot,
    stake,
    worth,
)
from mogul.kit import bots as kit
from mogul.kit.bots import BotFactory, BotSpec, RandomBot, decide

ENGINES = ("auto", "readable", "fast")
"""Where ``MonteCarloBot`` plays its rollouts (see its docstring)."""


class MonteCarloBot:
    """Tries the legal actions on random futures of the dice and keeps the one that did best.

    Flat Monte Carlo with determinised rollouts: for each of ``rollouts`` futures (the view
    with a fresh seed for the dice, ``determinize``) and every legal action, the game is
    played on for ``horizon`` more turns with ``rollout_policy`` in every seat (default
    ``DividendBot``). The same futures serve every action (common random numbers). A rollout
    scores the seat's ``worth`` minus the best other seat's: cash, plus ``treasury_weight``
    times its stake in every treasury. Money still in a treasury is only partly its
    shareholders' (what is left at the end is lost): with weight 1 the bot buys shares of
    rich treasuries and never cashes in. In 2-player games against ``DividendBot``
    (``mc:rollouts=4:horizon=3``, 16 games each on seeds 0 and 1) weight 1 won 8 of 32 and
    0.5 won 27 of 32, hence the default 0.5.

    Builds make most of the options (a roll of two railroad colours offers 50 or more, one
    per free track space and colour). With more than ``shortlist`` builds, every build is
    first tried on the first ``first_look`` futures only, and only the ``shortlist`` best
    builds go on to the remaining futures with every other action (successive rejection, as
    in Audibert & Bubeck 2010, "Best arm identification in multi-armed bandits"). The choice
    is the best mean over all futures among the actions that saw them all; with
    ``shortlist=None`` every action gets every future. See ``benchmarks/bench_credit_mobilier.py``
    for the decision time and the win rate against ``DividendBot`` with and without it.
    This is the rollout algorithm of Tesauro & Galperin (1996), NIPS 9, cut off at a horizon.

    ``engine="auto"`` plays the rollouts in the batch simulator (``fast.play_after``) when it
    plays the rollout policy (dividend or random bots), else in the readable engine
    (``engine="readable"``: always; ``"fast"``: the batch simulator or a ``ValueError``). The
    futures roll the same dice in both, so with the deterministic ``DividendBot`` both give
    the same values, float for float, and the same choice; the batch simulator takes a
    fraction of the time.
    """

    traits = {"stochastic": True, "lookahead": True}
    understands = ACTIONS

    def __init__(
        self,
        rollouts: int = 8,
        horizon: int = 4,
        rollout_policy: BotSpec = "dividend",
        treasury_weight: float = 0.5,
        shortlist: int | None = 6,
        first_look: int = 2,
        seed: int | None = None,
        engine: str = "auto",
    ):
        for key, value in (
            ("rollouts", rollouts),
            ("horizon", horizon),
            ("first_look", first_look),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{key} must be a whole number >= 1, got {value!r}")
        if shortlist is not None and (
            isinstance(shortlist, bool) or not isinstance(shortlist, int) or shortlist < 1
        ):
            raise ValueError(
                f"shortlist must be None (no shortlist) or a whole number >= 1, got {shortlist!r}"
            )
        if (
            isinstance(treasury_weight, bool)
            or not isinstance(treasury_weight, int | float)
            or not 0 <= treasury_weight <= 1
        ):
            raise ValueError(
                f"treasury_weight must be a number from 0 to 1, got {treasury_weight!r}"
            )
        if engine not in ENGINES:
            raise ValueError(
                f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}"
            )
        self.rollouts, self.horizon, self.treasury_weight = rollouts, horizon, treasury_weight
        self.shortlist, self.first_look = shortlist, first_look
        self.policy = bot_factory(rollout_policy)
        self.engine = engine
        if engine == "fast" and not self._batch_plays_policy():
            raise ValueError(
                f"the batch simulator plays 'random' and 'dividend' rollout policies, not "
                f"{rollout_policy!r}; use engine='readable' or 'auto'"
            )
        self.rng = random.Random(seed)
        sample = self.policy(0)
        policy_name = sample.name
        # A policy that understands every action is asked directly (no filtering of the options).
        self._ask = (
            type(sample).choose if set(getattr(sample, "understands", ())) >= set(ACTIONS) else None
        )
        self.name = f"mc-{rollouts}" + ("" if policy_name == "dividend" else f"-{policy_name}")
        self.name += "" if treasury_weight == 0.5 else f"-tw{treasury_weight:g}"

    def play_on(self, state: GameState, bots: Sequence[object], until_turn: int) -> GameState:
        """Play ``state`` on with ``bots`` until turn ``until_turn`` begins or the game ends."""
        ask = self._ask
        while not state.is_over and state.turn < until_turn:
            legal = state.legal_actions()
            seat = state.current
            if len(legal) == 1:
                state = state.apply(legal[0])
            elif ask is not None and type(bots[seat]).choose is ask:
                state = state.apply(ask(bots[seat], state.view(seat), legal))
            else:
                state = state.apply(decide(bots[seat], state.view(seat), legal))
        return state

    def rollout(self, view: PlayerView, future: GameState, action: Action) -> float:
        """One rollout's score of ``action``: own worth minus the best other worth, ``horizon`` turns on."""
        seats = range(len(view.names))
        seed = future.setup.seed
        bots = [self.policy(seed + seat) for seat in seats]
        end = self.play_on(future.apply(action), bots, view.turn + self.horizon)
        scores = [worth(end, s, self.treasury_weight) for s in seats]
        return scores[view.seat] - max(x for s, x in enumerate(scores) if s != view.seat)

    def action_values(self, view: PlayerView, legal_actions: Sequence[Action]) -> list[float]:
        """Mean rollout score of each action: own worth minus the best other worth.

        An action left off the shortlist keeps the mean of its first look (see the class docstring).
        """
        return self._evaluate(view, legal_actions)[0]

    def _batch_plays_policy(self) -> bool:
        from mogul.games.credit_mobilier import fast  # compiled code (numba): loaded when needed

        return fast.bot_policy(self.policy) is not None

    def _scores(
        self, view: PlayerView, futures: Sequence[GameState], actions: Sequence[Action]
    ) -> list[list[float]]:
        """Every action's ``rollout`` score on every future: one row per future."""
        if self.engine == "readable" or not (futures and self._batch_plays_policy()):
            return [[self.rollout(view, f, a) for a in actions] for f in futures]
        from mogul.games.credit_mobilier import fast

        until = view.turn + self.horizon
        seed = futures[0].setup.seed
        tables = fast.play_after(futures, actions, until, self.policy, seed)
        worths = fast.worths(tables, self.treasury_weight)  # futures x actions x seats
        own = worths[..., view.seat].copy()
        worths[..., view.seat] = float("-inf")  # leaves the best other seat's worth as the max
        return (own - worths.max(axis=-1)).tolist()

    def _evaluate(
        self, view: PlayerView, legal_actions: Sequence[Action]
    ) -> tuple[list[float], list[int]]:
        """(mean score per action, the actions that saw every future, by index)."""
        futures = [determinize(view, self.rng) for _ in range(self.rollouts)]
        n = len(legal_actions)
        totals, tried = [0.0] * n, [0] * n
        everyone = list(range(n))
        builds = [i for i in everyone if type(legal_actions[i]) is Build]
        screened = (
            self.shortlist is not None
            and len(builds) > self.shortlist
            and self.first_look < self.rollouts
        )
        looks = (0, self.first_look, self.rollouts) if screened else (0, self.rollouts)
        for start, stop in itertools.pairwise(looks):
            if start:  # after the first look: the best builds and every other action go on
                best_builds = sorted(builds, key=lambda i: -totals[i])[: self.shortlist]
                everyone = sorted({*best_builds, *(i for i in everyone if i not in set(builds))})
            scores = self._scores(view, futures[start:stop], [legal_actions[i] for i in everyone])
            for row in scores:  # summed future by future
                for i, score in zip(everyone, row, strict=True):
                    totals[i] += score
                    tried[i] += 1
        return [t / k for t, k in zip(totals, tried, strict=True)], everyone

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The shortlisted action with the best mean rollout score (the first one on a tie)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        values, shortlist = self._evaluate(view, legal_actions)
        best = max(shortlist, key=lambda i: (values[i], -i))
        return legal_actions[best]


REGISTRY: dict[str, type] = {"random": RandomBot, "dividend": DividendBot, "mc": MonteCarloBot}
"""Every bot the kit ships for Credit Mobilier, by name."""


def bot_factory(spec: BotSpec | BotFactory) -> BotFactory:
    """A ``BotFactory`` from a bot name (``"mc:rollouts=4"``), a class or a factory."""
    return kit.bot_factory(spec, REGISTRY)
