"""Bots for any game: the protocol, the random baseline, building bots from names, the one
loop that plays a game (``play_states``, with ``play`` and ``play_out`` on top), and flat
Monte Carlo (``MonteCarloBot``, which each game completes with what only it knows).

A bot is any object with a ``name`` and a ``choose(view, legal_actions) -> action`` method.
It sees what its seat may see (``state.view(seat)``) and draws any randomness from its own
seeded ``random.Random``, so a game with bots replays exactly from its seeds.

A bot may list the action types it knows in ``understands`` (a tuple of classes). It is then
offered only those; when none of the legal actions is one it knows, the kit plays the first
legal action for it. So a bot written for one edition never meets an option it cannot read
(an action that only a later edition added, say).
"""

from __future__ import annotations

import inspect
import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from mogul.kit.checks import is_whole
from mogul.kit.spec import spec_for


@runtime_checkable
class Bot(Protocol):
    """What the kit asks of a player program."""

    name: str

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        """Pick one of ``legal_actions`` for the seat ``view.seat``."""
        ...


class RandomBot:
    """Uniformly random over the legal actions: the baseline every strategy should beat."""

    name = "random"
    traits = {"stochastic": True, "lookahead": False}

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        """Any legal action, each equally likely."""
        return self.rng.choice(legal_actions)


class BotFailure(Exception):
    """A bot could not give a legal decision; ``reason`` is one of ``mogul.kit.guard.REASONS``."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason, self.detail))


def offered(bot: Any, legal: Sequence[Any]) -> Sequence[Any]:
    """The legal actions ``bot`` understands (all of them unless it lists ``understands``)."""
    return _understood(getattr(bot, "understands", None), legal)


def _understood(known: Any, legal: Sequence[Any]) -> Sequence[Any]:
    return legal if known is None else [a for a in legal if type(a) in known]


def decide(bot: Any, view: Any, legal: Sequence[Any]) -> Any:
    """Ask ``bot`` for a move among the options it understands; the first legal action if none."""
    return _decide(bot, getattr(bot, "understands", None), view, legal)


def _decide(bot: Any, known: Any, view: Any, legal: Sequence[Any]) -> Any:
    options = _understood(known, legal)
    return bot.choose(view, options) if options else legal[0]


# --- building bots from names, classes and factories ------------------------------------------

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


def bot_factory(spec: BotSpec | BotFactory, registry: Mapping[str, type]) -> BotFactory:
    """Turn a registry name, a bot class or a factory into a ``BotFactory``.

    Names are looked up in ``registry`` (a game's bots) and may carry keyword arguments after
    colons: ``"threshold:drop_at=3"``, ``"mc:rollouts=50:rollout_policy=random"``. Raises
    ``ValueError`` for unknown names and ``TypeError`` for a bot instance (pass its class:
    every game needs fresh, seeded bots).
    """
    if isinstance(spec, BotFactory):
        return spec
    if isinstance(spec, str):
        name, kwargs = parse_bot_spec(spec, registry)
        return BotFactory(registry[name], tuple(kwargs.items()), True)
    if isinstance(spec, type) or (callable(spec) and not hasattr(spec, "choose")):
        return BotFactory(spec, (), _accepts_seed(spec))
    raise TypeError(
        f"{spec!r} is a bot instance or not a bot at all; pass a registry name, a bot class "
        "or a function that builds a bot, so that each game gets a fresh bot with its own seed"
    )


def parse_bot_spec(text: str, registry: Mapping[str, type]) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:..."`` into a registry name and keyword arguments.

    Values are read as integers, then floats, else kept as text.
    """
    name, *parts = text.strip().split(":")
    name = name.strip().lower()
    if name not in registry:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(registry)}")
    params = inspect.signature(registry[name]).parameters
    kwargs: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in params or key == "seed":
            allowed = ", ".join(p for p in params if p != "seed") or "none"
            raise ValueError(
                f"bad option {part!r} for bot {name!r}: write key=value; keys: {allowed}"
            )
        kwargs[key] = _number_or_text(value.strip())
    try:
        registry[name](**kwargs)  # check the values now, not in the middle of a run
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


