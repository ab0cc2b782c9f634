"""Every number and statement of fact in notebook 08's prose, pinned (issue 28, point 2).

The numbers come from the sample session that ships with the kit (``debrief.load_sample``):
the debrief is deterministic, so they are exact.
"""

from __future__ import annotations

import pytest
from notebook_claims import prose, states

from mogul.classroom.mogul import debrief

TEXT = prose("08-class-debrief.ipynb")


@pytest.fixture(scope="module")
def sample():
    store, session = debrief.load_sample()
    return store, session, debrief.bids(store, session)


def test_the_sample_session(sample):
    store, session, bids = sample
    assert len(store.tables(session)) == 3 and len(bids) == 304
    states(TEXT, "twelve stand-in students, each with a habit, at three tables of four")
    assert bids.groupby("code")["name"].nunique().tolist() == [4, 4, 4]


def test_ties_and_differences_between_the_two_charts(sample):
    _, _, bids = sample
    counts = debrief.comparison(bids)
    assert counts == {
        "rows": 304,
        "seats_that_dropped": 173,
        "differ": 114,
        "differ_tie": 88,
        "equilibrium_not_best": 43,
        "loss_rows": 136,
        "credit": 30,
    }
    states(
        TEXT,
        f"Of the {counts['seats_that_dropped']} rows in which a player dropped and the equilibrium drops them too, "
        f"{counts['differ']} have a best drop point other than the equilibrium's, and in {counts['differ_tie']} of "
        "those the equilibrium drop point pays exactly as much: a tie",
        f"In {counts['equilibrium_not_best']} of the {counts['rows']} rows the equilibrium drop point pays less",
        f"{counts['credit']} of the {counts['rows']} rows took a credit during the auction",
        "Most differences between the two charts are ties, not different advice",
    )
    assert counts["differ_tie"] > counts["differ"] / 2  # "most"


def test_a_model_loss_is_not_a_loss_on_the_score(sample):
    store, session, bids = sample
    who = debrief.bidders(bids).set_index("name")
    league = debrief.league_table(store, session, bids).set_index("name")
    third = who.index[2]
    assert third == "Ada" and who.loc["Ada", "total_loss"] == 34.89
    assert league.loc["Ada", "won"] and league.loc["Ada", "score"] == 33
    states(TEXT, "Ada won her table with 33 points and has the third-largest model loss, 34.89")


def test_the_habit_of_dropping_early_under_bids(sample):
    _, _, bids = sample
    hana = debrief.bidders(bids).set_index("name").loc["Hana"]
    assert hana["under-bid"] > hana["over-bid"] + hana["best response"]
    states(TEXT, "A player who always drops at the same small pot (a habit, not a plan) under-bids")


def test_the_model_and_its_benchmark_are_named():
    states(
        TEXT,
        "not points lost on the score",
        "a loss against a stated benchmark (the best response to the others' recorded bids)",
        "where the record is silent, because play never got there, the equilibrium move",
        "a chip worth 1/5 point",
    )
    for assumption in ("values_from_state", "runner-up", "no credit", "1/5 point"):
        assert assumption in debrief.ASSUMPTIONS
    assert "cost them" not in TEXT and "bidding_cost" not in TEXT


def test_lars_threw_away_a_sure_win(sample):
    """The decision notebook 08 shows: Lars took two shares where selling three yellow won."""
    from mogul.classroom import decisions
    from mogul.classroom.mogul.sample import STUDENTS

    store, _, _ = sample
    assert dict(STUDENTS)["Lars"] == "threshold:drop_at=3"  # as the winner it takes the shares
    analysis = decisions.analyse_decision(store, "F3Y2TCZ2", 287).set_index("action")
    took, sold = analysis.loc["Take green/yellow"], analysis.loc["Sell 3 yellow (+15)"]
    assert took["chosen"] and not sold["chosen"]
    assert sold["win_low"] > 0.99  # "all but certainly win"
    assert took["win_low"] > 0.05 and took["win_high"] < 0.15  # "about one in ten"
    assert analysis["win_chance"].idxmax() == "Sell 3 yellow (+15)"
    states(
        TEXT,
        "Lars (a stand-in who, when he wins an auction, always takes the shares) could sell three "
        "yellow shares for 15 points "
        "and all but certainly win; he took two shares instead, and his win chance fell to about one in ten",
        "the move the student made is coloured",
    )
