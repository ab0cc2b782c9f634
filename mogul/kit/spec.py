"""Game specs and the registry: how the generic layer finds, deals and handles each game.

A ``GameSpec`` is a plain record of what the generic layer needs from one game. A game must
say only its name, its state class, how many players it takes, how to deal it and how to
read its actions; everything else (editions, setups in records, tables, the table display,
button texts) has a default that a game replaces where it has more to say. Each game
registers one; ``new_game``, records, the runner, tournaments, the command line and sessions
look games up by name:

    >>> from mogul.kit.spec import default_game, new_game, resolve
    >>> spec, edition = resolve(default_game())  # a game name stands for its first edition ...
    >>> edition == spec.editions[0]
    True
    >>> resolve(spec.editions[-1]) == (spec, spec.editions[-1])  # ... an edition for itself
    True
    >>> new_game(spec.editions[-1], seed=1) == new_game(spec.editions[-1], seed=1)
    True
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def _final_scores(state: Any) -> tuple[Any, ...]:
    return tuple(state.final_scores())


def _round_or_turn(state: Any) -> int:
    return state.round if hasattr(state, "round") else getattr(state, "turn", 0)


def _text_of(state: Any, action: Any) -> str:
    return str(action)


def _no_result(state: Any, seat: int) -> dict[str, Any]:
    return {}


def _fields(setup: Any) -> dict[str, Any]:
    return setup._asdict() if hasattr(setup, "_asdict") else dataclasses.asdict(setup)


def _setup_to_json(setup: Any) -> dict[str, Any]:
    import json  # here, as html below: ``import mogul`` loads neither

    return json.loads(json.dumps(_fields(setup)))  # tuples become lists, as JSON holds them


def _setup_by_new_game(new_game: Callable[..., Any], raw: Any) -> Any:
    """A setup from JSON data, checked by dealing it: an unknown field is a ``ValueError``."""
    if not isinstance(raw, Mapping) or not all(isinstance(key, str) for key in raw):
        raise ValueError(f"a setup is a JSON object of named fields, got {raw!r}")
    try:
        return new_game(**raw).setup
    except TypeError as err:
        raise ValueError(f"a setup with fields the game does not know: {err}") from None


def _imported(target: str) -> Any:
    """What ``"module:attribute"`` names (``"module:"``: the module itself), imported now."""
    module, _, attribute = target.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


def generic_table_html(
    state: Any,
    hide_chips: Sequence[int] = (),
    log: Sequence[str] = (),
    labels: Sequence[str] | None = None,
) -> str:
    """The generic table (``GameSpec.table_html`` of a game that draws none): who plays, who is
    to move (in bold) or the final scores, and the log."""
    import html

    scores = state.final_scores() if state.is_over else None
    seats = []
    for seat, name in enumerate(state.names):
        text = html.escape(name + (f" ({labels[seat]})" if labels and labels[seat] else ""))
        if scores is not None:
            text += f": {html.escape(str(scores[seat]))}"
        seats.append(f"<b>{text}</b>" if seat == state.current_player else text)
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in log)
    return f"<div class='kit-table'><p>{', '.join(seats)}</p><ul>{lines}</ul></div>"


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything the generic layer needs to know about one game.

    The first five fields are what a game must say; every other field has a default,
    filled in when the spec is made (``spec.deal`` and the rest are always callable).
    """

    name: str  # registry name, e.g. "mogul"
    state_type: type  # the class of the game's states (the engine contract's state)
    player_range: tuple[int, int] | Callable[[str], tuple[int, int]]
    """(fewest, most) players, or edition -> (fewest, most) where editions differ."""
    new_game: Callable[..., Any]  # new_game(edition, players, seed, **setup) -> first state
    parse_action: Callable[[str], Any]  # "bid" -> Bid(); str(action) writes it back
    title: str = ""  # for people: the game's title and its designer (default: the name)
    editions: tuple[str, ...] = ()  # rule systems; the first is the default (default: the name)
    aliases: Mapping[str, str] = field(default_factory=dict)  # other names of editions
    deal: Callable[[Any], Any] | None = None
    """state.setup -> the same first state again (default: ``new_game(**setup's fields)``)."""
    setup_to_json: Callable[[Any], dict[str, Any]] = _setup_to_json
    """state.setup -> JSON-ready data (default: the setup's fields, tuples as lists)."""
    setup_from_json: Callable[[Mapping[str, Any]], Any] | None = None
    """Checked JSON data -> a setup for ``deal`` (default: ``new_game(**data).setup``; an
    unknown or bad field is a ``ValueError``)."""
    bots: Mapping[str, type] = field(default_factory=dict)  # the game's bots by name
    result_columns: tuple[str, ...] = ()  # the game's own columns of the games table
    result_row: Callable[[Any, int], dict[str, Any]] = _no_result  # (final, seat) -> columns
    standings: Callable[[Any], tuple[Any, ...]] = _final_scores
    """Ranking key per seat, higher is better (default: the final scores)."""
    stage: Callable[[Any], int] = _round_or_turn
    """The round (or turn) number: "Next round" waits for a change (default: ``state.round``,
    else ``state.turn``)."""
    table_html: Callable[..., str] = generic_table_html
    """table_html(state, hide_chips=(), log=(), labels=None) (default: the generic table)."""
    action_label: Callable[[Any, Any], str] = _text_of  # button text (default: str(action))
    tables: Mapping[str, Callable[[Sequence[Any]], list[dict[str, Any]]]] = field(
        default_factory=dict
    )
    """The game's tidy tables by name: each turns a game's states into rows (plain dicts)."""
    determinize: Callable[[Any, random.Random], Any] | None = None  # view -> a full state
    batch: str | None = None
    """The game's batch engine, named lazily as ``"module:attribute"``: ``batch(edition, bots,
    names)`` -> an engine whose ``play(first, seeds, bot_seeds, tables)`` plays games
    ``first``, ... (each from its seed and one seed per seat, for random streams of its own)
    and returns their tables as ``mogul.kit.columns``, and whose ``record(seed, bot_seeds)``
    writes one of those games as a record the readable engine replays to the same end; a
    ``ValueError`` says why it cannot play that edition or those bots. ``simulate`` uses it
    (``engine="fast"``); None: none."""
    simultaneous: Callable[[Any], tuple[int, ...]] | None = None
    """state -> the seats that may move now in any order (sealed bids: every seat that has
    not bid in the round), the seat to move first. A person's move made before their turn is
    held and played when the turn comes, so records stay one move at a time. None: one seat
    moves at a time (every game but the auction lab's sealed bids)."""
    faces: Mapping[str, str] = field(default_factory=dict)
    """What people see of the game, named lazily as ``"module:attribute"`` (``"module:"`` for
    a whole module) so that the engine imports no plotting: ``"player"`` (the widget class
    that plays it: ``cls(seats=..., game=edition, names=..., seed=...)``), ``"board"``
    (state -> figure), ``"analyse_position"`` (state -> a frame of every legal action's win
    chance), ``"analysis"`` (the module of the game's analyses), ``"seat_panel"`` ((state, seat) ->
    the HTML a player's page in the lecture hall shows above the table: what that seat alone
    may know, like its private value), ``"projector_panel"`` (state -> HTML for the room's
    projector: nothing private, no names), ``"debrief"`` ((store, session) -> the lecturer's
    dashboard's debrief of the session: ``{"summary": HTML, "sections": [{"title", "html",
    "figure"}]}``, each figure plotly's JSON text or None). The layers above read them with ``face``; a face the game does not name has a generic stand-in
    there (the session player plays any game)."""

    def __post_init__(self) -> None:
        new_game, span = self.new_game, self.player_range
        if not callable(span):
            object.__setattr__(self, "player_range", lambda edition: tuple(span))
        defaults = {
            "title": self.name,
            "editions": (self.name,),
            "deal": lambda setup: new_game(**_fields(setup)),
            "setup_from_json": lambda raw: _setup_by_new_game(new_game, raw),
        }
        for key, value in defaults.items():
            if not getattr(self, key):
                object.__setattr__(self, key, value)

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
        return default if target is None else _imported(target)

    def batch_engine(self) -> Callable[..., Any] | None:
        """The ``batch`` hook (imported now), or None if the game has no batch engine."""
        return None if self.batch is None else _imported(self.batch)

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


