"""Game specs and the registry: how the generic layer finds and handles each game.

A ``GameSpec`` is a plain record of the functions the generic layer needs from one game
(how to deal it, read and print its actions, make tidy tables of it, draw it, label its
buttons, which bots it ships). Each game builds one and registers it; records, the runner,
tournaments, the command line and sessions look games up by name:

    >>> from mogul.kit.spec import default_game, resolve
    >>> spec, edition = resolve(default_game())  # a game name stands for its first edition ...
    >>> edition == spec.editions[0]
    True
    >>> resolve(spec.editions[-1]) == (spec, spec.editions[-1])  # ... an edition for itself
    True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything the generic layer needs to know about one game."""

    name: str  # registry name, e.g. "mogul"
    title: str  # for people: the game's title and its designer
    editions: tuple[str, ...]  # rule systems of this game; the first is the default
    state_type: type  # the class of the game's states
    player_range: Callable[[str], tuple[int, int]]  # edition -> (fewest, most) players
    new_game: Callable[..., Any]  # new_game(edition, players, seed, **setup) -> first state
    deal: Callable[[Any], Any]  # state.setup -> the same first state again
    setup_to_json: Callable[[Any], dict[str, Any]]  # state.setup -> JSON-ready data
    setup_from_json: Callable[[Mapping[str, Any]], Any]  # checked data -> a setup for deal
    parse_action: Callable[[str], Any]  # "bid" -> Bid(); str(action) writes it back
    bots: Mapping[str, type]  # the game's bots by registry name
    result_columns: tuple[str, ...]  # the game's own columns of the games table
    result_row: Callable[[Any, int], dict[str, Any]]  # (final state, seat) -> those columns
    standings: Callable[[Any], tuple[Any, ...]]  # ranking key per seat (higher is better)
    stage: Callable[[Any], int]  # the round (or turn) number: "Next round" waits for a change
    table_html: Callable[..., str]  # table_html(state, hide_chips=(), log=(), labels=None)
    action_label: Callable[[Any, Any], str]  # a button text for an action in a state
    tables: Mapping[str, Callable[[Sequence[Any]], list[dict[str, Any]]]] = field(
        default_factory=dict
    )
    """The game's tidy tables by name: each turns a game's states into rows (plain dicts)."""
    determinize: Callable[[Any, random.Random], Any] | None = None  # view -> a full state
    aliases: Mapping[str, str] = field(default_factory=dict)  # other names of editions
    batch: str | None = None
    """The game's batch engine, named lazily as ``"module:attribute"``: ``batch(edition, bots,
    names)`` -> an engine whose ``play(first, seeds, bot_seeds, tables)`` plays planned games
    and returns their tables as ``mogul.kit.columns``; a ``ValueError`` says why it cannot
    play that edition or those bots. ``simulate`` uses it (``engine="fast"``); None: none."""
    faces: Mapping[str, str] = field(default_factory=dict)
    """What people see of the game, named lazily as ``"module:attribute"`` (``"module:"`` for
    a whole module) so that the engine imports no plotting: ``"player"`` (the widget class
    that plays it: ``cls(seats=..., game=edition, names=..., seed=...)``), ``"board"``
    (state -> figure), ``"analyse_position"`` (state -> a frame of every legal action's win
    chance), ``"analysis"`` (the module of the game's analyses). The
    layers above read them with ``face``; a face the game does not name has a generic stand-in
    there (the session player plays any game)."""

    def edition(self, name: str | None = None) -> str:
        """The canonical edition name for ``name`` (None: the default edition)."""
        if name is None:
            return self.editions[0]
        key = str(name).lower()
        key = self.aliases.get(key, key)
        if key not in self.editions:
            known = ", ".join([*self.editions, *self.aliases])
            raise ValueError(
                f"the game {self.name!r} has no edition {name!r}; its editions: {known}"
            )
        return key

    def check_players(self, edition: str, players: int) -> None:
        """Raise ``ValueError`` unless ``players`` seats fit the edition."""
        low, high = self.player_range(edition)
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise ValueError(
                f"the {edition} edition is for {low} to {high} players; got {players!r}"
            )

    def face(self, name: str, default: Any = None) -> Any:
        """The face called ``name`` (imported now), or ``default`` if the game names none."""
        target = self.faces.get(name)
        if target is None:
            return default
        module, _, attribute = target.partition(":")
        found = importlib.import_module(module)
        return getattr(found, attribute) if attribute else found

    def batch_engine(self) -> Callable[..., Any] | None:
        """The ``batch`` hook (imported now), or None if the game has no batch engine."""
        if self.batch is None:
            return None
        module, _, attribute = self.batch.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def __repr__(self) -> str:
        return f"GameSpec({self.name!r}, editions={list(self.editions)})"


