"""Every number and statement of fact in notebook 07's prose, pinned (issue 28, points 1 and 5).

Each number is computed here by the kit's tested code with the notebook's seeds and sample
sizes (300 games of DividendBots and 120 of RandomBots from seed 2013; 210 paired games from
seed 2013 for the marginal values) and looked up in the prose as the prose writes it.
"""

from __future__ import annotations

import pytest
from notebook_claims import interval, money, prose, states

from mogul.analysis.credit_mobilier import (
    by_turn,
    marginal_by_turn,
    marginal_values,
    reversed_ties,
    round_payouts,
    share_values,
    start_values,
)
from mogul.kit.simulate import simulate

TEXT = prose("07-credit-mobilier.ipynb")
TABLES = ("games", "treasuries", "dividends")


def study(bots, games):
    sim = simulate(
        "credit-mobilier", bots, games=games, players=3, seed=2013, tables=TABLES, progress=False
    )
    return sim, share_values(sim.treasuries, sim.dividends)


@pytest.fixture(scope="module")
def dividend():
    return study(["dividend"], 300)


@pytest.fixture(scope="module")
def random_play():
    return study(["random"], 120)


def said(row, low="low", high="high", mean="to_come"):
    return f"{money(row[mean])}", interval(row[low], row[high])


def test_purple_and_red_tie_on_the_first_turn(dividend):
    sim, values = dividend
    start = start_values(values)
    purple, red = start.loc["purple"], start.loc["red"]
    assert (round(purple["to_come"], 2), round(purple["low"], 2), round(purple["high"], 2)) == (
        6.73,
        6.56,
        6.89,
    )
    assert (round(red["to_come"], 2), round(red["low"], 2), round(red["high"], 2)) == (
        6.69,
        6.45,
        6.93,
    )
    assert (
        red["high"] > purple["low"] and purple["high"] > red["low"]
    )  # the intervals overlap: a tie
    states(
        TEXT,
        f"a purple share held to the end pays {money(purple['to_come'])} on average (95% interval "
        f"{interval(purple['low'], purple['high'])}) and a red one {money(red['to_come'])} "
        f"({interval(red['low'], red['high'])}): the intervals overlap, so this is a **tie**",
    )
    assert "the best share to hold" not in TEXT
    assert (
        sim.games.groupby("game")["money"].sum().min() > 0
    )  # "No game ends with every player at $0"
    states(
        TEXT,
        "No game ends with every player at $0",
        "We simulate 300 games of three `DividendBot`s",
    )


def test_purple_falls_below_a_dollar_by_turn_40(dividend):
    _, values = dividend
    purple = (
        by_turn(values, min_games=150).query("company == 'purple'").set_index("turn")["to_come"]
    )
    assert round(purple[40], 2) == 0.55 and purple[40] < 1 and purple[30] > 1
    states(TEXT, f"falls below $1 by turn 40 ({money(purple[40])})")


def test_a_third_of_rounds_run_dry(dividend):
    sim, _ = dividend
    rounds = round_payouts(sim.dividends)
    part_way = (rounds["per_share"] < 1).mean()
    assert len(rounds) == 9264 and round(part_way, 2) == 0.33
    states(
        TEXT,
        f"In {part_way:.0%} of the {len(rounds):,} rounds paid in the 300 games above the money ran out part way",
    )


