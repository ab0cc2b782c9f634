"""The private values: the distribution the lecturer sets, written as one line of text.

Two kinds, in whole chips:

* ``"uniform LOW..HIGH"`` - each seat's value is drawn on its own, every whole number from
  LOW to HIGH equally likely (independent private values);
* ``"common LOW..HIGH noise K"`` - one common value is drawn for the round, every whole
  number from LOW to HIGH equally likely, and each seat's value is that common value plus
  its own noise, every whole number from -K to K equally likely (private values that share
  a common part: seats with a high value tend to meet rivals with high values).

A seat learns only its own value. The text is what the setup keeps (it goes into records
as it is) and what a page shows.
"""

from __future__ import annotations

import random
import re
from typing import NamedTuple

MOST = 1000
"""The largest value a distribution may give (whole chips)."""

_FORMS = re.compile(
    r"^\s*(?:uniform\s+(?P<lo>\d+)\s*\.\.\s*(?P<hi>\d+)"
    r"|common\s+(?P<clo>\d+)\s*\.\.\s*(?P<chi>\d+)\s+noise\s+(?P<noise>\d+))\s*$"
)
ALLOWED = "'uniform LOW..HIGH' or 'common LOW..HIGH noise K' (whole chips, e.g. 'uniform 0..10')"


class Values(NamedTuple):
    """A value distribution: ``kind`` "uniform" or "common", its range and the noise."""

    kind: str
    low: int
    high: int
    noise: int = 0

    @property
    def lowest(self) -> int:
        """The smallest value a seat can draw."""
        return self.low - self.noise

    @property
    def highest(self) -> int:
        """The largest value a seat can draw."""
        return self.high + self.noise

    def draw(self, rng: random.Random, seats: int) -> tuple[int, ...]:
        """One round's values, one per seat, from ``rng``."""
        if self.kind == "uniform":
            return tuple(rng.randint(self.low, self.high) for _ in range(seats))
        common = rng.randint(self.low, self.high)
        return tuple(common + rng.randint(-self.noise, self.noise) for _ in range(seats))

    def __str__(self) -> str:
        if self.kind == "uniform":
            return f"uniform {self.low}..{self.high}"
        return f"common {self.low}..{self.high} noise {self.noise}"


def parse_values(text: object) -> Values:
    """The distribution written in ``text``; ``ValueError`` says what is allowed.

    >>> parse_values("uniform 0..10")
    Values(kind='uniform', low=0, high=10, noise=0)
    >>> str(parse_values("common 5..15 noise 3"))
    'common 5..15 noise 3'
    """
    found = _FORMS.match(text) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"values must be {ALLOWED}; got {text!r}")
    if found["lo"] is not None:
        dist = Values("uniform", int(found["lo"]), int(found["hi"]))
    else:
        dist = Values("common", int(found["clo"]), int(found["chi"]), int(found["noise"]))
    if dist.low >= dist.high:
        raise ValueError(f"values {text!r}: LOW must be below HIGH")
    if dist.lowest < 0 or dist.highest > MOST:
        raise ValueError(
            f"values {text!r} reach {dist.lowest}..{dist.highest}: every value must lie in "
            f"0..{MOST} (for 'common', LOW - K >= 0 and HIGH + K <= {MOST})"
        )
    return dist
