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

import inspect
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from mogul.games.mogul.actions import BID, CREDIT, DROP, TAKE, Action, Sell
from mogul.games.mogul.determinize import determinize
from mogul.games.mogul.pile import expected_reveals, premium_outlook  # noqa: F401 - part of the bots API
from mogul.games.mogul.setup import deal
from mogul.games.mogul.state import AUCTION, GameState, PlayerView
from mogul.kit.record import GameRecord


@runtime_checkable
class Bot(Protocol):
    """What the kit asks of a player program."""

    name: str

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Pick one of ``legal_actions`` for the seat ``view.seat``."""
        ...


# --- the bots -------------------------------------------------------------------------------


class RandomBot:
    """Uniformly random over the legal actions: the baseline every strategy should beat."""

    name = "random"
    traits = {"stochastic": True, "lookahead": False}

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Any legal action, each equally likely."""
        return self.rng.choice(legal_actions)


class ThresholdBot:
    """Stays in every auction until the pot holds ``drop_at`` chips, then drops and takes it.

    The simplest lesson of Mogul's auction: dropping out pays the whole pot, so a player
    only has to decide how big a pot is worth more than the card. This bot ignores the card:
    as the winner it takes the share, as the runner-up it sells all it may. It never takes
    a credit.
    """

    traits = {"stochastic": False, "lookahead": False}

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
        return max(legal_actions, key=lambda a: a.count)


class ValueBot:
    """Values the three places of the auction from the table; bids while that pays.

    For the revealed card (company ``c``, border ``b``) it reckons in points:

    * **a share** of a company is worth the premiums it is still expected to earn: the
      company's unseen shares times the expected number of reveals before the crash, over
      all unseen shares (``premium_outlook``). The crash hazard is in there: late in the
      game few reveals are left, so shares are worth little.
    * **take** = the value of a share of ``c``;
      **sell** = ``n_b * (market value of b - value of a share of b)`` for its ``n_b``
      shares of ``b`` when the market pays more than keeping them, else 0.
    * **win** = the better of take and sell; **second** = the other one (the winner picks
      first); **out** = 0.

    Auction: a chip is worth ``chip_value`` points. The bot stays in while the pot is worth
    less than what staying can still gain over dropping now (``win - second`` when only two
    are left, because the one who drops becomes runner-up, else ``win - out``). With no chips
    left it takes a credit only if that gain beats the credit's net cost. Action phase: it
    takes or sells all, whichever is worth more. (Schacht's own advice, "take credit only if
    necessary", is built in.)

    Why a chip is worth a whole point (``chip_value=1``) although it scores only 1/5 at the
    end: while the game runs chips buy shares. In tournaments among ValueBots with chip
    values from 0.5 to 1.5, values of 1 to 1.2 won most often.
    """

    traits = {"stochastic": False, "lookahead": False}

    def __init__(self, chip_value: float = 1.0, seed: int | None = None):
        self.chip_value = chip_value
        self.name = "value" if chip_value == 1.0 else f"value-{chip_value:g}"
        self.rng = random.Random(seed)  # unused: the bot is deterministic

    def place_values(self, view: PlayerView) -> tuple[float, float, float]:
        """(win, second, out) in points for this seat, for the card on the table."""
        take, sell = self.option_values(view)
        return max(take, sell), min(take, sell), 0.0

    def option_values(self, view: PlayerView) -> tuple[float, float]:
        """(take, sell): points this seat expects from taking the card or from the sell right."""
        card = view.revealed
        owned = view.me.shares[card.border]
        sell = 0.0
        if owned:
            gain_per_share = view.market_value(card.border) - premium_outlook(view, card.border)
            sell = max(0.0, owned * gain_per_share)
        return premium_outlook(view, card.company), sell

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Bid while the pot is worth less than the gain; then take or sell, whichever is worth more."""
        if view.phase == AUCTION:
            return self._auction(view, legal_actions)
        take, sell = self.option_values(view)
        sells = [a for a in legal_actions if isinstance(a, Sell)]
        if TAKE in legal_actions and (take >= sell or not sells):
            return TAKE
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
    """

    traits = {"stochastic": True, "lookahead": True}

    def __init__(
        self, rollouts: int = 16, rollout_policy: BotSpec = "value", objective: str = "margin",
        seed: int | None = None,
    ):
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be a whole number >= 1, got {rollouts!r}")
        if objective not in ("margin", "score"):
            raise ValueError(f"objective must be 'margin' or 'score', got {objective!r}")
        self.objective = objective
        self.rollouts = rollouts
        self.policy = bot_factory(rollout_policy)
        self.rng = random.Random(seed)
        policy_name = self.policy(0).name
        self.name = f"mc-{rollouts}" + ("" if policy_name == "value" else f"-{policy_name}")
        self.name += "" if objective == "margin" else f"-{objective}"

    def action_values(self, view: PlayerView, legal_actions: Sequence[Action]) -> list[float]:
        """Mean rollout score of each action (own score, minus the best other with "margin")."""
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


