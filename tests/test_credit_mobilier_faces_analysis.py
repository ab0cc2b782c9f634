"""The Credit Mobilier share-value study: dividends to come per share, worked by hand first."""

from __future__ import annotations

import pandas as pd
import pytest

import mogul.credit_mobilier as cm
from mogul.analysis.credit_mobilier import (
    buy_by_turn,
    buy_instead,
    buy_pooled,
    by_turn,
    marginal_by_turn,
    marginal_values,
    mean_interval,
    pay_out_share,
    reversed_ties,
    round_payouts,
    share_values,
    start_values,
)
from mogul.credit_mobilier import END, Build, Buy, PayRound
from mogul.kit.bots import play, play_out, play_states
from mogul.kit.record import GameRecord
from mogul.kit.simulate import simulate
from mogul.plots.credit_mobilier import dividends_to_come_figure, marginal_value_figure


def test_connies_two_rounds_are_worth_four_thirds_of_a_dollar_per_red_share():
    # Connie (2 red), Randy (0) and Aaron (1); the red treasury holds $4. Round one pays each of
    # the three shares $1; round two pays the last $1 to one of them, then the treasury is empty.
    s = cm.new_game(
        ["Connie", "Randy", "Aaron"],
        seed=1,
        start_player=0,
        treasuries={"red": 4},
        dice=[["red", "purple", "purple", "orange", "orange"], ["green"] * 5],
        stocks=[{"red": 2, "purple": 1}, {"purple": 1}, {"red": 1, "purple": 1}],
    )
    record = GameRecord.of(s, [PayRound("red"), PayRound("red"), Build("green", "A5-A6")])
    rounds = round_payouts(record.table("dividends"))
    assert rounds[["turn", "round", "paid", "shares"]].values.tolist() == [
        [1, 1, 3, 3],
        [1, 2, 1, 3],
    ]
    assert rounds["per_share"].tolist() == pytest.approx([1, 1 / 3])
    values = share_values(record.table("treasuries"), record.table("dividends")).set_index(
        ["turn", "company"]
    )
    assert values.loc[(1, "red"), "to_come"] == pytest.approx(
        4 / 3
    )  # paid in turn 1: still to come at its start
    assert values.loc[(2, "red"), "to_come"] == 0  # nothing after
    assert values.loc[(1, "red"), "treasury"] == 4 and values.loc[(2, "red"), "treasury"] == 0
    assert (
        values.loc[(1, "purple"), "to_come"] == 0 and values.loc[(1, "purple"), "shares_held"] == 3
    )


def test_dividends_to_come_sum_the_rounds_from_a_turn_on():
    treasuries = pd.DataFrame(
        {
            "game": [7] * 4,
            "turn": [1, 2, 3, 3],
            "final": [False, False, False, True],
            "company": ["blue"] * 4,
            "treasury": [0, 5, 2, 0],
            "shares_held": [2, 2, 3, 3],
        }
    )
    dividends = pd.DataFrame(
        {
            "game": [7] * 6,
            "turn": [2, 2, 3, 3, 3, 3],
            "round": [1, 1, 1, 1, 2, 2],
            "company": ["blue"] * 6,
            "seat": [0, 1, 0, 1, 0, 1],
            "shares": [1, 1, 2, 1, 2, 1],
            "paid": [1, 1, 2, 0, 0, 0],
        }
    )
    # turn 2: one full round ($1 a share); turn 3: $2 over 3 shares, then a round with
    # nobody paid (2 shares, $0: 0 a share)
    values = share_values(treasuries, dividends)
    assert values["turn"].tolist() == [1, 2, 3]  # the final row is not a turn
    assert values["to_come"].tolist() == pytest.approx([5 / 3, 5 / 3, 2 / 3])


