"""Means with their normal 95% intervals, and tables that write each value with its interval.

The analyses give a value and its interval in three columns (``x``, ``x low``, ``x high``);
printed side by side for two editions and their difference they run to 120 characters and
the page wraps them mid-word. ``interval_table`` writes each value with its interval in one
column: ``25.94 (25.75 to 26.14)``. ``mean_over_games`` gives a mean over many uses (or
pairs) with its interval computed over the games they came from.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

__all__ = ["Z95", "difference_interval", "interval_table", "mean_interval", "mean_over_games"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def mean_interval(sample: Sequence[float] | pd.Series) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``sample`` and its normal 95% interval.

    >>> mean_interval([1, 2, 3, 4])
    (2.5, 1.2348, 3.7652)
    """
    values = pd.Series(sample, dtype=float).dropna()
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / len(values) ** 0.5 if len(values) > 1 else float("nan")
    return round(mean, 9), round(mean - half, 4), round(mean + half, 4)


def difference_interval(a: pd.Series, b: pd.Series) -> tuple[float, float, float]:
    """(difference, low, high): the mean of ``b`` minus the mean of ``a`` (independent samples)
    with its normal 95% interval.

    >>> difference_interval(pd.Series([2.0, 4.0]), pd.Series([3.0, 3.0]))
    (0.0, -1.96, 1.96)
    """
    a, b = a.astype(float), b.astype(float)
    diff = float(b.mean() - a.mean())
    half = Z95 * float(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)) ** 0.5
    return round(diff, 9), round(diff - half, 4), round(diff + half, 4)


def interval_table(frame: pd.DataFrame, decimals: int = 2) -> pd.DataFrame:
    """``frame`` with every column followed by its interval's bounds written as one column.

    A column ``x`` followed by ``x low`` and ``x high`` (or ``x_low`` and ``x_high``, or
    just ``low`` and ``high``) becomes ``x``: "value (low to high)", rounded to ``decimals``;
    other columns are rounded and kept.

    >>> frame = pd.DataFrame({"classic": [25.943], "classic low": [25.7465],
    ...     "classic high": [26.1435], "difference": [-1.55], "low": [-1.8], "high": [-1.3],
    ...     "games": [200]}, index=pd.Index(["cards"], name="measure"))
    >>> interval_table(frame).loc["cards"].astype(str).tolist()
    ['25.94 (25.75 to 26.14)', '-1.55 (-1.80 to -1.30)', '200']
    """
    columns = list(frame.columns)
    frame = frame.round(decimals)  # as pandas rounds (25.945 -> 25.94), before formatting
    out = pd.DataFrame(index=frame.index)
    i = 0
    while i < len(columns):
        name = columns[i]
        bounds = columns[i + 1 : i + 3]
        if bounds in (
            [f"{name} low", f"{name} high"],
            [f"{name}_low", f"{name}_high"],
            ["low", "high"],
        ):
            low, high = (frame[b] for b in bounds)
            out[name] = [
                f"{v:.{decimals}f} ({lo:.{decimals}f} to {hi:.{decimals}f})"
                for v, lo, hi in zip(frame[name], low, high, strict=True)
            ]
            i += 3
        else:
            out[name] = frame[name]
            i += 1
    return out


def mean_over_games(
    values: pd.Series, games: pd.Series | None = None
) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``values`` (one per use) with its normal 95% interval
    computed over ``games`` (the game of each use), the games being the independent units.

    The uses within one game hang together (the same players, the same map), so the interval
    is the ratio estimator's with the games as clusters: mean = sum / uses, its variance
    G/(G-1) * sum over games of (sum_g - mean * uses_g)^2 / uses^2 for G games. Without
    ``games`` every use counts as its own game.

    >>> mean_over_games(pd.Series([1.0, 1.0, 3.0, 3.0]), pd.Series([0, 0, 1, 1]))
    (2.0, 0.04, 3.96)
    """
    values = values.astype(float)
    games = pd.Series(range(len(values)), index=values.index) if games is None else games
    per_game = values.groupby(games.to_numpy()).agg(["sum", "size"])
    n, g = float(per_game["size"].sum()), len(per_game)
    mean = float(per_game["sum"].sum()) / n
    residual = per_game["sum"] - mean * per_game["size"]
    half = Z95 * (g / (g - 1) * float((residual**2).sum())) ** 0.5 / n if g > 1 else 0.0
    return round(mean, 9), round(mean - half, 4), round(mean + half, 4)
