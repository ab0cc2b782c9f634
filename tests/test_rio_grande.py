"""The 2013 Rio Grande edition: its data, the rulebook's examples and every rule that differs
from the classic game, set up as scripted scenarios.

Seats are numbered clockwise from 0. Card notation is company/border. Stations are named by
line (BR brown, GR green, YE yellow, BL blue, PI pink); an interchange names both lines
(BL-PI lies on the blue and the pink line).
"""

import json
from collections import Counter

import pytest

import mogul
from mogul import BID, CREDIT, DROP, TAKE, Branch, IllegalActionError, Sell
from mogul.games.mogul.bots import MonteCarloBot, rank_branches
from mogul.games.mogul.display import action_label, table_html
from mogul.games.mogul.events import (
    BonusesScored,
    BranchFounded,
    CrashRevealed,
    GameEnded,
    SharesSold,
)
from mogul.games.mogul.network import branch_points, free_stations
from mogul.kit.data import data_path
from mogul.kit.record import GameRecord

ED = mogul.edition("rio-grande")


# --- the edition's data ------------------------------------------------------------------------


def test_the_box_holds_37_shares_in_the_modeled_counts():
    companies = Counter(c.company for c in ED.cards)
    borders = Counter(c.border for c in ED.cards)
    assert len(ED.cards) == 37
    assert companies == {"brown": 8, "yellow": 8, "blue": 8, "pink": 8, "green": 5}
    assert borders == {"brown": 8, "yellow": 7, "blue": 7, "pink": 7, "green": 8}
    assert all(c.company != c.border for c in ED.cards)
    assert (ED.min_players, ED.max_players, ED.chips_total, ED.chips_per_player) == (3, 5, 45, 6)
    assert (ED.credit_chips, ED.credit_points, ED.credit_limit) == (3, 3, "once per game")
    assert (ED.crash_shuffled_into_last, ED.houses_per_player, ED.sale) == (3, 6, "all or none")
    assert [c.name for c in ED.companies if c.id in ("yellow", "blue")] == [
        "Ocean Pacific",
        "Santa Fe",
    ]


def test_the_map_has_five_lines_of_seven_stations_and_five_interchanges_in_a_ring():
    assert len(ED.stations) == 30 == 5 * ED.houses_per_player
    assert set(ED.lines) == set(ED.company_ids)
    assert all(len(stations) == 7 for stations in ED.lines.values())
    interchanges = {frozenset(s.lines) for s in ED.stations.values() if len(s.lines) > 1}
    ring = [
        ("brown", "yellow"),
        ("yellow", "blue"),
        ("blue", "pink"),
        ("pink", "green"),
        ("green", "brown"),
    ]
    assert interchanges == {frozenset(pair) for pair in ring}
    for line, stations in ED.lines.items():
        assert all(line in ED.stations[s].lines for s in stations)
    assert ED.stations["BL-PI"].lines == ("blue", "pink") and ED.stations["BL3"].lines == ("blue",)