def test_a_round_paid_to_nobody_counts_a_dollar_a_share_would_have_earned():
    dividends = pd.DataFrame(
        {
            "game": [0, 0],
            "turn": [4, 4],
            "round": [1, 1],
            "company": ["red", "red"],
            "seat": [0, 1],
            "shares": [0, 0],
            "paid": [0, 0],
        }
    )
    assert round_payouts(dividends)["per_share"].tolist() == [1.0]


@pytest.fixture(scope="module")
def study():
    sim = simulate(
        "credit-mobilier",
        ["dividend", "random", "dividend"],
        games=30,
        seed=7,
        tables=("games", "treasuries", "dividends"),
        progress=False,
    )
    return sim, share_values(sim.treasuries, sim.dividends)


def test_a_simulated_study_is_reproducible_and_its_values_only_fall(study):
    sim, values = study
    assert len(values) == len(sim.treasuries[~sim.treasuries["final"]])
    again = simulate(
        "credit-mobilier",
        ["dividend", "random", "dividend"],
        games=30,
        seed=7,
        tables=("games", "treasuries", "dividends"),
        progress=False,
    )
    pd.testing.assert_frame_equal(share_values(again.treasuries, again.dividends), values)
    # money to come can only be used up: never more at a later turn of the same game
    rises = values.groupby(["game", "company"])["to_come"].diff().dropna()
    assert (rises <= 1e-9).all()
    # at the first turn, what is to come is every round the game paid (per share)
    first = values[values["turn"] == values.groupby("game")["turn"].transform("min")]
    rounds = round_payouts(sim.dividends).groupby(["game", "company"])["per_share"].sum()
    for row in first.itertuples():
        assert row.to_come == pytest.approx(rounds.get((row.game, row.company), 0.0))


def test_averages_by_turn_and_at_the_start(study):
    sim, values = study
    averages = by_turn(values)
    turn_one = averages[averages["turn"] == 1].set_index("company")
    assert list(turn_one.index) == ["red", "yellow", "green", "blue", "purple"]
    assert (turn_one["games"] == 30).all()
    assert turn_one.loc["purple", "shares_held"] == 3  # one Credit Mobilier share per player
    starts = start_values(values)
    assert starts["to_come"].tolist() == pytest.approx(turn_one["to_come"].tolist())
    assert ((starts["earns_its_price"] >= 0) & (starts["earns_its_price"] <= 1)).all()
    longest = int(sim.games["turns"].max())
    assert averages["turn"].max() == longest
    assert by_turn(values, min_games=10)["games"].min() >= 10
    fig = dividends_to_come_figure(averages)
    lines = [t for t in fig.data if t.fill != "toself"]
    assert [t.name for t in lines] == [
        "red",
        "yellow",
        "green",
        "blue",
        "Credit Mobilier",
        "price of a share",
    ]
    assert list(lines[-1].y) == [1, 1]
    bands = [t for t in fig.data if t.fill == "toself"]
    assert len(bands) == 5 and all(t.name.endswith("95% interval") for t in bands)
    # the interval: mean +- 1.96 standard errors over the games that reached the turn
    red = values[(values["turn"] == 1) & (values["company"] == "red")]["to_come"]
    half = 1.959963984540054 * red.std(ddof=1) / len(red) ** 0.5
    assert turn_one.loc["red", "low"] == pytest.approx(red.mean() - half)
    assert starts.loc["red", "high"] == pytest.approx(red.mean() + half, abs=1e-4)


def test_one_game_table_needs_no_game_column():
    record = play(cm.new_game(2, seed=3), [cm.DividendBot(), cm.DividendBot()])
    values = share_values(record.table("treasuries"), record.table("dividends"))
    assert set(values["game"]) == {0} and values["turn"].min() == 1


# --- the marginal value of one more share -----------------------------------------------------


