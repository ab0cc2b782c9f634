""" "Analyse this position": every legal action's expected score and win chance, by rollouts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mogul.analysis.mogul.share_values import Table
from mogul.analysis.position import action_values, analysed_seat
from mogul.games.mogul.rules import GameState, PlayerView
from mogul.kit.bots import whole_number


def analyse_position(
    table: Table,
    seat: int | None = None,
    rollouts: int = 2000,
    policy: str = "random",
    seed: int = 0,
) -> pd.DataFrame:
    """What each legal action of the seat to move is worth to ``seat``, by playing it out.

    For ``rollouts`` hidden piles consistent with what ``seat`` sees (``determinize``: unseen
    shares shuffled, the crash placed by the crash rule), every legal action is played on
    the same pile (common random numbers) and then every seat to the crash by ``policy``
    ("random": uniformly random legal actions; "value": ``ValueBot``). ``seat`` defaults to
    the seat to move. The batch simulator plays the rollouts of the editions it plays, the
    readable engine (slower) those of any other. One row per legal action, in
    ``legal_actions()`` order, with the columns of ``action_values`` (shared wins count).
    """
    from mogul.games.mogul.display import action_label

    seat = analysed_seat(table, seat, len(table.players))
    if policy not in ("random", "value"):
        raise ValueError(f"policy must be 'random' or 'value', got {policy!r}")
    whole_number("rollouts", rollouts)
    view = table.view(seat) if isinstance(table, GameState) else table._replace(seat=seat)
    legal = list(table.legal_actions()) if isinstance(table, GameState) else _legal_of(view)
    scores, keys = _position_rollouts(view, legal, rollouts, policy, seed)
    own = scores[:, :, seat].astype(float)  # rollout x action
    won = (keys[:, :, seat] == keys.max(axis=2)).astype(float)
    return action_values([action_label(table, a) for a in legal], own, won)


def _legal_of(view: PlayerView) -> list:
    import random

    from mogul.games.mogul.determinize import determinize

    return list(determinize(view, random.Random(0)).legal_actions())


def _position_rollouts(view: PlayerView, legal: list, rollouts: int, policy: str, seed: int):
    """(scores, keys), each rollout x action x seat: the batch simulator, else the readable engine."""
    try:
        from mogul.games.mogul import fast

        fast.check_edition(view.edition, rio_grande=True)
    except ValueError:
        pass
    else:
        return fast.rollouts(view, legal, rollouts, policy, seed)
    import random

    from mogul.games.mogul.bots import REGISTRY
    from mogul.games.mogul.determinize import determinize
    from mogul.games.mogul.rules import standings
    from mogul.kit.bots import play_out

    rng = random.Random(seed)
    n = len(view.players)
    scores = np.zeros((rollouts, len(legal), n), np.int64)
    keys = np.zeros_like(scores)
    for r in range(rollouts):
        state = determinize(view, rng)
        for b, action in enumerate(legal):
            bots = [REGISTRY[policy](seed=rng.getrandbits(32)) for _ in range(n)]
            final = play_out(state.apply(action), bots)
            scores[r, b] = final.final_scores()
            keys[r, b] = [score * 100 + shares for score, shares in standings(final)]
    return scores, keys
