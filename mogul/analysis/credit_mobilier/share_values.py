"""What a Credit Mobilier share earns: the dividends to come, averaged over the shares held
(``share_values``, ``by_turn``, ``start_values``), and how often the bots pay a company out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from mogul.analysis import intervals
from mogul.analysis.intervals import Z95
from mogul.games.credit_mobilier.components import COMPANIES
from mogul.games.credit_mobilier.dice import DIVIDEND, allowance

COLUMNS = ["game", "turn", "company", "treasury", "shares_held", "to_come"]


def _with_game(frame: pd.DataFrame) -> pd.DataFrame:
    """A simulation's table as it is, or one game's table with ``game`` 0 added."""
    return frame if "game" in frame.columns else frame.assign(game=0)


def round_payouts(dividends: pd.DataFrame) -> pd.DataFrame:
    """One row per round of dividends: ``game``, ``turn``, ``round``, ``company``, ``paid``
    (dollars in all), ``shares`` (held by all players) and ``per_share``: ``paid / shares``,
    or $1 in a round paid while nobody held a share (a share held then would have earned it).

    ``dividends`` is the game's ``dividends`` table (one row per round and seat), of one game
    or of a simulation.
    """
    columns = ["game", "turn", "round", "company", "paid", "shares", "per_share"]
    if dividends.empty:  # a game in which no company paid
        empty = {c: pd.Series(dtype=object if c == "company" else int) for c in columns}
        return pd.DataFrame({**empty, "per_share": pd.Series(dtype=float)})
    rounds = (
        _with_game(dividends)
        .groupby(["game", "turn", "round", "company"], sort=False, as_index=False)[
            ["paid", "shares"]
        ]
        .sum()
    )
    # A round paid while nobody held a share (the rules allow it) paid no one, but a share held
    # then would have earned $1: a company pays only with at least $1 in its treasury.
    held = rounds["shares"] > 0
    rounds["per_share"] = 1.0
    rounds.loc[held, "per_share"] = rounds.loc[held, "paid"] / rounds.loc[held, "shares"]
    return rounds[columns]


def share_values(treasuries: pd.DataFrame, dividends: pd.DataFrame) -> pd.DataFrame:
    """Dividends to come per share, for every game, turn and company.

    ``treasuries`` and ``dividends`` are the game's tables of the same games (one game's, from
    ``record.table(...)``, or a simulation's). One row per game, turn and company, read as the
    turn begins: ``treasury``, ``shares_held``, and ``to_come``: the sum of ``per_share``
    (``round_payouts``) over that company's rounds from this turn on.
    """
    table = _with_game(treasuries)
    if "final" in table.columns:
        table = table[~table["final"].astype(bool)]
    values = table[["game", "turn", "company", "treasury", "shares_held"]].copy()
    payouts = round_payouts(dividends)
    per_turn = payouts.groupby(["game", "company", "turn"], as_index=False)["per_share"].sum()
    # dividends from turn t on = (all the game's dividends) - (those of turns before t)
    merged = values.merge(per_turn, on=["game", "company", "turn"], how="left").fillna(
        {"per_share": 0.0}
    )
    merged = merged.sort_values(["game", "company", "turn"], kind="stable")
    by_company = merged.groupby(["game", "company"], sort=False)["per_share"]
    merged["to_come"] = by_company.transform("sum") - by_company.cumsum() + merged["per_share"]
    out = merged.sort_values(["game", "turn"], kind="stable").reset_index(drop=True)
    out["to_come"] = out["to_come"].round(9)
    return out[COLUMNS]


def by_turn(values: pd.DataFrame, min_games: int = 1) -> pd.DataFrame:
    """Averages of ``share_values`` per turn and company, over the games still running.

    Columns ``turn``, ``company``, ``games`` (games that reached the turn), ``to_come``,
    ``treasury`` and ``shares_held`` (means), and ``low``/``high``: the normal 95% interval of
    ``to_come`` over the games. Turns reached by fewer than ``min_games`` games
    are left out (a few long games would make the end of the curve noise).
    """
    grouped = values.groupby(["turn", "company"], sort=False)
    out = grouped[["to_come", "treasury", "shares_held"]].mean()
    out.insert(0, "games", grouped["game"].nunique())
    half = Z95 * grouped["to_come"].std(ddof=1).fillna(0.0) / out["games"].pow(0.5)
    out["low"] = out["to_come"] - half
    out["high"] = out["to_come"] + half
    out = out.reset_index().sort_values(["turn", "company"], key=company_order, kind="stable")
    return out[out["games"] >= min_games].reset_index(drop=True)


def start_values(values: pd.DataFrame) -> pd.DataFrame:
    """Per company: the mean dividends to come as the first turn begins with its 95% interval
    (normal, over games), and the chance (share of games) that a share held from then on
    earned $1 or more on average.

    Index: company (railroads, then purple); columns ``to_come``, ``low``, ``high``, ``games``
    and ``earns_its_price``.
    """
    grouped = _first_turn(values).groupby("company", sort=False)["to_come"]
    out = pd.DataFrame([mean_interval(v) for _, v in grouped], index=[c for c, _ in grouped])
    out = out.rename(columns={"mean": "to_come", "n": "games"})
    out["earns_its_price"] = grouped.apply(lambda v: float((v >= 1).mean()))
    out.index.name = "company"
    return out.sort_index(key=company_order)


def _first_turn(values: pd.DataFrame) -> pd.DataFrame:
    """``share_values`` as each game's first turn begins: one row per game and company."""
    return values[values["turn"] == values.groupby("game")["turn"].transform("min")]


