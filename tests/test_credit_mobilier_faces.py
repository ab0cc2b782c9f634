"""Credit Mobilier's faces: the board figure, the dice, the game charts and the player widget.

The scenes are scripted setups from the rulebook's examples, so every number is worked by
hand. The widget is driven headless by ``.click()`` (no browser; see tests/e2e for that).
"""

from __future__ import annotations

import re

import pytest

import mogul.credit_mobilier as cm
from mogul.credit_mobilier import END, Build, Buy, Move, PayRound
from mogul.kit.bots import play
from mogul.plots.credit_mobilier import (
    BOARD_TRACES,
    board_data,
    board_figure,
    dice_faces,
    dice_html,
    dividends_figure,
    stock_figure,
    treasuries_figure,
)
from mogul.widgets.credit_mobilier import CreditMobilierPlayer, shared_words


def move_example(**extra):
    """The rulebook's moving example: two red, two blue and a yellow rolled.

    ::

        row B:  coast   B1 =blue= B2(red) =red= B3(red) =blue= B4 =blue= B5 =blue= B6 | east

    A red pawn moved west over blue track earns $2 red and $2 blue; over red track $4 red.
    """
    return cm.new_game(
        ["Ann", "Ben", "Cai"],
        seed=5,
        start_player=0,
        dice=[["red", "red", "blue", "blue", "yellow"]],
        goods={"B2": "red", "B3": "red", "A6": "green", "C6": "yellow", "D6": "blue"},
        track={"B1-B2": "blue", "B2-B3": "red", "B3-B4": "blue", "B4-B5": "blue", "B5-B6": "blue"},
        **extra,
    )


def segments(trace: dict) -> int:
    """How many track spaces (or arrows) a line trace draws: one gap (None) after each."""
    return sum(v is None for v in trace["x"])


def points(trace: dict) -> list[tuple[float, float]]:
    return list(zip(trace["x"], trace["y"], strict=True))


# --- the board --------------------------------------------------------------------------------


def test_board_draws_every_track_space_free_or_in_its_colour_and_every_pawn():
    s = move_example()
    fig = board_figure(s)
    assert [t.name for t in fig.data] == list(BOARD_TRACES)
    data = board_data(s)
    assert segments(data["free track space"]) == 42 - 5  # the modeled board has 42 track spaces
    assert segments(data["blue track"]) == 4 and segments(data["red track"]) == 1
    assert segments(data["green track"]) == segments(data["yellow track"]) == 0
    # B2-B3 spans the gap between B2 (x 2) and B3 (x 3) on row B (y -1)
    x, y = data["red track"]["x"], data["red track"]["y"]
    assert (x[0], x[2], y[0]) == (2.3, 2.7, -1.0)
    # one marker per pawn, each in its square's centre (columns along x, rows A-D down from 0)
    assert points(data["red goods"]) == [(2.0, -1.0), (3.0, -1.0)]
    assert points(data["green goods"]) == [(6.0, 0.0)] and points(data["blue goods"]) == [
        (6.0, -3.0)
    ]
    assert "red goods on B2" in data["red goods"]["text"]
    # the coast is a strip west of column 1; nothing highlighted unless asked
    assert fig.layout.shapes[0].x1 <= 0.3 < 0.7 <= fig.layout.shapes[2].x0
    assert segments(data["can build"]) == segments(data["can move"]) == 0
    assert fig.layout.title.text == "Turn 1: Ann, to choose"


def test_board_highlights_the_legal_builds_and_moves():
    s = move_example()
    legal = s.legal_actions()
    data = board_data(s, legal)
    builds = {a.section for a in legal if isinstance(a, Build)}
    # joined to the east: the eastern squares and row B up to B1; free sections touching them
    assert {"coast-B1", "A1-B1", "B1-C1", "A5-A6", "A6-B6", "C5-C6"} <= builds
    assert "A1-A2" not in builds and "C1-C2" not in builds
    assert segments(data["can build"]) == len(builds)
    assert any(
        "coast-B1: may build red or yellow or blue track" in t
        for t in data["can build"]["text"]
        if t
    )
    # two red moves west: B2 -> B1 and B3 -> B2, drawn as arrows pointing west
    assert [a for a in legal if isinstance(a, Move)] == [
        Move("red", "B2", "B1"),
        Move("red", "B3", "B2"),
    ]
    arrows = data["can move"]
    assert segments(arrows) == 2
    assert (arrows["x"][0], arrows["x"][1]) == (1.78, 1.22)  # from B2 towards B1: x falls
    assert arrows["size"] == [0, 11, 0, 0, 11, 0]  # an arrowhead at each end only


