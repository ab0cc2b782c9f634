"""Game widgets without a browser: press buttons with ``.click()``, read states and HTML."""

import random
import re

import pytest

import mogul
import mogul.plots.mogul.game
from mogul import BID, DROP, TAKE, Sell
from mogul.games.mogul.display import action_label, table_html
from mogul.games.mogul.tables import rounds_table
from mogul.kit.colours import SEAT_COLOURS
from mogul.kit.record import GameRecord
from mogul.widgets import GameTable
from mogul.widgets.mogul import GamePlayer, ShareValueDashboard

BOTS = ["value", "value", "value", "value"]


def shown(app: GamePlayer) -> list[str]:
    """The labels of the action buttons a human sees now."""
    return [b.description for b in app.action_buttons.children]


def press(app: GamePlayer, label: str) -> None:
    """Click the one action button whose label starts with ``label``."""
    (button,) = [b for b in app.action_buttons.children if b.description.startswith(label)]
    button.click()


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", html))


def numbers(row: str) -> list[str]:
    """A table row's chips, points and score cells."""
    return re.findall(r'<td class="num"[^>]*>([^<]*)</td>', row)


# --- GameTable --------------------------------------------------------------------------------


def rulebook_state():
    return mogul.new_game(
        "classic",
        players=["Ann", "Ben", "Cai", "Dee"],
        seed=2002,
        deck=["brown/green", "green/brown", "pink/blue", "crash"],
        starting_shares=[["brown/yellow"], ["brown/blue"], ["brown/pink"], ["brown/blue"]],
        start_player=0,
    )


def test_game_table_shows_players_market_card_pot_and_log():
    s = rulebook_state().apply(BID).apply(BID).apply(DROP)  # Ann, Ben bid; Cai drops with 2
    table = GameTable(s, log=s.describe_events())
    page = text(table.value)
    assert "Round 1" in page and "brown / border green" in page
    assert "pot 0" in page  # Cai just emptied the pot
    assert "still in: Ann, Ben, Dee" in page and "dropped: Cai" in page
    assert "brown 4" in page  # market value of brown: four S shares on the table
    assert "Cai drops and collects 2 chips." in page
    # Cai's row: 8 chips, 1 point (the brown premium), score 1 + 8 // 5 = 2, one brown share
    row = re.search(r"Cai.*?</tr>", table.value).group(0)
    assert numbers(row) == ["8", "1", "2"]
    assert "background:#8b5a2b" in row  # the brown badge in the company's own colour


def test_game_table_hides_chips_and_shows_scores_as_scores():
    s = rulebook_state()
    players = (
        s.players[0]._replace(points=35),
        s.players[1]._replace(points=-2, chips=8),
    ) + s.players[2:]
    page = table_html(s._replace(players=players), hide_chips=[2])
    cells = [numbers(r) for r in re.findall(r"<tr style.*?</tr>", page)]
    assert cells[0] == ["6", "35", "36"]  # 35 points and 6 chips: score 36, not a track space
    assert cells[1] == ["8", "-2", "-1"]  # after a credit: negative, never "30 on the track"
    assert cells[2] == ["?", "1", "?"] and cells[3] == [
        "6",
        "1",
        "2",
    ]  # hidden chips hide the score
    assert "track" not in text(page)


def test_game_table_at_the_end_shows_final_scores():
    final = GameRecord.load("rulebook-opening").replay()
    page = text(table_html(final))
    assert "Game over" in page
    assert "Final scores: Ann 11, Ben 2, Cai 2, Dee 2. Winner: Ann." in page


def test_action_labels():
    s = rulebook_state()
    assert [action_label(s, a) for a in s.legal_actions()] == [
        "Bid 1 chip",
        "Drop (take 0)",
        "Credit (+2 chips, -2 points)",
    ]
    s, _ = mogul.kit.record.narrate(
        s, [BID, BID, DROP, DROP, BID, DROP, TAKE, Sell(0), BID, DROP, DROP, DROP]
    )
    assert [action_label(s, a) for a in s.legal_actions()] == [
        "Take green/brown",
        "Sell 0 brown",
        "Sell 1 brown (+5)",
        "Sell 2 brown (+10)",
    ]


