"""Every number and statement of fact in notebook 04's prose, pinned (issue 28, points 4 and 6).

The model numbers are exact (the pile, the hazard, the exercise); the simulated ones use the
notebook's seed and sample (2,000 games of four ValueBots from seed 2002) and are looked up
in the prose as the prose writes them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from notebook_claims import interval, prose, states

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
