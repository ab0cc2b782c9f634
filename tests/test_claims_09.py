"""Every statement of fact in notebook 09's prose, checked on the shipped sample and on three
other samples (the same stand-in class played with other seeds): a number the notebook
states must hold on another seed, so its prose states what the theory fixes and what holds
in every one of these samples, and leaves the sample's own numbers to its outputs.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest
from notebook_claims import prose, states

from mogul.analysis import auction_lab as lab
from mogul.classroom.auction_lab import sample
from mogul.games.auction_lab.equilibrium import all_pay_bid, first_price_bid, textbook_revenue
from mogul.games.auction_lab.tables import round_rows
from mogul.games.auction_lab.values import parse_values

TEXT = prose("09-auction-lab.ipynb")
OTHER_SEEDS = (1, 2, 3)


def _played(seed: int) -> pd.DataFrame:
    """The stand-in class played with ``seed``, as the export's rounds table (with settings)."""
    rows = []
    for code, record in sample.play_session(seed):
        final = list(record.states())[-1]
        setup = record.setup
        for row in round_rows([final]):
            rows.append(
                {"code": code, **row, "values": setup.values, "budget": setup.budget}
                | {"second": setup.second}
            )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def shipped():
    store, session = sample.load_sample()
    return lab.with_theory(sample.rounds_table(store, session))


@pytest.fixture(scope="module", params=("shipped", *OTHER_SEEDS))
def session(request, shipped):
    if request.param == "shipped":
        return shipped
    return lab.with_theory(_played(request.param))


def test_the_shipped_sample_is_what_the_script_writes(shipped):
    again = lab.with_theory(_played(2026))
    columns = ["code", "round", "seat", "player", "mechanism", "value", "bid", "payment"]
    pd.testing.assert_frame_equal(
        shipped[columns].reset_index(drop=True),
        again[columns].reset_index(drop=True),
        check_dtype=False,
    )


def test_the_sample_session(shipped):
    states(
        TEXT,
        "This sample session is simulated, not a real class.",
        "Twelve stand-in students",
        "played five rounds each of first-price sealed bids, Mogul's auction and all-pay sealed "
        "bids, in groups of four drawn afresh for each mechanism",
        "uniform on 0 to 10 chips, and bids with a budget of 10 chips",
    )
    assert set(shipped["mechanism"]) == {"first-price", "mogul", "all-pay"}
    per = shipped.groupby("mechanism").agg(
        students=("student", "nunique"), tables=("code", "nunique"), rounds=("round", "max")
    )
    assert (per["students"] == 12).all() and (per["tables"] == 3).all()
    assert (per["rounds"] == 5).all()
    assert (shipped.groupby(["code", "round"]).size() == 4).all()
    assert set(shipped["values"]) == {"uniform 0..10"} and set(shipped["budget"]) == {10}
    # groups drawn afresh: no mechanism's tables seat the same four as another's
    groups = shipped.groupby(["mechanism", "code"])["student"].agg(frozenset)
    assert len(set(groups)) == len(groups)


def test_the_theory_it_states():
    dist = parse_values("uniform 0..10")
    states(
        TEXT,
        "first-price 3/4 of the value",
        "all-pay E[Y 1{Y < v}] = 3/4 v⁴/10³",
        "for four values uniform on 0 to 10 that is 10 × 3/5 = 6 chips",
    )
    states(
        TEXT,
        "the equilibrium bids 7.5 chips for a value of 10 and under half a chip for a value of 5",
    )
    assert all_pay_bid(10, 4, dist) == 7.5 and all_pay_bid(5, 4, dist) < 0.5
    for v in range(11):
        assert math.isclose(first_price_bid(v, 4, dist), 0.75 * v)
        assert math.isclose(all_pay_bid(v, 4, dist), 0.75 * v**4 / 10**3)
    assert textbook_revenue(4, dist) == 6


def test_mogul_raises_no_revenue(session):
    states(TEXT, "Its revenue is 0 by its rules")
    assert (session.loc[session["mechanism"] == "mogul", "revenue"] == 0).all()


def test_all_pay_bids_lie_above_the_equilibrium(session):
    states(
        TEXT, "In all-pay the class bid far above the equilibrium: the whole interval lies above 0"
    )
    row = lab.bids_against_values(session).set_index("mechanism").loc["all-pay"]
    assert row["excess low"] > 0


def test_first_price_overbidding(session):
    states(TEXT, "The class mean lies above the equilibrium.")
    over = lab.overbidding(session, "first-price")
    assert over["over"].mean() > 0


def test_revenue_and_efficiency(session):
    states(
        TEXT,
        "The all-pay auction raised more than the equilibrium does on the same values (the whole "
        "interval lies above it)",
        "First-price raised more than the equilibrium on the same values too.",
        "No mechanism was more efficient in the class than in the equilibrium",
    )
    money = lab.revenue_and_efficiency(session).set_index("mechanism")
    assert money.loc["all-pay", "revenue low"] > money.loc["all-pay", "equilibrium revenue"]
    assert money.loc["first-price", "revenue"] > money.loc["first-price", "equilibrium revenue"]
    assert (money["efficiency"] <= money["equilibrium efficiency"]).all()


def test_all_pay_bids_come_down(session):
    states(TEXT, "In all-pay the bids came down from the first round to the last")
    ratio = lab.learning(session).set_index(["mechanism", "round"])["ratio"]
    assert ratio[("all-pay", 5)] < ratio[("all-pay", 1)]
