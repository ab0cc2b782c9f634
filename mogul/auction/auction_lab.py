"""Mogul's auction in the auction lab: the equilibrium its bot plays, from ``mogul.auction``.

The lab's Mogul auction (``mogul.games.auction_lab``) is the model of this package with
private values: seat i values winning at its drawn value, second place at the session's
``second`` prize and dropping out at 0, holds ``budget`` chips, and a chip is worth one
point. No textbook bid exists, so the lab's equilibrium bot plays an epsilon-equilibrium in
threshold strategies found by ``best_response_dynamics`` (as in notebook 02) on ``SAMPLES``
value profiles drawn from the session's distribution with seed 0:

* every type switches at once (damping 1), so a type plays one threshold wherever it is
  sampled: the bot needs only its value and its place after the start seat;
* thresholds by seats left with two seats; one threshold for the whole auction with more
  (the strategies by seats left number (seats x budget + 1) ** (seats - 1): too many);
* a value the sample never drew for a place plays the threshold of the nearest value drawn
  there (the lower one on a tie).

``epsilon`` (kept with each entry) is the most any sampled type gains by any deviation
against the sample's rows. The games layer may not import this package, so the thresholds
are written to the game's ``thresholds.json``: ``python -m mogul.auction.auction_lab``
rewrites it for ``SETTINGS``.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass

import numpy as np

from mogul.auction.private import BestResponseResult, best_response_dynamics
from mogul.games.auction_lab.equilibrium import THRESHOLDS
from mogul.games.auction_lab.values import Values, parse_values

SAMPLES = 100
"""Value profiles the equilibrium is computed on (drawn with seed 0)."""
SETTINGS = tuple((players, "uniform 0..10", 10, 0) for players in range(2, 7))
"""(players, values, budget, second) of the entries ``thresholds.json`` holds: the lab's
default settings for every group size of Mogul's auction."""


@dataclass(frozen=True)
class LabEquilibrium:
    """The thresholds of one group's settings: ``table[position][value - lowest]`` is the k
    per number of seats still in (index: seats left - 2); ``result`` is the dynamics' whole
    result on ``sample`` (its ``epsilon``, ``converged``, ``thresholds`` per sampled row)."""

    players: int
    values: str
    budget: int
    second: int
    table: list[list[list[int]]]
    sample: np.ndarray
    result: BestResponseResult


def value_sample(dist: Values, players: int, samples: int, second: int, seed: int) -> np.ndarray:
    """``samples`` value profiles (samples, players, 3): (value, second, 0) per seat, each
    round's values drawn as the game draws them."""
    rng = random.Random(seed)
    out = np.zeros((samples, players, 3))
    out[:, :, 0] = [dist.draw(rng, players) for _ in range(samples)]
    out[:, :, 1] = second
    return out


def lab_equilibrium(players: int, values: str, budget: int, second: int) -> LabEquilibrium:
    """The epsilon-equilibrium of the module docstring for one group's settings."""
    dist = parse_values(values)
    sample = value_sample(dist, players, SAMPLES, second, seed=0)
    result = best_response_dynamics(
        sample,
        [budget] * players,
        start=0,
        chip_value=1.0,
        max_iter=20,
        by_seats_left=players == 2,
        damping=1.0,
    )
    ks = np.asarray(result.thresholds).reshape(SAMPLES, players, -1)
    table = []
    for position in range(players):
        drawn = {int(sample[row, position, 0]): row for row in range(SAMPLES)}
        row_of = {
            v: drawn[min(drawn, key=lambda d: (abs(d - v), d))]
            for v in range(dist.lowest, dist.highest + 1)
        }
        table.append([[int(k) for k in ks[row_of[v], position]] for v in sorted(row_of)])
    return LabEquilibrium(players, str(dist), budget, second, table, sample, result)


def write_thresholds() -> None:
    """Rewrite the game's ``thresholds.json`` for ``SETTINGS``."""
    entries = []
    for players, values, budget, second in SETTINGS:
        eq = lab_equilibrium(players, values, budget, second)
        entries.append(
            {
                "players": players,
                "values": values,
                "budget": budget,
                "second": second,
                "samples": SAMPLES,
                "epsilon": round(eq.result.epsilon, 6),
                "converged": eq.result.converged,
                "thresholds": eq.table,
            }
        )
        print(f"{players} seats: epsilon {eq.result.epsilon:.3f}", file=sys.stderr)
    THRESHOLDS.write_text(json.dumps(entries, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    write_thresholds()
