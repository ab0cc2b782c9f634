"""Determinisation: one possible hidden draw pile behind what a seat can see.

A player does not know the order of the draw pile, only which shares are still in it
(``view.unseen``) and how many cards are left (``view.cards_left``, the crash card
included). A *determinised* state is a full ``GameState`` that agrees with everything the
seat sees and fills in the hidden order at random, drawn so that every order the player
cannot rule out is as likely as it really is:

* the unseen shares are in uniformly random order (the pile was shuffled);
* the crash card follows the crash rule. At setup it lies uniformly in the last
  ``crash_shuffled_into_last + 1`` positions. Knowing only that it has not come up yet,
  it is uniform over the window positions still in the pile: the last
  ``min(window, cards_left)`` cards.

Monte-Carlo bots play many such piles to the end ("determinised rollouts", see Cowling,
Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)).
"""

from __future__ import annotations

import random

from mogul.games.mogul.cards import CRASH, Card, CrashCard
from mogul.games.mogul.pile import crash_window
from mogul.games.mogul.rules import OVER, SEEN, GameState, PlayerView, Setup


def deal_hidden_pile(view: PlayerView, rng: random.Random) -> tuple[Card | CrashCard, ...]:
    """A random draw pile consistent with ``view``: shuffled unseen shares plus the crash card."""
    if view.cards_left != len(view.unseen) + 1:
        raise ValueError(
            f"the view shows {view.cards_left} cards left but {len(view.unseen)} unseen shares; "
            "a running game has exactly one more card (the crash) than unseen shares"
        )
    shares: list[Card | CrashCard] = list(view.unseen)
    rng.shuffle(shares)
    window = crash_window(view)
    position = view.cards_left - window + rng.randrange(window)
    shares.insert(position, CRASH)
    return tuple(shares)


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state that looks exactly like ``view``, with a random hidden pile.

    Only the pile order is invented; the table (players, pot, auction, revealed card ...) is
    the view's. The state's ``setup`` is a placeholder: it cannot deal this game again.
    """
    if view.phase == OVER:
        raise ValueError("the game is over: there is no hidden pile left to deal")
    seen = {field: getattr(view, field) for field in SEEN}
    placeholder = Setup(view.edition.name, tuple(p.name for p in view.players), seed=0)
    return GameState(**seen, setup=placeholder, deck=deal_hidden_pile(view, rng), events=())
