"""Mogul notebook kit: an exact rules engine for Michael Schacht's *Mogul*, bots, and analysis.

    >>> import mogul
    >>> s = mogul.new_game("classic", players=4, seed=7)
    >>> s = s.apply(mogul.Bid())
"""

from mogul.actions import (
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
from mogul.cards import CRASH, Card, Shares, parse_card
from mogul.editions import Edition, edition
from mogul.rules import IllegalActionError, legal_actions
from mogul.setup import new_game
from mogul.state import GameState, PlayerState, PlayerView, Setup

__all__ = [
    "BID", "CRASH", "CREDIT", "DROP", "TAKE",
    "Action", "Bid", "Branch", "Card", "Credit", "Drop", "Edition", "GameState",
    "IllegalActionError", "PlayerState", "PlayerView", "Sell", "Setup", "Shares", "Take",
    "edition", "legal_actions", "new_game", "parse_action", "parse_card",
]
