"""Every example of the Credit Mobilier rulebook, replayed as a scripted scenario.

Square names: rows A-D north to south, columns 1-6 west to east; column 6 touches the
eastern edge, the Pacific Coast ("coast") lies west of column 1. A track space is named by
its two ends, west (or north) end first.
"""

from __future__ import annotations

import pytest
from cm_checks import check_step

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier.events import DividendsPaid, GameEnded, GoodsMoved, TurnEnded

EASTERN = ("A5-A6", "B5-B6", "C5-C6", "D5-D6", "A6-B6", "B6-C6", "C6-D6")
"""The track spaces a first section can go on: each touches a square of the eastern column."""

GOODS = {"A4": "yellow", "B3": "red", "B5": "blue", "C2": "green", "D6": "green"}


def scenario(dice, players=("Connie", "Randy", "Aaron"), **setup):
    """A scripted table: the start player (seat 0) has rolled ``dice``; the next rolls are all orange."""
    setup.setdefault("goods", GOODS)
    later = [["orange"] * 5] * 5
    return cm.new_game(list(players), seed=0, dice=[dice, *later], start_player=0, **setup)


def step(state, action):
    after = state.apply(action)
    check_step(state, after)
    return after


def builds(colours, sections=EASTERN):
    return {cm.Build(c, s) for c in colours for s in sections}


# --- the five examples of choosing a colour and an action -----------------------------------


def test_one_blue_two_green_two_red():
    # "They may choose to perform one blue action ... up to two green actions ... or buy two red stocks."
    s = scenario(["blue", "green", "green", "red", "red"])
    assert set(s.legal_actions()) == builds(["red", "green", "blue"]) | {
        cm.Buy("red"),
        cm.Buy("green"),
        cm.Buy("blue"),
    }
    assert cm.EndTurn() not in s.legal_actions(), "a player must act and may not pass"
    assert [cm.allowance(s.dice, c, "build") for c in ("red", "green", "blue", "yellow")] == [
        2,
        2,
        1,
        0,
    ]
    # One blue build uses the only blue action: the turn ends by itself.
    after = step(s, cm.Build("blue", "B5-B6"))
    assert after.current_player == 1 and after.track == (("B5-B6", "blue"),)
    assert TurnEnded(0, "used up") in after.events
    # Two red stocks for $1 each; the first fixes colour and kind.
    one = step(s, cm.Buy("red"))
    assert one.legal_actions() == [cm.Buy("red"), cm.EndTurn()]
    two = step(one, cm.Buy("red"))
    assert two.current_player == 1 and two.money[0] == 1 and two.stocks[0].red == 2


def test_two_green_moves_one_pawn_two_spaces_or_two_pawns_one_each():
    track = {"C5-C6": "red", "C4-C5": "red", "C3-C4": "red", "C2-C3": "red", "C1-C2": "red"}
    s = scenario(
        ["blue", "green", "green", "red", "red"], goods={**GOODS, "C4": "green"}, track=track
    )
    moves = {a for a in s.legal_actions() if isinstance(a, cm.Move)}
    # Both green pawns may go west along the red track (no track runs north or south).
    assert moves == {cm.Move("green", "C2", "C1"), cm.Move("green", "C4", "C3")}
    once = step(s, cm.Move("green", "C4", "C3"))
    assert once.legal_actions() == [
        cm.Move("green", "C2", "C1"),
        cm.Move("green", "C3", "C2"),
        cm.EndTurn(),
    ]
    twice = step(once, cm.Move("green", "C3", "C2"))  # the same pawn a second space
    assert twice.current_player == 1 and twice.goods_at("C2") == ("green", "green")
    assert twice.treasuries.green == 4 and twice.treasuries.red == 4


def test_purple_is_wild_only_for_colours_rolled():
    # "Two reds, a green, a blue and a purple: the purple may be used as a red, green or blue, not a yellow."
    s = scenario(["red", "red", "green", "blue", "purple"])
    assert [
        cm.allowance(s.dice, c, "buy") for c in ("red", "yellow", "green", "blue", "purple")
    ] == [3, 0, 2, 2, 1]
    assert set(s.legal_actions()) == builds(["red", "green", "blue"]) | {
        cm.Buy("red"),
        cm.Buy("green"),
        cm.Buy("blue"),
        cm.Buy("purple"),
    }
    assert not any(
        getattr(a, "colour", getattr(a, "company", "")) == "yellow" for a in s.legal_actions()
    )