def test_board_glows_where_the_last_step_built_or_crossed_and_pawns_stack_apart():
    s = move_example().apply(Move("red", "B3", "B2"))  # over red track: $4 red
    assert s.treasuries.red == 4
    data = board_data(s)
    assert (
        segments(data["just done"]) == 1 and data["just done"]["text"][0] == "B2-B3: the last step"
    )
    assert points(data["red goods"]) == [
        (1.87, -0.87),
        (2.13, -0.87),
    ]  # two pawns side by side on B2
    s = s.apply(Move("red", "B2", "B1"))
    assert s.treasuries.red == 6 and s.treasuries.blue == 2  # over blue track: $2 red, $2 blue
    built = board_data(cm.new_game(3, seed=1).apply(Build("red", "A5-A6")))
    assert built["just done"]["text"][0] == "A5-A6: the last step"


def test_pawns_on_the_coast_stand_in_rows_of_three_inside_the_strip():
    s = cm.new_game(
        3,
        seed=2,
        goods={"coast": ["red"] * 5 + ["blue"], "A1": "green", "A2": "yellow", "A3": "red"},
        start_player=0,
    )
    data = board_data(s)
    coast = [p for p in points(data["red goods"]) + points(data["blue goods"]) if p[0] < 0.3]
    assert len(coast) == 6 and len(set(coast)) == 6
    assert all(-0.55 < x < 0.3 and -3.3 < y < 0.3 for x, y in coast)


# --- the dice ---------------------------------------------------------------------------------


def connie(**extra):
    """The rulebook's dividend example: Connie rolls two orange, two purple and a red."""
    return cm.new_game(
        ["Connie", "Randy", "Aaron"],
        seed=1,
        start_player=0,
        dice=[["red", "purple", "purple", "orange", "orange"]],
        treasuries={"red": 4},
        stocks=[{"red": 2, "purple": 1}, {"purple": 1}, {"red": 1, "purple": 1}],
        **extra,
    )


def test_dice_are_free_then_used_one_per_action_and_idle_when_they_do_not_count():
    s = connie()
    assert dice_faces(s) == [(d, "free") for d in ("red", "purple", "purple", "orange", "orange")]
    s = s.apply(PayRound("red"))  # red + two purple wilds = 3 rounds, more than the 2 orange
    assert [st for _, st in dice_faces(s)] == ["used", "free", "free", "idle", "idle"]
    assert s.money == (5, 3, 4)  # Connie $2, Aaron $1 in the first round
    s = s.apply(PayRound("red"))  # the last $1 of the treasury: payment stops, the turn ends
    assert s.money == (6, 3, 4) and s.current_player == 1
    page = dice_html(s)
    assert (
        "<b>Randy</b>'s roll: choose a colour and an action" in page and "line-through" not in page
    )


def test_orange_dice_count_when_they_allow_more_rounds_and_credit_mobilier_never_takes_wilds():
    s = cm.new_game(
        3,
        seed=1,
        start_player=0,
        treasuries={"red": 9, "purple": 9},
        dice=[["red", "orange", "orange", "orange", "purple"]] * 2,
    )
    after = s.apply(PayRound("red"))  # red + wild = 2 < 3 orange: the orange dice count
    assert [st for _, st in dice_faces(after)] == ["idle", "idle", "used", "free", "free"]
    page = dice_html(after)
    assert page.count("line-through") == 1 and page.count("opacity:0.35") == 2
    assert "dividends red, 1 of 3 done" in page
    bought = s.apply(Buy("purple"))  # one purple die: one Credit Mobilier share, turn over
    assert bought.current_player == 1 and bought.stocks[0].purple == 2


# --- one game's charts --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record():
    return play(cm.new_game(3, seed=11), [cm.DividendBot() for _ in range(3)])


def test_treasury_chart_follows_the_treasuries_table(record):
    final = record.replay()
    fig = treasuries_figure(record.table("treasuries"))
    assert [t.name for t in fig.data] == ["red", "yellow", "green", "blue", "Credit Mobilier"]
    for trace, company in zip(fig.data, cm.COMPANIES, strict=True):
        assert trace.y[-1] == final.treasuries[company] and trace.x[-1] == final.turn
    assert fig.data[4].line.color == cm.components().company("purple").colour


