"""The auction lab's debrief (``mogul.analysis.auction_lab``) on a rounds table worked by hand,
and its figures (``mogul.plots.auction_lab``) drawn whole inside their axes.

The hand-made session: one table ``AAAA2222`` of first-price sealed bids, two students (Ann
at seat 0, Ben at seat 1), values uniform on 0..10, budget 10. The equilibrium bid for two
bidders is L + (n - 1)/n (v - L) = v / 2::

    round  start  Ann value/bid  Ben value/bid  winner pays  efficient
      1      0        8 / 6          4 / 4       Ann   6       yes
      2      1        2 / 7         10 / 5       Ann   7       no (Ben's 10 is higher)

Bid minus equilibrium: Ann 6 - 4 = 2 and 7 - 1 = 6 (mean 4), Ben 4 - 2 = 2 and 5 - 5 = 0
(mean 1). Across the two students: mean 2.5, sd 3 / sqrt 2, half-width 1.959964 x 3 / 2 =
2.9399, so -0.4399 to 5.4399. Revenue: Ann's payment x 2 seats is 12 and 14 (mean 13), Ben's 0 and
0 (mean 0): 6.5 chips per round = (6 + 7) / 2; half-width 1.959964 x 13 / 2 = 12.7398.
The equilibrium on the same values: round 1 bids 4 and 2 (Ann pays 4), round 2 bids 1 and
5 (Ben pays 5): 4.5 chips per round, both rounds efficient. Efficiency: each student saw
one efficient round of two (0.5, no spread). Textbook revenue for two values uniform on
0..10: 10 x 1/3.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
import pytest

import mogul
from mogul.analysis import auction_lab as lab
from mogul.analysis.intervals import mean_interval
from mogul.plots import auction_lab as figures
from mogul.plots.template import KIT_TEMPLATE


def _row(round_, seat, player, start, value, bid, won, payment, revenue, efficient):
    return {
        "code": "AAAA2222",
        "table": "AAAA-2222",
        "round": round_,
        "seat": seat,
        "player": player,
        "mechanism": "first-price",
        "start": start,
        "position": (seat - start) % 2,
        "value": value,
        "bid": bid,
        "dropped_at": None,
        "won": won,
        "runner_up": not won,
        "payment": payment,
        "payoff": (value - payment) if won else 0,
        "revenue": revenue,
        "efficient": efficient,
    }


HAND = pd.DataFrame(
    [
        _row(1, 0, "Ann", 0, 8, 6, True, 6, 6, True),
        _row(1, 1, "Ben", 0, 4, 4, False, 0, 6, True),
        _row(2, 0, "Ann", 1, 2, 7, True, 7, 7, False),
        _row(2, 1, "Ben", 1, 10, 5, False, 0, 7, False),
    ]
)


@pytest.fixture(scope="module")
def hand():
    return lab.with_theory(HAND)


def test_the_theory_beside_each_row(hand):
    assert hand["textbook"].tolist() == [4.0, 2.0, 1.0, 5.0]
    assert hand["equilibrium"].tolist() == [4.0, 2.0, 1.0, 5.0]
    assert hand["excess"].tolist() == [2.0, 2.0, 6.0, 0.0]
    assert hand["ratio"].tolist() == [0.75, 1.0, 3.5, 0.5]
    # the equilibrium bots replayed on the same values: Ann pays 4, then Ben pays 5
    assert hand["eq_payment"].tolist() == [4.0, 0.0, 0.0, 5.0]
    assert hand["eq_revenue"].tolist() == [4.0, 4.0, 5.0, 5.0]
    assert hand["eq_efficient"].tolist() == [1.0] * 4
    assert hand["student"].tolist() == ["Ann", "Ben", "Ann", "Ben"]


def test_one_mean_per_student_then_the_interval_across_students(hand):
    means = lab.per_student(hand, "excess")
    assert means.set_index("student")["excess"].to_dict() == {"Ann": 4.0, "Ben": 1.0}
    row = lab.across_students(hand, "excess").iloc[0]
    assert (row["excess"], row["low"], row["high"], row["students"]) == (2.5, -0.4399, 5.4399, 2)
    # not over bids: the four bids' own interval is 2.5 +- 1.959964 x 2.5166 / 2 = 2.4662
    assert mean_interval(hand["excess"])[1:] == (0.0338, 4.9662)


def test_bids_against_values(hand):
    row = lab.bids_against_values(hand).iloc[0]
    assert row["excess"] == 2.5 and row["above"] == 0.75  # Ann 2 of 2 above, Ben 1 of 2


def test_revenue_and_efficiency(hand):
    row = lab.revenue_and_efficiency(hand).iloc[0]
    assert row["revenue"] == 6.5 and (row["revenue low"], row["revenue high"]) == (-6.2398, 19.2398)
    assert row["equilibrium revenue"] == 4.5
    assert math.isclose(row["textbook revenue"], 10 / 3)
    assert (row["efficiency"], row["efficiency low"], row["efficiency high"]) == (0.5, 0.5, 0.5)
    assert row["equilibrium efficiency"] == 1.0 and row["textbook efficiency"] == 1.0


def test_overbidding_and_learning(hand):
    over = lab.overbidding(hand).set_index("student")
    assert over.loc["Ann"].tolist() == [2, 4.0, 4.0, 2.125]
    assert over.loc["Ben"].tolist() == [2, 1.0, 1.0, 0.75]
    rounds = lab.learning(hand).set_index("round")
    assert rounds["ratio"].tolist() == [0.875, 2.0]
    assert rounds["equilibrium"].tolist() == [0.5, 0.5]
    with pytest.raises(ValueError, match="no rounds of 'all-pay'"):
        lab.overbidding(hand, "all-pay")


def test_strangers_learn_over_their_own_rounds_not_the_tables_rounds(hand):
    # the same two rounds, each at a table of its own (new groups between rounds): each
    # table's round is 1, but each student played a first and a second round
    strangers = HAND.assign(
        code=["AAAA2222", "AAAA2222", "BBBB3333", "BBBB3333"], round=1, start=[0, 0, 1, 1]
    )
    frame = lab.with_theory(strangers)
    assert frame["played"].tolist() == [1, 1, 2, 2]
    pd.testing.assert_frame_equal(lab.learning(frame), lab.learning(hand))


def test_equilibrium_bids_of_every_mechanism():
    assert lab.equilibrium_bid("second-price", 7, 4, 0) == 7
    assert lab.equilibrium_bid("english", 7, 4, 0) == 6  # raises while the price is below 7
    assert lab.equilibrium_bid("first-price", 7, 4, 0) == 5  # 5.25 rounded
    assert lab.equilibrium_bid("all-pay", 10, 4, 0) == 8  # 7.5 rounded up
    # Mogul's: the thresholds mogul.auction computed for four seats (thresholds.json)
    assert [lab.equilibrium_bid("mogul", 10, 4, p) for p in range(4)] == [8, 9, 9, 9]
    assert math.isnan(lab.equilibrium_bid("mogul", 10, 4, 0, budget=9))
    curve = lab.equilibrium_curve("mogul", 4)
    assert len(curve) == 4 * 11 and curve["textbook"].isna().all()


def test_a_simulated_table_reads_the_same_way():
    sim = mogul.simulate("all-pay-auction", ["equilibrium", "naive", "naive"], seed=4, games=3)
    frame = lab.with_theory(sim.tables["rounds"])
    equilibrium = frame[frame["bot"] == "equilibrium"]
    assert (equilibrium["excess"] == 0).all()  # the bot plays the whole-chip equilibrium
    assert frame["student"].nunique() == 9  # each seat of each game
    assert frame["eq_revenue"].notna().all()


def test_a_table_that_is_not_the_labs_is_refused():
    with pytest.raises(ValueError, match="missing columns: \\['bid'"):
        lab.with_theory(HAND.drop(columns="bid"))


def _checked(fig: go.Figure) -> None:
    """The kit template, axes that label themselves, and every point inside a fixed range."""
    assert fig.layout.template == KIT_TEMPLATE
    for trace in fig.data:
        if trace.type == "scatter":
            assert trace.cliponaxis is False
        for letter in "xy":
            ref = getattr(trace, f"{letter}axis", None) or letter
            axis = fig.layout[f"{letter}axis{ref[1:]}"]
            assert axis.automargin is True or fig.layout.template.layout[f"{letter}axis"].automargin
            values = getattr(trace, letter, None)
            if axis.range is None or values is None:
                continue
            numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
            low, high = sorted(axis.range)
            assert all(low <= v <= high for v in numbers), f"{trace.name}: {letter} outside"


def test_figures_hold_their_data():
    sim = mogul.simulate(
        "mogul-auction", ["equilibrium", "naive", "random", "naive"], seed=2, games=2
    )
    frame = pd.concat([lab.with_theory(HAND), lab.with_theory(sim.tables["rounds"])])
    curves = {"first-price": lab.equilibrium_curve("first-price", 2)}
    curves["mogul"] = lab.equilibrium_curve("mogul", 4)
    bids = figures.bids_figure(frame, curves)
    _checked(bids)
    names = {t.name for t in bids.data if t.showlegend is not False}
    assert names == {"the class", "the value", "textbook equilibrium", "equilibrium (whole chips)"}
    _checked(figures.revenue_figure(lab.revenue_and_efficiency(frame)))
    _checked(figures.learning_figure(lab.learning(frame)))
    over = lab.overbidding(frame)
    fig = figures.overbidding_figure(over, mean_interval(over["over"]))
    _checked(fig)
    assert sorted(fig.data[0].y) == sorted(over["over"].tolist())
