""" "Analyse this position", the part every game shares: rollout results to the frame of values.

Each game's ``analyse_position`` plays its own rollouts and hands over, per rollout and legal
action, the seat's score and whether it won; ``action_values`` turns them into the frame that
``GameSpec.faces["analyse_position"]`` promises and every player's panel draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mogul.kit.checks import is_whole

Z95 = 1.96


def analysed_seat(table: Any, seat: int | None, players: int) -> int:
    """The seat an analysis of ``table`` is for: ``seat``, or the seat to move; ``ValueError``
    when the game is over or ``seat`` is not a seat of the table."""
    if table.is_over:
        raise ValueError("the game is over: there is no decision left to analyse")
    seat = table.current if seat is None else seat
    if not is_whole(seat) or not 0 <= seat < players:
        raise ValueError(f"seat must be a seat number from 0 to {players - 1}, got {seat!r}")
    return seat


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


def measure(values: pd.DataFrame) -> str:
    """The column that ranks the actions of an ``action_values`` frame: ``"win_chance"``, or
    ``"mean_score"`` when no action won a single rollout (a seat far behind: every win chance
    0 says nothing about which move is better, the expected score still does).

    >>> measure(action_values(["Bid", "Drop"], np.array([[3.0, 5.0]] * 4), np.zeros((4, 2))))
    'mean_score'
    """
    return "win_chance" if values["win_chance"].max() > 0 else "mean_score"


def grouped(values: pd.DataFrame) -> pd.DataFrame:
    """The frame of ``action_values`` with the actions whose rollouts came out exactly alike
    (the same mean score, spread and win chance: rollouts cannot tell them apart, e.g. building
    any of 21 track sections at the start of Credit Mobilier) as one row each, in the order of
    their first action. Its ``action`` names the group by the words its actions share ("Build
    (21 moves alike)"); a ``members`` column lists each row's actions.

    >>> won = np.array([[1, 1, 0]] * 3 + [[0, 0, 1]])
    >>> frame = action_values(["Buy red", "Buy blue", "Drop"], won * 2.0, won)
    >>> grouped(frame)[["action", "members"]].to_numpy().tolist()
    [['Buy (2 moves alike)', ('Buy red', 'Buy blue')], ['Drop', ('Drop',)]]
    """
    alike = values[["mean_score", "score_low", "win_chance"]].round(9).apply(tuple, axis=1)
    rows = []
    for _, group in values.groupby(alike, sort=False):  # groups in order of their first row
        row = group.iloc[0].copy()
        members = tuple(group["action"])
        row["members"] = members
        if len(members) > 1:
            row["action"] = _group_name(members)
        rows.append(row)
    return pd.DataFrame(rows).reset_index(drop=True)


def _group_name(members: Sequence[str]) -> str:
    """ "Build red (7 moves alike)": the leading words all ``members`` share, and their count."""
    words = [m.split(" ") for m in members]
    shared = []
    for column in zip(*words, strict=False):
        if len(set(column)) > 1:
            break
        shared.append(column[0])
    name = " ".join(shared) or f"{members[0]} and others"
    return f"{name} ({len(members)} moves alike)"


def reading(values: pd.DataFrame) -> str:
    """How far the frame of ``action_values`` ranks its actions: one sentence ('' for one action).

    The best action is the one with the highest win chance (the first of equals), or, when no
    action won a rollout, the highest mean score (see ``measure``). Another is clearly behind
    it when its whole interval lies below the best one's; where the intervals overlap, these
    rollouts cannot rank the two (more of them narrow the intervals).

    >>> won = np.array([[1, 0, 1]] * 60 + [[0, 0, 1]] * 40)  # 100 rollouts of three actions
    >>> reading(action_values(["Bid", "Drop", "Pass"], np.zeros(won.shape), won))
    'Pass has the best win chance; Bid and Drop are clearly behind it.'
    >>> reading(action_values(["Bid", "Drop"], np.zeros((4, 2)), np.array([[1, 0], [0, 1]] * 2)))
    "Every interval overlaps the best one's (Bid): 4 games each are too few to rank these actions."
    """
    if len(values) < 2:
        return ""
    column = measure(values)
    low, high = ("win_low", "win_high") if column == "win_chance" else ("score_low", "score_high")
    best_what = "best win chance" if column == "win_chance" else "best mean score"
    lead = "" if column == "win_chance" else "No action won a single game: ranked by mean score. "
    best = int(values[column].to_numpy().argmax())
    name = values["action"].iloc[best]
    others = values.drop(index=values.index[best])
    behind = list(others.loc[others[high] < values[low].iloc[best], "action"])
    if not behind:
        games = int(values["rollouts"].iloc[0])
        return (
            f"{lead}Every interval overlaps the best one's ({name}): "
            f"{games} games each are too few to rank these actions."
        )
    named = _listed(behind) if len(behind) <= 3 else f"{len(behind)} others"
    verb = "is" if len(behind) == 1 else "are"
    close = len(others) - len(behind)
    if not close:
        return f"{lead}{name} has the {best_what}; {named} {verb} clearly behind it."
    return (
        f"{lead}{name} has the {best_what}; {named} {verb} clearly behind it, and "
        f"{close} other{'s' if close > 1 else ''} cannot be told apart from it "
        "(the intervals overlap)."
    )


def _listed(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
