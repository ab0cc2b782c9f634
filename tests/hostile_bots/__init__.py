"""Bots a class might hand in, each misbehaving in one way (and one honest bot).

They live in an importable module so that worker processes can load them by name. Each is
small on purpose: the test says which failure it must produce.
"""

import sys
import time

from mogul import BID, DROP, TAKE, Sell
from mogul.games.mogul.rules import AUCTION


class Honest:
    """Bids while the pot is below 2, takes the card, sells nothing."""

    name = "honest"

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, view, legal):
        if view.phase == AUCTION:
            return BID if view.pot < 2 and BID in legal else DROP
        return TAKE if TAKE in legal else Sell(0)


class Raising(Honest):
    """Plays like Honest, but raises in round 2 when it sits in seat 0."""

    name = "raising"

    def choose(self, view, legal):
        if view.round == 2 and view.seat == 0:
            raise ValueError("my strategy divides by zero")
        return super().choose(view, legal)


class Looping(Honest):
    """Plays like Honest, but thinks for ever in round 3's auction when it sits in seat 1."""

    name = "looping"

    def choose(self, view, legal):
        if view.round == 3 and view.phase == AUCTION and view.seat == 1:
            while True:
                pass
        return super().choose(view, legal)


class CalmRaising(Honest):
    """Raising's moves when it does not raise: the reference for the games it finished."""

    name = "raising"


class CalmLooping(Honest):
    name = "looping"


class AnswersNone(Honest):
    name = "answers-none"

    def choose(self, view, legal):
        return None


class AnswersText(Honest):
    name = "answers-text"

    def choose(self, view, legal):
        return "bid"


class BrokenInit:
    name = "broken-init"

    def __init__(self, seed=None):
        raise RuntimeError("forgot to set up my table")

    def choose(self, view, legal):
        return legal[0]


class SlowInit(Honest):
    name = "slow-init"

    def __init__(self, seed=None):
        time.sleep(60)


class Exits(Honest):
    """Calls sys.exit at its first decision."""

    name = "exits"

    def choose(self, view, legal):
        sys.exit(3)


class MemoryHog(Honest):
    """Allocates without end at its first decision."""

    name = "memory-hog"

    def choose(self, view, legal):
        chunks = []
        while True:
            chunks.append(bytearray(50_000_000))


class Mutator(Honest):
    """Tries to rewrite its shares and the edition's rules, then plays on."""

    name = "mutator"

    def choose(self, view, legal):
        attempts = 0
        try:
            view.me.shares._counts = (9, 9, 9, 9, 9)
        except AttributeError:
            attempts += 1
        try:
            view.edition.options["quick_start"] = {"max_players": 99}
        except TypeError:
            attempts += 1
        self.refused = attempts
        return super().choose(view, legal)


class Peeker(Honest):
    """Looks up the call stack for the game state and its hidden pile."""

    name = "peeker"

    def choose(self, view, legal):
        frame = sys._getframe(1)
        while frame is not None:
            state = frame.f_locals.get("state")
            if state is not None and hasattr(state, "deck"):
                raise LookupError(f"found the hidden pile: next card {state.deck[0]}")
            frame = frame.f_back
        return super().choose(view, legal)
