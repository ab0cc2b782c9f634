"""Every number and statement of fact in notebook 04's prose, pinned (issue 28, points 4 and 6).

The model numbers are exact (the pile, the hazard, the exercise); the simulated ones use the
notebook's seed and sample (2,000 games of four ValueBots from seed 2002) and are looked up
in the prose as the prose writes them.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pandas as pd
import pytest
from notebook_claims import NOTEBOOKS, interval, prose, states

import mogul
import mogul.analysis.mogul as analysis
from mogul import ValueBot, play, simulate

TEXT = prose("04-share-value-dynamics.ipynb")


def test_one_game_and_the_market_values():
    record = play(mogul.new_game("classic", players=4, seed=12), [ValueBot() for _ in range(4)])
    first = record.table("rounds").query("round == 1").iloc[0]
    markets = {c: int(first[f"market_{c}"]) for c in ("brown", "green", "yellow", "blue", "pink")}
    assert markets == {"brown": 4, "green": 0, "yellow": 0, "blue": 0, "pink": 0}
    states(TEXT, 'Brown starts at 4 (one "S" share per player), the others at 0.')


def test_the_crash_hazard_and_the_words_for_counting_cards():
    start = mogul.new_game("classic", players=4, seed=12)
    hazard = analysis.crash_hazard(start)
    tail = hazard.tail(5)
    assert [Fraction(h).limit_denominator(10) for h in tail["hazard"]] == [
        Fraction(1, k) for k in (5, 4, 3, 2, 1)
    ]
    assert (tail["p_crash"].round(9) == 0.2).all() and (hazard.head(-5)["p_crash"] == 0).all()
    assert (hazard["round"] == hazard["card"] + 1).all() and hazard["card"].iloc[0] == 1
    states(
        TEXT,
        "it lies in one of the **last five** positions, each equally likely",
        "is 1/5, 1/4, 1/3, 1/2 and finally 1",
        "`card` counts the cards still in the pile as the game starts (1 is the next to turn up) and `round` is the "
        "round that card would start",
    )
    assert "crash came with card" not in TEXT


@pytest.fixture(scope="module")
def two_thousand():
    sim = simulate(
        "classic",
        ["value"],
        games=2000,
        players=4,
        seed=2002,
        tables=("games", "rounds"),
        progress=False,
    )
    return sim, analysis.share_values(sim.rounds)


@pytest.mark.slow
def test_brown_is_worth_selling_from_the_start(two_thousand):
    _, values = two_thousand
    first = analysis.by_round(values).query("round == 1").set_index("company")
    assert (
        first.loc["brown", "market_value"] == 4
        and round(first.loc["brown", "premiums_to_come"], 1) == 3.6
    )
    states(
        TEXT,
        "Four `ValueBot`s play 2,000 games",
        "four points now against about 3.6 points of premiums",
    )


@pytest.mark.slow
def test_the_model_check(two_thousand):
    _, values = two_thousand
    check = analysis.model_check(values)
    assert (check["games"] == 2000).all()
    others = check.drop("blue")
    assert ((others["low"] < 0) & (others["high"] > 0)).all()  # four intervals hold 0
    assert round(check["difference"].abs().drop("blue").max(), 3) == 0.011
    blue = check.loc["blue"]
    assert blue["high"] < 0
    states(
        TEXT,
        "Four of the five differences are at most 0.011 points, and their 95% intervals (over the 2,000 games",
        f"Blue's, {blue['difference']:.3f} ({blue['low']:.3f} to {blue['high']:.3f}), lies {-blue['z']:.2f} "
        "standard errors below 0",
        f"one company of five lies that far out by chance in {blue['chance']:.1%} of such studies",
    )
    assert "what remains is sampling noise" not in TEXT  # said with its evidence now


@pytest.mark.slow
def test_game_lengths_and_scores(two_thousand):
    sim, _ = two_thousand
    lengths = sim.games.drop_duplicates("game")["rounds"]
    assert (lengths.min(), lengths.max()) == (24, 28)
    mean, low, high = analysis.mean_interval(lengths)
    assert f"{mean:.2f} {interval(low, high)}" == "25.97 25.91 to 26.03"
    states(
        TEXT,
        "How many points does it take to win?",
        "the legend gives each mean with its 95% interval",
    )


def test_the_exercise():
    shares = ["pink/blue", "pink/yellow", "pink/green", "green/brown", "green/pink", "blue/pink"]
    for before in range(2, 7):
        s = mogul.new_game(
            "classic",
            players=["Ann", "Ben", "Cai"],
            seed=1,
            start_player=0,
            deck=["green/blue", *shares[:before], "crash", *shares[before:]],
            starting_shares=[["blue/green", "blue/yellow"], ["blue/green"], []],
        )
        assert analysis.expected_reveals(s) == 4
        blue = analysis.hold_or_sell(s.view(0)).loc["blue"]
        assert (blue["market_value"], blue["held"]) == (3, 2)
        assert blue["premiums_to_come"] == pytest.approx(2 / 3)
        assert 2 * (blue["market_value"] - blue["premiums_to_come"]) == pytest.approx(4 + 2 / 3)
    states(
        TEXT,
        "*R* is 2, 3, 4, 5 or 6 shares, so $E[R] = 4$",
        "$4 \\cdot 1/6 = 2/3$ of a point per blue share",
        "$2 \\cdot (3 - 2/3) = 4\\tfrac{2}{3}$ points",
        "the market value, 3 points each",
        "wherever in the last five places of the pile the crash lies",
    )


def test_the_crossing_round_and_its_interval():
    """A worked example: two games, one company. Game 0's market passes its premiums in round
    2, game 1's in round 3; averaged over both (round 2: (+1 - 1) / 2 = 0, not above) the
    crossing is round 3. A resample holding only game 0 crosses in round 2, one holding only
    game 1 in round 3: the interval runs from 2 to 3."""
    values = pd.DataFrame(
        {
            "game": [0, 0, 0, 1, 1, 1],
            "round": [1, 2, 3, 1, 2, 3],
            "company": ["green"] * 6,
            "market_value": [0, 2, 3, 0, 0, 3],
            "premiums_to_come": [2, 1, 0, 2, 1, 0],
        }
    )
    out = analysis.crossing_rounds(values, resamples=200, seed=1)
    assert out.loc["green"].tolist() == [3, 2, 3]
    assert analysis.crossing_rounds(values.query("game == 0"), resamples=20).loc[
        "green"
    ].tolist() == [2, 2, 2]
    never = values.assign(market_value=0)
    assert analysis.crossing_rounds(never, resamples=20).loc["green"].isna().all()


OTHER_SEEDS = (7, 8)
"""Seeds on which the claims about the 2,000 games are checked again (issue 40, item 6)."""


@pytest.fixture(scope="module")
def other_seeds():
    out = {}
    for seed in OTHER_SEEDS:
        sim = simulate(
            "classic",
            ["value"],
            games=2000,
            players=4,
            seed=seed,
            tables=("games", "rounds"),
            progress=False,
        )
        out[seed] = analysis.share_values(sim.rounds)
    return out


def _crosses_for_good(values, company, first):
    """From its crossing round on, the company's mean market value stays above its premiums."""
    rows = analysis.by_round(values).query("company == @company and round >= @first")
    return bool((rows["market_value"] > rows["premiums_to_come"]).all())


