"""Game records: JSON round-trip, exact replay, clear errors, tidy tables."""

import json

import pytest

import mogul
from mogul.games.mogul.bots import RandomBot
from mogul.kit.bots import play
from mogul.kit.record import GameRecord, narrate, sample_games


def random_record(players=4, seed=5):
    return play(
        mogul.new_game(players=players, seed=seed), [RandomBot(seed + i) for i in range(players)]
    )


def test_samples_load_by_name():
    assert {"rulebook-opening", "seeded-random-game"} <= set(sample_games())
    final = GameRecord.load("rulebook-opening").replay()
    # Premium 1 in round 1, then two brown shares sold at 5 each; 3 chips score nothing.
    assert final.is_over and final.final_scores() == (11, 2, 2, 2) and final.winners() == (0,)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_json_round_trip_replays_the_identical_game(players):
    record = random_record(players, seed=players)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert again.replay() == record.replay()
    assert again.replay().is_over


def test_a_bot_game_replays_from_its_record():
    bots = [RandomBot(i) for i in range(4)]
    state = mogul.new_game(players=4, seed=77)
    record = play(state, bots)
    # Play the same game by hand from the same seeds: identical actions.
    bots = [RandomBot(i) for i in range(4)]
    s = state
    while not s.is_over:
        s = s.apply(bots[s.current].choose(s.view(s.current), s.legal_actions()))
    assert s == record.replay()


def test_play_refuses_a_game_in_progress():
    s = mogul.new_game(players=3, seed=1).apply(mogul.BID)
    with pytest.raises(ValueError, match="from its first decision"):
        play(s, [RandomBot(1)] * 3)
    with pytest.raises(ValueError, match="one bot per seat: 3 seats, 2 bots"):
        play(mogul.new_game(players=3, seed=1), [RandomBot(1)] * 2)


def test_a_record_goes_on_with_one_more_action():
    # What play() tells a user to do to continue from a later state.
    record = GameRecord.of(mogul.new_game(players=3, seed=1), [mogul.BID])
    longer = record.with_action(mogul.DROP)
    assert longer.actions == ("bid", "drop") and longer.setup == record.setup
    assert longer.replay() == record.replay().apply(mogul.DROP)


def good_json():
    return json.loads(GameRecord.load("rulebook-opening").to_json())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="chess"), "not a Mogul game record"),
        (lambda d: d.update(version=9), "unsupported record version 9"),
        (lambda d: d.pop("setup"), 'no "setup" object'),
        (lambda d: d["setup"].update(colour="red"), "unknown setup fields \\['colour'\\]"),
        (lambda d: d.update(actions="bid bid"), "must be a list of texts"),
        (
            lambda d: d["actions"].__setitem__(6, "sell 5"),
            "action 7 of the record \\('sell 5'\\) cannot be played",
        ),
        (
            lambda d: d["actions"].__setitem__(0, "fold"),
            "action 1 of the record \\('fold'\\) cannot be played: unknown action",
        ),
        (lambda d: d["result"].update(scores=[0, 0, 0, 0]), "does not match its replay"),
        (lambda d: d["setup"].update(players=["Ann", "Ben"]), "3 to 6 players; got 2 names"),
    ],
)
def test_bad_records_are_refused_whole(change, message):
    data = good_json()
    change(data)
    with pytest.raises(ValueError, match=message):
        GameRecord.from_json(json.dumps(data))


def test_not_json_and_unknown_samples_say_so():
    with pytest.raises(ValueError, match="not valid JSON"):
        GameRecord.from_json("{actions: [bid]")
    with pytest.raises(
        ValueError,
        match="no record file 'nope' and no sample game of that name; samples: rulebook-opening",
    ):
        GameRecord.load("nope")


def test_rounds_table_has_one_row_per_round_and_player():
    table = GameRecord.load("rulebook-opening").table("rounds")
    assert len(table) == 4 * 4  # rounds 1-3 at the auction's opening + the final table
    r2 = table[(table["round"] == 2) & (table["player"] == "Ann")].iloc[0]
    assert (r2.card, r2.points, r2.shares_brown, r2.market_brown) == ("green/brown", 1, 2, 5)
    final = table[table["card"] == "crash"].set_index("player")
    assert final.loc["Ann", "points"] == 11 and final.loc["Ann", "market_brown"] == 3
    assert list(final["score"]) == [11, 2, 2, 2]


def test_auctions_table_has_one_row_per_auction():
    table = GameRecord.load("rulebook-opening").table("auctions")
    assert list(table["card"]) == ["brown/green", "green/brown", "pink/blue"]
    first = table.iloc[0]
    assert first.bids == (2, 1, 0, 0) and first.chips_paid == 3
    assert first.pot_path == (0, 1, 2, 0, 0, 1)  # the pot before each bid or drop
    assert (first.winner, first.runner_up, first.winner_choice, first.taker) == (0, 1, "take", 0)
    second = table.iloc[1]
    assert (second.winner_choice, second.sold, second.sale_price, second.taker) == ("sell", 2, 5, 3)


def test_auctions_table_chips_paid_matches_the_pot_flow():
    record = random_record(5, seed=12)
    table = record.table("auctions")
    assert len(table) == record.replay().round - 1  # every round but the crash
    assert (table["chips_paid"] == table["bids"].map(sum)).all()


def test_narrate_applies_actions_and_tells_every_step():
    s = GameRecord.load("rulebook-opening").initial_state()
    s, lines = narrate(s, ["bid", mogul.BID, "drop"])
    assert lines == [
        "Ann bids: the pot holds 1.",
        "Ben bids: the pot holds 2.",
        "Cai drops and collects 2 chips.",
    ]
    assert s.current_player == 3
