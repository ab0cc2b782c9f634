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
``mogul.auction``, ``mogul.analysis``, ``mogul.analysis_credit_mobilier``
    the auction model and its equilibrium, share-value analysis (Mogul's and Credit Mobilier's).
``mogul.plots``, ``mogul.widgets``, ``mogul.cli``
    the faces: plotly figures, ipywidgets apps, the command line.
``mogul.classroom``
    students play each other from their own devices: the table store and the debrief use
    ``mogul.kit`` and ``mogul.auction`` (no faces); its pages' widgets and figures (``student``,
    ``lecturer``, ``figures``) sit with the faces. Nothing else imports the classroom.

``tests/test_architecture.py`` checks this direction.
"""

from mogul import games as _games  # noqa: F401 - registers the games
from mogul.games.mogul.actions import (
    BID,
    CREDIT,
    DROP,
    TAKE,
    Action,
    Bid,
    Branch,
    Credit,
    Drop,
    Sell,
    Take,
    parse_action,
)
from mogul.games.mogul.bots import REGISTRY, MonteCarloBot, ThresholdBot, ValueBot
from mogul.games.mogul.cards import CRASH, Card, Shares, parse_card
from mogul.games.mogul.determinize import determinize
from mogul.games.mogul.editions import Edition, Station, edition
from mogul.games.mogul.rules import ScoreBreakdown, legal_actions
from mogul.games.mogul.setup import new_game
from mogul.games.mogul.state import GameState, PlayerState, PlayerView, Setup
from mogul.kit.bots import Bot, RandomBot, play, play_out
from mogul.kit.contract import IllegalActionError
from mogul.kit.record import GameRecord, narrate
from mogul.kit.session import GameSession
from mogul.kit.simulate import Simulation, simulate
from mogul.kit.spec import GameSpec, get_game, register, resolve
from mogul.kit.tournament import Tournament, tournament

__all__ = [
    "BID", "CRASH", "CREDIT", "DROP", "REGISTRY", "TAKE",
    "Action", "Bid", "Bot", "Branch", "Card", "Credit", "Drop", "Edition", "GameRecord",
    "GameSession", "GameSpec", "GameState", "IllegalActionError", "MonteCarloBot",
    "PlayerState", "PlayerView", "RandomBot", "ScoreBreakdown", "Sell", "Setup", "Shares",
    "Simulation", "Station", "Take",
    "ThresholdBot", "Tournament", "ValueBot",
    "determinize", "edition", "get_game", "legal_actions", "narrate", "new_game",
    "parse_action", "parse_card", "play", "play_out", "register", "resolve", "simulate",
    "tournament",
]
