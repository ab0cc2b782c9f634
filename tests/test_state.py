"""States are immutable values; illegal actions are refused with the legal ones named."""

import pytest

import mogul
from mogul import BID, CREDIT, DROP, TAKE, IllegalActionError, Sell
from mogul.games.mogul.rules import PlayerView


def test_apply_returns_a_new_state_and_leaves_the_old_one_untouched():
    s = mogul.new_game(players=4, seed=3)
    before = tuple(s)
    t = s.apply(BID)
    assert tuple(s) == before and t != s
    assert t.pot == 1 and s.pot == 0


def test_illegal_action_names_the_player_and_the_legal_actions_and_changes_nothing():
    s = mogul.new_game(players=["Ann", "Ben", "Cai"], seed=3, start_player=1)
    before = tuple(s)
    with pytest.raises(IllegalActionError) as err:
        s.apply(TAKE)
    message = str(err.value)
    assert "take is not legal now: it is Ben's turn in phase 'auction'" in message
    assert "Legal actions: bid, drop, credit." in message
    assert err.value.legal == (BID, DROP, CREDIT)
    assert tuple(s) == before


def test_illegal_sell_count_is_refused():
    s = mogul.new_game(players=3, seed=3, deck=["green/brown", "crash"], start_player=0)
    s = s.apply(DROP).apply(DROP)
    with pytest.raises(IllegalActionError, match="sell 2 is not legal now"):
        s.apply(Sell(2))
    with pytest.raises(IllegalActionError):
        s.apply("take")  # text is not an action; parse it with mogul.parse_action


def test_states_are_hashable_values():
    a = mogul.new_game(players=4, seed=9).apply(BID)
    b = mogul.new_game(players=4, seed=9).apply(BID)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


def test_view_hides_the_order_of_the_draw_pile():
    s = mogul.new_game(players=4, seed=9)
    v = s.view(2)
    assert isinstance(v, PlayerView) and v.seat == 2 and v.me == s.players[2]
    assert not hasattr(v, "deck")
    assert sorted(c for c in s.deck if not c.is_crash) == list(v.unseen)
    assert v.cards_left == len(s.deck)
    # Two deals with the same unseen cards in another order give the same view.
    shuffled = s._replace(deck=tuple(reversed(s.deck)))
    assert shuffled.view(2) == v


def test_crash_chance_is_zero_until_the_last_five_cards_then_rises():
    s = mogul.new_game(players=4, seed=9)
    assert s.view(0).cards_left == 27 and s.view(0).crash_chance() == 0.0
    chances = [s._replace(deck=s.deck[-n:]).view(0).crash_chance() for n in (6, 5, 4, 3, 2, 1)]
    assert chances == [
        0.0,
        pytest.approx(1 / 5),
        pytest.approx(1 / 4),
        pytest.approx(1 / 3),
        0.5,
        1.0,
    ]


def test_state_shows_itself_as_a_table_in_a_notebook():
    s = mogul.new_game(players=["Ann", "Ben", "Cai"], seed=9, start_player=0)
    page = s._repr_html_()
    assert page.count("<tr") == 4 and "Ann" in page and "pot 0" in page  # header + 3 players
    assert repr(s).startswith("<GameState classic: round 1")


def test_events_describe_each_step_in_words():
    s = mogul.new_game(players=["Ann", "Ben", "Cai"], seed=9, start_player=0)
    assert s.apply(BID).describe_events() == ["Ann bids: the pot holds 1."]
    s = s.apply(BID).apply(DROP)
    assert s.describe_events() == ["Ben drops and collects 1 chip."]


def test_parse_action_reads_the_record_notation():
    assert mogul.parse_action("sell 3") == Sell(3)
    assert mogul.parse_action(" Bid ") == BID
    with pytest.raises(ValueError, match="unknown action 'sell'; write one of"):
        mogul.parse_action("sell")
