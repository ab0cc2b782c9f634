"""Mogul notebook kit: an exact rules engine for Michael Schacht's *Mogul*, bots, and analysis.

    >>> import mogul
    >>> s = mogul.new_game("classic", players=4, seed=7)
    >>> s = s.apply(mogul.Bid())

Figures live in ``mogul.plots``, notebook apps in ``mogul.widgets``, the auction model in
``mogul.auction`` and the share-value analysis in ``mogul.analysis``.
"""

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
from mogul.games.mogul.bots import (
    REGISTRY,
    Bot,
    MonteCarloBot,
    RandomBot,
    ThresholdBot,
    ValueBot,
    play,
    play_out,
)
from mogul.games.mogul.cards import CRASH, Card, Shares, parse_card
from mogul.games.mogul.determinize import determinize
from mogul.games.mogul.editions import Edition, edition
from mogul.games.mogul.rules import IllegalActionError, legal_actions
from mogul.games.mogul.setup import new_game
from mogul.games.mogul.state import GameState, PlayerState, PlayerView, Setup
from mogul.kit.record import GameRecord, narrate
from mogul.kit.runner import Simulation, simulate
from mogul.kit.tournament import Tournament, tournament

__all__ = [
    "BID", "CRASH", "CREDIT", "DROP", "REGISTRY", "TAKE",
    "Action", "Bid", "Bot", "Branch", "Card", "Credit", "Drop", "Edition", "GameRecord",
    "GameState", "IllegalActionError", "MonteCarloBot", "PlayerState", "PlayerView",
    "RandomBot", "Sell", "Setup", "Shares", "Simulation", "Take", "ThresholdBot",
    "Tournament", "ValueBot",
    "determinize", "edition", "legal_actions", "narrate", "new_game", "parse_action",
    "parse_card", "play", "play_out", "simulate", "tournament",
]
