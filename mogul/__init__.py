"""Mogul notebook kit: exact rules engines for Michael Schacht's *Mogul*, bots, and analysis.

    >>> import mogul
    >>> s = mogul.new_game("classic", players=4, seed=7)
    >>> s = s.apply(mogul.Bid())

The package in layers; each imports only from the layers above it in this list:

``mogul.kit``
    the game-agnostic layer: the state contract and ``IllegalActionError`` (``contract``),
    game specs and the registry (``spec``), records (``record``), bots and ``play``
    (``bots``), the game runner, simulations and tournaments (``runner``, ``simulate``,
    ``tournament``) and game sessions (``session``). It never imports a game.
``mogul.games``
    one folder per game, each registering a ``GameSpec``: ``mogul.games.mogul`` (the 2002
    classic rules and the 2013 Rio Grande edition with its railway map).
``mogul.auction``, ``mogul.analysis``, ``mogul.analysis.credit_mobilier``
    the auction model and its equilibrium, share-value analysis (Mogul's and Credit Mobilier's).
``mogul.plots``, ``mogul.widgets``, ``mogul.cli``
    the faces: plotly figures, ipywidgets apps, the command line.
``mogul.classroom``
    students play each other from their own devices: the table store and the debrief use
    ``mogul.kit`` and ``mogul.auction`` (no faces); its pages' widgets and figures (``student``,
    ``lecturer``, ``figures``) sit with the faces. Nothing else imports the classroom.

``tests/test_architecture.py`` checks this direction.
"""

import importlib
from typing import Any

from mogul import games as _games  # noqa: F401 - announces the games (imports none of them)

# The names users reach as ``mogul.X``, and the module each lives in. They are imported on
# first use (PEP 562), so ``import mogul`` (and every ``import mogul.kit...``) stays light:
# no game, no pandas, no plotting until something is asked for.
_HOME = {
    "mogul.games.mogul.actions": (
        "BID", "CREDIT", "DROP", "TAKE", "Action", "Bid", "Branch", "Credit", "Drop", "Sell",
        "Take", "parse_action",
    ),
    "mogul.games.mogul.bots": ("REGISTRY", "MonteCarloBot", "ThresholdBot", "ValueBot"),
    "mogul.games.mogul.cards": ("CRASH", "Card", "Shares", "parse_card"),
    "mogul.games.mogul.determinize": ("determinize",),
    "mogul.games.mogul.editions": ("Edition", "Station", "edition"),
    "mogul.games.mogul.rules": ("ScoreBreakdown", "legal_actions"),
    "mogul.games.mogul.setup": ("new_game",),
    "mogul.games.mogul.state": ("GameState", "PlayerState", "PlayerView", "Setup"),
    "mogul.kit.bots": ("Bot", "RandomBot", "play", "play_out"),
    "mogul.kit.contract": ("IllegalActionError",),
    "mogul.kit.record": ("GameRecord", "narrate"),
    "mogul.kit.session": ("GameSession",),
    "mogul.kit.simulate": ("Simulation", "simulate"),
    "mogul.kit.spec": ("GameSpec", "get_game", "register", "resolve"),
    "mogul.kit.tournament": ("Tournament", "tournament"),
}  # fmt: skip
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
