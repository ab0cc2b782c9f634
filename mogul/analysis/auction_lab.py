"""The auction lab's debrief: what a class bid beside what the theory predicts.

Everything starts from the lab's ``rounds`` table (one row per round and seat: value, bid,
drop point, won, payment, payoff), as a classroom export writes it (``code`` names the
table, ``player`` the student) or as ``simulate("auction-lab", ...)`` gives it (``game``
names the game; each seat of each game counts as one stand-in student). ``with_theory``
puts beside every row the equilibrium's bid or drop point for the seat's value and the
equilibrium played on the same values; the summaries then average per student first:

    one mean per student (over the rounds the student played), then the mean across
    students with its normal 95% interval (``mogul.analysis.intervals.mean_interval``).

A student's bids hang together (one habit, one mind), so the students are the independent
units, not the bids. Students of one group share their rounds, so a measure of the round
(revenue, efficiency) counts each round once per seat; its interval is a little narrow
when a group plays the same way.

The theory (``mogul.games.auction_lab.equilibrium`` states each rule):

* ``textbook``: the Bayesian Nash bid of the textbook model (values independent and uniform
  on the distribution's range, continuous bids, risk-neutral bidders, no budget):
  first-price L + (n - 1)/n (v - L), second-price v, all-pay E[Y 1{Y < v}]; English, the
  price v - 1 up to which a seat raises (the dominant strategy in one-chip raises); none for
  Mogul's auction.
* ``equilibrium``: what the kit's equilibrium bot plays with the lab's whole chips and
  budget: the textbook bid rounded to a whole chip within the budget; English, v - 1 within
  the budget; Mogul's auction, the drop point ("drop when the pot reaches k") of the
  epsilon-equilibrium ``mogul.auction`` computed for the seat's place and value (kept in
  the game's ``thresholds.json``; NaN for settings it does not hold).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mogul.analysis.intervals import mean_interval
from mogul.games.auction_lab.bots import EquilibriumBot
from mogul.games.auction_lab.equilibrium import (
    all_pay_bid,
    english_threshold,
    first_price_bid,
    mogul_thresholds,
    textbook_revenue,
    whole,
)
from mogul.games.auction_lab.rules import SEALED, TITLES
from mogul.games.auction_lab.setup import EDITIONS, new_game
from mogul.games.auction_lab.tables import round_rows
from mogul.games.auction_lab.values import parse_values

__all__ = [
    "ASSUMPTIONS",
    "SETTINGS",
    "across_students",
    "bids_against_values",
    "equilibrium_curve",
    "learning",
    "overbidding",
    "per_student",
    "revenue_and_efficiency",
    "with_theory",
]

SETTINGS = {"values": "uniform 0..10", "budget": 10, "second": 0}
"""The lab's default settings (``new_game``'s), used where a rounds table does not say."""

ASSUMPTIONS = {
    "first-price": "textbook bid L + (n-1)/n (v - L): values independent and uniform, "
    "continuous bids, risk-neutral bidders, no budget (Krishna 2010, ch. 2)",
    "second-price": "bid your value: weakly dominant whatever the others do (Vickrey 1961)",
    "all-pay": "textbook bid E[Y 1{Y < v}], Y the best rival's value: values independent and "
    "uniform, continuous bids, risk-neutral bidders, no budget (Krishna 2010, ch. 2-3)",
    "english": "raise while the new price is below your value: weakly dominant; the drop "
    "point is v - 1 in one-chip raises",
    "mogul": "no textbook bid: the drop point of the epsilon-equilibrium that mogul.auction "
    "computes for the seat's place and value, whole chips and the budget included",
}
"""Where each mechanism's equilibrium line comes from, and what it assumes."""


def _settings(rows: pd.DataFrame, name: str, given: object) -> pd.Series:
    """The setting ``name`` of every row: its column if the table has one, else ``given``."""
    if name in rows.columns:
        return rows[name]
    return pd.Series([given] * len(rows), index=rows.index)


def _student(rows: pd.DataFrame) -> pd.Series:
    if "code" in rows.columns:  # a classroom export: the students by name
        return rows["player"].astype(str)
    return rows["game"].astype(str) + "/" + rows["seat"].astype(str)


def _group(rows: pd.DataFrame) -> pd.Series:
    return (rows["code"] if "code" in rows.columns else rows["game"]).astype(str)


