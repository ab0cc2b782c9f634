"""Every example and special case in the 2002 rulebooks, set up as a scripted scenario.

Seats are numbered clockwise from 0. Card notation is company/border.
"""

import pytest

import mogul
from mogul import BID, CREDIT, DROP, TAKE, IllegalActionError, Sell
from mogul.games.mogul.events import (
    CardRevealed,
    CrashRevealed,
    GameEnded,
    PremiumsPaid,
    SharesSold,
)

S_CARDS = [["brown/green"], ["brown/yellow"], ["brown/blue"], ["brown/pink"]]


def test_first_brown_reveal_pays_every_player():
    # "If a brown share is revealed first, every player receives a point since every player
    # possesses a brown share."
    #   Ann brown | Ben brown | Cai brown | Dee brown      revealed: brown/green
    s = mogul.new_game(players=4, seed=1, deck=["brown/green", "pink/blue", "crash"])
    assert s.round == 1 and str(s.revealed) == "brown/green"
    assert [p.points for p in s.players] == [1, 1, 1, 1]
    assert PremiumsPaid("brown", (1, 1, 1, 1)) in s.events


def test_premium_counts_every_owned_share_of_the_company():
    s = mogul.new_game(
        players=3,
        seed=1,
        deck=["pink/blue", "crash"],
        starting_shares=[
            ["pink/brown", "pink/yellow", "brown/blue"],
            ["pink/green"],
            ["brown/pink"],
        ],
    )
    assert [p.points for p in s.players] == [2, 1, 0]


def _sale_table():
    # The rulebook sale: a green share with a brown border is revealed; the winner owns two
    # brown shares and all players together own five.
    #   Ann: brown x2 | Ben: brown | Cai: brown | Dee: brown     revealed: green/brown
    return mogul.new_game(
        players=["Ann", "Ben", "Cai", "Dee"],
        seed=1,
        deck=["green/brown", "blue/pink", "crash"],
        starting_shares=[
            ["brown/green", "brown/yellow"],
            ["brown/blue"],
            ["brown/blue"],
            ["brown/pink"],
        ],
        start_player=0,
    )


def _win_auction_for_ann(s):
    # Ann bids (pot 1); Ben drops and takes 1; Cai and Dee drop at 0: Ann wins, Dee is runner-up.
    for action in (BID, DROP, DROP, DROP):
        s = s.apply(action)
    assert (s.winner, s.runner_up) == (0, 3)
    return s


def test_two_brown_shares_sold_with_five_in_the_market_pay_ten():
    s = _win_auction_for_ann(_sale_table())
    assert s.market_value("brown") == 5
    assert s.legal_actions() == [TAKE, Sell(0), Sell(1), Sell(2)]
    s = s.apply(Sell(2))
    assert s.players[0].points == 10
    assert s.players[0].shares["brown"] == 0
    assert s.market_value("brown") == 3
    assert s.sold["brown"] == 2  # sold shares go back to the box
    assert SharesSold(0, "brown", 2, 5) in s.events


def test_after_a_sale_the_runner_up_takes_the_card_and_starts_the_next_round():
    s = _win_auction_for_ann(_sale_table()).apply(Sell(2))
    assert s.current_player == 3 and s.legal_actions() == [TAKE]
    s = s.apply(TAKE)
    assert s.players[3].shares["green"] == 1
    assert s.round == 2 and str(s.revealed) == "blue/pink"
    assert s.start_player == 3 and s.current_player == 3


def test_sell_zero_blocks_the_runner_up():
    # Dee (runner-up) owns a brown share, the border colour; after Ann's Sell(0) she may only
    # take the card, never sell.
    s = _win_auction_for_ann(_sale_table()).apply(Sell(0))
    assert s.players[0].points == 0
    assert s.legal_actions() == [TAKE]
    with pytest.raises(IllegalActionError):
        s.apply(Sell(1))


def test_when_the_winner_takes_the_runner_up_may_sell():
    s = _win_auction_for_ann(_sale_table()).apply(TAKE)
    assert s.players[0].shares["green"] == 1
    assert s.current_player == 3
    assert s.legal_actions() == [Sell(0), Sell(1)]  # Dee owns one brown share
    s = s.apply(Sell(1))
    assert s.players[3].points == 5  # market value 5 before her sale
    # Ann took the card, so Ann starts the next round.
    assert s.start_player == 0 and s.current_player == 0


def test_runner_up_without_border_shares_can_only_sell_zero():
    s = mogul.new_game(
        players=3,
        seed=2,
        deck=["green/pink", "crash"],
        starting_shares=[["brown/green"], ["brown/blue"], ["brown/yellow"]],
        start_player=0,
    )
    s = s.apply(DROP).apply(DROP)  # Ann and Ben drop at 0: Cai wins, Ben is runner-up
    assert (s.winner, s.runner_up) == (2, 1)
    s = s.apply(TAKE)
    assert s.legal_actions() == [Sell(0)]