@pytest.mark.slow
def test_the_crossing_rounds_hold_on_three_seeds(two_thousand, other_seeds):
    """Issue 40, item 6: the crossing rounds with a bootstrap interval over games, and what the
    prose says of them true on the notebook's seed and two others."""
    _, values = two_thousand
    crossing = analysis.crossing_rounds(values)
    assert crossing["round"].to_dict() == {
        "brown": 1,
        "green": 14,
        "yellow": 15,
        "blue": 15,
        "pink": 14,
    }
    for company in ("green", "yellow"):
        assert (crossing.loc[company, "low"], crossing.loc[company, "high"]) == (14, 15)
    found_on = {}
    for seed, other in {2002: values, **other_seeds}.items():
        found = crossing if seed == 2002 else analysis.crossing_rounds(other)
        assert found.loc["brown", "round"] == 1, seed
        for company in ("green", "yellow", "blue", "pink"):
            first = found.loc[company, "round"]
            assert first in (14, 15), (seed, company)
            assert 14 <= found.loc[company, "low"] <= found.loc[company, "high"] <= 15
            assert _crosses_for_good(other, company, first), (seed, company)
        opening = analysis.by_round(other).query("round == 1").set_index("company")
        assert round(opening.loc["brown", "premiums_to_come"], 1) == 3.6, seed  # "about 3.6"
        found_on[seed] = found
    seven = found_on[7]
    assert seven["round"].to_dict() == {
        "brown": 1,
        "green": 15,
        "yellow": 15,
        "blue": 15,
        "pink": 14,
    }
    assert (seven.loc["green", "low"], seven.loc["green", "high"]) == (14, 15)
    states(
        TEXT,
        "the market value overtakes the premiums to come, for all four in round 14 or 15, and from that round on a "
        "share is worth more sold than held, on average",
        "In these games pink and green cross in round 14, yellow and blue in 15",
        "runs from 14 to 15 for green and yellow",
        "Brown crosses in round 1, pink in 14, and green, yellow and blue in 15: green crosses a round later than with "
        "seed 2002",
        "on seed 7 green's interval runs from 14 to 15 too",
    )


