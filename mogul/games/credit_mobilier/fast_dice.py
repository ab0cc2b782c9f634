"""The readable engine's dice at compiled speed: which roll ``dice.roll`` draws, 64 at a time.

``dice.roll(seed, number)`` hashes the text ``"credit-mobilier {seed} {number} {attempt}"``
with BLAKE2b (digest 8 bytes, no key), reads the digest as a big-endian number and, if it
falls below the largest whole multiple of the number of rolls (else the next attempt), takes
the roll of that number modulo the number of rolls. A game of Credit Mobilier rolls about
190 times; hashed one by one in Python that was most of the batch engine's time when it plays
the readable engine's games (``fast.play_states``, ``simulate``). Here the compression
function of ``mogul.kit.seed_hash`` hashes 64 rolls side by side.
``tests/credit_mobilier/test_cm_fast_dice.py`` checks every roll number against ``dice.roll``
(and against ``hashlib``, attempts included).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numba as nb
import numpy as np

from mogul.games.credit_mobilier.components import components
from mogul.games.credit_mobilier.dice import draw_range, roll_of
from mogul.kit.seed_hash import HASH_LANES, IV, _compress_lanes, _put_digits, compress, word_at

_jit = nb.njit(cache=True, nogil=True)

PREFIX = np.frombuffer(b"credit-mobilier ", np.uint8)
"""The start of every roll's text (``dice.roll``)."""

LARGEST_SEED = 2**63 - 1
"""Seeds up to this are hashed here; larger ones (and negative ones) by ``dice.roll`` itself."""


@_jit
def _message(text, start, number, attempt, words):
    """Write ``"{number} {attempt}"`` after the ``start`` bytes of ``text`` (the seed's part) and
    put the zero-padded block in ``words`` (16 little-endian words); returns the text's length."""
    text[start:] = 0
    size = _put_digits(text, start, number)
    text[size] = 32
    size = _put_digits(text, size + 1, attempt)
    for i in range(16):
        words[i] = word_at(text, i)
    return size


@_jit
def _big_endian(word):
    """The digest's eight bytes (``word`` little-endian) read as a big-endian number."""
    out = np.uint64(0)
    for b in range(8):
        out = (out << np.uint64(8)) | ((word >> np.uint64(8 * b)) & np.uint64(0xFF))
    return out


@_jit
def roll_numbers(seed, first, count, rolls, limit, out):
    """``out[n - first]``: which of the ``rolls`` rolls (``dice.roll_of``) roll number ``n`` of
    the game dealt from ``seed`` is, for ``first <= n < count``; ``limit`` is the largest whole
    multiple of ``rolls`` a digest may fall below (``dice.draw_range``)."""
    h0 = IV.copy()
    h0[0] ^= np.uint64(0x01010000 | 8)  # depth 1, fanout 1, no key, digest 8 bytes
    text = np.zeros(128, np.uint8)
    text[: PREFIX.size] = PREFIX
    start = _put_digits(text, PREFIX.size, seed)
    text[start] = 32
    start += 1
    blocks = np.zeros((16, HASH_LANES), np.uint64)
    words = np.zeros(16, np.uint64)
    counted = np.zeros(HASH_LANES, np.int64)
    state = np.empty((16, HASH_LANES), np.uint64)
    h = np.empty(8, np.uint64)
    v = np.empty(16, np.uint64)
    size = np.uint64(rolls)
    for at in range(first, count, HASH_LANES):
        lanes = min(HASH_LANES, count - at)
        for k in range(lanes):
            counted[k] = _message(text, start, at + k, 0, words)
            blocks[:, k] = words
        _compress_lanes(h0, blocks, counted, state, lanes)
        for k in range(lanes):
            value = _big_endian(state[0, k])
            attempt = 0
            while value >= limit:  # about once in 2 ** 51 rolls: hash the next attempt
                attempt += 1
                length = _message(text, start, at + k, attempt, words)
                h[:] = h0
                compress(h, words, length, True, v)
                value = _big_endian(h[0])
            out[at + k - first] = value % size


def face_counts(dice: Sequence[str]) -> list[int]:
    """A roll as the batch engine holds it: how many dice show each face, in dice-face order."""
    return [list(dice).count(face) for face in components().dice_faces]


@cache
def roll_faces() -> np.ndarray:
    """Each roll of ``dice.roll_of`` as its ``face_counts`` (one row per roll)."""
    rolls, _ = draw_range()
    return np.array([face_counts(roll_of(n)) for n in range(rolls)], np.int8)


def rolled(seed: int, first: int, count: int) -> np.ndarray:
    """The rolls ``first`` to ``count - 1`` of the game dealt from ``seed`` (as ``dice.roll``
    rolls them), in counts per face: one row per roll."""
    if not 0 <= seed <= LARGEST_SEED:
        raise ValueError(f"seeds from 0 to 2**63 - 1 are rolled here, not {seed}")
    rolls, limit = draw_range()
    numbers = np.empty(max(count - first, 0), np.int64)
    roll_numbers(seed, first, count, rolls, np.uint64(limit), numbers)
    return roll_faces()[numbers]
