"""The five dice: rolling them from the seed, and what a roll allows.

A roll is five colour words, sorted in the order of the dice faces (red, yellow, green,
blue, purple, orange), so the same faces always read the same. What a roll allows, by the
rulebook's section "Purple":

* a railroad colour that was rolled gives as many actions as its dice **plus the purple dice**
  (purple is wild, but only for a colour that was rolled, never for orange);
* purple for the Credit Mobilier itself buys one purple share per purple die, or, when
  orange was rolled, pays Credit Mobilier dividends;
* dividend rounds: the larger of the orange dice and the colour's dice plus wilds (for the
  Credit Mobilier: the larger of the orange and the purple dice); none without orange.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from mogul.games.credit_mobilier.components import (
    COMPANIES,
    CREDIT_MOBILIER,
    DIVIDENDS,
    WILD,
    components,
)

BUILD, MOVE, BUY, DIVIDEND = "build", "move", "buy", "dividends"
KINDS = (BUILD, MOVE, BUY, DIVIDEND)
"""The four kinds of action, in the rulebook's order."""


def sort_roll(faces: Sequence[str]) -> tuple[str, ...]:
    """A roll in the order of the dice faces."""
    order = components().dice_faces
    return tuple(sorted(faces, key=order.index))


def roll(seed: int, number: int) -> Roll:
    """Roll number ``number`` (0 = the first turn's) of the game dealt from ``seed``.

    Each roll is drawn from a hash of the game's seed and the roll's number (BLAKE2b), so a
    state needs to carry no random generator: the same seed gives the same rolls in the same
    order. The hash's bits are read as a number below ``faces ** dice`` (drawing again in
    the rare case they fall above the largest whole multiple of it, so every roll of the
    dice is exactly as likely as it is with real dice), whose digits in base ``faces`` are
    the faces.
    """
    rolls, limit = _roll_table()
    started = _seed_hash(seed)
    for attempt in range(1000):
        hashed = started.copy()  # the hash of "credit-mobilier {seed} {number} {attempt}"
        hashed.update(b"%d %d" % (number, attempt))
        value = int.from_bytes(hashed.digest(), "big")
        if value < limit:
            break
    return rolls[value % len(rolls)]


@cache
def _roll_table() -> tuple[tuple[Roll, ...], int]:
    """The rolls (``_rolls``) and the largest whole multiple of their number a hash may fall below."""
    rolls = _rolls()
    return rolls, (1 << 64) // len(rolls) * len(rolls)


@lru_cache(maxsize=256)
def _seed_hash(seed: int) -> Any:
    """The hash started on the game's part of every roll's text: "credit-mobilier {seed} "."""
    return hashlib.blake2b(f"credit-mobilier {seed} ".encode(), digest_size=8)


@cache
def _rolls() -> tuple[Roll, ...]:
    """The roll read from each number below ``faces ** dice``: its digits in base ``faces``, sorted."""
    box = components()
    faces, count = len(box.dice_faces), box.dice_count
    out = []
    for value in range(faces**count):
        drawn = []
        for _ in range(count):
            value, face = divmod(value, faces)
            drawn.append(box.dice_faces[face])
        out.append(as_roll(sort_roll(drawn)))
    return tuple(out)


class Roll(tuple):
    """A roll of the dice in dice-face order, with what it allows worked out once (``as_roll``).

    It equals (and prints as) the plain tuple of its faces. ``allows[kind][colour]`` is
    ``allowance(roll, colour, kind)``; ``choices`` holds, in the rulebook's order of kinds,
    each kind the roll allows with the colours it allows it in.
    """

    allows: dict[str, dict[str, int]]
    choices: tuple[tuple[str, tuple[str, ...]], ...]

    def __reduce__(self) -> tuple:
        return tuple, (tuple(self),)  # copied or pickled as the plain tuple


def as_roll(dice: Sequence[str]) -> Roll:
    """The ``Roll`` of ``dice`` (faces in dice-face order): one shared object for each roll."""
    if dice.__class__ is Roll:
        return dice
    dice = tuple(dice)
    found = _ROLLS.get(dice)
    if found is None:
        found = Roll(dice)
        found.allows = {k: {c: allowance(dice, c, k) for c in COMPANIES} for k in KINDS}
        allowed = ((k, tuple(c for c, n in found.allows[k].items() if n)) for k in KINDS)
        found.choices = tuple((k, colours) for k, colours in allowed if colours)
        if len(_ROLLS) < _KEEP_AT_MOST:
            _ROLLS[found] = found
    return found


_ROLLS: dict[tuple[str, ...], Roll] = {}
_KEEP_AT_MOST = 4096
"""Rolls kept: the box's dice give 252 different rolls, and scripted rolls may add a few."""


def allowance(dice: Sequence[str], colour: str, kind: str) -> int:
    """How many unit actions of ``kind`` for ``colour`` the roll allows (0: not allowed)."""
    own = dice.count(colour)
    if own == 0 or colour == DIVIDENDS:
        return 0
    orange = dice.count(DIVIDENDS)
    if colour == CREDIT_MOBILIER:
        if kind == BUY:
            return own
        if kind == DIVIDEND and orange:
            return max(orange, own)
        return 0
    with_wilds = own + dice.count(WILD)
    if kind == DIVIDEND:
        return max(orange, with_wilds) if orange else 0
    return with_wilds
