"""The batch simulator's own generator for fresh games (``fast.play_fresh``): splitmix64.

``play_fresh`` plays many fresh games for studies; nothing there has to match another
engine draw for draw (``simulate`` plays the readable engine's very games with Python's
generator, ``fast_record``; the Monte-Carlo rollouts keep numpy's). Numpy's Mersenne
Twister with its rejection loop took about 45% of a random game's time; a splitmix64 step
and a multiply-shift onto ``0 .. n - 1`` (as the C reference, ``benchmarks/mogul_ref.c``)
take a few instructions. A generator is a one-element uint64 array, its state.

Also here, for the rollouts of a position (``fast_kernels`` re-exports it): the hidden pile
redealt by the crash rule with numpy's generator, ``deal_hidden_pile``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from mogul.games.mogul.fast_table import CRASH, drop_stale_caches

_jit = nb.njit(cache=True, nogil=True)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1, MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


@_jit
def new_rng(seed):
    """A generator seeded with ``seed`` (any whole number that fits 64 bits)."""
    return np.full(1, np.uint64(seed))


@_jit
def below(rng, n):
    """A whole number in 0 .. n - 1 (n >= 1), each about equally likely (bias below n / 2**32)."""
    z = rng[0] + GOLDEN
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z ^= z >> np.uint64(31)
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@_jit
def shuffle(rng, x, n):
    """Fisher-Yates over ``x[:n]``."""
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]


@_jit
def deal_hidden_pile(t):
    """Shuffle the unseen shares and place the crash by the crash rule (determinize.py)."""
    left = t.pile_size - t.top
    shares = np.empty((left - 1, 2), np.int64)
    n = 0
    for i in range(t.top, t.pile_size):
        if t.pile_company[i] != CRASH:
            shares[n, 0], shares[n, 1] = t.pile_company[i], t.pile_border[i]
            n += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = np.random.randint(i + 1)
        shares[i, 0], shares[j, 0] = shares[j, 0], shares[i, 0]
        shares[i, 1], shares[j, 1] = shares[j, 1], shares[i, 1]
    window = min(t.crash_window, left)
    crash = left - window + np.random.randint(window)
    k = 0
    for i in range(left):
        if i == crash:
            t.pile_company[t.top + i], t.pile_border[t.top + i] = CRASH, CRASH
        else:
            t.pile_company[t.top + i], t.pile_border[t.top + i] = shares[k, 0], shares[k, 1]
            k += 1


drop_stale_caches(globals())