def test_dividend_and_stock_charts_add_up_to_the_game(record):
    final = record.replay()
    dividends = record.table("dividends")
    fig = dividends_figure(dividends, final.names)
    for trace, company in zip(fig.data, cm.COMPANIES, strict=True):
        paid = dividends[dividends["company"] == company].groupby("seat")["paid"].sum()
        assert list(trace.y) == [int(paid.get(seat, 0)) for seat in range(3)]
    assert sum(sum(t.y) for t in fig.data) == int(dividends["paid"].sum()) > 0
    stock = stock_figure(record.table("holdings"))
    assert stock.layout.title.text == "Shares held at the end"
    for trace, company in zip(stock.data, cm.COMPANIES, strict=True):
        assert list(trace.y) == [s[company] for s in final.stocks]


# --- the player widget ----------------------------------------------------------------------------


def labels(app: CreditMobilierPlayer) -> list[str]:
    """The game's label of each action button shown (its tooltip; the text may be shorter)."""
    return [b.tooltip or b.description for b in app.buttons()]


def press(app: CreditMobilierPlayer, label: str) -> None:
    """Click the button of the action labelled ``label...``, first picking its row in ``kinds``
    when the player shows one row at a time."""
    if app.kinds.layout.display is None:
        (row,) = [o for o in app.kinds.options if label.startswith(o.rsplit(" (", 1)[0])]
        app.kinds.value = row
    (button,) = [b for b in app.buttons() if (b.tooltip or b.description).startswith(label)]
    button.click()


def test_a_human_turn_by_the_buttons_moves_the_board_and_undo_takes_it_back():
    app = CreditMobilierPlayer(
        "credit-mobilier",
        ["human", "dividend", "dividend"],
        names=["Ann", "Ben", "Cai"],
        seed=5,
        start_player=0,
        dice=[["red", "red", "blue", "blue", "yellow"]],
        goods={"B2": "red", "B3": "red", "A6": "green", "C6": "yellow", "D6": "blue"},
        track={"B1-B2": "blue", "B2-B3": "red", "B3-B4": "blue", "B4-B5": "blue", "B5-B6": "blue"},
    )
    assert app.status.value == "<b>Ann</b>, your move (choose an action)."
    # a row per colour of builds and of moves, then the buys (no orange: no dividends), no End turn
    rows = app.action_rows(app.state.legal_actions())
    assert [caption for caption, _ in rows] == [
        "Build red ... (+$2 Credit Mobilier)",
        "Build yellow ... (+$2 Credit Mobilier)",
        "Build blue ... (+$2 Credit Mobilier)",
        "Move red ...",
        "",
    ]
    assert [text for _, text in rows[3][1]] == [
        "B2 -> B1 (+$2 red, +$2 blue)",
        "B3 -> B2 (+$4 red)",
    ]
    assert [text for _, text in rows[4][1]] == ["Buy red ($1)", "Buy yellow ($1)", "Buy blue ($1)"]
    # 24 buttons: one row at a time, picked by name (the first at first)
    assert app.kinds.options[0].startswith("Build red (") and "Move red (2)" in app.kinds.options
    assert [b.description for b in app.buttons()][:2] == ["A5-A6", "coast-B1"]  # in board order
    board = app.board
    assert board.layout.title.text == "Turn 1: Ann, to choose"
    assert sum(v is None for v in board.data[BOARD_TRACES.index("can move")].x) == 2

    press(app, "Move red B3 -> B2")
    assert app.state.treasuries.red == 4 and app.state.kind == "move"
    assert labels(app) == [
        "Move red B2 -> B1 (+$2 red, +$2 blue)",
        "End turn",
    ]  # one button for two pawns
    red_goods = board.data[BOARD_TRACES.index("red goods")]
    assert list(red_goods.x) == [1.87, 2.13]  # both red pawns on B2 now
    assert board.layout.title.text == "Turn 1: Ann, move red"
    assert "line-through" in app.dice.value  # one red die used

    press(app, "End turn")  # the bots play their turns; Ann is to roll again
    assert app.state.current_player == 0 and app.state.turn == 4
    assert app.state.treasuries.red >= 4
    assert "Ann ends the turn." in app.event_log(40) and "Turn 4: Ann rolls" in app.table.value

    app.undo_button.click()  # back to Ann's last decision: after the move, before End turn
    assert app.state.turn == 1 and app.state.kind == "move" and app.state.used == 1
    assert list(board.data[BOARD_TRACES.index("red goods")].x) == [1.87, 2.13]
    app.undo_button.click()  # and back to the roll
    assert app.state.used == 0 and list(board.data[BOARD_TRACES.index("red goods")].x) == [2.0, 3.0]
    assert board.layout.title.text == "Turn 1: Ann, to choose"