def test_one_yellow_and_four_purple_give_five_yellow_actions_of_one_kind():
    s = scenario(["yellow", "purple", "purple", "purple", "purple"], money=[10, 3, 3])
    assert cm.allowance(s.dice, "yellow", "buy") == cm.allowance(s.dice, "yellow", "build") == 5
    assert set(s.legal_actions()) == builds(["yellow"]) | {cm.Buy("yellow"), cm.Buy("purple")}
    for _ in range(4):
        s = step(s, cm.Buy("yellow"))
        assert s.legal_actions() == [cm.Buy("yellow"), cm.EndTurn()], (
            "no build once buying was chosen"
        )
    s = step(s, cm.Buy("yellow"))
    assert s.current_player == 1 and s.stocks[0].yellow == 5 and s.money[0] == 5


def test_two_purple_buy_two_credit_mobilier_shares():
    # "Two purple, a red, green and a yellow: ... buy two Credit Mobilier stocks for $1 each."
    s = scenario(["purple", "purple", "red", "green", "yellow"])
    assert cm.allowance(s.dice, "purple", "buy") == 2
    assert cm.Buy("purple") in s.legal_actions()
    s = step(step(s, cm.Buy("purple")), cm.Buy("purple"))
    assert s.current_player == 1 and s.stocks[0].purple == 3 and s.money[0] == 1


def test_purple_orange_and_three_red_pay_one_credit_mobilier_round_or_four_red():
    s = scenario(
        ["purple", "orange", "red", "red", "red"],
        treasuries={"red": 20, "purple": 10},
        stocks=[{"red": 1, "purple": 1}, {"purple": 1}, {"purple": 1}],
    )
    assert cm.allowance(s.dice, "purple", "dividends") == 1
    assert cm.allowance(s.dice, "red", "dividends") == 4
    assert set(s.legal_actions()) == builds(["red"]) | {
        cm.Buy("red"),
        cm.Buy("purple"),
        cm.PayRound("red"),
        cm.PayRound("purple"),
    }
    credit_mobilier = step(s, cm.PayRound("purple"))
    assert credit_mobilier.current_player == 1, "one Credit Mobilier round, then the turn is over"
    assert credit_mobilier.money == (4, 4, 4) and credit_mobilier.treasuries.purple == 7
    red = s
    for _ in range(4):
        assert red.current_player == 0
        red = step(red, cm.PayRound("red"))
    assert red.current_player == 1 and red.money == (7, 3, 3) and red.treasuries.red == 16


# --- building, buying and moving ------------------------------------------------------------


def test_three_yellow_builds_pay_six_dollars_to_the_credit_mobilier():
    s = scenario(["yellow", "yellow", "yellow", "red", "green"])
    assert cm.Build("yellow", "B4-B5") not in s.legal_actions(), (
        "not joined to the eastern edge yet"
    )
    s = step(s, cm.Build("yellow", "B5-B6"))
    assert cm.Build("yellow", "B4-B5") in s.legal_actions()
    s = step(s, cm.Build("yellow", "B4-B5"))
    s = step(s, cm.Build("yellow", "B3-B4"))
    assert s.treasuries == cm.ByCompany(purple=6)
    assert s.track == (("B3-B4", "yellow"), ("B4-B5", "yellow"), ("B5-B6", "yellow"))
    assert s.current_player == 1 and sum(s.money) == 9, "the players paid nothing: the bank did"


def test_buying_stock_up_to_the_number_rolled():
    # "Three reds, a green, and a yellow: three red stocks for $3; or two; or one; or one green or one yellow."
    s = scenario(["red", "red", "red", "green", "yellow"])
    assert [cm.allowance(s.dice, c, "buy") for c in ("red", "green", "yellow")] == [3, 1, 1]
    green = step(s, cm.Buy("green"))
    assert green.current_player == 1 and green.money[0] == 2
    red = step(step(s, cm.Buy("red")), cm.Buy("red"))
    assert red.legal_actions() == [cm.Buy("red"), cm.EndTurn()]
    stopped = step(red, cm.EndTurn())
    assert stopped.current_player == 1 and stopped.stocks[0].red == 2 and stopped.money[0] == 1


def test_no_money_no_stock():
    s = scenario(["red", "red", "red", "green", "yellow"], money=[1, 3, 3])
    s = step(s, cm.Buy("red"))
    assert s.current_player == 1, "with $0 left the turn is over"