def test_one_more_share_is_played_out_on_the_same_dice():
    # Game 0 of seed 11: seat 0 owns. Buying a purple share for $1 before turn 1 is the same
    # as dealing the game with seat 0 holding $2 and two purple shares: the same goods, start
    # player and dice, since every roll comes from the seed and the roll's number.
    pairs = marginal_values(
        "dividend", games=2, players=3, seed=11, turns=(1,), companies=["purple", "blue"]
    )
    assert pairs[["game", "owner", "turn", "company"]].values.tolist() == [
        [0, 0, 1, "purple"],
        [0, 0, 1, "blue"],
        [1, 1, 1, "purple"],
        [1, 1, 1, "blue"],
    ]
    bots = [cm.DividendBot() for _ in range(3)]
    without = play_out(cm.new_game(3, seed=11), bots).money[0]
    start = cm.new_game(3, seed=11)
    extra = cm.new_game(
        3, seed=11, money=[2, 3, 3], stocks=[{"purple": 2}, {"purple": 1}, {"purple": 1}]
    )
    assert (extra.goods, extra.current, extra.dice) == (start.goods, start.current, start.dice)
    with_share = play_out(extra, bots).money[0]
    row = pairs.iloc[0]
    assert row["cash_gain"] == with_share - without and row["value"] == row["cash_gain"] + 1
    # the average payout of the game without the share is share_values' "dividends to come"
    record = play(cm.new_game(3, seed=11), [cm.DividendBot() for _ in range(3)])
    values = share_values(record.table("treasuries"), record.table("dividends"))
    first = values[values["turn"] == 1].set_index("company")["to_come"]
    assert row["average"] == pytest.approx(first["purple"]) and pairs.iloc[1][
        "average"
    ] == pytest.approx(first["blue"])


def test_a_later_turn_starts_from_that_turns_state():
    pairs = marginal_values(
        "dividend", games=3, players=3, seed=5, turns=(1, 20), companies=["red"]
    )
    assert sorted(set(pairs["turn"])) == [1, 20]
    later = pairs[pairs["turn"] == 20]
    record = play(cm.new_game(3, seed=5), [cm.DividendBot() for _ in range(3)])
    values = share_values(record.table("treasuries"), record.table("dividends")).set_index(
        ["turn", "company"]
    )
    assert later.iloc[0]["average"] == pytest.approx(values.loc[(20, "red"), "to_come"])


def test_marginal_values_refuses_what_it_cannot_pair():
    with pytest.raises(ValueError, match="not random"):
        marginal_values("random", games=1)
    with pytest.raises(ValueError, match="unknown companies"):
        marginal_values(companies=["orange"], games=1)
    with pytest.raises(ValueError, match="turns must be"):
        marginal_values(turns=(0,), games=1)
    with pytest.raises(ValueError, match="one bot per seat"):
        marginal_values(["dividend", "dividend"], players=3, games=1)


def test_the_summary_gives_the_expected_gain_over_the_price():
    pairs = pd.DataFrame(
        {
            "game": range(6),
            "owner": 0,
            "turn": 1,
            "company": ["red"] * 3 + ["blue"] * 3,
            "cash_gain": 0,
            "value": [3, 4, 5, 0.5, 1.5, 1.0],
            "dividends_gain": 0,
            "others_gain": 0,
            "average": [6, 6, 6, 1, 1, 1],
        }
    )
    summary = marginal_by_turn(pairs).set_index("company")
    assert list(summary.index) == ["red", "blue"]
    red = summary.loc["red"]
    assert (red["value"], red["value_low"], red["value_high"]) == (
        4,
        2.8684,
        5.1316,
    )  # 4 -+ 1.96 / sqrt(3)
    # the expected gain over the $1 price: a decision word, not a test of the interval
    assert red["gap"] == -2 and red["expected_gain"] == 3
    assert summary.loc["blue", "expected_gain"] == 0 and "worth_buying" not in summary
    assert mean_interval([2, 2])["low"] == 2 and mean_interval([1])["n"] == 1
    fig = marginal_value_figure(marginal_by_turn(pairs))
    assert [t.name for t in fig.data] == ["average payout", "marginal value"]
    assert list(fig.data[1].error_y.array) == pytest.approx([1.13, 0.57], abs=0.01)