def textbook_bid(mechanism: str, value: float, players: int, values: str) -> float:
    """The textbook bid (sealed bids) or drop price (English) for ``value``; NaN for Mogul's."""
    dist = parse_values(values)
    if mechanism == "first-price":
        return first_price_bid(value, players, dist)
    if mechanism == "all-pay":
        return all_pay_bid(value, players, dist)
    if mechanism == "second-price":
        return float(value)
    if mechanism == "english":
        return float(value - 1)
    return math.nan


def equilibrium_bid(
    mechanism: str,
    value: int,
    players: int,
    position: int,
    values: str = SETTINGS["values"],
    budget: int = SETTINGS["budget"],
    second: int = SETTINGS["second"],
) -> float:
    """What the kit's equilibrium bot plays for ``value`` in whole chips: a sealed bid, or the
    drop point (English: the price; Mogul: the pot) of a seat ``position`` places after the
    start seat with every seat still in. NaN: Mogul's auction for settings without thresholds."""
    if mechanism in SEALED:
        if mechanism == "second-price":
            return float(min(value, budget))
        return float(whole(textbook_bid(mechanism, value, players, values), budget))
    if mechanism == "english":
        return float(english_threshold(value, budget))
    table = mogul_thresholds(players, values, budget, second)
    if table is None:
        return math.nan
    by_value = table[position]
    ks = by_value[min(max(value - parse_values(values).lowest, 0), len(by_value) - 1)]
    return float(ks[min(players - 2, len(ks) - 1)])


def equilibrium_curve(
    mechanism: str,
    players: int,
    values: str = SETTINGS["values"],
    budget: int = SETTINGS["budget"],
    second: int = SETTINGS["second"],
) -> pd.DataFrame:
    """The equilibrium line for a chart: one row per value the distribution can give (and,
    in Mogul's auction, per place after the start seat): value, position (None but in Mogul's
    auction), textbook (NaN in Mogul's) and equilibrium (whole chips)."""
    dist = parse_values(values)
    positions = range(players) if mechanism == "mogul" else [None]
    rows = [
        {
            "value": v,
            "position": p,
            "textbook": textbook_bid(mechanism, v, players, values),
            "equilibrium": equilibrium_bid(mechanism, v, players, p or 0, values, budget, second),
        }
        for p in positions
        for v in range(dist.lowest, dist.highest + 1)
    ]
    return pd.DataFrame(rows)


def _equilibrium_round(
    mechanism: str, values: tuple[int, ...], start: int, settings: tuple
) -> list[dict]:
    """The round played by equilibrium bots on the same values from the same start seat."""
    value_text, budget, second = settings
    if mechanism == "mogul" and mogul_thresholds(len(values), value_text, budget, second) is None:
        return []
    state = new_game(
        EDITIONS[mechanism],
        players=len(values),
        seed=0,
        rounds=1,
        values=value_text,
        budget=budget,
        second=second,
        drawn=[values],
        start_player=start,
    )
    bot = EquilibriumBot()
    while not state.is_over:
        seat = state.current_player
        state = state.apply(bot.choose(state.view(seat), state.legal_actions()))
    return round_rows([state])