def new_game(
    game_or_edition: Any = None,
    players: int | Sequence[str] | None = None,
    seed: int | None = None,
    **setup: Any,
) -> Any:
    """Deal a new game of any registered game or edition: its first state.

    ``game_or_edition``: a name of ``names()`` (a game's name stands for its first edition;
    None: the default game). ``players``: a count or the players' names; ``seed``: the whole
    number that deals the game (same seed, same game). Either left out takes the game's own
    default (Mogul: 4 players and a fresh seed, kept in ``state.setup``). Other keywords are the
    game's scripted setup (Mogul's ``deck``, ``starting_shares`` ...; Credit Mobilier's
    ``dice``, ``money`` ...). An unknown name, a player count the edition does not allow or a
    bad setup is a ``ValueError`` that says what is allowed.
    """
    spec, edition = resolve(default_game() if game_or_edition is None else game_or_edition)
    if players is not None:
        setup["players"] = players
    if seed is not None:
        setup["seed"] = seed
    return spec.new_game(edition, **setup)


def check_setup(
    spec: GameSpec, edition: str, players: Any, setup: Mapping[str, Any] | None
) -> dict[str, Any]:
    """``setup`` (the game's setup keywords, as ``simulate`` and a lecturer's table take them)
    as a dict, checked by dealing one game of ``players`` (a count or names) with it: the
    game's own ``ValueError`` for a bad value, a ``ValueError`` naming the keywords the game
    takes for one it does not."""
    if setup is None:
        return {}
    if not isinstance(setup, Mapping) or not all(isinstance(key, str) for key in setup):
        raise ValueError(
            f"setup maps the game's setup keywords to values, like {{'rounds': 3}}; got {setup!r}"
        )
    setup = dict(setup)
    own = sorted({"edition", "players", "seed"} & set(setup))
    if own:
        raise ValueError(
            f"setup may not hold {', '.join(own)}: the game, its players and its seed are "
            "given on their own"
        )
    try:
        spec.new_game(edition, players, 0, **setup)
    except TypeError as err:
        keywords = [
            p.name
            for p in inspect.signature(spec.new_game).parameters.values()
            if p.kind == p.KEYWORD_ONLY
        ]
        takes = f"; it takes {', '.join(keywords)}" if keywords else ""
        raise ValueError(
            f"the {edition} edition has no such setup keyword ({err}){takes}"
        ) from None
    return setup


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