def test_reversed_ties_offer_the_colours_the_other_way_round():
    make = reversed_ties("dividend")
    bot = make(0)
    seen = []

    class Spy:
        def choose(self, view, legal):
            seen.append(list(legal))
            return legal[0]

    bot.inner = Spy()
    s = cm.new_game(3, seed=2, dice=[["red", "blue", "green", "orange", "purple"]])
    legal = s.legal_actions()
    assert bot.choose(s.view(s.current), legal) == seen[0][0]
    offered = seen[0]
    assert sorted(map(str, offered)) == sorted(map(str, legal))
    kinds = [type(a).__name__ for a in offered]
    assert kinds == sorted(
        kinds, key=[type(a).__name__ for a in legal].index
    )  # kinds keep their order
    builds = [a.colour for a in offered if type(a).__name__ == "Build"]
    assert builds == sorted(
        builds, key=["red", "yellow", "green", "blue", "purple"].index, reverse=True
    )
    assert len(set(builds)) > 1
    # a whole game of reversed bots ends
    from mogul.kit.bots import play_out as finish

    assert finish(cm.new_game(3, seed=4), [make(i) for i in range(3)]).is_over


def test_a_buy_uses_up_the_turn_and_is_set_against_the_bots_own_move():
    # Game 0 of seed 11, turn 1: the seat to move either plays its turn as the bot does or
    # buys one share of a company the roll allows and ends the turn. Both are played out in
    # the readable engine here; the study plays them in the batch simulator.
    pairs = buy_instead("dividend", games=2, players=3, seed=11, turns=(1,))
    start = cm.new_game(3, seed=11)
    buys = [a.company for a in start.legal_actions() if isinstance(a, Buy)]
    first = pairs[pairs["game"] == 0]
    assert first["company"].tolist() == buys and len(buys) >= 1
    assert (first["buyer"] == start.current).all() and (first["turn"] == 1).all()
    bots = [cm.DividendBot() for _ in range(3)]
    base = play_out(start, bots)
    for company, gain in zip(first["company"], first["gain"], strict=True):
        bought = start.apply(Buy(company))
        if bought.turn == start.turn:
            bought = bought.apply(END)
        assert play_out(bought, bots).money[start.current] - base.money[start.current] == gain
    # the gain is what the buyer received in dividends minus what she spent on shares
    assert (pairs["gain"] == pairs["dividends_gain"] - pairs["spent_gain"]).all()
    summary = buy_by_turn(pairs)
    assert summary["pairs"].sum() == len(pairs)
    pooled = buy_pooled(pairs)
    assert list(pooled.index) == ["1", "all"] and pooled.loc["all", "pairs"] == len(pairs)
    assert pooled.loc["all", "gain"] == pytest.approx(pairs["gain"].mean())
    with pytest.raises(ValueError, match="not random"):
        buy_instead("random", games=1)


def test_how_often_purple_was_paid_out_when_it_could_be():
    # Read turn by turn from the states: could the player to move pay purple out as the turn
    # began, and was that the turn's colour and kind?
    states, actions = play_states(cm.new_game(3, seed=4), [cm.DividendBot() for _ in range(3)])
    record = GameRecord.of(states[0], actions)
    could = paid = 0
    for before, action in zip(states, actions, strict=False):
        if before.kind is None and PayRound("purple") in before.legal_actions():
            could += 1
            paid += action == PayRound("purple")
    got = pay_out_share(record.table("turns"), record.table("treasuries"), "purple")
    assert (got["could"], got["paid"]) == (could, paid) and 0 < paid < could
    with pytest.raises(ValueError, match="unknown company"):
        pay_out_share(record.table("turns"), record.table("treasuries"), "orange")
