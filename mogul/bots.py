"""Bots: players that choose an action from what their seat can see.

A bot is any object with a ``name`` and a ``choose(view, legal_actions) -> action`` method.
It sees a ``PlayerView`` (never the order of the draw pile) and draws any randomness from its
own seeded ``random.Random``, so a game with bots replays exactly from its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from mogul.actions import Action
from mogul.record import GameRecord
from mogul.setup import deal
from mogul.state import GameState, PlayerView


@runtime_checkable
class Bot(Protocol):
    """What the kit asks of a player program."""

    name: str

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Pick one of ``legal_actions`` for the seat ``view.seat``."""
        ...


class RandomBot:
    """Uniformly random over the legal actions: the baseline every strategy should beat."""

    name = "random"
    traits = {"stochastic": True, "lookahead": False}

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Any legal action, each equally likely."""
        return self.rng.choice(legal_actions)


# Every bot the kit ships, by name. Each entry builds a bot from a seed.
REGISTRY: dict[str, type] = {"random": RandomBot}


def play(state: GameState, bots: Sequence[Bot], max_steps: int = 100_000) -> GameRecord:
    """Let ``bots`` (one per seat) finish the game that starts at ``state``; return its record.

    ``state`` must be a game's first decision (as ``new_game`` returns it), so the record holds
    every action from the start.
    """
    if len(bots) != len(state.players):
        raise ValueError(f"play needs one bot per seat: {len(state.players)} seats, {len(bots)} bots")
    if state != deal(state.edition, state.setup):
        raise ValueError(
            "play() records a game from its first decision; to go on from a later state, "
            "replay its record and continue with record.with_action(...)"
        )
    actions: list[str] = []
    for _ in range(max_steps):
        if state.is_over:
            return GameRecord(state.setup, tuple(actions))
        seat = state.current
        legal = state.legal_actions()
        action = bots[seat].choose(state.view(seat), legal)
        state = state.apply(action)
        actions.append(str(action))
    raise RuntimeError(f"the game did not end within {max_steps} steps")