# --- GamePlayer with bots only: the instructor's buttons ----------------------------------------


def test_next_step_next_round_play_to_end_and_undo():
    app = GamePlayer("classic", BOTS, seed=5)
    assert app.action_buttons.children == ()
    assert "press <i>Next step</i>" in app.status.value
    app.next_step_button.click()
    assert len(app.history) == 2
    app.next_round_button.click()
    assert app.state.round == 2
    assert "Round 2" in app.table.value
    steps = len(app.history)
    app.undo_button.click()
    assert len(app.history) == steps - 1 and app.state.round == 1
    app.play_to_end_button.click()
    assert app.state.is_over
    assert app.next_step_button.disabled and app.next_round_button.disabled
    assert "Game over" in app.status.value and "Final scores" in app.table.value
    # the same seed and the same (deterministic) bots give the same game
    again = GamePlayer("classic", BOTS, seed=5)
    again.play_to_end_button.click()
    assert again.state.final_scores() == app.state.final_scores()


def test_one_name_per_seat():
    with pytest.raises(ValueError, match="one name per seat"):
        GamePlayer("classic", BOTS, names=["Ann", "Ben"])


def test_new_game_uses_the_seed_box():
    app = GamePlayer("classic", BOTS, seed=1)
    app.seed_box.value = 42
    app.new_game_button.click()
    assert app.state.setup.seed == 42 and len(app.history) == 1
    assert app.state == mogul.new_game("classic", players=4, seed=42)


def test_scripted_setup_and_a_rulebook_round_by_labels():
    app = GamePlayer(
        "classic",
        ["human"] * 4,
        names=["Ann", "Ben", "Cai", "Dee"],
        seed=2002,
        hot_seat=False,
        deck=["brown/green", "green/brown", "pink/blue", "crash"],
        starting_shares=[["brown/yellow"], ["brown/blue"], ["brown/pink"], ["brown/blue"]],
        start_player=0,
    )
    for label in [
        "Bid",
        "Bid",
        "Drop",
        "Drop",
        "Bid",
        "Drop",
        "Take",
        "Sell 0",
        "Bid",
        "Drop",
        "Drop",
        "Drop",
    ]:
        press(app, label)
    assert shown(app) == [
        "Take green/brown",
        "Sell 0 brown",
        "Sell 1 brown (+5)",
        "Sell 2 brown (+10)",
    ]
    press(app, "Sell 2")
    assert app.state.players[0].points == 11
    assert "Ann sells 2 brown shares at 5 each: +10 points." in app.table.value


# --- a human against bots ---------------------------------------------------------------------------


def test_bots_move_on_their_own_until_the_human_must_decide():
    app = GamePlayer("classic", ["human", "value", "value", "value"], seed=3)
    assert app.state.current == 0
    assert shown(app) == [action_label(app.state, a) for a in app.state.legal_actions()]
    assert "your move" in app.status.value
    assert app.next_step_button.disabled  # nothing for a bot to do
    press(app, "Drop")
    assert app.state.is_over or app.state.current == 0
    assert any("Ann drops" in line for line in app.event_log(40))


def test_undo_returns_to_the_human_decision_and_another_branch_can_be_tried():
    app = GamePlayer("classic", ["human", "value", "value", "value"], seed=3)
    before = app.state
    press(app, "Bid")
    assert app.state != before
    app.undo_button.click()
    assert app.state == before and len(app.actions) == len(app.history) - 1
    assert shown(app)[0] == "Bid 1 chip"
    press(app, "Drop")
    assert app.history[len(app.history) - 1] != before
    assert (
        app.history[app.history.index(before) + 1]
        .events[0]
        .text(before.names)
        .startswith("Ann drops")
    )


