"""The debrief's "analyse this position" (mogul/classroom/decisions.py, DecisionBrowser): a
class game's recorded move beside every legal action, for every game the classroom hosts."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from mogul.analysis.position import reading
from mogul.classroom import decisions
from mogul.classroom.mogul import debrief
from mogul.classroom.store import TableStore
from mogul.kit.bots import RandomBot
from mogul.plots.analysis import CHOSEN, PLAIN, bar_label, figure_height, position_analysis_figure
from mogul.widgets.position_analysis import DecisionBrowser

LARS = ("F3Y2TCZ2", 287)
"""In the sample class, Lars (a stand-in who always takes shares) took two shares at the end
of table F3Y2-TCZ2 instead of selling three yellow for 15 points and the win."""

FEW = {"classic": 200, "rio-grande": 40, "credit-mobilier": 8}
"""Rollouts for the analyses of the small games below (speed, not precision, is tested there)."""


@pytest.fixture(scope="module")
def sample() -> tuple[TableStore, str, pd.DataFrame]:
    store, session = debrief.load_sample()
    return store, session, decisions.decisions(store, session)


def class_game(edition: str, seats: int = 3, bot_seat: int | None = None) -> tuple[TableStore, str]:
    """One table of ``edition`` played to the end through the store by random "students"
    (``bot_seat``: a random bot sits there instead)."""
    store = TableStore("sqlite://")
    kinds = ["human"] * seats
    if bot_seat is not None:
        kinds[bot_seat] = "random"
    (info,) = store.create_tables(1, edition, kinds, session="test", seed=11)
    tickets = {}
    for seat, kind in enumerate(kinds):
        if kind == "human":
            tickets[seat] = store.join(info.code, f"student {seat}")
    rng = random.Random(3)
    while True:
        states = store.history(info.code)
        if states[-1].is_over:
            return store, info.code
        state = states[-1]
        action = RandomBot(rng.randrange(2**31)).choose(
            state.view(state.current_player), state.legal_actions()
        )
        store.act(tickets[state.current_player], len(states) - 1, str(action))


def test_every_decision_of_the_sample_class_is_a_row(sample):
    store, session, moves = sample
    assert list(moves.columns) == decisions.DECISION_COLUMNS
    # 249 + 205 + 246 states with two options or more, every seat a person's
    assert len(moves) == 700
    assert moves["options"].min() == 2
    assert set(moves["table"]) == {"YYZ5-EYZ3", "HDKP-DM82", "F3Y2-TCZ2"}
    lars = moves[(moves["code"] == LARS[0]) & (moves["step"] == LARS[1])].iloc[0]
    assert (lars["name"], lars["seat"], lars["kind"]) == ("Lars", 3, "human")
    assert (lars["chosen"], lars["options"], lars["stage"]) == ("Take green/yellow", 5, 24)
    state = store.history(LARS[0])[LARS[1]]
    assert state.current_player == 3 and len(state.legal_actions()) == 5


def test_the_analysis_marks_the_move_made_and_shows_what_it_cost(sample):
    store, _, _ = sample
    analysis = decisions.analyse_decision(store, *LARS)
    state = store.history(LARS[0])[LARS[1]]
    spec = store.spec(LARS[0])
    assert list(analysis["action"]) == [spec.action_label(state, a) for a in state.legal_actions()]
    assert list(analysis["action"]) == [
        "Take green/yellow",
        "Sell 0 yellow",
        "Sell 1 yellow (+5)",
        "Sell 2 yellow (+10)",
        "Sell 3 yellow (+15)",
    ]
    assert list(analysis["chosen"]) == [True, False, False, False, False]
    assert (analysis["rollouts"] == 2000).all()
    chosen, best = analysis.iloc[0], analysis.iloc[4]
    assert chosen["win_chance"] < 0.2 and best["win_chance"] > 0.95
    assert chosen["win_high"] < best["win_low"]  # the intervals are far apart
    assert (analysis["win_low"] <= analysis["win_chance"]).all()
    assert (analysis["win_chance"] <= analysis["win_high"]).all()
    assert decisions.regret(analysis) == pytest.approx(best["win_chance"] - chosen["win_chance"])
    assert decisions.regret(analysis) > 0.8


def test_the_figure_draws_a_bar_per_action_the_move_made_coloured(sample):
    store, _, _ = sample
    analysis = decisions.analyse_decision(store, *LARS, rollouts=400)
    fig = position_analysis_figure(analysis, title="t")
    score, win = fig.data
    assert list(win.y) == [bar_label(a) for a in analysis["action"]] == list(score.y)
    assert list(win.marker.color) == [CHOSEN] + [PLAIN] * 4
    assert list(win.text) == ["chosen", "", "", "", ""]
    assert list(win.x) == [round(x, 3) for x in analysis["win_chance"]]
    assert list(win.error_x.array) == [
        round(h - x, 3) for h, x in zip(analysis["win_high"], analysis["win_chance"], strict=True)
    ]
    assert figure_height(5) == 310 and figure_height(1) == figure_height(2)
    # one panel for a phone: the win chance, the score in the hover text
    (alone,) = position_analysis_figure(analysis, title="t", score=False).data
    assert alone.x == win.x and alone.y == win.y and alone.marker.color == win.marker.color
    assert alone.error_x.array == win.error_x.array
    scores = analysis[["mean_score", "score_low", "score_high"]].to_numpy()
    assert [x for c in alone.customdata for x in c[:3]] == pytest.approx(scores.ravel(), abs=0.005)
    assert alone.customdata[4][0] > 30 > alone.customdata[0][0]  # +15 points for the sale
    assert "win chance %{customdata[3]:.1%}" in alone.hovertemplate


def test_a_step_outside_the_game_is_refused_with_the_moves_there_are(sample):
    store, _, _ = sample
    last = len(store.actions(LARS[0])) - 1
    for step in (-1, last + 1, 1.5, True):
        with pytest.raises(ValueError, match=f"a whole number from 0 to {last}, got"):
            decisions.analyse_decision(store, LARS[0], step)


@pytest.mark.parametrize("edition", ["classic", "rio-grande", "credit-mobilier"])
def test_every_game_the_classroom_hosts_is_analysed_through_its_face(edition):
    store, code = class_game(edition)
    moves = decisions.decisions(store)
    spec = store.spec(code)
    states, actions = store.history(code), store.actions(code)
    several = [i for i, s in enumerate(states[:-1]) if len(s.legal_actions()) > 1]
    assert list(moves["step"]) == several and len(several) > 10
    assert set(moves["name"]) == {"student 0", "student 1", "student 2"}
    # the last decision and one in the middle, each with its own number of options
    for row in (moves.iloc[-1], moves.iloc[len(moves) // 2]):
        analysis = decisions.analyse_decision(store, code, row["step"], rollouts=FEW[edition])
        state = states[row["step"]]
        assert len(analysis) == row["options"] == len(state.legal_actions())
        assert list(analysis["action"]) == [
            spec.action_label(state, a) for a in state.legal_actions()
        ]
        assert analysis["chosen"].sum() == 1
        marked = analysis.loc[analysis["chosen"], "action"].iloc[0]
        assert marked == row["chosen"]
        assert marked == spec.action_label(state, spec.parse_action(actions[row["step"]]))
        assert (analysis["rollouts"] == FEW[edition]).all()
        assert 0 <= decisions.regret(analysis) <= 1
        (bars,) = position_analysis_figure(analysis, score=False).data
        assert list(bars.y) == [bar_label(a) for a in analysis["action"]]
        assert [c == CHOSEN for c in bars.marker.color] == list(analysis["chosen"])


def test_bots_seats_are_left_out_unless_asked_for():
    store, code = class_game("classic", seats=3, bot_seat=1)
    people = decisions.decisions(store)
    everyone = decisions.decisions(store, people_only=False)
    assert set(people["seat"]) == {0, 2} and 1 in set(everyone["seat"])
    assert set(everyone.loc[everyone["seat"] == 1, "kind"]) == {"random"}
    assert len(everyone) > len(people)


def test_the_browser_analyses_the_decision_picked(sample):
    store, _, moves = sample
    asked = []

    def analyse(row):
        asked.append((row["code"], int(row["step"])))
        return decisions.analyse_decision(store, row["code"], row["step"], rollouts=200)

    browser = DecisionBrowser(
        moves, analyse, title=decisions.decision_title, caption=decisions.decision_caption
    )
    assert browser.table.options == ("YYZ5-EYZ3", "HDKP-DM82", "F3Y2-TCZ2")
    assert asked == [("YYZ5EYZ3", 0)] and browser.decision.max == 248
    index = list(browser.rows("F3Y2-TCZ2")["step"]).index(LARS[1])
    browser.show("F3Y2-TCZ2", index)
    assert asked[-1] == LARS and len(asked) == 2  # one analysis per decision shown
    assert browser.figure.layout.title.text == "Lars chose Take green/yellow"
    ranked = reading(browser.analysis).replace("'", "&#x27;")  # how far 200 games rank them
    assert (
        f">Decision {index} (of 0 to {browser.decision.max}): Table F3Y2-TCZ2, move 287 of the game "
        "(all seats&#x27; moves counted): "
        f"Lars had 5 options. {ranked}</div>" in browser.caption.value
    )
    (bars,) = browser.figure.data  # the win chance alone: a phone holds it
    assert list(bars.marker.color) == [CHOSEN] + [PLAIN] * 4
    assert list(bars.x) == [round(x, 3) for x in browser.analysis["win_chance"]]
    assert browser.figure.layout.height == figure_height(5)
    browser.decision.value = index - 1
    assert asked[-1] == ("F3Y2TCZ2", browser.rows()["step"].iloc[index - 1])
    browser.table.value = "HDKP-DM82"  # another table starts at its first decision
    assert browser.decision.value == 0 and browser.decision.max == 204
    assert asked[-1] == ("HDKPDM82", browser.rows("HDKP-DM82")["step"].iloc[0])
    with pytest.raises(ValueError, match="no table 'NOPE-NOPE'; the tables: YYZ5-EYZ3"):
        browser.show("NOPE-NOPE", 0)
    with pytest.raises(ValueError, match="table HDKP-DM82 has decisions 0 to 204, not 205"):
        browser.show("HDKP-DM82", 205)
    with pytest.raises(ValueError, match="no decisions to browse"):
        DecisionBrowser(moves.head(0), analyse)
