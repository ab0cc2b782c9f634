"""Analyse this position in Credit Mobilier: every legal action's worth by rollouts
(``analyse_position``, the game's face ``"analyse_position"``)."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd

from mogul.analysis.position import action_values, analysed_seat
from mogul.games.credit_mobilier.bots import bot_factory, worth
from mogul.games.credit_mobilier.determinize import determinize
from mogul.games.credit_mobilier.display import action_label
from mogul.games.credit_mobilier.rules import GameState, PlayerView
from mogul.kit.bots import play_out, whole_number

# --- analyse this position ------------------------------------------------------------------------


POLICIES = ("dividend", "random")
"""Who plays every seat after the action: ``DividendBot`` or uniformly random legal actions."""

ENGINES = ("auto", "readable")
"""Where the rollouts are played: the batch simulator or the readable engine."""

TREASURY_WEIGHT = 0.5
"""The part of a seat's stake in a treasury its worth counts (as ``MonteCarloBot``'s default)."""


def analyse_position(
    table: GameState | PlayerView,
    seat: int | None = None,
    rollouts: int = 24,
    policy: str = "dividend",
    seed: int = 0,
    horizon: int = 6,
    engine: str = "auto",
) -> pd.DataFrame:
    """What each legal action of the seat to move is worth to ``seat``, by playing it out.

    For ``rollouts`` futures of the dice (``determinize``: the table as ``seat`` sees it, new
    rolls from a seed), every legal action is played on the same future (common random
    numbers) and then every seat by ``policy`` for ``horizon`` more turns. ``seat`` defaults
    to the seat to move. ``engine="auto"`` plays the rollouts in the batch simulator
    (``fast.play_after``; with the dividend policy it ends every rollout in the readable
    engine's table, so the figures are the same), ``"readable"`` in the readable engine.
    One row per legal action, in ``legal_actions()`` order, with the columns of
    ``action_values``: the score is the seat's worth after the rollouts (see the package
    docstring), a win the highest worth (shared wins count).
    """
    n = len(table.money)
    seat = analysed_seat(table, seat, n)
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(map(repr, POLICIES))}, got {policy!r}")
    whole_number("rollouts", rollouts)
    whole_number("horizon", horizon)
    view = table.view(seat) if isinstance(table, GameState) else table._replace(seat=seat)
    rng = random.Random(seed)
    futures = [determinize(view, rng) for _ in range(rollouts)]
    legal = futures[0].legal_actions()
    factory = bot_factory(policy)
    labels = [action_label(futures[0], a) for a in legal]
    if engine == "auto":
        from mogul.games.credit_mobilier import fast  # compiled code: loaded when first needed

        tables = fast.play_after(futures, legal, view.turn + horizon, factory, seed)
        worths = fast.worths(tables, TREASURY_WEIGHT)  # rollouts x actions x seats
        best = worths.max(axis=-1)
        sharing = (worths == best[..., None]).sum(axis=-1)
        own = worths[..., seat]
        return action_values(labels, own, np.where(own == best, 1 / sharing, 0.0))
    own = np.zeros((rollouts, len(legal)))
    won = np.zeros((rollouts, len(legal)))
    last = view.turn + horizon  # each rollout stops as this turn begins
    for r, future in enumerate(futures):
        for i, action in enumerate(legal):
            bots = [factory(future.setup.seed + s) for s in range(n)]
            end = play_out(future.apply(action), bots, until=lambda s: s.turn >= last)
            worths = [worth(end, s, TREASURY_WEIGHT) for s in range(n)]
            best = max(worths)
            own[r, i] = worths[seat]
            won[r, i] = 1 / worths.count(best) if worths[seat] == best else 0.0
    return action_values(labels, own, won)
