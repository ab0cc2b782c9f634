"""Mogul notebook kit: exact rules engines for Michael Schacht's *Mogul*, bots, and analysis.

    >>> import mogul
    >>> s = mogul.new_game("classic", players=4, seed=7)   # any game or edition: "rio-grande",
    >>> s = s.apply(mogul.Bid())                          # "credit-mobilier", "mogul" ...

The package has two axes. Layers, lowest first; each imports only from the layers below it:

``mogul.kit``
    the game-agnostic layer: the state contract and ``IllegalActionError`` (``contract``),
    game specs and the registry (``spec``), records, bots and ``play``, the runner,
    simulations, tournaments, game sessions and the sandbox for students' bots. It never
    imports or names a game: games reach it through the registry.
``mogul.games``
    one folder per game, each registering a ``GameSpec`` from its ``spec`` module:
    ``mogul.games.mogul`` (the 2002 classic rules and the 2013 Rio Grande edition) and
    ``mogul.games.credit_mobilier``. The package only announces them; the registry imports a
    game the first time it is asked for one, so ``import mogul`` loads none.
``mogul.auction``, ``mogul.analysis``
    the auction model and its equilibrium; each game's analyses.
``mogul.plots``, ``mogul.widgets``
    the faces: plotly figures, ipywidgets apps (``mogul.widgets.player(game)`` opens any game).
``mogul.classroom``, ``mogul.cli``
    students play each other from their own devices (the store, exports and debrief use no
    face; the hall ``server``, ``projector`` and ``figures`` do); the command line.

And games: inside every layer above ``mogul.games``, each game has one place of its own,
a module or folder named as its folder in ``mogul/games/`` (``mogul.plots.mogul``,
``mogul.widgets.credit_mobilier``, ``mogul.analysis.mogul``, ``mogul.auction.mogul``,
``mogul.classroom.mogul`` ...). Generic parts (the session player, the plot template, the
tournament figures, the auction model) sit at the layer's top and name no game; a game's
place imports generic parts and its own game, never another game. A game's spec names its
faces lazily (``GameSpec.faces``: player, board, analyses as ``"module:attribute"``), so
the engine imports no plotting and a new game is new folders plus one line in
``mogul/games/__init__.py``. ``mogul.credit_mobilier`` re-exports that game for users, as
this root re-exports Mogul's engine and the kit (lazily: nothing loads until it is used).

``tests/test_architecture.py`` checks both axes and that no import circle exists; it reads a
module's game from its path and names no game.
"""

import importlib
from typing import Any

from mogul import games as _games  # noqa: F401 - announces the games (imports none of them)

# The names users reach as ``mogul.X``, and the module each lives in. They are imported on
# first use (PEP 562), so ``import mogul`` (and every ``import mogul.kit...``) stays light:
# no game, no pandas, no plotting until something is asked for.
_HOME = {
    "mogul.games.mogul.actions": (
        "BID",
        "CREDIT",
        "DROP",
        "TAKE",
        "Action",
        "Bid",
        "Branch",
        "Credit",
        "Drop",
        "Sell",
        "Take",
        "parse_action",
    ),
    "mogul.games.mogul.bots": ("REGISTRY", "MonteCarloBot", "ThresholdBot", "ValueBot"),
    "mogul.games.mogul.cards": ("CRASH", "Card", "Shares", "parse_card"),
    "mogul.games.mogul.determinize": ("determinize",),
    "mogul.games.mogul.editions": ("Edition", "Station", "edition"),
    "mogul.games.mogul.rules": (
        "GameState",
        "PlayerState",
        "PlayerView",
        "ScoreBreakdown",
        "Setup",
        "legal_actions",
    ),
    "mogul.kit.bots": ("Bot", "RandomBot", "play", "play_out"),
    "mogul.kit.contract": ("IllegalActionError",),
    "mogul.kit.record": ("GameRecord", "narrate"),
    "mogul.kit.runner": ("RunOptions",),
    "mogul.kit.session": ("GameSession",),
    "mogul.kit.simulate": ("Simulation", "simulate"),
    "mogul.kit.spec": ("GameSpec", "get_game", "new_game", "register", "resolve"),
    "mogul.kit.tournament": ("Tournament", "tournament"),
}
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'mogul' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
