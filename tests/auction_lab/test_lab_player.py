"""The lab's notebook player shows the human seat its own value, never another seat's."""

from __future__ import annotations

from mogul.widgets import player
from mogul.widgets.auction_lab import LabPlayer


def test_the_player_shows_the_seat_its_value_and_payoff():
    app = player("first-price-auction", ["human", "equilibrium", "equilibrium"], seed=1, rounds=2)
    assert type(app) is LabPlayer
    mine, theirs = app.state.value[0], app.state.value[1:]
    assert f"your value: <b>{mine}</b>" in app.seat_box.value
    assert "your payoff so far: <b>0</b>" in app.seat_box.value
    assert "values:" not in app.seat_box.value and len(set(theirs) - {mine}) > 0
    while not app.state.is_over:  # the human bids 3 ("Bid 3", the fourth button)
        app.buttons()[3].click() if app.human_to_act() else app.play_to_end()
    assert [r.bids[0] for r in app.state.results] == [3, 3]
    assert app.state.is_over and "the session is over" in app.seat_box.value
    assert app.rounds_box.value.count("<tr>") == 1 + 2  # a head and two rounds
