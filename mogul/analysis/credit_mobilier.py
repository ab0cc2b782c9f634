"""What a Credit Mobilier share is worth: the dividends it still earns before the game ends.

A share costs $1 and pays only dividends (cash is all that counts at the end). In one round
of dividends every share held earns $1 until the treasury runs dry, so one round pays each
share on average ``paid / shares held`` dollars (1 for a full round, less when the money ran
out part way). The **dividends to come** of a company's share as a turn begins is the sum of
that average over every round the company pays from that turn to the end of the game: what
one share held from then on earns, on average over the shares of the company.

Railroad shares earn from their treasury, which fills when their goods (and goods over their
track) move west; the Credit Mobilier (purple) share earns from the construction company's
treasury, which the bank fills with $2 for every section of track anyone builds.

    >>> from mogul.kit.simulate import simulate
    >>> sim = simulate("credit-mobilier", ["dividend"], games=4, players=3, seed=1,
    ...                tables=("games", "treasuries", "dividends"), progress=False)
    >>> values = share_values(sim.treasuries, sim.dividends)
    >>> sorted(values.columns)
    ['company', 'game', 'shares_held', 'to_come', 'treasury', 'turn']

The functions are pure: tables in, tidy frames out. ``mogul.plots.credit_mobilier.
dividends_to_come_figure`` draws ``by_turn``.
"""

from __future__ import annotations

import pandas as pd

from mogul.games.credit_mobilier.components import COMPANIES

__all__ = ["by_turn", "round_payouts", "share_values", "start_values"]

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
        .groupby(["game", "turn", "round", "company"], sort=False, as_index=False)[["paid", "shares"]]
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
    merged = values.merge(per_turn, on=["game", "company", "turn"], how="left").fillna({"per_share": 0.0})
    merged = merged.sort_values(["game", "company", "turn"], kind="stable")
    by_company = merged.groupby(["game", "company"], sort=False)["per_share"]
    merged["to_come"] = by_company.transform("sum") - by_company.cumsum() + merged["per_share"]
    out = merged.sort_values(["game", "turn"], kind="stable").reset_index(drop=True)
    out["to_come"] = out["to_come"].round(9)
    return out[COLUMNS]


def by_turn(values: pd.DataFrame, min_games: int = 1) -> pd.DataFrame:
    """Averages of ``share_values`` per turn and company, over the games still running.

    Columns ``turn``, ``company``, ``games`` (games that reached the turn), ``to_come``,
    ``treasury`` and ``shares_held`` (means). Turns reached by fewer than ``min_games`` games
    are left out (a few long games would make the end of the curve noise).
    """
    grouped = values.groupby(["turn", "company"], sort=False)
    out = grouped[["to_come", "treasury", "shares_held"]].mean()
    out.insert(0, "games", grouped["game"].nunique())
    out = out.reset_index().sort_values(["turn", "company"], key=_company_order, kind="stable")
    return out[out["games"] >= min_games].reset_index(drop=True)


def start_values(values: pd.DataFrame) -> pd.DataFrame:
    """Per company: the mean dividends to come as the first turn begins, and the chance
    (share of games) that a share bought then earns back its $1 price or more.

    Index: company (railroads, then purple); columns ``to_come`` and ``earns_its_price``.
    """
    first = values[values["turn"] == values.groupby("game")["turn"].transform("min")]
    grouped = first.groupby("company", sort=False)["to_come"]
    out = pd.DataFrame({"to_come": grouped.mean(), "earns_its_price": grouped.apply(lambda v: float((v >= 1).mean()))})
    return out.sort_index(key=_company_order)


def _company_order(column: pd.Series | pd.Index) -> pd.Series | pd.Index:
    """Sort key: companies in the game's order (red, yellow, green, blue, purple)."""
    if column.name != "company":
        return column
    return column.map(lambda c: COMPANIES.index(c) if c in COMPANIES else len(COMPANIES))