def with_theory(
    rounds: pd.DataFrame,
    values: str = SETTINGS["values"],
    budget: int = SETTINGS["budget"],
    second: int = SETTINGS["second"],
) -> pd.DataFrame:
    """``rounds`` with the theory beside each row (the settings: the table's ``values``,
    ``budget`` and ``second`` columns where it has them, else these arguments).

    Added columns: ``student``, ``group``, ``players`` (seats in the round), ``played`` (the
    student's first, second ... round of the mechanism, the tables in the order the table
    lists them: strangers play each round at a new table), ``observed`` (a
    sealed bid; in English and Mogul's auction the drop point, NaN for the winner, who never
    dropped), ``textbook`` and ``equilibrium`` (module docstring) for the same value,
    ``excess`` (observed minus equilibrium), ``ratio`` (observed / value, NaN at value 0),
    and the round played by equilibrium bots on the same values: ``eq_won``, ``eq_payment``,
    ``eq_revenue``, ``eq_efficient`` (NaN where Mogul's thresholds are missing).
    """
    missing = {"round", "seat", "mechanism", "start", "position", "value", "bid", "dropped_at"}
    missing -= set(rounds.columns)
    if missing or not ({"code", "player"} <= set(rounds.columns) or "game" in rounds.columns):
        raise ValueError(
            "expected the auction lab's rounds table (a classroom export's rounds.csv or "
            f"simulate(...).tables['rounds']); missing columns: {sorted(missing) or 'code/game'}"
        )
    out = rounds.copy()
    out["student"], out["group"] = _student(out), _group(out)
    out["players"] = out.groupby(["group", "round"])["seat"].transform("size")
    ordered = out.assign(table_order=pd.factorize(out["group"])[0]).sort_values(
        ["table_order", "round"], kind="stable"
    )
    out["played"] = ordered.groupby(["student", "mechanism"]).cumcount().reindex(out.index) + 1
    settings = pd.Series(
        list(
            zip(
                _settings(out, "values", values),
                _settings(out, "budget", budget).astype(int),
                _settings(out, "second", second).astype(int),
                strict=True,
            )
        ),
        index=out.index,
    )
    sealed = out["mechanism"].isin(SEALED)
    dropped = pd.to_numeric(out["dropped_at"], errors="coerce")
    out["observed"] = np.where(sealed, out["bid"].astype(float), dropped.astype(float))
    out["textbook"] = [
        textbook_bid(m, v, n, s[0])
        for m, v, n, s in zip(out["mechanism"], out["value"], out["players"], settings, strict=True)
    ]
    out["equilibrium"] = [
        equilibrium_bid(m, int(v), int(n), int(p), *s)
        for m, v, n, p, s in zip(
            out["mechanism"], out["value"], out["players"], out["position"], settings, strict=True
        )
    ]
    out["excess"] = out["observed"] - out["equilibrium"]
    out["ratio"] = out["observed"] / out["value"].where(out["value"] > 0)
    played: dict[tuple, dict[int, dict]] = {}
    for (group, number), rows in out.groupby(["group", "round"], sort=False):
        rows = rows.sort_values("seat")
        eq = _equilibrium_round(
            rows["mechanism"].iloc[0],
            tuple(int(v) for v in rows["value"]),
            int(rows["start"].iloc[0]),
            settings[rows.index[0]],
        )
        played[(group, number)] = {r["seat"]: r for r in eq}
    for column, key in (
        ("eq_won", "won"),
        ("eq_payment", "payment"),
        ("eq_revenue", "revenue"),
        ("eq_efficient", "efficient"),
    ):
        out[column] = [
            played[(g, r)].get(s, {}).get(key, math.nan)
            for g, r, s in zip(out["group"], out["round"], out["seat"], strict=True)
        ]
        out[column] = out[column].astype(float)
    return out


