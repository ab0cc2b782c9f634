"""Mogul's games table from the batch simulator: what ``simulate(..., engine="fast")`` calls.

Each game is dealt by the readable engine from its planned seed (``new_game``), so the games
are the ones the readable engine plays; the batch simulator then plays them to the crash.
With deterministic bots (threshold, value) the table equals the readable engine's row for
row; random bots draw from numba's generator instead (same distribution, other games).
Kept apart from ``fast`` so that importing the game does not load numba (nor pandas: both are
imported when a table is asked for).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mogul.games.mogul.setup import new_game

if TYPE_CHECKING:
    import pandas as pd


def games_table(
    edition: str, bots: Sequence[Any], plans: Sequence[Any], names: Sequence[str]
) -> pd.DataFrame | None:
    """The games table (``mogul.kit.runner``'s columns) of ``plans``; None if the batch
    simulator does not play this edition or these bots (the caller uses the readable engine)."""
    import numpy as np
    import pandas as pd

    from mogul.games.mogul import fast  # compiled code: loaded when first needed

    try:
        fast.check_edition(edition)
        kinds, params = fast.policies(list(bots), len(bots))
    except ValueError:
        return None
    players = len(bots)
    starts = [new_game(edition, players, plan.seed) for plan in plans]
    tables = np.concatenate([fast.encode(s) for s in starts])
    fast._play_tables(tables, kinds, params, plans[0].bot_seeds[0] if plans else 0)
    result = fast.BatchResult(tables)
    games = len(plans)
    seats = np.tile(np.arange(players), games)
    ranks = result.ranks.ravel()
    return pd.DataFrame(
        {
            "game": np.repeat([p.game for p in plans], players),
            "seed": np.repeat([p.seed for p in plans], players),
            "seat": seats,
            "player": [starts[0].names[s] for s in seats],
            "bot": [names[s] for s in seats],
            "bot_seed": [seed for p in plans for seed in p.bot_seeds],
            "score": result.scores.ravel(),
            "rank": ranks,
            "won": ranks == 1,
            "points": result.points.ravel(),
            "chips": result.chips.ravel(),
            "shares": result.shares.ravel(),
            "credits": result.credits.ravel(),
            "rounds": np.repeat(result.rounds, players),
        }
    )
