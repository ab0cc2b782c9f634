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
    assert first.loc["brown", "market_value"] == 4
    states(
        TEXT,
        "Four `ValueBot`s play 2,000 games",
        f"four points now against {first.loc['brown', 'premiums_to_come']:.2f} points of premiums to come",
    )


@pytest.mark.slow
def test_the_model_check(two_thousand):
    _, values = two_thousand
    check = analysis.model_check(values)
    assert (check["games"] == 2000).all()
    assert ((check["low"] < 0) & (check["high"] > 0)).all()  # all five intervals hold 0
    farthest = check.loc[check["z"].abs().idxmax()]
    assert farthest.name == "blue" and farthest["difference"] > 0
    states(
        TEXT,
        f"All five differences are at most {check['difference'].abs().max():.3f} points, and their 95% intervals "
        "(over the 2,000 games",
        f"The farthest from 0, blue's {farthest['difference']:.3f} ({farthest['low']:.3f} to "
        f"{farthest['high']:.3f}), lies {farthest['z']:.2f} standard errors out",
        f"one company of five lies that far out by chance in {farthest['chance']:.1%} of such studies",
    )
    assert "what remains is sampling noise" not in TEXT  # said with its evidence now
    assert "Blue's, -0.030" not in TEXT  # the deviation the readable engine's games showed


@pytest.mark.slow
def test_game_lengths_and_scores(two_thousand):
    sim, _ = two_thousand
    lengths = sim.games.drop_duplicates("game")["rounds"]
    assert (lengths.min(), lengths.max()) == (24, 28)
    mean, low, high = analysis.mean_interval(lengths)
    assert f"{mean:.2f} {interval(low, high)}" == "26.01 25.94 to 26.07"
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


OTHER_SEEDS = (7, 8, 9)
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
def test_the_crossing_rounds_hold_on_four_seeds(two_thousand, other_seeds):
    """Issue 40, item 6: the crossing rounds with a bootstrap interval over games, and what the
    prose says of them true on the notebook's seed and three others."""
    _, values = two_thousand
    crossing = analysis.crossing_rounds(values)
    assert crossing["round"].to_dict() == {
        "brown": 1,
        "green": 14,
        "yellow": 15,
        "blue": 15,
        "pink": 14,
    }
    for company in ("green", "yellow", "blue"):
        assert (crossing.loc[company, "low"], crossing.loc[company, "high"]) == (14, 15)
    assert (crossing.loc["pink", "low"], crossing.loc["pink", "high"]) == (14, 14)
    found_on, brown = {}, []
    for seed, other in {2002: values, **other_seeds}.items():
        found = crossing if seed == 2002 else analysis.crossing_rounds(other)
        assert found.loc["brown", "round"] == 1, seed
        for company in ("green", "yellow", "blue", "pink"):
            first = found.loc[company, "round"]
            assert first in (14, 15), (seed, company)
            assert 14 <= found.loc[company, "low"] <= found.loc[company, "high"] <= 15
            assert _crosses_for_good(other, company, first), (seed, company)
        opening = analysis.by_round(other).query("round == 1").set_index("company")
        brown.append(opening.loc["brown", "premiums_to_come"])
        found_on[seed] = found
    assert max(brown) < 4 - 0.4  # brown worth selling from the start on every seed
    seven = found_on[7]
    assert seven["round"].to_dict() == crossing["round"].to_dict()  # "the same rounds"
    for company in ("green", "yellow", "blue"):
        assert (seven.loc[company, "low"], seven.loc[company, "high"]) == (14, 15)
    assert found_on[9].loc["blue", "round"] == 14
    states(
        TEXT,
        "the market value overtakes the premiums to come, for all four in round 14 or 15, and from that round on a "
        "share is worth more sold than held, on average",
        "In these games pink and green cross in round 14, yellow and blue in 15",
        "runs from 14 to 15 for green, yellow and blue, and holds round 14 alone for pink",
        "Brown crosses in round 1, green and pink in 14, yellow and blue in 15: the same rounds as with seed 2002",
        "on seed 7 too the intervals run from 14 to 15 for green, yellow and blue",
        "on seed 9, which the tests also try, blue crosses in round 14",
        f"(at most {max(brown):.2f} on every seed the tests try)",
    )


@pytest.mark.slow
def test_the_model_check_on_other_seeds(two_thousand, other_seeds):
    """On seeds 7, 8 and 9 the differences stay within a few hundredths of a point, and one of
    their fifteen intervals misses 0 (yellow's on seed 8), as the prose says."""
    checks = {seed: analysis.model_check(other_seeds[seed]) for seed in OTHER_SEEDS}
    both = pd.concat(checks, names=["seed"])
    missing = both[(both["low"] > 0) | (both["high"] < 0)]
    assert missing.index.tolist() == [(8, "yellow")]
    yellow = missing.iloc[0]
    largest = both["difference"].abs().max()
    assert largest == abs(yellow["difference"]) and largest < 0.05  # "a few hundredths"
    assert analysis.model_check(two_thousand[1])["difference"].abs().max() < largest
    states(
        TEXT,
        f"on three other seeds (7, 8 and 9, 2,000 games each) the differences stay within {largest:.3f} points, "
        f"and {len(both) - len(missing)} of their {len(both)} intervals hold 0",
        f"yellow's on seed 8, {yellow['difference']:.3f} ({yellow['low']:.3f} to {yellow['high']:.3f}), lies "
        f"{-yellow['z']:.2f} standard errors below 0, as far out as one company of five lies by chance in "
        f"{yellow['chance']:.1%} of such studies",
        "One interval in twenty missing 0 is what 95% intervals give when the model is right",
        "on these 8,000 games it stays within a few hundredths of a point",
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
