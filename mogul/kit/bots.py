"""Bots for any game: the protocol, the random baseline, building bots from names, playing.

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
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

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


def offered(bot: Any, legal: Sequence[Any]) -> Sequence[Any]:
    """The legal actions ``bot`` understands (all of them unless it lists ``understands``)."""
    kinds = getattr(bot, "understands", None)
    if kinds is None:
        return legal
    return [a for a in legal if type(a) in kinds]


def decide(bot: Any, view: Any, legal: Sequence[Any]) -> Any:
    """Ask ``bot`` for a move among the options it understands; the first legal action if none."""
    options = offered(bot, legal)
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
    state: Any, bots: Sequence[Any], max_steps: int = 100_000, keep_states: bool = True
) -> tuple[list[Any], list[Any]]:
    """Let ``bots`` (one per seat) finish the game from ``state``: (states, actions).

    ``states[0]`` is ``state`` and ``actions[i]`` leads from ``states[i]`` to ``states[i+1]``;
    with ``keep_states=False`` only the first and the last state are kept (faster: the
    garbage collector has fewer live objects to walk). Every decision is asked for, a forced
    one too, so the actions are a full record.
    """
    if len(bots) != len(state.names):
        raise ValueError(f"play needs one bot per seat: {len(state.names)} seats, {len(bots)} bots")
    # What each bot understands, looked up once (this loop runs for every decision).
    kinds = [getattr(bot, "understands", None) for bot in bots]
    states, actions = [state], []
    for _ in range(max_steps):
        if state.is_over:
            if not keep_states:
                states.append(state)  # the last state beside the first
            return states, actions
        seat = state.current_player
        legal = state.legal_actions()
        known = kinds[seat]
        options = legal if known is None else [a for a in legal if type(a) in known]
        action = bots[seat].choose(state.view(seat), options) if options else legal[0]
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


def play_out(state: Any, bots: Sequence[Any], max_steps: int = 100_000) -> Any:
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
            seat = state.current_player
            state = state.apply(decide(bots[seat], state.view(seat), legal))
    raise RuntimeError(f"the game did not end within {max_steps} steps")