def test_a_move_west_pays_the_pawn_and_the_track_owner():
    # Rulebook: "Two red, two blue and one yellow ... one red goods pawn west over a blue track: $2 to
    # red and $2 to blue ... another red goods pawn west over a red track: $4 to red." The rule's
    # sentence says "east" for the track owner's $2: a misprint, as this example shows.
    track = {"B5-B6": "blue", "B4-B5": "blue", "B3-B4": "red"}
    s = scenario(
        ["red", "red", "blue", "blue", "yellow"],
        goods={**GOODS, "B4": "red", "B5": "red"},
        track=track,
    )
    s = step(s, cm.Move("red", "B5", "B4"))
    assert (s.treasuries.red, s.treasuries.blue) == (2, 2)
    assert s.events == (GoodsMoved(0, "red", "B5", "B4", "west", "blue", 2, 2),)
    s = step(s, cm.Move("red", "B4", "B3"))
    assert (s.treasuries.red, s.treasuries.blue) == (6, 2)
    assert s.current_player == 1


def test_goods_never_move_east_and_north_south_pays_nothing():
    track = {"B5-B6": "blue", "A6-B6": "green", "B6-C6": "green"}
    s = scenario(
        ["blue", "blue", "green", "red", "yellow"], goods={**GOODS, "B6": "blue"}, track=track
    )
    moves = {a for a in s.legal_actions() if isinstance(a, cm.Move)}
    assert moves == {
        cm.Move("blue", "B6", "B5"),
        cm.Move("blue", "B6", "A6"),
        cm.Move("blue", "B6", "C6"),
    }
    assert cm.Move("blue", "B5", "B6") not in s.legal_actions(), "B5 -> B6 is east"
    north = step(s, cm.Move("blue", "B6", "A6"))
    assert north.treasuries == s.treasuries and north.events[0].direction == "north"
    with pytest.raises(cm.IllegalActionError, match="move blue B5 B6 is not legal"):
        north.apply(cm.Move("blue", "B5", "B6"))


def test_a_pawn_on_the_pacific_coast_never_moves():
    track = {f"B{c}-B{c + 1}": "red" for c in range(1, 6)} | {"coast-B1": "red"}
    s = scenario(
        ["red", "red", "blue", "blue", "yellow"],
        goods={**GOODS, "B1": "red", "coast": "red"},
        track=track,
    )
    s = step(s, cm.Move("red", "B1", "coast"))
    assert s.goods_at("coast") == ("red", "red") and s.treasuries.red == 4
    assert not any(isinstance(a, cm.Move) and a.from_space == "coast" for a in s.legal_actions())


# --- dividends ------------------------------------------------------------------------------


def test_dividend_rounds_one_orange_two_red_yellow_purple():
    # "Up to three rounds from the red company or two rounds from yellow; or one round from the Credit Mobilier."
    dice = ["orange", "red", "red", "yellow", "purple"]
    assert [
        cm.allowance(sorted(dice), c, "dividends") for c in ("red", "yellow", "purple", "green")
    ] == [3, 2, 1, 0]
    s = scenario(
        dice,
        treasuries={"red": 30, "yellow": 30, "purple": 30},
        stocks=[{"red": 1, "yellow": 1}, {}, {}],
    )
    for _ in range(3):
        s = step(s, cm.PayRound("red"))
    assert s.current_player == 1 and s.money[0] == 6


def test_dividend_rounds_two_orange_two_red_yellow():
    # "Up to two rounds of pay outs from the red or yellow company."
    dice = ["orange", "orange", "red", "red", "yellow"]
    assert [cm.allowance(dice, c, "dividends") for c in ("red", "yellow", "purple")] == [2, 2, 0]
    s = scenario(
        dice, treasuries={"yellow": 30, "purple": 30}, stocks=[{"yellow": 2}, {"yellow": 1}, {}]
    )
    assert cm.PayRound("red") not in s.legal_actions(), "the red treasury is empty"
    assert cm.PayRound("purple") not in s.legal_actions(), "no purple rolled"
    s = step(s, cm.PayRound("yellow"))
    s = step(s, cm.PayRound("yellow"))
    assert s.current_player == 1 and s.money == (7, 5, 3) and s.treasuries.yellow == 24