def test_random_play_and_who_pays_more(dividend, random_play):
    start = start_values(dividend[1])
    rand = start_values(random_play[1])
    purple, best_rail = rand.loc["purple"], rand.drop("purple")["to_come"].idxmax()
    rail = rand.loc[best_rail]
    assert (
        purple["to_come"] > rail["to_come"] and purple["low"] < rail["high"]
    )  # ahead, but the intervals overlap
    states(
        TEXT,
        f"{money(purple['to_come'])} on average at the start (95% interval "
        f"{interval(purple['low'], purple['high'])}) and the best railroad, {best_rail}, "
        f"{money(rail['to_come'])} ({interval(rail['low'], rail['high'])}): the intervals overlap",
    )
    for company in (
        "red",
        "yellow",
        "green",
        "purple",
    ):  # "pay more on average than under random play"
        assert start.loc[company, "low"] > rand.loc[company, "high"], company
    blue, blue_random = start.loc["blue"], rand.loc["blue"]
    assert blue["high"] > blue_random["low"] and blue_random["high"] > blue["low"]  # a tie
    states(
        TEXT,
        "red, yellow, green and purple shares pay more on average than under random play, but blue's does not: "
        f"{money(blue['to_come'])} ({interval(blue['low'], blue['high'])}) against "
        f"{money(blue_random['to_come'])} ({interval(blue_random['low'], blue_random['high'])}), a tie",
    )
    assert "every share earns more" not in TEXT


@pytest.mark.slow
def test_the_tie_order_decides_which_railroad_leads():
    _, values = study([reversed_ties("dividend")], 300)
    start = start_values(values)
    assert start.loc["blue", "low"] > start.loc["red", "high"]  # reversed: blue pays more than red
    states(
        TEXT,
        'Offered the actions last colour first (`reversed_ties("dividend")`',
        "the same bots make a blue share pay more than a red one",
    )


@pytest.fixture(scope="module")
def marginal():
    pairs = marginal_values("dividend", games=210, players=3, seed=2013, turns=(1, 30))
    return marginal_by_turn(pairs).set_index(["turn", "company"])


@pytest.mark.slow
def test_the_marginal_values_of_the_notebook(marginal):
    m = marginal.round(2)
    red, yellow, purple = m.loc[(1, "red")], m.loc[(1, "yellow")], m.loc[(1, "purple")]
    states(
        TEXT,
        "210 games, on turns 1 and 30",
        f"On turn 1 one more red share adds {money(red['value'])} to its owner's cash (95% interval "
        f"{interval(red['value_low'], red['value_high'])}) while the red shares pay {money(red['average'])} on average; "
        f"for yellow it is {money(yellow['value'])} ({interval(yellow['value_low'], yellow['value_high'])}) "
        f"against {money(yellow['average'])}",
        f"On turn 1 that holds for purple only: {money(purple['value'])} "
        f"({interval(purple['value_low'], purple['value_high'])}), about half its average of {money(purple['average'])}",
    )
    assert 0.4 < purple["value"] / purple["average"] < 0.6  # "about half"
    below = sorted(f"{t}:{c}" for (t, c), row in marginal.iterrows() if row["gap_high"] < 0)
    assert below == ["1:purple", "1:red", "1:yellow", "30:green", "30:red", "30:yellow"]
    states(
        TEXT,
        "the marginal value is smaller than the average: red, yellow and purple on turn 1, red, "
        "yellow and green on turn 30",
    )
    verdicts = marginal["worth_buying"]
    assert verdicts[verdicts == "yes"].index.tolist() == [(1, "purple")]
    assert verdicts[verdicts == "no"].index.tolist() == [(30, "yellow")]
    yellow30 = m.loc[(30, "yellow")]
    states(
        TEXT,
        f"On turn 30 a yellow share is not worth its price: {money(yellow30['value'])} "
        f"({interval(yellow30['value_low'], yellow30['value_high'])})",
    )
    blue30 = m.loc[(30, "blue")]
    assert (
        blue30["value"] > blue30["average"] and blue30["value_low"] < 1
    )  # above the average, but can't tell at $1
    states(
        TEXT,
        f"on turn 30 one more blue share adds {money(blue30['value'])} "
        f"({interval(blue30['value_low'], blue30['value_high'])}), more than the blue shares pay on average "
        f"({money(blue30['average'])})",
        f"the owner's blue dividends rise by {money(blue30['dividends_gain'])} on average",
    )
