"""The bot seeds of ``runner.plan_games`` at compiled speed: keyed BLAKE2b, as ``hashlib`` has it.

A game's bot seed for a seat is the first four bytes (big-endian) of BLAKE2b with a 64-byte
key over the text ``"<game> <seat>"``, digest size 4 (``batch.bot_seeds``). Computing it
with ``hashlib`` costs about two microseconds of Python per seat, which at a million games
is several seconds; here the compression function (RFC 7693) runs compiled, the key's block
compressed once per call and the messages' blocks 64 at a time, side by side in vector
instructions (a seventh of the time of one after the other). ``tests/test_batch.py`` checks
the seeds equal ``hashlib``'s.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_jit = nb.njit(cache=True, nogil=True)

IV = np.array(
    [
        0x6A09E667F3BCC908,
        0xBB67AE8584CAA73B,
        0x3C6EF372FE94F82B,
        0xA54FF53A5F1D36F1,
        0x510E527FADE682D1,
        0x9B05688C2B3E6C1F,
        0x1F83D9ABFB41BD6B,
        0x5BE0CD19137E2179,
    ],
    np.uint64,
)
SIGMA = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ],
    np.int64,
)
# The eight mixings of a round: the four columns, then the four diagonals.
LANES = np.array(
    [
        [0, 4, 8, 12],
        [1, 5, 9, 13],
        [2, 6, 10, 14],
        [3, 7, 11, 15],
        [0, 5, 10, 15],
        [1, 6, 11, 12],
        [2, 7, 8, 13],
        [3, 4, 9, 14],
    ],
    np.int64,
)


@_jit
def _rotr(x, n):
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@_jit
def compress(h, block, counted, last, v):
    """BLAKE2b's compression of one 128-byte ``block`` (16 words) into ``h``; ``counted``
    bytes so far, this block included; ``last`` for the final block (``v``: 16 words of
    room)."""
    v[:8] = h
    v[8:] = IV
    v[12] ^= np.uint64(counted)
    if last:
        v[14] = ~v[14]
    for r in range(12):
        s = SIGMA[r % 10]
        for i in range(8):
            a, b, c, d = LANES[i, 0], LANES[i, 1], LANES[i, 2], LANES[i, 3]
            v[a] = v[a] + v[b] + block[s[2 * i]]
            v[d] = _rotr(v[d] ^ v[a], 32)
            v[c] = v[c] + v[d]
            v[b] = _rotr(v[b] ^ v[c], 24)
            v[a] = v[a] + v[b] + block[s[2 * i + 1]]
            v[d] = _rotr(v[d] ^ v[a], 16)
            v[c] = v[c] + v[d]
            v[b] = _rotr(v[b] ^ v[c], 63)
    for i in range(8):
        h[i] ^= v[i] ^ v[i + 8]


@_jit
def _put_digits(text, pos, value):
    digits = 1
    rest = value // 10
    while rest:
        digits += 1
        rest //= 10
    for k in range(digits - 1, -1, -1):
        text[pos + k] = 48 + value % 10
        value //= 10
    return pos + digits


@_jit
def word_at(text, i):
    """Word ``i`` of a message block: bytes ``8 i`` to ``8 i + 7`` of ``text``, little-endian."""
    word = np.uint64(0)
    for b in range(8):
        word |= np.uint64(text[8 * i + b]) << np.uint64(8 * b)
    return word


HASH_LANES = 64  # hashes computed side by side


@_jit
def _compress_lanes(h, block, counted, v, lanes):
    """``compress`` of the final blocks of ``lanes`` messages side by side: ``h`` (8 words)
    the state they share, ``block[:, k]`` message k's block, ``counted[k]`` its byte count;
    ``v[:8]`` becomes each message's new state. Each step of the mixing works on one word
    of every message at once, in vector instructions."""
    for i in range(8):
        v[i, :lanes] = h[i]
        v[i + 8, :lanes] = IV[i]
    for k in range(lanes):
        v[12, k] ^= np.uint64(counted[k])
        v[14, k] = ~v[14, k]
    for r in range(12):
        s = SIGMA[r % 10]
        for i in range(8):
            a, b, c, d = LANES[i, 0], LANES[i, 1], LANES[i, 2], LANES[i, 3]
            x, y = s[2 * i], s[2 * i + 1]
            for k in range(lanes):
                va = v[a, k] + v[b, k] + block[x, k]
                vd = _rotr(v[d, k] ^ va, 32)
                vc = v[c, k] + vd
                vb = _rotr(v[b, k] ^ vc, 24)
                va = va + vb + block[y, k]
                vd = _rotr(vd ^ va, 16)
                vc = vc + vd
                v[a, k], v[b, k], v[c, k], v[d, k] = va, _rotr(vb ^ vc, 63), vc, vd
    for i in range(8):
        for k in range(lanes):
            v[i, k] = h[i] ^ v[i, k] ^ v[i + 8, k]


@_jit
def game_seat_hashes(key, first, count, players, out):
    """``out[g, seat]``: BLAKE2b(key=``key`` (64 bytes), digest 4) of ``"<first + g> <seat>"``,
    read big-endian, for every game g < count and seat (``HASH_LANES`` at a time)."""
    h0 = IV.copy()
    h0[0] ^= np.uint64(0x01010000 | (64 << 8) | 4)  # depth 1, fanout 1, key 64 bytes, digest 4
    block = np.zeros(16, np.uint64)
    for i in range(8):
        block[i] = word_at(key, i)
    v = np.empty(16, np.uint64)
    compress(h0, block, 128, False, v)  # the key's block, the same for every message
    text = np.zeros(40, np.uint8)
    blocks = np.zeros((16, HASH_LANES), np.uint64)
    counted = np.zeros(HASH_LANES, np.int64)
    state = np.empty((16, HASH_LANES), np.uint64)
    total = count * players
    for start in range(0, total, HASH_LANES):
        lanes = min(HASH_LANES, total - start)
        for k in range(lanes):
            g, seat = divmod(start + k, players)
            text[:] = 0
            size = _put_digits(text, 0, first + g)
            text[size] = 32
            size = _put_digits(text, size + 1, seat)
            for i in range(5):
                blocks[i, k] = word_at(text, i)
            counted[k] = 128 + size
        _compress_lanes(h0, blocks, counted, state, lanes)
        for k in range(lanes):
            g, seat = divmod(start + k, players)
            low = state[0, k] & np.uint64(0xFFFFFFFF)  # the digest's bytes, little-endian
            out[g, seat] = (
                ((low & np.uint64(0xFF)) << np.uint64(24))
                | ((low >> np.uint64(8) & np.uint64(0xFF)) << np.uint64(16))
                | ((low >> np.uint64(16) & np.uint64(0xFF)) << np.uint64(8))
                | (low >> np.uint64(24))
            )
