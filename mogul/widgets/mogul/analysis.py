"""Mogul's ``PositionAnalysis``: the kit's panel with Mogul's rollouts and its words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mogul.analysis.mogul import analyse_position
from mogul.widgets.position_analysis import PositionAnalysis as _Panel

__all__ = ["PositionAnalysis"]


class PositionAnalysis(_Panel):
    """For the watched seat to move: every legal action's expected final score and win chance.

    ``follow(game)`` (a ``GamePlayer`` or a ``GameSession``) analyses each decision of the
    ``seats`` watched (default: the game's human seats, else every seat) with
    ``analyse_position`` (``rollouts`` per action, ``policy`` for every seat afterwards) and
    draws it in ``figure``. Once the move is made, ``last_figure`` shows that analysis with
    the action chosen marked (it stays there while the next decision is analysed above).
    ``update(history, actions)`` does the same from any game's states and actions.
    """

    def __init__(
        self,
        game: Any = None,
        seats: Sequence[int] | None = None,
        rollouts: int = 2000,
        policy: str = "random",
        seed: int = 0,
        height: int = 300,
    ) -> None:
        self.rollouts, self.policy, self.seed = rollouts, policy, seed
        super().__init__(
            game,
            seats,
            analyse_position,
            height,
            "expected final score",
            stage_word="round",  # Mogul counts rounds: "round 3"
            rollouts=rollouts,
            policy=policy,
            seed=seed,
        )