# --- building bots from names, classes and factories ------------------------------------------

# Every bot the kit ships, by name. Each entry builds a bot from keyword arguments and a seed.
REGISTRY: dict[str, type] = {
    "random": RandomBot,
    "threshold": ThresholdBot,
    "value": ValueBot,
    "mc": MonteCarloBot,
}

BotSpec = str | Callable[..., Any]
"""A bot as the kit accepts it: a registry name (``"value"``, ``"threshold:drop_at=3"``), a bot
class (``MyBot``) or any callable that builds a bot (``functools.partial(ThresholdBot, 3)``)."""


@dataclass(frozen=True)
class BotFactory:
    """Builds a fresh bot from a seed: ``factory(seed) -> Bot``.

    ``make`` is called with ``seed=...`` when it accepts a seed, else with no seed (a
    deterministic student bot may have no ``__init__`` at all). The factory pickles whenever
    ``make`` does, i.e. when it is defined in an importable module.
    """

    make: Callable[..., Any]
    kwargs: tuple[tuple[str, Any], ...] = ()
    seeded: bool = True

    def __call__(self, seed: int | None = None) -> Any:
        kwargs = dict(self.kwargs)
        return self.make(seed=seed, **kwargs) if self.seeded else self.make(**kwargs)


def bot_factory(spec: BotSpec | BotFactory) -> BotFactory:
    """Turn a registry name, a bot class or a factory into a ``BotFactory``.

    Names may carry keyword arguments after colons: ``"threshold:drop_at=3"``,
    ``"mc:rollouts=50:rollout_policy=random"``. Raises ``ValueError`` for unknown names and
    ``TypeError`` for a bot instance (pass its class: every game needs fresh, seeded bots).
    """
    if isinstance(spec, BotFactory):
        return spec
    if isinstance(spec, str):
        name, kwargs = parse_bot_spec(spec)
        return BotFactory(REGISTRY[name], tuple(kwargs.items()), True)
    if isinstance(spec, type) or (callable(spec) and not hasattr(spec, "choose")):
        return BotFactory(spec, (), _accepts_seed(spec))
    raise TypeError(
        f"{spec!r} is a bot instance or not a bot at all; pass a registry name, a bot class "
        "or a function that builds a bot, so that each game gets a fresh bot with its own seed"
    )


def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:..."`` into a registry name and keyword arguments.

    Values are read as integers, then floats, else kept as text.
    """
    name, *parts = text.strip().split(":")
    name = name.strip().lower()
    if name not in REGISTRY:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(REGISTRY)}")
    params = inspect.signature(REGISTRY[name]).parameters
    kwargs: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in params or key == "seed":
            allowed = ", ".join(p for p in params if p != "seed") or "none"
            raise ValueError(f"bad option {part!r} for bot {name!r}: write key=value; keys: {allowed}")
        kwargs[key] = _number_or_text(value.strip())
    try:
        REGISTRY[name](**kwargs)  # check the values now, not in the middle of a run
    except (TypeError, ValueError) as err:
        raise ValueError(f"bad options for bot {name!r}: {err}") from None
    return name, kwargs


def _number_or_text(value: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _accepts_seed(make: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(make).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def bot_name(bot: Any) -> str:
    """A bot's ``name``, or its class name when it has none."""
    return str(getattr(bot, "name", type(bot).__name__))


# --- playing ---------------------------------------------------------------------------------


def play(state: GameState, bots: Sequence[Bot], max_steps: int = 100_000) -> GameRecord:
    """Let ``bots`` (one per seat) finish the game that starts at ``state``; return its record.

    ``state`` must be a game's first decision (as ``new_game`` returns it), so the record holds
    every action from the start.
    """
    if len(bots) != len(state.players):
        raise ValueError(f"play needs one bot per seat: {len(state.players)} seats, {len(bots)} bots")
    if state != deal(state.edition, state.setup):
        raise ValueError(
            "play() records a game from its first decision; to go on from a later state, "
            "replay its record and continue with record.with_action(...)"
        )
    actions: list[str] = []
    for _ in range(max_steps):
        if state.is_over:
            return GameRecord(state.setup, tuple(actions))
        seat = state.current
        legal = state.legal_actions()
        action = bots[seat].choose(state.view(seat), legal)
        state = state.apply(action)
        actions.append(str(action))
    raise RuntimeError(f"the game did not end within {max_steps} steps")


def play_out(state: GameState, bots: Sequence[Bot], max_steps: int = 100_000) -> GameState:
    """Play ``state`` to the end with one bot per seat and return the final state.

    Unlike ``play`` it starts anywhere, keeps no record and does not ask a bot when it has a
    single legal action (fast, for rollouts).
    """
    for _ in range(max_steps):
        if state.is_over:
            return state
        legal = state.legal_actions()
        if len(legal) == 1:
            state = state.apply(legal[0])
        else:
            seat = state.current
            state = state.apply(bots[seat].choose(state.view(seat), legal))
    raise RuntimeError(f"the game did not end within {max_steps} steps")