_GAMES: dict[str, GameSpec] = {}
_ANNOUNCED: dict[str, str] = {}  # game name -> the module that registers it when imported


def announce(name: str, module: str) -> None:
    """Name a game and the module that registers it, without importing it yet.

    The registry imports the module the first time anything asks for a game it does not
    hold, so ``import mogul`` loads no game that is never played. The first game announced
    (or registered) is the registry's default game.
    """
    _ANNOUNCED.setdefault(name, module)


def default_game() -> str:
    """The game a generic page or command offers first: the first one announced or registered."""
    for name in (*_ANNOUNCED, *_GAMES):
        return name
    raise ValueError("no game is registered")


def _load(name: str | None = None) -> None:
    """Import the announced games (only ``name``'s when given) that are not registered yet."""
    for game, module in list(_ANNOUNCED.items()):
        if game not in _GAMES and (name is None or game == name):
            importlib.import_module(module)


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (replacing one of the same name); returns it."""
    clash = [e for e in [*spec.editions, *spec.aliases] if _owner(e) not in (None, spec.name)]
    if clash:
        raise ValueError(f"edition names {clash} already belong to another game")
    _GAMES[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game from the registry (for tests with throw-away games)."""
    _GAMES.pop(name, None)
    _ANNOUNCED.pop(name, None)


def games() -> list[str]:
    """Names of the registered games."""
    _load()
    return sorted(_GAMES)


def names() -> list[str]:
    """Every name ``resolve`` accepts: games, editions and their aliases."""
    _load()
    out = set(_GAMES)
    for spec in _GAMES.values():
        out.update(spec.editions)
        out.update(spec.aliases)
    return sorted(out)


def get_game(name: str) -> GameSpec:
    """The registered game called ``name``; ``ValueError`` lists the known games."""
    if isinstance(name, str):
        _load(name.lower())
    if isinstance(name, str) and name.lower() in _GAMES:
        return _GAMES[name.lower()]
    raise ValueError(f"unknown game {name!r}; known games: {', '.join(games()) or 'none'}")


def resolve(name: Any) -> tuple[GameSpec, str]:
    """The game and canonical edition for a game or edition name (or an object with ``name``).

    A game name stands for its default edition, the first of ``GameSpec.editions``.
    """
    if isinstance(name, GameSpec):
        return name, name.editions[0]
    text = getattr(name, "name", name)
    if isinstance(text, str):
        key = text.lower()
        _load(key if key in _ANNOUNCED else None)
        if key in _GAMES:
            return _GAMES[key], _GAMES[key].editions[0]
        owner = _owner(key)
        if owner is not None:
            spec = _GAMES[owner]
            return spec, spec.edition(key)
    raise ValueError(f"unknown game or edition {name!r}; known: {', '.join(names())}")


def spec_for(state: Any) -> GameSpec:
    """The registered game a state belongs to."""
    _load()
    for spec in _GAMES.values():
        if isinstance(state, spec.state_type):
            return spec
    raise TypeError(
        f"{type(state).__name__} is not a state of a registered game ({', '.join(games())})"
    )


def _owner(edition: str) -> str | None:
    for spec in _GAMES.values():
        if edition in spec.editions or edition in spec.aliases:
            return spec.name
    return None
