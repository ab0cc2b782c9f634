"""Every number notebook 01 (the rules walkthrough) states, computed by the engine and pinned.

The notebook replays the rulebook's opening with a scripted deck (seed 2002, no chance left),
so each number is exact. Each test computes a number and checks that the prose states it;
``test_every_number_in_the_prose_is_pinned`` fails when any number in the prose changes.
"""

from test_auction_claims import prose_numbers, stated

import mogul
from mogul import BID, CREDIT, DROP, TAKE, Sell

NB = "01-rules-walkthrough"


def opening():
    """The scripted table of the notebook, first card revealed, Ann to act."""
    return mogul.new_game(
        "classic",
        players=["Ann", "Ben", "Cai", "Dee"],
        seed=2002,
        deck=["brown/green", "green/brown", "pink/blue", "crash"],
        starting_shares=[["brown/yellow"], ["brown/blue"], ["brown/pink"], ["brown/blue"]],
        start_player=0,
    )


def play(state, actions):
    for action in actions:
        state = state.apply(action)
    return state


def test_setting_up_six_chips_and_one_brown_share_each():
    s = opening()
    assert len(s.players) == 4
    assert [p.chips for p in s.players] == [6] * 4
    assert [sum(p.shares.values()) for p in s.players] == [1] * 4
    assert [p.shares["brown"] for p in s.players] == [1] * 4
    stated(NB, 'Four players each get six chips and one brown "S" share')


def test_premiums_one_point_per_share_of_the_company():
    s = opening()
    assert s.revealed.company == "brown" and [p.points for p in s.players] == [1] * 4
    stated(
        NB,
        "earns **one point per share they own of the revealed card's company**",
        "## Phases 1 and 2",
        "## Phase 3",
        "## Phase 4",
    )


def test_credit_is_two_chips_for_two_points_and_a_bid_is_one_chip():
    s = opening()
    after = s.apply(CREDIT)
    assert after.players[0].chips - s.players[0].chips == 2
    assert after.players[0].points - s.players[0].points == -2
    bid = s.apply(BID)
    assert (s.players[0].chips - bid.players[0].chips, bid.pot) == (1, 1)
    stated(NB, "**bids** (pays one chip into the pot)", "two chips from the bank for two points")


def test_the_first_auction_cai_collects_two_ben_one():
    s = play(opening(), [BID, BID, DROP, DROP, BID, DROP])
    assert [p.chips for p in s.players] == [4, 6, 8, 6]  # Cai +2, Ben -1 +1, Ann -2
    assert (s.names[s.winner], s.names[s.runner_up]) == ("Ann", "Ben")
    assert sum(p.chips for p in s.players) + s.pot + s.bank == 45
    stated(
        NB,
        "Cai drops and collects the two chips",
        "Ben drops with one chip",
        "Ann is the only one left",
    )
    assert s.legal_actions() == [TAKE, Sell(0)]
    stated(NB, "(he has none, so only `sell 0`)")


def test_the_rulebooks_sale_five_plus_five():
    s = play(opening(), [BID, BID, DROP, DROP, BID, DROP, TAKE, Sell(0)])
    assert s.market_value("brown") == 5
    s = play(s, [BID, DROP, DROP, DROP])
    points = s.players[0].points
    sold = s.apply(Sell(2))
    assert sold.players[0].points - points == 10 == 5 + 5
    assert sold.market_value("brown") == 3
    stated(
        NB,
        "## The rulebook's sale: 5 + 5 = 10",
        "hold five brown shares",
        "**market value** of brown is 5: each brown share sold pays 5 points",
        "sells both of her brown shares",
    )
    # had Ann sold nothing, Dee could only take the card: never sell her brown share at 5
    blocked = s.apply(Sell(0))
    assert blocked.legal_actions() == [TAKE]
    stated(
        NB,
        "Had Ann chosen `sell 0`, Dee could only take the card — she could never sell her "
        "own brown share at 5",
    )


def test_the_crash_ends_the_game_one_point_per_five_chips():
    s = play(
        opening(),
        [
            BID,
            BID,
            DROP,
            DROP,
            BID,
            DROP,
            TAKE,
            Sell(0),
            BID,
            DROP,
            DROP,
            DROP,
            Sell(2),
            TAKE,
            DROP,
            DROP,
            DROP,
            TAKE,
            Sell(0),
        ],
    )
    assert s.is_over
    assert s.final_scores() == tuple(p.points + p.chips // 5 for p in s.players) == (11, 2, 2, 2)
    stated(NB, "each player adds one point per five chips", "everyone drops at once")


def test_exercise_dee_sells_her_brown_share_for_five():
    s = play(opening(), [BID, BID, DROP, DROP, BID, DROP, TAKE, Sell(0), BID, DROP, DROP, DROP])
    held = {p.name: p.shares["brown"] for p in s.players}
    assert held == {"Ann": 2, "Ben": 1, "Cai": 1, "Dee": 1} and s.round == 2
    dee = s.apply(TAKE)
    before = dee.players[3].points
    assert dee.apply(Sell(1)).players[3].points - before == 5
    stated(
        NB,
        "start of round 2",
        "Five brown shares are on the table before her sale "
        "(Ann 2, Ben 1, Cai 1, Dee 1), so her one share sells for 5 points",
        "points plus one per 5 chips",
        "sale in round 2",
    )


PROSE_NUMBERS_01 = """
01 one four one
Four six one
1 2 one
3 one two two
two one one
02
4
0 once
5 5 10 five 5 5 both
0 5
once once one five
2
Five 2 1 1 1 one 5
one 5 03 2
one
"""


def test_every_number_in_the_prose_is_pinned():
    # One line per markdown cell; the tests above compute the numbers that are claims.
    assert prose_numbers(NB) == PROSE_NUMBERS_01.strip()
