"""The lab's rules beyond payoffs: illegal moves refused, values private, replay, setup errors."""

from __future__ import annotations

import json

import pytest

import mogul
from mogul.games.auction_lab.actions import Bid, Drop, Pay, Raise, parse_action
from mogul.kit.bots import RandomBot, play_states
from mogul.kit.contract import IllegalActionError
from mogul.kit.record import GameRecord


def sealed(values=(6, 9, 4), mechanism="first-price", **setup):
    return mogul.new_game(
        "auction-lab",
        3,
        1,
        mechanism=mechanism,
        rounds=1,
        drawn=[list(values)],
        start_player=0,
        **setup,
    )


@pytest.mark.parametrize(
    ("mechanism", "action"),
    [
        ("first-price", Bid(11)),  # over the budget of 10
        ("first-price", Bid(True)),  # equal to Bid(1), but no number of chips
        ("first-price", Pay()),
        ("mogul", Raise()),
        ("english", Pay()),
        ("english", Bid(3)),
    ],
)
def test_an_illegal_move_is_refused_with_the_legal_ones_and_changes_nothing(mechanism, action):
    state = sealed(mechanism=mechanism)
    before = json.dumps(repr(state))
    with pytest.raises(IllegalActionError) as err:
        state.apply(action)
    text = str(err.value)
    assert f"{action} is not legal now: it is Ann's turn" in text
    legal = ", ".join(str(a) for a in state.legal_actions())
    assert text.endswith(f"Legal actions: {legal}.")
    assert json.dumps(repr(state)) == before


def test_no_move_once_the_session_is_over():
    end = sealed().apply(Bid(1)).apply(Bid(2)).apply(Bid(3))
    assert end.is_over and end.legal_actions() == [] and end.current_player is None
    with pytest.raises(IllegalActionError, match="Legal actions: none"):
        end.apply(Bid(1))


def test_a_record_with_a_bid_over_the_budget_is_refused():
    state = sealed(budget=5)
    data = json.loads(GameRecord.of(state, [Bid(1), Bid(2), Bid(3)]).to_json())
    data.pop("result")
    data["actions"][1] = "bid 6"
    with pytest.raises(ValueError, match="action 2 of the record"):
        GameRecord.from_dict(data)


@pytest.mark.parametrize("text", ["bid -1", "bid x", "bid", "pay 2", "Bid 3", "bid ３"])
def test_unreadable_moves(text):
    with pytest.raises(ValueError, match="'pay', 'raise', 'drop' or 'bid N'"):
        parse_action(text)


def test_a_view_holds_only_its_own_value():
    # Two sessions that differ only in the others' values look the same to seat 0.
    one, other = sealed((6, 9, 4)), sealed((6, 1, 10))
    assert one.view(0) == other.view(0) and one.view(0).value == 6
    assert one.view(1).value == 9 and other.view(1).value == 1
    # In Mogul's auction too, after moves.
    a = mogul.new_game("mogul-auction", 3, 1, drawn=[[5, 7, 2]], rounds=1, start_player=0)
    b = mogul.new_game("mogul-auction", 3, 1, drawn=[[5, 0, 9]], rounds=1, start_player=0)
    a, b = a.apply(Pay()).apply(Pay()), b.apply(Pay()).apply(Pay())
    assert a.view(0) == b.view(0) and a.view(0).pot == 2


def test_a_pending_bid_is_seen_by_nobody_else():
    low, high = sealed().apply(Bid(2)), sealed().apply(Bid(8))
    assert low.view(1) == high.view(1) and low.view(2) == high.view(2)
    assert low.view(0).bid == 2 and high.view(0).bid == 8
    assert low.view(1).waiting == (1, 2)
    assert low.describe_events() == ["Ann has bid."]


def test_after_the_round_the_bids_are_public_and_each_seat_keeps_its_payoff():
    end = sealed().apply(Bid(2)).apply(Bid(7)).apply(Bid(1))
    view = end.view(1)
    assert view.results[0].bids == (2, 7, 1) and view.results[0].winner == 1
    assert view.my_values == (9,) and view.my_payoffs == (2,) and view.payoff == 2
    assert end.view(0).my_values == (6,)
    assert end.describe_events() == [
        "Cai has bid.",
        "Round 1: Ben wins the prize and pays 7 (bids: Ann 2, Ben 7, Cai 1).",
    ]


