""" "Analyse this position": every legal action's expected score and win chance, by rollouts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mogul.analysis.mogul.share_values import Table
from mogul.analysis.position import action_values
from mogul.games.mogul.rules import GameState, PlayerView


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
    the same pile (common random numbers) and then every seat is played to the crash by
    ``policy`` ("random": uniformly random legal actions; "value": ``ValueBot``).
    ``seat`` defaults to the seat to move. The batch simulator (``mogul.games.mogul.fast``)
    plays both editions (classic and Rio Grande); an edition it does not play uses the
    readable engine (slower).

    One row per legal action, in ``legal_actions()`` order: ``action`` (its text),
    ``mean_score`` of ``seat`` with a 95% interval (``score_low``, ``score_high``: mean +- 1.96
    standard errors), ``win_chance`` (shared wins count) with a 95% Wilson interval
    (``win_low``, ``win_high``; Wilson (1927), "Probable inference, the law of succession,
    and statistical inference", JASA 22(158)), and ``rollouts``.
    """
    from mogul.games.mogul.display import action_label

    if getattr(table, "is_over", True) or table.current is None:
        raise ValueError("the game is over: there is no decision left to analyse")
    if policy not in ("random", "value"):
        raise ValueError(f"policy must be 'random' or 'value', got {policy!r}")
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be a whole number >= 1, got {rollouts!r}")
    n = len(table.players)
    seat = table.current if seat is None else seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat number from 0 to {n - 1}, got {seat!r}")
    view = (
        table if isinstance(table, PlayerView) and table.seat == seat else table_view(table, seat)
    )
    legal = list(table.legal_actions()) if isinstance(table, GameState) else _legal_of(view)
    scores, keys = _position_rollouts(view, legal, rollouts, policy, seed)
    own = scores[:, :, seat].astype(float)  # rollout x action
    won = (keys[:, :, seat] == keys.max(axis=2)).astype(float)
    return action_values([action_label(table, a) for a in legal], own, won)


def table_view(table: Table, seat: int) -> PlayerView:
    """``seat``'s view of a state (a view of another seat keeps its table, seen from ``seat``)."""
    if isinstance(table, GameState):
        return table.view(seat)
    return table._replace(seat=seat)


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