def play_by_mouse(app: GamePlayer, rng: random.Random) -> int:
    """Play the human seat by clicking one of the buttons shown, until the game ends."""
    clicks = 0
    while not app.state.is_over:
        buttons = app.action_buttons.children
        assert buttons, "the human must always have a button to press"
        rng.choice(buttons).click()
        clicks += 1
        assert clicks < 1000
    return clicks


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_a_whole_game_against_three_bots_with_the_mouse_alone(seed):
    # the set-up of notebook 03 (seed 3 there), dashboard and payoff curve included
    app = GamePlayer("classic", ["human", "value", "value", "value"], seed=seed, payoff_curve=True)
    ShareValueDashboard(app)
    clicks = play_by_mouse(app, random.Random(seed))
    assert clicks > 5
    assert app.action_buttons.children == ()
    final = app.state
    # every step was a click or a bot move, and the game's record replays exactly
    assert app.record().replay() == final
    assert len(app.record().actions) == len(app.history) - 1
    scores = ", ".join(f"{n} {s}" for n, s in zip(final.names, final.final_scores(), strict=True))
    assert f"Final scores: {scores}." in text(app.table.value)


def test_hot_seat_covers_the_table_between_two_humans():
    app = GamePlayer("classic", ["human", "human", "value"], names=["Ann", "Ben", "Cai"], seed=11)
    assert app.hot_seat
    first = app.state.current
    assert app.cover.layout.display is None and app.table.layout.display == "none"
    assert f"Pass the laptop to {app.state.names[first]}" in app.cover_text.value
    assert app.action_buttons.children == ()
    app.ready_button.click()
    assert app.cover.layout.display == "none" and app.table.layout.display is None
    other = 1 - first
    row = re.search(rf"{app.state.names[other]}.*?</tr>", app.table.value).group(0)
    assert numbers(row)[0] == "?"  # the other human's chips are hidden
    own = re.search(rf"{app.state.names[first]}.*?</tr>", app.table.value).group(0)
    assert numbers(own)[0] == str(app.state.players[first].chips)
    # play on until the other human is to act: the cover comes back
    while app.state.current != other and not app.state.is_over:
        if app.cover.layout.display is None:
            app.ready_button.click()
        app.action_buttons.children[0].click()
    assert app.state.current == other
    assert f"Pass the laptop to {app.state.names[other]}" in app.cover_text.value


# --- the dashboard -------------------------------------------------------------------------------


def test_dashboard_follows_the_player():
    app = GamePlayer("classic", BOTS, seed=8)
    board = ShareValueDashboard(app)
    market, sales = board.market.data[0], board.market.data[5]
    assert list(market.y) == [app.state.market_value("brown")]
    for _ in range(3):
        app.next_round_button.click()
    rounds = rounds_table(app.history)
    brown = rounds.drop_duplicates("round")["market_brown"].tolist()
    assert list(board.market.data[0].y) == brown
    assert list(board.scores.data[0].y) == rounds[rounds["seat"] == 0]["score"].tolist()
    app.play_to_end_button.click()
    sold = [
        e for s in app.history for e in s.events if type(e).__name__ == "SharesSold" and e.count
    ]
    assert len(board.market.data[5].x) == len(sold)
    assert sales is board.market.data[5]


def test_a_view_made_after_updates_draws_the_current_data():
    # Plotly sends updates as one-off messages; the stored widget state must follow them, or a
    # figure displayed after its game moved on (a Voila page, a reload) shows the first round.
    app = GamePlayer("classic", BOTS, seed=8, payoff_curve=False)
    board = ShareValueDashboard(app)
    app.next_round_button.click()
    app.next_round_button.click()
    for chart in (board.market, board.scores):
        stored = chart._widget_data
        assert [list(t.get("y", ())) for t in stored] == [list(t.y) for t in chart.data]
    human = GamePlayer("classic", ["human", "value", "value", "value"], seed=3, payoff_curve=True)
    assert list(human.curve._widget_data[0]["y"]) == list(human.curve.data[0].y)
    assert human.curve._widget_layout["title"]["text"] == human.curve.layout.title.text


