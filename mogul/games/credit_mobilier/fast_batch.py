"""Credit Mobilier's batch simulator as the kit's batch engine (``GameSpec.batch``).

``simulate(..., engine="fast")`` (and the default, where it can) plays planned games here:
each game is dealt by the readable engine from its planned seed and rolls its own dice, so
deterministic bots (dividend bots) play the readable engine's very games, row for row. It
makes the games table only; a request for the game's other tables goes to the readable engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mogul.kit.columns import Coded, Columns

__all__ = ["CreditMobilierBatch", "batch_engine"]


def batch_engine(edition: str, bots: Sequence[Any], names: Sequence[str]) -> CreditMobilierBatch:
    """The batch engine for one bot per seat; ``ValueError`` (why) if it cannot play them."""
    from mogul.games.credit_mobilier import fast  # compiled code: loaded when first needed
    from mogul.games.credit_mobilier.spec import SPEC

    SPEC.edition(edition)  # raises for another edition's name
    fast.policies(list(bots), len(bots))  # raises for bots it does not play
    return CreditMobilierBatch(tuple(bots), tuple(names))


@dataclass(frozen=True)
class CreditMobilierBatch:
    """Credit Mobilier's bots in their seats, ready to play chunks of planned games."""

    bots: tuple[Any, ...]
    names: tuple[str, ...]  # the bots' names, one per seat
    tables: tuple[str, ...] = ("games",)  # the tables it makes

    @property
    def players(self) -> int:
        """Seats at each table."""
        return len(self.bots)

    def deal_and_play(self, games: int, seed: int) -> Any:
        """``games`` games dealt in the compiled code (its own deals, not the readable engine's)
        and played to the end: the engine at its own speed (``fast.BatchResult``)."""
        from mogul.games.credit_mobilier import fast

        return fast.play_fresh(games, self.players, list(self.bots), seed)

    def play(
        self, first: int, seeds: np.ndarray, bot_seeds: np.ndarray, tables: Sequence[str]
    ) -> dict[str, Columns]:
        """Games ``first``, ``first + 1``... dealt from ``seeds``: the games table, as columns.

        The random bots of a chunk draw from one generator seeded by its first game's first
        bot seed, so their games depend on how the games are cut into chunks (the dividend
        bots' do not).
        """
        from mogul.games.credit_mobilier import fast
        from mogul.games.credit_mobilier.setup import new_game

        if set(tables) - set(self.tables):
            raise ValueError(f"the batch engine makes only the games table, not {list(tables)}")
        games, players = len(seeds), self.players
        starts = [new_game(players, int(s)) for s in seeds]
        names = starts[0].names if starts else new_game(players, 0).names
        if games:
            result = fast.play_states(starts, list(self.bots), int(bot_seeds[0][0]))
            money, stock, ranks = result.money, result.stock, result.ranks
            turns = np.asarray(result.turns, np.int64)
        else:
            money = stock = ranks = np.zeros((0, players), np.int64)
            turns = np.zeros(0, np.int64)
        seats = np.tile(np.arange(players, dtype=np.int64), games)
        ranks = np.asarray(ranks, np.int64).ravel()
        return {
            "games": {
                "game": np.repeat(np.arange(first, first + games, dtype=np.int64), players),
                "seed": np.repeat(np.asarray(seeds, np.int64), players),
                "seat": seats,
                "player": Coded(seats, tuple(names)),
                "bot": Coded(seats, tuple(self.names)),
                "bot_seed": np.asarray(bot_seeds, np.int64).reshape(-1),
                "score": np.asarray(money, np.int64).ravel(),
                "rank": ranks,
                "won": ranks == 1,
                "money": np.asarray(money, np.int64).ravel(),
                "stock": np.asarray(stock, np.int64).ravel(),
                "turns": np.repeat(turns, players),
            }
        }
