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

import random
from collections.abc import Callable, Sequence

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
from mogul.kit.bots import BotFactory, BotSpec, RandomBot


class MonteCarloBot(kit.MonteCarloBot):
    """Tries the legal actions on random futures of the dice and keeps the one that did best.

    ``mogul.kit.bots.MonteCarloBot`` (flat Monte Carlo, its engines and its shortlist) on
    Credit Mobilier: each future is the view with a fresh seed for the dice (``determinize``),
    played on for ``horizon`` more turns with ``rollout_policy`` in every seat (default
    ``DividendBot``). A rollout scores the seat's ``worth`` minus the best other seat's:
    cash, plus ``treasury_weight`` times its stake in every treasury. Money still in a
    treasury is only partly its shareholders' (what is left at the end is lost): with weight
    1 the bot buys shares of rich treasuries and never cashes in. In 2-player games against
    ``DividendBot`` (``mc:rollouts=4:horizon=3``, 16 games each on seeds 0 and 1) weight 1 won
    8 of 32 and 0.5 won 27 of 32, hence the default 0.5.

    Builds make most of the options (a roll of two railroad colours offers 50 or more), so
    with more than ``shortlist`` builds only the ``shortlist`` best after the first
    ``first_look`` futures see the rest (``shortlist=None``: every action sees every future;
    ``benchmarks/bench_credit_mobilier.py`` measures both). The batch simulator
    (``fast.play_after``) plays dividend and random rollout policies on the same dice: with
    ``DividendBot`` it gives the readable engine's values, float for float, in a fraction of
    the time.
    """

    understands = ACTIONS
    screened = Build

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
        kit.whole_number("horizon", horizon)
        if (
            isinstance(treasury_weight, bool)
            or not isinstance(treasury_weight, int | float)
            or not 0 <= treasury_weight <= 1
        ):
            raise ValueError(
                f"treasury_weight must be a number from 0 to 1, got {treasury_weight!r}"
            )
        policy = bot_factory(rollout_policy)
        super().__init__(rollouts, policy, seed, engine, "margin", shortlist, first_look)
        self.horizon, self.treasury_weight = horizon, treasury_weight
        if engine == "fast" and not self._batch_plays_policy():
            raise ValueError(
                f"the batch simulator plays 'random' and 'dividend' rollout policies, not "
                f"{rollout_policy!r}; use engine='readable' or 'auto'"
            )
        policy_name = self.policy(0).name
        self.name = f"mc-{rollouts}" + ("" if policy_name == "dividend" else f"-{policy_name}")
        self.name += "" if treasury_weight == 0.5 else f"-tw{treasury_weight:g}"

    def future(self, view: PlayerView, rng: random.Random) -> tuple[GameState, int]:
        """The view with a fresh seed for the dice; the policy bots get that seed too."""
        state = determinize(view, rng)
        return state, state.setup.seed

    def until(self, view: PlayerView) -> Callable[[GameState], bool]:
        """Rollouts stop when turn ``view.turn + horizon`` begins."""
        stop = view.turn + self.horizon
        return lambda state: state.turn >= stop

    def seat_values(self, state: GameState) -> list[float]:
        """Each seat's ``worth``."""
        return [worth(state, s, self.treasury_weight) for s in range(len(state.names))]

    def batch_values(
        self, view: PlayerView, futures: Sequence[tuple[GameState, int]], actions: Sequence[Action]
    ) -> list | None:
        """Every seat's worth after every rollout in the batch simulator; None for a policy it
        does not play."""
        if not self._batch_plays_policy():
            return None
        from mogul.games.credit_mobilier import fast

        states = [state for state, _ in futures]
        tables = fast.play_after(
            states, actions, view.turn + self.horizon, self.policy, futures[0][1]
        )
        return fast.worths(tables, self.treasury_weight).tolist()

    def _batch_plays_policy(self) -> bool:
        from mogul.games.credit_mobilier import fast  # compiled code (numba): loaded when needed

        return fast.bot_policy(self.policy) is not None


REGISTRY: dict[str, type] = {"random": RandomBot, "dividend": DividendBot, "mc": MonteCarloBot}
"""Every bot the kit ships for Credit Mobilier, by name."""


def bot_factory(spec: BotSpec | BotFactory) -> BotFactory:
    """A ``BotFactory`` from a bot name (``"mc:rollouts=4"``), a class or a factory."""
    return kit.bot_factory(spec, REGISTRY)
