"""Credit Mobilier's dice at compiled speed: every roll the readable engine would roll.

``fast_dice`` hashes the rolls 64 side by side; ``dice.roll`` one at a time with ``hashlib``.
They must agree roll for roll, from any seed, on the rare draws hashed again, and with
scripted rolls before the drawn ones.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier import dice, fast, fast_dice
from mogul.games.credit_mobilier.components import components
from mogul.games.credit_mobilier.rules import next_roll


def faces(roll: tuple[str, ...]) -> list[int]:
    return [roll.count(face) for face in components().dice_faces]


@pytest.mark.parametrize("seed", [0, 1, 7, 10**9 + 7, 2**62 + 5, 2**63 - 1])
def test_every_roll_is_the_readable_engines(seed: int) -> None:
    # 300 rolls: more than a game's, and not a whole number of 64-roll batches
    expected = np.array([faces(dice.roll(seed, n)) for n in range(5, 305)], np.int8)
    assert (fast_dice.rolled(seed, 5, 305) == expected).all()


def test_a_digest_above_the_limit_is_hashed_again_as_the_rulebook_dice_are_drawn() -> None:
    """With a limit of half the digests, about half the rolls need a second attempt (or more):
    the roll numbers must be those of hashing "credit-mobilier 3 n attempt" until one falls below."""
    rolls = 7776
    limit = 2**63 // rolls * rolls

    def digest(n: int, attempt: int) -> int:
        text = f"credit-mobilier 3 {n} {attempt}".encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")

    def reference(n: int) -> int:
        for attempt in range(100):
            if (value := digest(n, attempt)) < limit:
                return value % rolls
        raise AssertionError("no digest below the limit in 100 attempts")

    numbers = np.empty(200, np.int64)
    fast_dice.roll_numbers(3, 0, 200, rolls, np.uint64(limit), numbers)
    assert list(numbers) == [reference(n) for n in range(200)]
    again = sum(digest(n, 0) >= limit for n in range(200))
    assert 60 < again < 140  # the second attempts were really taken


def test_scripted_rolls_come_first_then_the_seeds() -> None:
    scripted = [["orange", "red", "red", "yellow", "purple"], ["blue"] * 5]
    state = cm.new_game(4, seed=12, dice=scripted)
    expected = np.array([faces(next_roll(state.setup, n)) for n in range(0, 150)], np.int8)
    assert (fast.rolls_of(state, 0, 150) == expected).all()
    assert (fast.rolls_of(state, 1, 150)[1:] == expected[1:]).all()
    assert not fast.rolls_of(state, 1, 150)[0].any()  # rows before ``first`` are left 0


def test_seeds_out_of_range_are_refused_here_and_rolled_by_the_readable_engine() -> None:
    with pytest.raises(ValueError, match="seeds from 0 to 2\\*\\*63 - 1"):
        fast_dice.rolled(-1, 0, 10)
    state = cm.new_game(4, seed=2**64 + 3)
    expected = np.array([faces(dice.roll(2**64 + 3, n)) for n in range(0, 20)], np.int8)
    assert (fast.rolls_of(state, 0, 20) == expected).all()
