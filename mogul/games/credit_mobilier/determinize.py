"""Determinisation: one possible future behind what a seat can see.

In Credit Mobilier everything on the table is open; only the dice still to come are
unknown. A determinised state is the seat's view made a full ``GameState`` whose future rolls
come from a new random seed: fair dice, drawn exactly as the real game draws them. Monte-Carlo
bots play many such futures ("determinised rollouts", Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)).
"""

from __future__ import annotations

import random

from mogul.games.credit_mobilier.rules import SEEN, GameState, PlayerView, Setup
from mogul.games.credit_mobilier.setup import EDITION


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """A full state that looks exactly like ``view``, with future dice from a seed drawn from ``rng``.

    The state's ``setup`` is a placeholder: it cannot deal this game again.
    """
    if view.is_over:
        raise ValueError("the game is over: there are no dice left to roll")
    seen = {field: getattr(view, field) for field in SEEN}
    placeholder = Setup(EDITION, tuple(view.names), seed=rng.getrandbits(32))
    return GameState(setup=placeholder, **seen)
