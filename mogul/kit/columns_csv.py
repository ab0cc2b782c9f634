"""The compiled CSV writer of ``mogul.kit.columns``: rows formatted straight into bytes.

Kept apart so that ``columns`` loads without numba; ``columns.csv_bytes`` prepares the
arrays. Whole numbers are written as digits, coded text as its label (already quoted where
CSV needs it), tuples as Python writes them (``()``, ``"(2,)"``, ``"(0, 1)"``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

_jit = nb.njit(cache=True, nogil=True)

COMMA, QUOTE, NEWLINE, OPEN, CLOSE, SPACE, MINUS, ZERO = 44, 34, 10, 40, 41, 32, 45, 48


@_jit
def write_int(out, pos, value):
    """``value`` in decimal at ``out[pos]``; returns the position after it."""
    if value < 0:
        out[pos] = MINUS
        pos += 1
        value = -value
    digits = 1
    rest = value // 10
    while rest:
        digits += 1
        rest //= 10
    for k in range(digits - 1, -1, -1):
        out[pos + k] = ZERO + value % 10
        value //= 10
    return pos + digits


@_jit
def format_rows(count, order, plain, coded, text, label_ends, values, starts, lengths):
    """The CSV lines of ``count`` rows; ``order[k]`` = (kind, index) of output column k:
    0 whole numbers ``plain[index]``, 1 labels ``coded[index]`` (label c is
    ``text[label_ends[c-1]:label_ends[c]]``), 2 tuples (``values[index]`` from ``starts``,
    ``lengths``)."""
    longest = 0
    for c in range(len(label_ends)):
        longest = max(longest, label_ends[c] - (label_ends[c - 1] if c else 0))
    size = count * (1 + len(order) * max(22, longest + 1))
    for i in range(len(lengths)):
        size += 4 * count + 22 * lengths[i].sum()
    out = np.empty(size, np.uint8)
    pos = 0
    for r in range(count):
        for k in range(len(order)):
            if k:
                out[pos] = COMMA
                pos += 1
            kind, i = order[k, 0], order[k, 1]
            if kind == 0:
                pos = write_int(out, pos, plain[i, r])
            elif kind == 1:
                c = coded[i, r]
                a, b = (label_ends[c - 1] if c else 0), label_ends[c]
                out[pos : pos + b - a] = text[a:b]
                pos += b - a
            else:
                n, s, tuple_values = lengths[i, r], starts[i, r], values[i]
                if n:
                    out[pos] = QUOTE
                    pos += 1
                out[pos] = OPEN
                pos += 1
                for j in range(n):
                    if j:
                        out[pos], out[pos + 1] = COMMA, SPACE
                        pos += 2
                    pos = write_int(out, pos, tuple_values[s + j])
                if n == 1:
                    out[pos] = COMMA
                    pos += 1
                out[pos] = CLOSE
                pos += 1
                if n:
                    out[pos] = QUOTE
                    pos += 1
        out[pos] = NEWLINE
        pos += 1
    return out[:pos]