def per_student(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """One mean of ``column`` per mechanism and student (over the rows with a number):
    mechanism, student, ``column``, rows."""
    rows = frame.dropna(subset=[column])
    means = rows.groupby(["mechanism", "student"])[column].agg(["mean", "size"]).reset_index()
    return means.rename(columns={"mean": column, "size": "rows"})


def across_students(frame: pd.DataFrame, column: str, by: list[str] | None = None) -> pd.DataFrame:
    """The mean of ``column`` across students with its 95% interval: one mean per student
    first (``per_student``), then per mechanism (and ``by``): ``column``, ``low``, ``high``,
    ``students``."""
    keys = ["mechanism", *(by or [])]
    rows = frame.dropna(subset=[column])
    means = rows.groupby([*keys, "student"])[column].mean().reset_index()
    out = []
    for key, group in means.groupby(keys, sort=False):
        mean, low, high = mean_interval(group[column])
        key = key if isinstance(key, tuple) else (key,)
        out.append({**dict(zip(keys, key, strict=True)), column: mean, "low": low, "high": high})
        out[-1]["students"] = len(group)
    return pd.DataFrame(out, columns=[*keys, column, "low", "high", "students"])


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows in the mechanisms' order (Mogul's, English, first-, second-price, all-pay)."""
    order = {m: i for i, m in enumerate(TITLES)}
    return frame.sort_values("mechanism", key=lambda m: m.map(order), kind="stable").reset_index(
        drop=True
    )


def bids_against_values(frame: pd.DataFrame) -> pd.DataFrame:
    """Per mechanism: how far the observed bids (drop points) lie from the equilibrium's, in
    chips (``excess``), and the share of them above it (``above``), each across students."""
    frame = frame.assign(above=(frame["excess"] > 0).where(frame["excess"].notna()))
    excess = across_students(frame, "excess")
    above = across_students(frame, "above").rename(
        columns={"low": "above low", "high": "above high"}
    )
    table = excess.rename(columns={"low": "excess low", "high": "excess high"}).merge(
        above.drop(columns="students"), on="mechanism"
    )
    return _ordered(table)


def overbidding(frame: pd.DataFrame, mechanism: str = "first-price") -> pd.DataFrame:
    """Each student's bids in ``mechanism`` beside the equilibrium: one row per student with
    the rounds played and the mean of bid - equilibrium (``over``: the whole-chip bid the
    bot plays), bid - textbook (``over_textbook``) and bid / value (``ratio``)."""
    rows = frame[frame["mechanism"] == mechanism]
    if rows.empty:
        raise ValueError(f"no rounds of {mechanism!r} in this table")
    rows = rows.assign(over=rows["excess"], over_textbook=rows["observed"] - rows["textbook"])
    table = rows.groupby("student").agg(
        rounds=("round", "size"),
        over=("over", "mean"),
        over_textbook=("over_textbook", "mean"),
        ratio=("ratio", "mean"),
    )
    return table.reset_index()


def revenue_and_efficiency(frame: pd.DataFrame) -> pd.DataFrame:
    """Per mechanism: the class's revenue per round (chips to the bank) and efficiency (the
    share of rounds whose prize went to a highest value), each with its interval across
    students, beside the equilibrium played on the same values and the textbook's.

    A round's revenue is the sum of its seats' payments, so each student's mean of
    ``payment x players`` averages to the revenue per round; a student's efficiency is the
    share of their rounds that were efficient. ``textbook revenue`` is the expected second-
    highest value (revenue equivalence), Mogul's auction none: its chips go from seat to
    seat, so its revenue is 0 by the rules (no interval then). ``textbook efficiency`` is 1:
    the symmetric textbook equilibria give the prize to the highest value.
    """
    frame = frame.assign(
        share=frame["payment"] * frame["players"],
        eq_share=frame["eq_payment"] * frame["players"],
        fair=frame["efficient"].astype(float),
    )
    parts = [
        across_students(frame, "share").rename(
            columns={"share": "revenue", "low": "revenue low", "high": "revenue high"}
        ),
        across_students(frame, "eq_share")
        .rename(columns={"eq_share": "equilibrium revenue"})
        .drop(columns=["low", "high", "students"]),
        across_students(frame, "fair")
        .rename(columns={"fair": "efficiency", "low": "efficiency low", "high": "efficiency high"})
        .drop(columns="students"),
        across_students(frame, "eq_efficient")
        .rename(columns={"eq_efficient": "equilibrium efficiency"})
        .drop(columns=["low", "high", "students"]),
    ]
    table = parts[0]
    for part in parts[1:]:
        table = table.merge(part, on="mechanism", how="left")
    first = frame.groupby("mechanism").first()
    table["textbook revenue"] = [
        0.0 if m == "mogul" else textbook_revenue(int(first.loc[m, "players"]), _dist(first, m))
        for m in table["mechanism"]
    ]
    table["textbook efficiency"] = 1.0
    mogul = table["mechanism"] == "mogul"
    table.loc[mogul, ["revenue low", "revenue high"]] = 0.0
    money = ["revenue", "revenue low", "revenue high", "equilibrium revenue"]
    table[money] = table[money] + 0.0  # no "-0.0" for Mogul's zero
    columns = ["mechanism", "students", "revenue", "revenue low", "revenue high"]
    columns += ["equilibrium revenue", "textbook revenue", "efficiency", "efficiency low"]
    columns += ["efficiency high", "equilibrium efficiency", "textbook efficiency"]
    return _ordered(table[columns])


def _dist(first: pd.DataFrame, mechanism: str):
    text = first.loc[mechanism, "values"] if "values" in first.columns else SETTINGS["values"]
    return parse_values(text)


def learning(frame: pd.DataFrame) -> pd.DataFrame:
    """Bids over rounds: per mechanism and round, the mean across students of bid / value
    (drop point / value in English and Mogul's auction; rows of value 0 left out) with its
    interval, and the equilibrium's ratio on the same rows (``equilibrium``). A round is the
    student's first, second ... of the mechanism (``played``), at one table (partners) or
    at a new table each time (strangers)."""
    frame = frame.assign(
        round=frame["played"],
        eq_ratio=frame["equilibrium"] / frame["value"].where(frame["value"] > 0),
    )
    observed = across_students(frame, "ratio", by=["round"])
    theory = (
        frame.dropna(subset=["ratio"])
        .groupby(["mechanism", "round"])["eq_ratio"]
        .mean()
        .rename("equilibrium")
        .reset_index()
    )
    table = observed.merge(theory, on=["mechanism", "round"], how="left")
    return _ordered(table.sort_values(["mechanism", "round"]))