def test_dropper_takes_the_whole_pot_and_leaves_the_auction():
    s = _sale_table()
    s = s.apply(BID).apply(BID).apply(BID)  # Ann, Ben, Cai pay: pot 3
    assert s.pot == 3 and [p.chips for p in s.players] == [5, 5, 5, 6]
    s = s.apply(DROP)  # Dee takes 3
    assert s.pot == 0 and s.players[3].chips == 9
    assert s.in_auction == (0, 1, 2) and s.current_player == 0
    s = s.apply(BID).apply(BID).apply(DROP)  # Ann, Ben pay; Cai takes 2
    assert s.players[2].chips == 7 and s.current_player == 0
    s = s.apply(DROP)  # Ann drops at pot 0; Ben wins, Ann is runner-up
    assert (s.winner, s.runner_up) == (1, 0)
    assert sum(p.chips for p in s.players) + s.pot + s.bank == 45


def test_first_player_may_drop_but_earns_nothing():
    s = _sale_table().apply(DROP)
    assert s.players[0].chips == 6 and s.pot == 0
    assert 0 not in s.in_auction and s.current_player == 1


def test_a_player_without_chips_must_drop_or_take_credit():
    s = mogul.new_game(
        players=3, seed=1, deck=["green/pink", "crash"], chips=[0, 6, 6], start_player=0
    )
    assert s.legal_actions() == [DROP, CREDIT]
    with pytest.raises(IllegalActionError, match="Legal actions: drop, credit"):
        s.apply(BID)


def test_without_chips_and_without_bank_a_player_must_drop():
    # 0 + 22 + 22 chips leaves 1 in the bank: no credit.
    s = mogul.new_game(
        players=3, seed=1, deck=["green/pink", "crash"], chips=[0, 22, 22], start_player=0
    )
    assert s.bank == 1
    assert s.legal_actions() == [DROP]


def test_credit_gives_two_chips_for_two_points_once_per_auction():
    s = mogul.new_game(players=3, seed=1, deck=["green/pink", "pink/blue", "crash"], start_player=0)
    bank = s.bank
    s = s.apply(CREDIT)
    assert (s.players[0].chips, s.players[0].points, s.bank) == (8, -2, bank - 2)
    assert s.current_player == 0  # credit does not use up the turn
    assert s.legal_actions() == [BID, DROP]  # no second credit in this auction
    s = s.apply(BID).apply(CREDIT).apply(DROP).apply(DROP)  # Ben borrows and drops; Cai drops
    assert [p.points for p in s.players] == [-2, -2, 0]  # points may go negative
    assert s.players[1].credits == 1


def test_credit_only_while_the_bank_holds_two_chips():
    s = mogul.new_game(
        players=3, seed=1, deck=["green/pink", "crash"], chips=[6, 18, 19], start_player=0
    )
    assert s.bank == 2 and CREDIT in s.legal_actions()
    s = s.apply(CREDIT).apply(BID)
    assert s.bank == 0
    assert CREDIT not in s.legal_actions()


def test_crash_ends_the_game_at_once_and_chips_score_one_per_five():
    # Round 2 reveals the crash: no premiums, no auction; shares are worthless.
    s = mogul.new_game(
        players=3,
        seed=1,
        deck=["green/pink", "crash", "pink/blue"],
        starting_shares=[["brown/green"], ["brown/blue"], ["brown/yellow"]],
        chips=[14, 5, 4],
        start_player=0,
    )
    s = s.apply(DROP).apply(DROP).apply(TAKE).apply(Sell(0))  # Cai wins and takes, Ben sells none
    assert s.is_over and s.current_player is None and s.legal_actions() == []
    assert s.round == 2 and any(type(e) is CrashRevealed for e in s.events)
    assert not any(type(e) in (CardRevealed, PremiumsPaid) for e in s.events)
    assert s.final_scores() == (2, 1, 0)
    assert GameEnded((2, 1, 0), (0,)) in s.events
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply(BID)


def test_a_scripted_crash_as_first_card_ends_the_game_before_any_decision():
    s = mogul.new_game(players=3, seed=1, deck=["crash"], chips=[10, 6, 6])
    assert s.is_over and s.round == 1
    assert s.final_scores() == (2, 1, 1) and s.winners() == (0,)


def test_tie_on_points_goes_to_the_most_shares():
    # Ann and Ben both end with 1 point (5 chips); Ben holds two shares, Ann one.
    s = mogul.new_game(
        players=3,
        seed=1,
        deck=["crash"],
        chips=[5, 5, 4],
        starting_shares=[["brown/green"], ["brown/blue", "pink/yellow"], []],
    )
    assert s.final_scores() == (1, 1, 0)
    assert s.winners() == (1,)


def test_tie_on_points_and_shares_is_shared():
    s = mogul.new_game(
        players=3,
        seed=1,
        deck=["crash"],
        chips=[5, 5, 4],
        starting_shares=[["brown/green"], ["brown/blue"], []],
    )
    assert s.winners() == (0, 1)


def test_quick_start_gives_each_player_a_second_share_of_a_different_company():
    for seed in range(30):
        s = mogul.new_game(players=5, seed=seed, quick_start=True)
        second = []
        for p in s.players:
            assert p.shares.total == 2 and p.shares["brown"] >= 1  # the S card plus one more
            rest = p.shares.add("brown", -1)
            second += [c for c, n in rest.items() if n]
        assert sorted(second) == ["blue", "brown", "green", "pink", "yellow"]
        assert 10 + len(s.unseen) + 1 == 31  # held + unseen + the revealed card


def test_quick_start_is_for_up_to_five_players():
    with pytest.raises(ValueError, match="up to 5 players; got 6"):
        mogul.new_game(players=6, seed=1, quick_start=True)