def test_payoff_curve_for_the_human_seat():
    from mogul.auction.mogul import chain_payoff_curve

    app = GamePlayer("classic", ["human", "value", "value", "value"], seed=3, payoff_curve=True)
    assert app.curve_box.layout.display is None  # Ann is in an auction: the curve shows
    curve = chain_payoff_curve(app.history, 0)
    # Ann holds 6 chips: the curve is flat from k = 8 of its 25 pots; the k axis stops there,
    # so the decision fills the chart (it ran to 24, the choice squeezed into a third)
    assert len(curve) == 25 and curve["payoff"].iloc[7:].nunique() == 1
    assert list(app.curve.data[0].y) == [round(v, 4) for v in curve["payoff"][:8]]
    assert list(app.curve.layout.xaxis.range) == [-0.5, 7.5]
    assert list(app.curve.data[3].x) == [app.state.pot]
    assert list(app.curve.data[3].y) == [curve["payoff"].min()]  # the "now" mark at the foot
    press(app, "Drop")  # Ann leaves; the bots play on until she must decide again
    if app.state.phase == "auction":  # the next auction: a new curve
        assert app.curve_box.layout.display is None
        again = chain_payoff_curve(app.history, 0)["payoff"]
        assert list(app.curve.data[0].y) == [round(v, 4) for v in again[: len(app.curve.data[0].y)]]
    else:  # taking or selling: no curve
        assert app.curve_box.layout.display == "none"


def test_dashboard_redraws_only_when_a_card_is_revealed_or_shares_are_sold():
    app = GamePlayer("classic", BOTS, seed=8)
    board = ShareValueDashboard(app)
    app.next_step_button.click()  # an auction move: nothing the dashboard shows has changed
    assert board._drawn is app.history[0]

    def sold(state):
        return any(type(e).__name__ == "SharesSold" and e.count for e in state.events)

    while not sold(app.state):
        app.next_step_button.click()
    assert board._drawn is app.state
    assert len(board.market.data[5].x) == 1  # the sale is marked at once, not a round later


# --- the player is a view of a session ----------------------------------------------------------


def test_the_player_is_a_view_of_its_session():
    app = GamePlayer("classic", ["human", "value", "value", "value"], seed=3)
    assert isinstance(app.session, mogul.GameSession)
    assert app.history is app.session.history and app.state is app.session.state
    app.session.act(mogul.DROP)  # a move made on the session shows in the widget
    assert app.state is app.session.state and app.state.round == 2
    assert "Round 2</b>" in app.table.value and app.table.state is app.state


def test_seats_take_bot_classes_and_factories():
    app = GamePlayer(
        "classic", [mogul.ValueBot, "value", lambda seed: mogul.RandomBot(seed)], seed=4
    )
    assert [type(b).__name__ for b in app.bots] == ["ValueBot", "ValueBot", "RandomBot"]
    app.play_to_end_button.click()
    assert app.state.is_over and app.record().replay() == app.state


class Raises:
    name = "raises"

    def choose(self, view, legal):
        raise RuntimeError("my bot is not finished")


class Cheats:
    name = "cheats"

    def choose(self, view, legal):
        return mogul.Sell(9)


@pytest.mark.parametrize(
    ("bot", "why"),
    [
        (Raises, "raised RuntimeError: my bot is not finished"),
        (Cheats, "chose Sell(count=9), which is not legal now"),
    ],
)
def test_a_failing_bot_is_shown_in_the_page_not_left_as_dead_buttons(bot, why):
    app = GamePlayer("classic", [bot, "value", "value"], names=["Ann", "Ben", "Cai"], seed=1)
    app.play_to_end_button.click()  # Ann's bot fails at its first real choice
    assert app.session.bot_error and why in app.session.bot_error
    assert "A bot failed." in app.status.value and why in html_text(app.status.value)
    assert app.next_step_button.disabled and app.play_to_end_button.disabled
    assert not app.state.is_over and app.state.current == 0
    app.new_game_button.click()  # a new deal starts clean: the buttons answer again
    assert app.session.bot_error is None and len(app.history) == 1
    assert not app.next_step_button.disabled and "A bot failed" not in app.status.value


def html_text(page: str) -> str:
    import html

    return html.unescape(text(page))