def test_bots_alone_step_turn_by_turn_and_play_to_the_end():
    app = CreditMobilierPlayer("credit-mobilier", ["dividend", "random", "dividend"], seed=4)
    assert app.buttons() == [] and "press <i>Next step</i>" in app.status.value
    turn = app.state.turn
    app.next_round_button.click()
    assert app.state.turn == turn + 1
    app.next_step_button.click()
    assert len(app.history) > 2
    app.play_to_end_button.click()
    final = app.state
    assert final.is_over and app.status.value.startswith("<b>Game over.</b>")
    assert app.next_step_button.disabled and app.play_to_end_button.disabled
    assert app.board.layout.title.text == f"The board after {final.turn} turns: game over"
    assert [st for _, st in dice_faces(final)] == ["idle"] * 5
    # fewer than three colours of goods are left off the coast
    off_coast = {c for space, c in final.goods if space != "coast"}
    assert len(off_coast) <= 2
    app.new_game(4)
    assert app.state == app.history[0] and not app.state.is_over


def test_hot_seat_covers_the_table_between_two_humans():
    app = CreditMobilierPlayer(
        "credit-mobilier",
        ["human", "human"],
        seed=8,
        start_player=0,
        dice=[["blue", "blue", "green", "yellow", "red"], ["yellow"] * 5],
    )
    assert app.hot_seat and app.cover.layout.display is None and app.buttons() == []
    assert "Pass the laptop to Ann" in app.cover_text.value
    app.ready_button.click()
    assert app.buttons() and app.cover.layout.display == "none"
    press(app, "Buy blue")
    press(app, "End turn")  # Ben's turn: the cover is back
    assert app.state.current_player == 1 and "Pass the laptop to Ben" in app.cover_text.value
    assert app.buttons() == []


def test_the_live_board_keeps_its_traces_and_stores_updates_for_views_drawn_later():
    app = CreditMobilierPlayer("credit-mobilier", ["random", "random"], seed=2)
    before = app.board.get_state()["_widget_layout"]["title"]["text"]
    app.next_round_button.click()
    app.next_round_button.click()
    state = app.board.get_state()
    assert [t["name"] for t in state["_widget_data"]] == list(BOARD_TRACES)
    assert state["_widget_layout"]["title"]["text"] != before
    assert re.match(r"Turn \d+: (Ann|Ben), ", state["_widget_layout"]["title"]["text"])


def test_end_turn_button_comes_only_after_the_first_unit_action():
    app = CreditMobilierPlayer(
        "credit-mobilier",
        ["human", "dividend"],
        seed=3,
        start_player=0,
        dice=[["green"] * 3 + ["orange"] * 2],
    )
    assert "End turn" not in labels(app)
    press(app, "Build green A5-A6")
    assert labels(app)[-1] == "End turn" and app.state.used == 1
    assert END in app.state.legal_actions()


def test_shared_words_make_a_caption_and_short_buttons():
    labels_ = ["Build red A5-A6 (+$2 Credit Mobilier)", "Build red B5-B6 (+$2 Credit Mobilier)"]
    caption, row = shared_words(["a", "b"], labels_)
    assert caption == "Build red ... (+$2 Credit Mobilier)" and row == [
        ("a", "A5-A6"),
        ("b", "B5-B6"),
    ]
    assert shared_words(["a"], ["Buy red ($1)"]) == ("", [("a", "Buy red ($1)")])
    # labels that differ only at the end keep at least one word of their own
    caption, row = shared_words(["a", "b"], ["Pay red", "Pay red now"])
    assert caption == "Pay ..." and row == [("a", "red"), ("b", "red now")]


def test_many_actions_show_one_row_at_a_time_picked_by_name():
    # notebook 07's game at turn 1: 21 builds and 4 buys; a row at a time, not 25 buttons
    app = CreditMobilierPlayer(seed=7, names=["Ann", "Ben", "Cai"])
    assert len(app.state.legal_actions()) == 25
    assert app.kinds.layout.display is None
    assert app.kinds.options == ("Build red (7)", "Build green (7)", "Build blue (7)", "Buy (4)")
    assert labels(app)[0] == "Build red A5-A6 (+$2 Credit Mobilier)" and len(labels(app)) == 7
    app.kinds.value = "Buy (4)"
    assert labels(app) == ["Buy red ($1)", "Buy green ($1)", "Buy blue ($1)", "Buy purple ($1)"]
    press(app, "Buy purple")  # the next choice keeps to buying while buying is legal
    assert app.state.current_player == 0 and app.kinds.value.startswith("Buy")