@pytest.mark.parametrize(
    "mechanism", ["mogul", "english", "first-price", "second-price", "all-pay"]
)
def test_a_session_replays_from_its_record(mechanism):
    first = mogul.new_game(
        "auction-lab", 4, 9, mechanism=mechanism, rounds=3, values="common 5..15 noise 3", budget=8
    )
    states, actions = play_states(first, [RandomBot(s) for s in range(4)])
    record = GameRecord.from_json(GameRecord.of(first, actions).to_json())
    assert record.replay() == states[-1]
    again = mogul.new_game(
        "auction-lab", 4, 9, mechanism=mechanism, rounds=3, values="common 5..15 noise 3", budget=8
    )
    assert again == first and all(5 - 3 <= v <= 15 + 3 for row in first.values for v in row)
    assert len({row for row in first.values}) == 3  # the rounds draw new values


def test_the_same_seed_draws_the_same_values_in_every_mechanism():
    draws = {
        m: mogul.new_game("auction-lab", 4, 3, mechanism=m).values
        for m in ("mogul", "english", "first-price")
    }
    assert len(set(draws.values())) == 1


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"mechanism": "dutch"}, "mechanism must be one of mogul, english, first-price"),
        (
            {"values": "normal 0..10"},
            "values must be 'uniform LOW..HIGH' or 'common LOW..HIGH noise K'",
        ),
        ({"values": "uniform 10..3"}, "LOW must be below HIGH"),
        ({"values": "common 2..10 noise 3"}, "every value must lie in 0..1000"),
        ({"budget": 0}, "budget must be a whole number of chips from 1 to 1000; got 0"),
        ({"budget": 2.5}, "budget must be a whole number"),
        ({"rounds": 0}, "rounds must be a whole number from 1 to 100; got 0"),
        ({"mechanism": "first-price", "second": 2}, "second is the runner-up's prize in Mogul's"),
        ({"drawn": [[1, 2, 3]]}, "drawn must give one list of values per round: 5 rounds, got 1"),
        ({"rounds": 1, "drawn": [[1, 2]]}, "round 1 of drawn must give 3 whole values"),
        ({"start_player": 3}, "start_player must be a seat number from 0 to 2; got 3"),
    ],
)
def test_bad_settings_say_what_is_allowed(setup, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        mogul.new_game("auction-lab", 3, 1, **setup)


def test_group_sizes_and_editions():
    with pytest.raises(ValueError, match="is for 2 to 6 players; got 7"):
        mogul.new_game("auction-lab", 7, 1)  # Mogul's auction
    assert len(mogul.new_game("first-price-auction", 8, 1).names) == 8
    with pytest.raises(ValueError, match="plays the english auction, not 'all-pay'"):
        mogul.new_game("english-auction", 3, 1, mechanism="all-pay")
    state = mogul.new_game("auction-lab", 3, 1, mechanism="all-pay")
    assert state.setup.edition == "all-pay-auction" and state.mechanism == "all-pay"
    assert mogul.new_game("all-pay-auction", 3, 1) == state


def test_actions_read_back_from_their_text():
    for action in (Pay(), Raise(), Drop(), Bid(0), Bid(12)):
        assert parse_action(str(action)) == action


def test_a_scripted_session_survives_its_record():
    first = mogul.new_game(
        "auction-lab", 3, 2, rounds=2, second=3, drawn=[[4, 8, 1], [9, 0, 5]], start_player=2
    )
    states, actions = play_states(first, [RandomBot(s) for s in range(3)])
    record = GameRecord.from_json(GameRecord.of(first, actions).to_json())
    assert record.initial_state() == first and record.replay() == states[-1]
    assert first.setup.drawn == ((4, 8, 1), (9, 0, 5)) and first.current_player == 2