def paired_start_difference(values: pd.DataFrame, first: str, second: str) -> dict[str, float]:
    """How much more a ``first`` share held from the first turn earns than a ``second`` share,
    game by game on the same games (``share_values``' ``to_come``): ``mean``, ``low``, ``high``
    (its normal 95% interval over the games) and ``n`` (games). Paired, so what the games share
    (their length, how much track was built) drops out of the comparison.

    >>> values = pd.DataFrame({"game": [0, 0, 1, 1], "turn": 1, "company": ["purple", "red"] * 2,
    ...     "to_come": [7.0, 6.0, 5.0, 5.0]})
    >>> paired_start_difference(values, "purple", "red")
    {'mean': 0.5, 'low': -0.48, 'high': 1.48, 'n': 2}
    """
    table = _first_turn(values).pivot(index="game", columns="company", values="to_come")
    return mean_interval(table[first] - table[second])


def start_difference(values: pd.DataFrame, other: pd.DataFrame, company: str) -> dict[str, float]:
    """How much more a ``company`` share held from the first turn earns in the games of
    ``other`` than in those of ``values`` (two simulations, so independent samples): ``mean``
    with its normal 95% interval ``low``, ``high``.

    >>> a = pd.DataFrame({"game": [0, 1], "turn": 1, "company": "blue", "to_come": [2.0, 4.0]})
    >>> b = pd.DataFrame({"game": [0, 1], "turn": 1, "company": "blue", "to_come": [3.0, 3.0]})
    >>> start_difference(a, b, "blue")
    {'mean': 0.0, 'low': -1.96, 'high': 1.96}
    """
    a, b = (_first_turn(v) for v in (values, other))
    a, b = a.loc[a["company"] == company, "to_come"], b.loc[b["company"] == company, "to_come"]
    mean, low, high = intervals.difference_interval(a, b)
    return {"mean": mean, "low": low, "high": high}


def mean_interval(sample: Sequence[float] | pd.Series) -> dict[str, float]:
    """The mean of ``sample`` with its normal 95% interval: ``mean``, ``low``, ``high``, ``n``.

    >>> mean_interval([1, 2, 3, 4])
    {'mean': 2.5, 'low': 1.2348, 'high': 3.7652, 'n': 4}
    """
    values = pd.Series(sample, dtype=float).dropna()
    mean, low, high = intervals.mean_interval(values)
    return {"mean": mean, "low": low, "high": high, "n": len(values)}


def pay_out_share(turns: pd.DataFrame, treasuries: pd.DataFrame, company: str) -> dict[str, Any]:
    """How often the players paid ``company`` out when they could, from a simulation's (or one
    game's) ``turns`` and ``treasuries`` tables.

    A turn could pay the company out when its roll allows dividends of that colour (an orange
    die and the colour, ``dice.allowance``) and the treasury held at least $1 as the turn began.
    Returns ``could`` (such turns), ``paid`` (those whose colour and kind were the company's
    dividends) and ``share`` (paid / could).

    >>> turns = pd.DataFrame({"game": [0, 0], "turn": [1, 2], "dice": ["purple orange red red red",
    ...     "purple orange red red red"], "colour": ["purple", "red"], "kind": ["dividends", "build"]})
    >>> money = pd.DataFrame({"game": [0, 0], "turn": [1, 2], "company": ["purple"] * 2,
    ...     "treasury": [2, 2]})
    >>> pay_out_share(turns, money, "purple")
    {'could': 2, 'paid': 1, 'share': 0.5}
    """
    if company not in COMPANIES:
        raise ValueError(f"unknown company {company!r}; allowed: {list(COMPANIES)}")
    money = _with_game(treasuries)
    if "final" in money.columns:
        money = money[~money["final"].astype(bool)]
    money = money.loc[money["company"] == company, ["game", "turn", "treasury"]]
    table = _with_game(turns).merge(money, on=["game", "turn"])
    allowed = table["dice"].map(lambda dice: allowance(dice.split(), company, DIVIDEND) > 0)
    could = table[allowed & (table["treasury"] >= 1)]
    paid = int(((could["colour"] == company) & (could["kind"] == DIVIDEND)).sum())
    return {"could": len(could), "paid": paid, "share": paid / len(could) if len(could) else 0.0}


def company_order(column: pd.Series | pd.Index) -> pd.Series | pd.Index:
    """Sort key: companies in the game's order (red, yellow, green, blue, purple)."""
    if column.name != "company":
        return column
    return column.map(lambda c: COMPANIES.index(c) if c in COMPANIES else len(COMPANIES))