def play_states(
    state: Any,
    bots: Sequence[Any],
    max_steps: int = 100_000,
    keep_states: bool = True,
    *,
    until: Callable[[Any], bool] | None = None,
    forced: bool = True,
    failed: Callable[[int, int, BotFailure], Any] | None = None,
) -> tuple[list[Any], list[Any]]:
    """Let ``bots`` (one per seat) play on from ``state``: (states, actions).

    ``states[0]`` is ``state`` and ``actions[i]`` leads from ``states[i]`` to ``states[i+1]``;
    with ``keep_states=False`` only the first and the last state are kept (faster: the
    garbage collector has fewer live objects to walk). Play stops when the game ends or, with
    ``until``, at the first state where ``until(state)`` holds. Every decision is asked for,
    a forced one too, so the actions are a full record; with ``forced=False`` a single legal
    action is played without asking (rollouts). A refereed game passes ``failed(seat, step,
    error)``: when a bot raises ``BotFailure`` it returns the bot that takes the seat over,
    or raises to stop the game.
    """
    if len(bots) != len(state.names):
        raise ValueError(f"play needs one bot per seat: {len(state.names)} seats, {len(bots)} bots")
    bots = list(bots)
    # What each bot understands, looked up once (this loop runs for every decision).
    kinds = [getattr(bot, "understands", None) for bot in bots]
    states, actions = [state], []
    for step in range(max_steps):
        if state.is_over or (until is not None and until(state)):
            if not keep_states:
                states.append(state)  # the last state beside the first
            return states, actions
        seat = state.current_player
        legal = state.legal_actions()
        if forced or len(legal) > 1:
            try:
                action = _decide(bots[seat], kinds[seat], state.view(seat), legal)
            except BotFailure as err:
                if failed is None:
                    raise
                bots[seat] = failed(seat, step, err)
                kinds[seat] = getattr(bots[seat], "understands", None)
                action = _decide(bots[seat], kinds[seat], state.view(seat), legal)
        else:
            action = legal[0]
        state = state.apply(action)
        if keep_states:
            states.append(state)
        actions.append(action)
    raise RuntimeError(f"the game did not end within {max_steps} steps")


def play(state: Any, bots: Sequence[Any], max_steps: int = 100_000) -> Any:
    """Let ``bots`` (one per seat) finish the game that starts at ``state``; return its record.

    ``state`` must be a game's first decision (as ``new_game`` returns it), so the record holds
    every action from the start.
    """
    from mogul.kit.record import GameRecord  # records build on bots' games, not the reverse

    if state != spec_for(state).deal(state.setup):
        raise ValueError(
            "play() records a game from its first decision; to go on from a later state, "
            "replay its record and continue with record.with_action(...)"
        )
    _, actions = play_states(state, bots, max_steps, keep_states=False)
    return GameRecord.of(state, actions)


def play_out(
    state: Any,
    bots: Sequence[Any],
    max_steps: int = 100_000,
    until: Callable[[Any], bool] | None = None,
) -> Any:
    """Play ``state`` on with one bot per seat and return the last state: the game's end, or
    the first state where ``until(state)`` holds.

    Unlike ``play`` it starts anywhere, keeps no record and does not ask a bot when it has a
    single legal action (fast, for rollouts).
    """
    return play_states(state, bots, max_steps, keep_states=False, until=until, forced=False)[0][-1]


# --- looking ahead: flat Monte Carlo -------------------------------------------------------------

ENGINES = ("auto", "readable", "fast")
"""Where ``MonteCarloBot`` plays its rollouts (see its docstring)."""


