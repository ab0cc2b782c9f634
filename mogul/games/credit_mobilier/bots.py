"""Bots for Credit Mobilier: a dividend heuristic and a Monte-Carlo player.

A bot has a ``name`` and ``choose(view, legal_actions) -> action``; it sees a ``PlayerView``
(the whole table, not the dice to come) and draws any randomness from its own seeded
``random.Random``. ``RandomBot`` is the kit's.

=================  ===========================================================================
``RandomBot``      any legal action, uniformly at random (the baseline)
``DividendBot``    buys what pays and pays out what it owns (a one-step money heuristic)
``MonteCarloBot``  tries every option on many random futures of the dice, a few turns deep
=================  ===========================================================================
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mogul.games.credit_mobilier.actions import Action, Build, Buy, EndTurn, Move, PayRound
from mogul.games.credit_mobilier.board import WEST, board, ways
from mogul.games.credit_mobilier.components import COMPANIES, CREDIT_MOBILIER
from mogul.games.credit_mobilier.determinize import determinize
from mogul.games.credit_mobilier.rules import (
    BUILD_PAYMENT,
    STOCK_PRICE,
    WEST_INCOME,
    pay_round,
    track_facts,
)
from mogul.games.credit_mobilier.state import GameState, PlayerView
from mogul.kit import bots as kit
from mogul.kit.bots import BotFactory, BotSpec, RandomBot, decide

ACTIONS = (Build, Move, Buy, PayRound, EndTurn)
"""The options of the game: the bots know every one."""


def stake(table: GameState | PlayerView, seat: int, company: str) -> float:
    """The part of ``company`` the seat owns: its shares over all shares held (0 when none are)."""
    held = sum(s[company] for s in table.stocks)
    return table.stocks[seat][company] / held if held else 0.0


def stakes(table: GameState | PlayerView, seat: int) -> dict[str, float]:
    """The seat's ``stake`` in every company (0 in a company with no shares held)."""
    mine = table.stocks[seat]
    held = [sum(shares) for shares in zip(*table.stocks, strict=True)]
    return {c: mine[i] / held[i] if held[i] else 0.0 for i, c in enumerate(COMPANIES)}


def worth(table: GameState | PlayerView, seat: int, treasury_weight: float = 1.0) -> float:
    """Cash plus ``treasury_weight`` times the seat's stake in every treasury.

    With weight 1: what the seat would have if every treasury were paid out now. Money left
    in a treasury at the end is lost, so a lower weight counts it as only partly the seat's.
    """
    held = sum(stake(table, seat, c) * table.treasuries[c] for c in COMPANIES)
    return table.money[seat] + treasury_weight * held


class DividendBot:
    """Buys what pays and pays out what it owns: each unit action valued in dollars for this seat.

    * **pay a round**: the dollars it pays this seat, minus ``rival_weight`` (default 0.5)
      times the most it pays any other player. Paying is good (only cash scores: what stays
      in a treasury is lost at the end), a rival gaining more than the seat is bad. The
      rival's dollars count at only half weight: counted in full, a round that pays every
      seat alike (everyone starts with one purple share) is worth nothing, the bots never
      pay out, and in 66% of 200 games of three such bots every player ended with $0;
    * **buy a share**: the treasury's dollars per share once the share is bought, minus its $1
      price: a share is worth buying while the treasury holds more than a dollar for each;
    * **move a good west** ($2 to the pawn's company, $2 to the track's owner) and **build**
      ($2 to the Credit Mobilier): the seat's stake in the companies paid, times the dollars;
      north or south moves and ending the turn are worth nothing.

    It takes the action worth most (the first on a tie); it ends the turn when nothing is
    worth more than that. A simple rule of thumb, not an optimum: it ignores the dice to come.
    With weight 0.5, in 200 games of three such bots (seed 0) no game ended with every
    player at $0, mean final cash was $79 and games lasted 96 turns (random play: $11,
    142 turns); one of them against two ``RandomBot``s won 93.5% of 200 games. In three-bot
    games with weights 1, 0.5 and 0 in every seating order it won most often (44%).
    """

    traits = {"stochastic": False, "lookahead": False}
    understands = ACTIONS

    def __init__(self, rival_weight: float = 0.5, seed: int | None = None):
        if (
            isinstance(rival_weight, bool)
            or not isinstance(rival_weight, int | float)
            or not 0 <= rival_weight <= 1
        ):
            raise ValueError(f"rival_weight must be a number from 0 to 1, got {rival_weight!r}")
        self.rival_weight = rival_weight
        self.name = "dividend" + ("" if rival_weight == 0.5 else f"-rw{rival_weight:g}")
        self.rng = random.Random(seed)  # unused: the bot is deterministic

    def value(self, view: PlayerView, action: Action) -> float:
        """The action's worth in dollars for the viewing seat (see the class docstring)."""
        return self._value(view, action, stakes(view, view.seat))

    def _value(self, view: PlayerView, action: Action, stake_in: dict[str, float]) -> float:
        kind = type(action)
        if kind is Move:
            section, direction = ways(board())[action.from_space, action.to_space]
            if direction != WEST:
                return 0.0
            return WEST_INCOME * (
                stake_in[action.colour] + stake_in[track_facts(view.track).owner[section]]
            )
        if kind is Build:
            return BUILD_PAYMENT * stake_in[CREDIT_MOBILIER]
        if kind is PayRound:
            paid, _, _ = pay_round(
                view.stocks, view.treasuries[action.company], view.current, action.company
            )
            rival = max(p for seat, p in enumerate(paid) if seat != view.seat)
            return paid[view.seat] - self.rival_weight * rival
        if kind is Buy:
            c = action.company
            return view.treasuries[c] / (view.shares_held(c) + 1) - STOCK_PRICE
        return 0.0

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The action worth most; ending the turn when nothing is worth more."""
        stake_in = stakes(view, view.seat)  # the same for every option: worked out once
        best, most = None, float("-inf")
        a_build = False
        for action in legal_actions:
            if type(action) is Build:  # every build is worth the same: only the first can win
                if a_build:
                    continue
                a_build = True
            worth = self._value(view, action, stake_in)
            if worth > most:
                best, most = action, worth
        return best


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
        self.rollouts, self.horizon, self.treasury_weight = rollouts, horizon, treasury_weight
        self.shortlist, self.first_look = shortlist, first_look
        self.policy = bot_factory(rollout_policy)
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
        for number, future in enumerate(futures):
            if screened and number == self.first_look:
                best_builds = sorted(builds, key=lambda i: -totals[i])[: self.shortlist]
                everyone = sorted({*best_builds, *(i for i in everyone if i not in set(builds))})
            for i in everyone:
                totals[i] += self.rollout(view, future, legal_actions[i])
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
