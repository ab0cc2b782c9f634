""" "Analyse this position", the part every game shares: rollout results to the frame of values.

Each game's ``analyse_position`` plays its own rollouts and hands over, per rollout and legal
action, the seat's score and whether it won; ``action_values`` turns them into the frame that
``GameSpec.faces["analyse_position"]`` promises and every player's panel draws.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

Z95 = 1.96


def wilson(p: np.ndarray, n: int, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval of proportions ``p`` from ``n`` trials each (Wilson (1927),
    "Probable inference, the law of succession, and statistical inference", JASA 22(158)).

    >>> [round(float(x), 3) for x in np.concatenate(wilson(np.array([0.5]), 100))]
    [0.404, 0.596]
    """
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def action_values(labels: Sequence[str], own: np.ndarray, won: np.ndarray) -> pd.DataFrame:
    """One row per legal action from rollouts: ``own`` (rollout x action) holds the seat's
    score, ``won`` its win (1, 0, or a share of a tie, as the game counts it).

    Columns: ``action``, ``mean_score`` with ``score_low``/``score_high`` (mean +- 1.96
    standard errors), ``win_chance`` with its 95% Wilson interval (``win_low``, ``win_high``)
    and ``rollouts``.
    """
    rollouts = own.shape[0]
    mean = own.mean(axis=0)
    spread = own.std(axis=0, ddof=1) if rollouts > 1 else np.zeros(own.shape[1])
    half = Z95 * spread / np.sqrt(rollouts)
    chance = won.mean(axis=0)
    low, high = wilson(chance, rollouts)
    return pd.DataFrame(
        {
            "action": list(labels),
            "mean_score": mean,
            "score_low": mean - half,
            "score_high": mean + half,
            "win_chance": chance,
            "win_low": low,
            "win_high": high,
            "rollouts": rollouts,
        }
    )


def reading(values: pd.DataFrame) -> str:
    """How far the frame of ``action_values`` ranks its actions: one sentence ('' for one action).

    The best action is the one with the highest win chance (the first of equals). Another is
    clearly behind it when its whole win-chance interval lies below the best one's; where the
    intervals overlap, these rollouts cannot rank the two (more of them narrow the intervals).

    >>> won = np.array([[1, 0, 1]] * 60 + [[0, 0, 1]] * 40)  # 100 rollouts of three actions
    >>> reading(action_values(["Bid", "Drop", "Pass"], np.zeros(won.shape), won))
    'Pass has the best win chance; Bid and Drop are clearly behind it.'
    >>> reading(action_values(["Bid", "Drop"], np.zeros((4, 2)), np.array([[1, 0], [0, 1]] * 2)))
    "Every interval overlaps the best one's (Bid): 4 games each are too few to rank these actions."
    """
    if len(values) < 2:
        return ""
    best = int(values["win_chance"].to_numpy().argmax())
    name = values["action"].iloc[best]
    others = values.drop(index=values.index[best])
    behind = list(others.loc[others["win_high"] < values["win_low"].iloc[best], "action"])
    if not behind:
        games = int(values["rollouts"].iloc[0])
        return (
            f"Every interval overlaps the best one's ({name}): "
            f"{games} games each are too few to rank these actions."
        )
    named = _listed(behind) if len(behind) <= 3 else f"{len(behind)} others"
    verb = "is" if len(behind) == 1 else "are"
    close = len(others) - len(behind)
    if not close:
        return f"{name} has the best win chance; {named} {verb} clearly behind it."
    return (
        f"{name} has the best win chance; {named} {verb} clearly behind it, and "
        f"{close} other{'s' if close > 1 else ''} cannot be told apart from it "
        "(the intervals overlap)."
    )


def _listed(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