def test_the_play_page_has_a_live_auction_chart_and_the_dashboard_inside():
    app = GamePlayer("classic", BOTS, names=["Ann", "Ben", "Cai", "Dee"], seed=8, dashboard=True)
    for _ in range(3):
        app.next_step_button.click()
    pots = [st.pot for st in mogul.plots.mogul.game.auction_steps(app.history, app.state.round)]
    assert list(app.auction_chart.data[0].y) == pots and len(pots) == 3
    assert app.auction_chart.layout.title.text == f"The auction of round {app.state.round}"
    assert app.auction_chart._config["displayModeBar"] is False  # no toolbar over the title
    board = app.dashboard
    assert [t.name for t in board.scores.data] == ["Ann", "Ben", "Cai", "Dee"]
    assert board.market.layout.legend.title.text == "company"
    assert board.scores.layout.legend.title.text == "player"
    # each legend along its own chart's bottom (container): a wrapped legend grows its chart
    assert all(c.layout.legend.yref == "container" for c in (board.market, board.scores))
    assert all(not b.icon for b in [app.next_step_button, app.undo_button, app.ready_button])


# --- the 2013 edition: the railway map and the branch buttons ----------------------------------


def test_rio_grande_player_branches_with_one_button_per_free_station_and_the_map_follows():
    # Four people at one screen (no bots, so nothing but the buttons moves the game).
    app = GamePlayer(
        "rio-grande", ["human"] * 4, seed=7, names=["Ann", "Ben", "Cai", "Dee"], hot_seat=False
    )
    live = app.network_map
    assert live is not None and live in app.children[2].children[1].children  # beside the table
    assert live.layout.title.text == "Network: 0 of 30 stations taken"
    # yellow/pink is up: Dee bids, Ann drops with the chip, Ben and Cai drop: Dee wins, Cai second
    for label in ["Bid 1 chip", "Drop (take 1)", "Drop (take 0)", "Drop (take 0)"]:
        press(app, label)
    pink = app.state.edition.lines["pink"]
    branches = [f"Branch at {s}" for s in pink]  # no house on the map yet: all 7 stations free
    assert shown(app) == ["Take yellow/pink", "Sell 0 pink", *branches]  # Dee holds no pink share
    by_name = {t.name: t for t in live.data}
    assert (
        by_name["free now"].text == pink
        and live.layout.title.text == "Dee may branch on pink: 7 free"
    )

    press(app, "Take yellow/pink")  # Cai, the runner-up, now holds the sell right
    assert shown(app) == ["Sell 0 pink", "Sell 1 pink (+2)", *branches]
    assert live.layout.title.text == "Cai may branch on pink: 7 free"  # same stations, new name

    press(app, "Branch at PI3")
    assert [p.houses for p in app.state.players] == [
        (),
        (),
        ("PI3",),
        (),
    ] and app.last_house() == "PI3"
    assert "Cai founds a branch at PI3 (pink line)." in app.event_log()
    pi3 = app.state.edition.stations["PI3"]
    assert (by_name["Cai"].x, by_name["Cai"].y) == ((pi3.x,), (pi3.y,))
    assert by_name["Cai"].marker.color == SEAT_COLOURS[2]
    assert by_name["last house"].text == ("PI3",) and by_name["last house"].x == (pi3.x,)
    assert by_name["free now"].x == (None,)  # an auction now: no choices (one empty point)
    assert live.layout.title.text == "Network: 1 of 30 stations taken"
    assert live._widget_data[9]["x"] == [pi3.x]  # stored as state too: a view drawn later agrees
    app.undo()
    assert by_name["free now"].text == pink and app.last_house() is None
    assert live.layout.title.text == "Cai may branch on pink: 7 free"


def test_the_classic_player_has_no_map():
    app = GamePlayer("classic", BOTS, seed=2)
    assert app.network_map is None and app.last_house() is None


def test_the_auction_chart_has_room_for_a_pot_and_shows_the_last_auction_at_game_over():
    app = GamePlayer("classic", BOTS, seed=3)
    assert list(app.auction_chart.layout.yaxis.range) == [-0.8, 5.5]  # not -0.8..1.5
    app.play_to_end()
    assert app.state.is_over and app.state.round == 25
    # no empty "The auction of round 25" (the crash): the last auction, said to be the last
    assert app.auction_chart.layout.title.text == "The last auction (round 24): game over"
    assert len(app.auction_chart.data[0].x) > 0