class MonteCarloBot:
    """Tries the candidate actions on many random futures and keeps the one that did best.

    Flat Monte Carlo with determinised rollouts, for any game: for each of ``rollouts``
    futures (a full state that agrees with the seat's view, the hidden part drawn at random:
    ``future``) and every candidate action, the game is played on with the rollout policy in
    every seat, to its end or until ``until`` says stop. The same futures serve every action
    (common random numbers), so the comparison is fair. A rollout scores ``seat_values`` of
    the state it ended in: the bot's own value minus the best other (``objective="margin"``:
    it plays to win), or its own value alone (``objective="score"``). This is the rollout
    algorithm of Tesauro & Galperin (1996), "On-line policy improvement using Monte-Carlo
    search", NIPS 9: one step of policy improvement over the rollout policy.

    With more than ``shortlist`` candidates of the kind ``screened``, those are first tried on
    the first ``first_look`` futures only, and only the ``shortlist`` best go on to the other
    futures with every other action (successive rejection, as in Audibert & Bubeck 2010,
    "Best arm identification in multi-armed bandits"). The choice is the best mean over all
    futures among the actions that saw them all (the first one on a tie).

    ``engine="auto"`` plays the rollouts in the game's batch engine (``batch_values``) when it
    plays the edition and the rollout policy, else in the readable engine
    (``engine="readable"``: always; ``"fast"``: the batch engine or a ``ValueError``). The
    futures are the same either way, so a deterministic rollout policy gets the same values
    and the same choice from both.

    A game's ``MonteCarloBot`` sets its defaults and name and supplies ``future``,
    ``seat_values`` and ``batch_values``, and ``until`` and ``candidates`` where it needs them.
    """

    traits = {"stochastic": True, "lookahead": True}
    screened: type | None = None
    """The kind of action the shortlist screens (None: every action sees every future)."""

    def __init__(
        self,
        rollouts: int,
        rollout_policy: BotFactory,
        seed: int | None,
        engine: str = "auto",
        objective: str = "margin",
        shortlist: int | None = None,
        first_look: int = 1,
    ):
        for key, value in (("rollouts", rollouts), ("first_look", first_look)):
            whole_number(key, value)
        if shortlist is not None:
            whole_number("shortlist", shortlist, "None (no shortlist) or a whole number >= 1")
        if objective not in ("margin", "score"):
            raise ValueError(f"objective must be 'margin' or 'score', got {objective!r}")
        if engine not in ENGINES:
            raise ValueError(
                f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}"
            )
        self.rollouts, self.policy, self.engine = rollouts, rollout_policy, engine
        self.objective, self.shortlist, self.first_look = objective, shortlist, first_look
        self.rng = random.Random(seed)

    # What a game supplies.

    def future(self, view: Any, rng: random.Random) -> tuple[Any, int]:
        """One random future consistent with ``view``, and the seed its policy bots get."""
        raise NotImplementedError

    def seat_values(self, state: Any) -> Sequence[float]:
        """What a rollout that ended in ``state`` is worth to each seat."""
        raise NotImplementedError

    def until(self, view: Any) -> Callable[[Any], bool] | None:
        """Where a rollout from ``view`` stops short of the game's end (None: it never does)."""
        return None

    def batch_values(
        self, view: Any, futures: Sequence[tuple[Any, int]], actions: Sequence[Any]
    ) -> Any:
        """``seat_values`` of every future after every action, played in the batch engine
        (futures x actions x seats), or None where the batch engine cannot play them."""
        return None

    def candidates(self, view: Any, legal_actions: Sequence[Any]) -> list[Any]:
        """The actions worth trying (all legal ones unless a game says otherwise)."""
        return list(legal_actions)

    # The search.

    def rollout(self, view: Any, future: tuple[Any, int], action: Any) -> Sequence[float]:
        """``seat_values`` at the end of one rollout of ``action`` in the readable engine."""
        state, seed = future
        bots = [self.policy(seed + seat) for seat in range(len(state.names))]
        return self.seat_values(play_out(state.apply(action), bots, until=self.until(view)))

    def action_values(self, view: Any, legal_actions: Sequence[Any]) -> list[float]:
        """Mean rollout score of each action (own value, minus the best other with "margin").

        An action left off the shortlist keeps the mean of its first look.
        """
        return self._evaluate(view, legal_actions)[0]

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        """The candidate with the best mean rollout score (the first one on a tie)."""
        options = self.candidates(view, legal_actions)
        if len(options) == 1:
            return options[0]
        values, seen_all = self._evaluate(view, options)
        return options[max(seen_all, key=lambda i: (values[i], -i))]

    def _scores(
        self, view: Any, futures: Sequence[tuple[Any, int]], actions: Sequence[Any]
    ) -> list[list[float]]:
        """Every action's score on every future: one row per future."""
        outcomes = None
        if self.engine != "readable":
            outcomes = self.batch_values(view, futures, actions)
            if outcomes is None and self.engine == "fast":
                raise ValueError("the batch engine cannot play this edition or rollout policy")
        if outcomes is None:
            outcomes = [[self.rollout(view, f, a) for a in actions] for f in futures]
        seat = view.seat
        return [[self._score(values, seat) for values in row] for row in outcomes]

    def _score(self, values: Sequence[float], seat: int) -> float:
        own = values[seat]
        if self.objective == "score":
            return own
        return own - max(v for s, v in enumerate(values) if s != seat)

    def _evaluate(self, view: Any, legal_actions: Sequence[Any]) -> tuple[list[float], list[int]]:
        """(mean score per action, the actions that saw every future, by index)."""
        futures = [self.future(view, self.rng) for _ in range(self.rollouts)]
        n = len(legal_actions)
        totals, tried = [0.0] * n, [0] * n
        everyone = list(range(n))
        screened = [i for i in everyone if type(legal_actions[i]) is self.screened]
        screen = (
            self.shortlist is not None
            and len(screened) > self.shortlist
            and self.first_look < self.rollouts
        )
        looks = (0, self.first_look, self.rollouts) if screen else (0, self.rollouts)
        for start, stop in itertools.pairwise(looks):
            if start:  # after the first look: the best screened and every other action go on
                best = sorted(screened, key=lambda i: -totals[i])[: self.shortlist]
                everyone = sorted({*best, *(i for i in everyone if i not in screened)})
            scores = self._scores(view, futures[start:stop], [legal_actions[i] for i in everyone])
            for row in scores:  # summed future by future
                for i, score in zip(everyone, row, strict=True):
                    totals[i] += score
                    tried[i] += 1
        return [t / k for t, k in zip(totals, tried, strict=True)], everyone


def whole_number(key: str, value: Any, what: str = "a whole number >= 1") -> None:
    """Raise ``ValueError`` unless ``value`` is a whole number >= 1 (a bot's setting)."""
    if not is_whole(value) or value < 1:
        raise ValueError(f"{key} must be {what}, got {value!r}")