def test_every_fact_the_rulebook_does_not_print_is_marked_modeled():
    with open(data_path("editions", "rio-grande-2013.json"), encoding="utf-8") as f:
        raw = json.load(f)
    assert raw["map"]["modeled"] is True and raw["setup_card"]["modeled"] is True
    assert all(card["modeled"] is True for card in raw["cards"])
    assert raw["score_track"]["modeled"] is True
    # The two names the rulebook prints are facts; the other three are modeled.
    assert [c["id"] for c in raw["companies"] if not c.get("modeled")] == ["yellow", "blue"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_setup_card_deals_three_shares_by_position_from_the_start_player(players):
    s = mogul.new_game("rio-grande", players=players, seed=11)
    start = s.start_player  # drawn from the seed; the first auction opens there
    odd, even = {"brown", "yellow", "blue"}, {"pink", "blue", "green"}
    for position in range(players):
        shares = s.players[(start + position) % players].shares
        assert {c for c, n in shares.items() if n} == (odd if position % 2 == 0 else even)
        assert shares.total == 3
    # The rest of the box and the crash are the draw pile; its first card is on the table.
    assert s.cards_left == 37 - 3 * players
    assert len(s.unseen) == 37 - 3 * players - 1


def test_the_crash_lies_uniformly_in_the_last_four_cards():
    # Deal only: where is the crash card in the pile? Chi-square against uniform over the last
    # 4 positions (3 degrees of freedom; 16.27 is the 0.1 % point), and never anywhere else.
    deals = 4000
    counts = Counter()
    for seed in range(deals):
        s = mogul.new_game("rio-grande", players=4, seed=seed)
        pile = s.deck
        from_bottom = len(pile) - 1 - next(i for i, c in enumerate(pile) if c.is_crash)
        counts[from_bottom] += 1
    assert set(counts) == {0, 1, 2, 3}
    expected = deals / 4
    chi_square = sum((counts[k] - expected) ** 2 / expected for k in range(4))
    assert chi_square < 16.27, counts


# --- the sell right: all or none, or a branch -------------------------------------------------


def _santa_fe_sale():
    # Rulebook example 1: a yellow (Ocean Pacific) share with a blue (Santa Fe) border is
    # revealed; the winner owns 2 Santa Fe shares, all players together 5.
    #   Ann: blue x2 | Ben: blue x2 | Cai: blue          revealed: yellow/blue
    return mogul.new_game(
        "rio-grande",
        players=["Ann", "Ben", "Cai"],
        seed=1,
        deck=["yellow/blue", "pink/green", "crash"],
        starting_shares=[
            ["blue/brown", "blue/pink"],
            ["blue/green", "blue/yellow"],
            ["blue/brown"],
        ],
        start_player=0,
    )


def _win_auction_for_ann(s):
    # Ann bids (pot 1); Ben drops and takes it; Cai drops at 0: Ann wins, Cai is runner-up.
    for action in (BID, DROP, DROP):
        s = s.apply(action)
    assert (s.winner, s.runner_up) == (0, 2)
    return s


def test_two_santa_fe_shares_sold_with_five_in_the_market_pay_ten():
    s = _win_auction_for_ann(_santa_fe_sale())
    assert s.market_value("blue") == 5
    s = s.apply(Sell(2))
    assert s.players[0].points == 10 and s.players[0].shares["blue"] == 0
    assert SharesSold(0, "blue", 2, 5) in s.events
    assert s.sold["blue"] == 2


def test_the_sell_right_is_all_or_none_or_a_branch_on_the_border_line():
    s = _win_auction_for_ann(_santa_fe_sale())
    blue_line = [Branch(station) for station in ED.lines["blue"]]
    assert s.legal_actions() == [TAKE, Sell(0), Sell(2), *blue_line]
    with pytest.raises(IllegalActionError):
        s.apply(Sell(1))  # no partial sale
    with pytest.raises(IllegalActionError):
        s.apply(Branch("PI1"))  # not on the blue line


def test_after_a_sale_the_runner_up_takes_the_card_and_starts_the_next_round():
    # Rulebook example 2.
    s = _win_auction_for_ann(_santa_fe_sale()).apply(Sell(2))
    assert s.current_player == 2 and s.legal_actions() == [TAKE]
    s = s.apply(TAKE)
    assert s.players[2].shares["yellow"] == 1
    assert s.round == 2 and s.start_player == 2 and s.current_player == 2


def test_no_partial_sale_is_ever_offered_in_random_play():
    for seed in range(60):
        s = mogul.new_game("rio-grande", players=4, seed=seed)
        while not s.is_over:
            legal = s.legal_actions()
            sells = [a.count for a in legal if type(a) is Sell]
            if sells:
                owned = s.players[s.current].shares[s.revealed.border]
                assert sells == ([0, owned] if owned else [0])
            s = s.apply(legal[seed % len(legal)])


def test_the_winner_may_found_a_branch_and_the_runner_up_then_takes_the_card():
    s = _win_auction_for_ann(_santa_fe_sale()).apply(Branch("BL3"))
    assert s.players[0].houses == ("BL3",) and s.players[0].shares["blue"] == 2
    assert BranchFounded(0, "BL3", "blue") in s.events
    assert s.winner_choice == "branch"
    assert s.legal_actions() == [TAKE]
    s = s.apply(TAKE)
    assert s.start_player == 2 and s.players[2].shares["yellow"] == 1


def test_when_the_winner_takes_the_runner_up_may_found_a_branch():
    s = _win_auction_for_ann(_santa_fe_sale()).apply(TAKE)
    assert s.current_player == 2
    assert s.legal_actions() == [Sell(0), Sell(1), *(Branch(st) for st in ED.lines["blue"])]
    s = s.apply(Branch("YE-BL"))
    assert s.players[2].houses == ("YE-BL",)
    assert s.start_player == 0  # Ann took the card


def test_a_taken_station_is_never_offered():
    # Ben already has a house on BL1 and Cai on the interchange BL-PI.
    s = mogul.new_game(
        "rio-grande",
        players=3,
        seed=1,
        deck=["yellow/blue", "crash"],
        starting_shares=[["blue/brown"], [], []],
        start_player=0,
        houses=[[], ["BL1"], ["BL-PI"]],
    )
    s = _win_auction_for_ann(s)
    branches = [a.station for a in s.legal_actions() if type(a) is Branch]
    assert branches == ["YE-BL", "BL2", "BL3", "BL4", "BL5"]
    assert free_stations(s, "pink") == ("PI1", "PI2", "PI3", "PI4", "PI5", "PI-GR")
    assert [p.houses for p in s.players] == [(), ("BL1",), ("BL-PI",)]
    with pytest.raises(IllegalActionError, match="branch BL1"):
        s.apply(Branch("BL1"))


def test_with_all_six_houses_out_a_house_is_moved():
    six = ["BR1", "BR2", "GR1", "GR2", "PI1", "BL1"]
    s = mogul.new_game(
        "rio-grande",
        players=3,
        seed=1,
        deck=["yellow/blue", "crash"],
        starting_shares=[[], [], []],
        start_player=0,
        houses=[six, [], []],
    )
    s = _win_auction_for_ann(s)
    moves = [a for a in s.legal_actions() if type(a) is Branch]
    free = ["YE-BL", "BL2", "BL3", "BL4", "BL5", "BL-PI"]
    assert moves == [Branch(station, move_from=old) for station in free for old in six]
    assert Branch("BL2") not in s.legal_actions()
    s = s.apply(Branch("BL2", move_from="GR2"))
    assert s.players[0].houses == ("BR1", "BR2", "GR1", "BL2", "PI1", "BL1")
    assert BranchFounded(0, "BL2", "blue", "GR2") in s.events
    assert "GR2" in free_stations(s, "green")


def test_one_house_per_station_even_on_interchanges():
    with pytest.raises(ValueError, match="'BL-PI' holds a house twice"):
        mogul.new_game("rio-grande", players=3, seed=1, houses=[["BL-PI"], ["BL-PI"], []])


# --- credit ------------------------------------------------------------------------------------


def test_credit_is_three_chips_for_three_points_once_per_game():
    s = mogul.new_game(
        "rio-grande",
        players=3,
        seed=1,
        deck=["yellow/blue", "pink/green", "crash"],
        starting_shares=[[], [], []],
        start_player=0,
    )
    assert s.legal_actions() == [BID, DROP, CREDIT]
    s = s.apply(CREDIT)
    assert (s.players[0].chips, s.players[0].points, s.bank) == (9, -3, 45 - 18 - 3)
    assert s.legal_actions() == [BID, DROP]
    s = _win_auction_for_ann(s).apply(TAKE).apply(Sell(0))
    assert s.round == 2 and s.current_player == 0
    assert CREDIT not in s.legal_actions()  # not again, not even in a later auction
    with pytest.raises(IllegalActionError):
        s.apply(CREDIT)
    assert CREDIT in s.apply(BID).legal_actions()  # Ben still has his


# --- the end: bonuses and the winner ----------------------------------------------------------


def test_three_houses_on_the_blue_line_score_three_each():
    assert branch_points(ED, ["BL1", "BL2", "BL3"]) == 3 + 3 + 3


def test_a_house_on_an_interchange_scores_for_both_lines():
    # Blue: BL1, BL2, BL-PI (3 houses, 3 points each); pink: BL-PI, PI1 (2 houses, 2 each).
    assert branch_points(ED, ["BL1", "BL2", "BL-PI", "PI1"]) == 9 + 4
    assert branch_points(ED, ["BL-PI"]) == 1 + 1


def test_final_scores_add_branches_shares_and_chips():
    #   Ann: houses BL1 BL2 BL3, 2 shares, 6 chips | Ben: houses BL-PI PI1, 1 share, 11 chips
    #   Cai: nothing, 0 chips.        The first card revealed is the crash.
    s = mogul.new_game(
        "rio-grande",
        players=3,
        seed=1,
        deck=["crash"],
        starting_shares=[["blue/brown", "pink/green"], ["green/brown"], []],
        start_player=0,
        chips=[6, 11, 0],
        houses=[["BL1", "BL2", "BL3"], ["BL-PI", "PI1"], []],
    )
    assert s.is_over
    parts = s.score_breakdown()
    assert parts[0] == mogul.ScoreBreakdown(points=0, branches=9, shares=2, chips=1, total=12)
    assert parts[1] == mogul.ScoreBreakdown(points=0, branches=4 + 1, shares=1, chips=2, total=8)
    assert parts[2].total == 0
    assert s.final_scores() == (12, 8, 0) and s.winners() == (0,)
    assert BonusesScored((9, 5, 0), (2, 1, 0), (1, 2, 0)) in s.events
    assert GameEnded((12, 8, 0), (0,)) in s.events
    assert CrashRevealed(1, shares_score=True) in s.events
    assert "End bonuses: Ann +12 (9 branches, 2 shares, 1 chips)" in " ".join(s.describe_events())


def test_a_tie_goes_to_the_most_shares_then_is_shared():
    # Ann: 2 shares + 5 chips = 3; Ben: 3 shares = 3; Cai: 3 shares = 3; Ben and Cai lead on shares.
    s = mogul.new_game(
        "rio-grande",
        players=3,
        seed=1,
        deck=["crash"],
        start_player=0,
        chips=[5, 0, 0],
        starting_shares=[
            ["blue/brown", "pink/green"],
            ["green/brown", "blue/pink", "pink/blue"],
            ["yellow/blue", "yellow/pink", "brown/pink"],
        ],
    )
    assert s.final_scores() == (3, 3, 3)
    assert s.winners() == (1, 2)


# --- records, text forms, display, bots --------------------------------------------------------


def test_branch_actions_read_back_from_their_text():
    for action in (Branch("BL3"), Branch("BL-PI", move_from="BR2")):
        assert mogul.parse_action(str(action)) == action
    assert str(Branch("BL3", "BR2")) == "branch BL3 from BR2"


def test_a_scripted_game_with_houses_round_trips_as_a_record():
    s = mogul.new_game("rio-grande", players=3, seed=4, houses=[["BL1"], [], ["GR-BR"]])
    record = mogul.play(s, [mogul.RandomBot(i) for i in range(3)])
    again = GameRecord.from_json(record.to_json())
    assert again == record and again.replay() == record.replay()
    assert json.loads(record.to_json())["setup"]["houses"] == [["BL1"], [], ["GR-BR"]]
    # Classic records carry no houses field at all.
    classic = mogul.play(
        mogul.new_game("classic", players=3, seed=4), [mogul.RandomBot(i) for i in range(3)]
    )
    assert "houses" not in json.loads(classic.to_json())["setup"]


@pytest.mark.parametrize(
    "houses, message",
    [
        ([["XX9"], [], []], "unknown station 'XX9'"),
        ([["BL1"] * 1, ["BL2"]], "one list of station ids per player \\(3\\), got 2"),
        (
            [["BR1", "BR2", "BR3", "BR4", "BR5", "BL1", "BL2"], [], []],
            "6 houses for branches, got 7",
        ),
    ],
)
def test_bad_scripted_houses_say_what_is_wrong(houses, message):
    with pytest.raises(ValueError, match=message):
        mogul.new_game("rio-grande", players=3, seed=1, houses=houses)


def test_the_classic_edition_has_no_map_for_houses():
    with pytest.raises(ValueError, match="no railway map"):
        mogul.new_game("classic", players=3, seed=1, houses=[["BL1"], [], []])


def test_branch_buttons_and_the_table_show_the_map_choices():
    s = mogul.new_game("rio-grande", players=3, seed=2, houses=[["BL1", "BL-PI"], [], []])
    assert action_label(s, Branch("BL3")) == "Branch at BL3"
    assert action_label(s, Branch("BL3", move_from="BR2")) == "Move house BR2 -> BL3"
    page = table_html(s)
    assert "<th>houses</th>" in page and ">BL-PI</span>" in page and "4 left" in page
    assert "<th>branches</th>" in page
    assert "<th>houses</th>" not in table_html(mogul.new_game("classic", players=3, seed=2))


def test_value_bot_founds_the_branch_that_adds_most():
    # Ann has houses on BL1 and BL2 and no blue share. A third blue house adds 9 - 4 = 5; on
    # an interchange (YE-BL or BL-PI) it also starts a line worth 1: 6. That beats the yellow
    # share this late, so as winner she builds on the first of the two interchanges.
    s = mogul.new_game(
        "rio-grande",
        players=3,
        seed=1,
        deck=["yellow/blue", "crash"],
        starting_shares=[[], [], []],
        start_player=0,
        houses=[["BL1", "BL2"], [], []],
    )
    s = _win_auction_for_ann(s)
    bot = mogul.ValueBot()
    take, sell_right = bot.option_values(s.view(0))
    assert sell_right == 6 and take < sell_right
    assert bot.choose(s.view(0), s.legal_actions()) == Branch("YE-BL")


@pytest.mark.parametrize("bot", ["random", "threshold", "value", "mc:rollouts=2"])
def test_the_kit_bots_play_the_edition_to_the_end(bot):
    factory = mogul.games.mogul.bots.bot_factory(bot)
    s = mogul.new_game("rio-grande", players=3, seed=5)
    if bot.startswith("mc"):
        # One decision of the Monte-Carlo bot with branches on offer is enough (and fast).
        while not any(type(a) is Branch for a in s.legal_actions()):
            s = s.apply(s.legal_actions()[0])
        choice = factory(1).choose(s.view(s.current), s.legal_actions())
        assert choice in s.legal_actions()
        return
    final = mogul.play_out(s, [factory(seat) for seat in range(3)])
    assert final.is_over and len(final.final_scores()) == 3


def test_the_auctions_table_says_who_built_where():
    states = [_santa_fe_sale()]
    for action in (BID, DROP, DROP, Branch("BL3"), TAKE):
        states.append(states[-1].apply(action))
    row = mogul.games.mogul.tables.auctions_table(states).iloc[0]
    assert (row["winner_choice"], row["branch"], row["brancher"], row["taker"]) == (
        "branch",
        "BL3",
        0,
        2,
    )


def test_a_view_and_its_determinised_pile_keep_the_houses_and_the_crash_rule():
    import random

    s = mogul.new_game("rio-grande", players=3, seed=8, houses=[["BL1"], ["GR-BR"], []])
    view = s.view(1)
    assert view.players[1].houses == ("GR-BR",)
    guess = mogul.determinize(view, random.Random(1))
    assert guess.players == s.players and len(guess.deck) == len(s.deck)
    crash = next(i for i, c in enumerate(guess.deck) if c.is_crash)
    assert crash >= len(guess.deck) - 4  # uniformly in the last 4 cards
    # Once the pile is down to four cards, the next card is the crash with chance 1/4.
    late = s._replace(
        deck=s.deck[-4:], unseen=tuple(sorted(c for c in s.deck[-4:] if not c.is_crash))
    )
    assert late.view(0).crash_chance() == 1 / 4


def test_a_session_plays_a_branch_and_records_it():
    session = mogul.GameSession(
        "rio-grande",
        seats=["human"] * 3,
        seed=1,
        deck=["yellow/blue", "crash"],
        starting_shares=[["blue/brown", "blue/pink"], [], []],
        start_player=0,
    )
    for action in (BID, DROP, DROP):
        session.act(action)
    assert session.action_label(Branch("BL3")) == "Branch at BL3"
    session.act(Branch("BL3"))
    session.act(TAKE)
    assert session.state.is_over and session.state.players[0].houses == ("BL3",)
    assert session.record().replay() == session.state
    assert "Ann founds a branch at BL3 (blue line)." in session.event_log(20)


def test_value_bot_beats_random_play_in_the_edition():
    # ValueBot in seat (game % 3) against two RandomBots, 30 deals: it should win most games.
    wins = 0
    for game in range(30):
        seat = game % 3
        bots = [mogul.RandomBot(100 * game + s) for s in range(3)]
        bots[seat] = mogul.ValueBot()
        final = mogul.play_out(mogul.new_game("rio-grande", players=3, seed=game), bots)
        wins += seat in final.winners()
    assert wins >= 20, wins


def test_the_score_in_parts_hides_the_chips_of_hidden_seats():
    s = mogul.new_game("rio-grande", players=3, seed=2, chips=[10, 6, 6])
    shown = table_html(s)
    hidden = table_html(s, hide_chips=[0])
    assert (
        '<td>Ann</td><td class="num">0</td><td class="num">0</td><td class="num">3</td><td class="num">2</td>'
        in shown
    )
    assert (
        '<td>Ann</td><td class="num">0</td><td class="num">0</td><td class="num">3</td><td class="num">?</td>'
        in hidden
    )


def test_the_rounds_table_follows_the_houses_and_their_bonus():
    s = mogul.new_game("rio-grande", players=3, seed=1, houses=[["BL1", "BL2"], [], ["BL-PI"]])
    assert "Houses already on the map: Ann: BL1, BL2; Cai: BL-PI." in s.describe_events()
    rows = mogul.games.mogul.tables.rounds_table([s])
    assert list(rows["houses"]) == [2, 0, 1] and list(rows["branches"]) == [4, 0, 2]
    classic = mogul.games.mogul.tables.rounds_table([mogul.new_game("classic", players=3, seed=1)])
    assert "houses" not in classic.columns


def test_a_scripted_deck_that_uses_a_setup_card_share_asks_for_starting_shares():
    # The box has one green/yellow share, and the setup card gives it to the second position.
    with pytest.raises(
        ValueError, match="green/yellow cards: the rio-grande box has only 1; the setup card"
    ):
        mogul.new_game("rio-grande", players=3, seed=1, deck=["green/yellow", "crash"])
    s = mogul.new_game(
        "rio-grande",
        players=3,
        seed=1,
        deck=["green/yellow", "crash"],
        starting_shares=[[], [], []],
    )
    assert str(s.revealed) == "green/yellow"


def test_montecarlo_branch_candidates_are_ranked_by_the_map():
    # Ann may build on the blue line. YE-BL and BL-PI (interchanges) each add 2 to her end
    # bonus, the plain stations 1. Cai has two pink houses: BL-PI would add 5 + 1 to his.
    s = mogul.new_game(
        "rio-grande",
        players=["Ann", "Ben", "Cai"],
        seed=1,
        deck=["yellow/blue", "pink/green", "crash"],
        starting_shares=[["blue/brown", "blue/pink"], ["blue/green"], ["blue/brown"]],
        start_player=0,
        houses=[[], ["YE1"], ["PI1", "PI2"]],
    )
    s = _win_auction_for_ann(s)
    view, legal = s.view(0), s.legal_actions()
    ranked = rank_branches(view, [a for a in legal if type(a) is Branch])
    assert [b.station for b in ranked] == ["BL-PI", "YE-BL", "BL1", "BL2", "BL3", "BL4", "BL5"]
    # the second key decides between equal gains: not the order along the line (YE-BL first)
    one = MonteCarloBot(rollouts=2, branches=1).candidates(view, legal)
    assert one == [TAKE, Sell(0), Sell(2), Branch("BL-PI")]