@pytest.mark.slow
def test_blues_model_check_on_other_seeds(other_seeds):
    """The prose reads blue's difference on seed 2002 as sampling noise; on seeds 7 and 8 its
    interval holds 0, as the prose says."""
    said = []
    for seed in OTHER_SEEDS:
        blue = analysis.model_check(other_seeds[seed]).loc["blue"]
        assert blue["low"] < 0 < blue["high"], seed
        said.append(f"{blue['low']:.3f} to {blue['high']:.3f}")
    states(
        TEXT,
        "on two other seeds (7 and 8, 2,000 games each) blue's intervals hold 0: "
        f"{said[0]} and {said[1]}",
    )


def test_the_exercise_on_the_end_of_the_pile():
    s = mogul.new_game(
        "classic",
        players=["Ann", "Ben", "Cai"],
        seed=1,
        start_player=0,
        deck=["green/blue", "pink/blue", "green/pink", "crash"],
        starting_shares=[["pink/green"], [], []],
    )
    hazard = analysis.crash_hazard(s)
    assert hazard["hazard"].iloc[0] == pytest.approx(1 / 3)
    assert hazard["p_reached"].iloc[-1] == pytest.approx(1 / 3)
    assert analysis.expected_reveals(s) == 1
    pink = analysis.hold_or_sell(s.view(0)).loc["pink"]
    assert (pink["held"], pink["market_value"]) == (1, 1)
    assert pink["premiums_to_come"] == pytest.approx(0.5)
    assert pink["sell_gain"] == pytest.approx(0.5) and pink["next_sale_chance"] == pytest.approx(
        0.5
    )
    states(
        TEXT,
        "the next card is the crash with chance 1/3, and the game reaches the last card only if the crash is last, "
        "chance 1/3",
        "so $E[R] = 1$",
        "$1 \\cdot 1/2 = 1/2$ point of premiums to come, while a sale pays the market value, 1 point",
        "green/pink comes first with chance 1/2 (`next_sale_chance`)",
    )


def test_no_visible_cell_prints_an_answer():
    """Issue 40, item 6: the check cell under the hidden solution printed the answer. The
    exercises are markdown now, each solution in a closed <details>, its check code inside."""
    cells = json.loads((NOTEBOOKS / "04-share-value-dynamics.ipynb").read_text())["cells"]
    start = next(i for i, c in enumerate(cells) if "".join(c["source"]).startswith("## Exercises"))
    after = cells[start:]
    assert all(c["cell_type"] == "markdown" for c in after)
    assert (
        sum("".join(c["source"]).count("<details><summary>Solution</summary>") for c in after) == 3
    )