def test_connie_randy_and_aaron():
    # Connie rolls two orange, two purple and a red; red pays out; its treasury holds $4.
    s = scenario(
        ["orange", "orange", "purple", "purple", "red"],
        treasuries={"red": 4},
        stocks=[{"red": 2, "purple": 1}, {"purple": 1}, {"red": 1, "purple": 1}],
        money=[0, 0, 0],
    )
    assert s.names == ("Connie", "Randy", "Aaron")
    assert cm.allowance(s.dice, "red", "dividends") == 3, "two purple wild for red: three rounds"
    assert cm.allowance(s.dice, "purple", "dividends") == 2, "Credit Mobilier: two rounds"
    first = step(s, cm.PayRound("red"))
    assert first.money == (2, 0, 1) and first.treasuries.red == 1
    assert first.events == (DividendsPaid(0, "red", 1, (2, 0, 1), 1, False),)
    assert first.legal_actions() == [cm.PayRound("red"), cm.EndTurn()]
    second = step(first, cm.PayRound("red"))
    assert second.money == (3, 0, 1), "Connie has earned $3, Randy $0 and Aaron $1"
    assert second.events[0] == DividendsPaid(0, "red", 2, (1, 0, 0), 0, True)
    assert second.treasuries.red == 0 and second.current_player == 1, (
        "the treasury is empty: payment stops"
    )
    assert "payment stops" in second.describe_events()[0]


def test_dividends_go_in_layers_from_the_player_on_turn_to_the_left():
    stocks = [cm.ByCompany(red=1), cm.ByCompany(), cm.ByCompany(red=1)]
    assert cm.pay_round(stocks, 1, 0, "red") == ((1, 0, 0), 0, True)
    assert cm.pay_round(stocks, 1, 2, "red") == ((0, 0, 1), 0, True)
    assert cm.pay_round(stocks, 1, 1, "red") == ((0, 0, 1), 0, True), "Randy's left is Aaron"
    layered = [cm.ByCompany(red=3), cm.ByCompany(red=1), cm.ByCompany(red=2)]
    # Randy on turn: $1 each to Randy, Aaron, Connie (first shares), then Aaron (second share);
    # the treasury is empty before Connie's second share.
    assert cm.pay_round(layered, 4, 1, "red") == ((1, 1, 2), 0, True)
    assert cm.pay_round(layered, 10, 0, "red") == ((3, 1, 2), 4, False)


# --- the end --------------------------------------------------------------------------------


def test_the_game_ends_when_only_two_colours_remain_off_the_coast():
    track = {f"B{c}-B{c + 1}": "red" for c in range(1, 6)} | {"coast-B1": "red"}
    goods = {"coast": ["yellow", "yellow"], "B1": "red", "C3": "green", "D4": "blue"}
    s = scenario(
        ["red", "blue", "blue", "green", "yellow"], goods=goods, track=track, money=[5, 9, 7]
    )
    over = step(s, cm.Move("red", "B1", "coast"))
    assert over.is_over and over.current_player is None and over.legal_actions() == []
    assert over.events[-1] == GameEnded(("green", "blue"), (5, 9, 7), (1,))
    assert over.final_scores() == (5, 9, 7) and over.winners() == (1,)


def test_a_tie_in_cash_goes_to_the_most_stock_then_is_shared():
    track = {f"B{c}-B{c + 1}": "red" for c in range(1, 6)} | {"coast-B1": "red"}
    goods = {"coast": "yellow", "B1": "red", "C3": "green", "D4": "blue"}
    stocks = [{"purple": 2}, {"purple": 1}, {"red": 2}]
    s = scenario(
        ["red", "blue", "blue", "green", "yellow"],
        goods=goods,
        track=track,
        money=[9, 9, 9],
        stocks=stocks,
    )
    assert step(s, cm.Move("red", "B1", "coast")).winners() == (0, 2)
    s = scenario(
        ["red", "blue", "blue", "green", "yellow"],
        goods=goods,
        track=track,
        money=[9, 9, 2],
        stocks=stocks,
    )
    assert step(s, cm.Move("red", "B1", "coast")).winners() == (0,)


# --- a roll that allows nothing -----------------------------------------------------------------


@pytest.mark.parametrize("dice, money", [(["orange"] * 5, [3, 3, 3]), (["purple"] * 5, [0, 3, 3])])
def test_end_turn_first_only_when_nothing_at_all_is_possible(dice, money):
    # Five orange: no company colour to pay from. Five purple with $0: no share to buy, no orange.
    s = scenario(dice, money=money, treasuries={"red": 5})
    assert s.legal_actions() == [cm.EndTurn()]
    passed = step(s, cm.EndTurn())
    assert passed.current_player == 1 and passed.turn == 2
    assert passed.events[0] == TurnEnded(0, "nothing possible")
    assert "can do nothing with this roll" in passed.describe_events()[0]
