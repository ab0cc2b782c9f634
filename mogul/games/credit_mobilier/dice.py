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

from mogul.games.credit_mobilier.components import CREDIT_MOBILIER, DIVIDENDS, WILD, components

BUILD, MOVE, BUY, DIVIDEND = "build", "move", "buy", "dividends"
KINDS = (BUILD, MOVE, BUY, DIVIDEND)
"""The four kinds of action, in the rulebook's order."""


def sort_roll(faces: Sequence[str]) -> tuple[str, ...]:
    """A roll in the order of the dice faces."""
    order = components().dice_faces
    return tuple(sorted(faces, key=order.index))


def roll(seed: int, number: int) -> tuple[str, ...]:
    """Roll number ``number`` (0 = the first turn's) of the game dealt from ``seed``.

    Each roll is drawn from a hash of the game's seed and the roll's number (BLAKE2b), so a
    state needs to carry no random generator: the same seed gives the same rolls in the same
    order. The hash's bits are read as a number below ``faces ** dice`` (drawing again in
    the rare case they fall above the largest whole multiple of it, so every roll of the
    dice is exactly as likely as it is with real dice), whose digits in base ``faces`` are
    the faces.
    """
    rolls, limit = draw_range()
    for attempt in range(1000):
        text = f"credit-mobilier {seed} {number} {attempt}".encode()
        value = int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")
        if value < limit:
            break
    return roll_of(value % rolls)


def draw_range() -> tuple[int, int]:
    """How many numbers a roll is read from (``faces ** dice``, one per face of each die), and
    the largest whole multiple of that a hash of 64 bits may fall below."""
    box = components()
    rolls = len(box.dice_faces) ** box.dice_count
    return rolls, (1 << 64) // rolls * rolls


def roll_of(value: int) -> tuple[str, ...]:
    """The roll read from a number below ``faces ** dice``: its digits in base ``faces``, sorted."""
    box = components()
    drawn = []
    for _ in range(box.dice_count):
        value, face = divmod(value, len(box.dice_faces))
        drawn.append(box.dice_faces[face])
    return sort_roll(drawn)


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
