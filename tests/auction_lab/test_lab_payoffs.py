"""Every mechanism's payoffs, worked by hand on small rounds (the arithmetic is in the comments).

Seats: 0 Ann, 1 Ben, 2 Cai. A round's payoff is the value of what the seat won minus the
chips it paid (Mogul's auction: plus the chips it took from the pot, plus the second prize
for the runner-up). Values are scripted (``drawn``), so nothing here depends on the seed.
"""

from __future__ import annotations

import mogul
from mogul.games.auction_lab.actions import parse_action


def session(mechanism, values, start=0, budget=10, second=0, rounds=1):
    return mogul.new_game(
        "auction-lab",
        players=3,
        seed=1,
        mechanism=mechanism,
        rounds=rounds,
        budget=budget,
        second=second,
        drawn=[values] * rounds,
        start_player=start,
    )


def play(state, moves):
    for move in moves.split(","):
        state = state.apply(parse_action(move.strip()))
    return state


def test_mogul_pot_goes_to_the_droppers_and_the_runner_up_gets_the_second_prize():
    # values Ann 8, Ben 5, Cai 3; budget 4; second prize 2; Ann starts.
    #   Ann pays (pot 1), Ben pays (pot 2), Cai drops: takes 2.
    #   Ann pays (pot 1), Ben drops: takes 1 and is runner-up. Ann wins.
    # Ann: 8 - 2 paid = 6.  Ben: 2 (second) + 1 taken - 1 paid = 2.  Cai: 2 taken = 2.
    # The chips only moved between seats: revenue 0; payoffs add to 8 + 2 prizes.
    end = play(session("mogul", [8, 5, 3], budget=4, second=2), "pay, pay, drop, pay, drop")
    result = end.results[0]
    assert end.is_over and end.final_scores() == (6, 2, 2)
    assert (result.winner, result.runner_up, result.revenue) == (0, 1, 0)
    assert result.bids == (2, 1, 0) and result.dropped_at == (None, 1, 2)
    assert result.payments == (2, 0, -2)


def test_mogul_a_seat_that_spent_its_budget_must_drop():
    # values 8, 5, 3; budget 1; Ann starts. Ann, Ben, Cai pay one chip each (pot 3);
    # Ann has spent her budget: she must drop and takes 3. Ben too: he drops, takes 0.
    # Cai wins.  Ann: 3 - 1 = 2.  Ben: 0 - 1 = -1.  Cai: 3 - 1 = 2.
    state = play(session("mogul", [8, 5, 3], budget=1), "pay, pay, pay")
    assert [str(a) for a in state.legal_actions()] == ["drop"]
    end = play(state, "drop")
    assert [str(a) for a in end.legal_actions()] == ["drop"]
    end = play(end, "drop")
    assert end.final_scores() == (2, -1, 2) and end.results[0].winner == 2


def test_english_the_winner_pays_the_price():
    # values Ann 7, Ben 4, Cai 9; Ben starts. Raises: Ben 1, Cai 2, Ann 3, Ben 4, Cai 5,
    # Ann 6; Ben drops at 6; Cai 7; Ann drops at 7. Cai wins at 7: 9 - 7 = 2, the others 0.
    end = play(
        session("english", [7, 4, 9], start=1),
        "raise, raise, raise, raise, raise, raise, drop, raise, drop",
    )
    result = end.results[0]
    assert end.final_scores() == (0, 0, 2)
    assert (result.winner, result.runner_up, result.revenue) == (2, 0, 7)
    assert result.bids == (6, 4, 7) and result.dropped_at == (7, 6, None)


def test_english_no_raise_past_the_budget():
    # budget 2: at a price of 2 nobody may raise to 3.
    state = play(session("english", [7, 4, 9], budget=2), "raise, raise")
    assert [str(a) for a in state.legal_actions()] == ["drop"]


def test_first_price_the_highest_bid_pays_itself_and_ties_go_to_the_earlier_seat():
    # values Ann 6, Ben 9, Cai 4; Ben starts, so bids are collected Ben, Cai, Ann and the
    # round's order is Ben, Cai, Ann. Bids: Ben 5, Cai 3, Ann 5. Ann and Ben tie at 5;
    # Ben is earlier in the order: he wins and pays 5: 9 - 5 = 4. Revenue 5.
    state = session("first-price", [6, 9, 4], start=1)
    assert state.current_player == 1
    end = play(state, "bid 5, bid 3, bid 5")
    assert end.final_scores() == (0, 4, 0)
    assert end.results[0].bids == (5, 5, 3) and end.results[0].revenue == 5


def test_second_price_the_winner_pays_the_best_other_bid():
    # values 6, 9, 4; Ann starts; bids Ann 6, Ben 9, Cai 4: Ben wins and pays 6: 9 - 6 = 3.
    end = play(session("second-price", [6, 9, 4]), "bid 6, bid 9, bid 4")
    assert end.final_scores() == (0, 3, 0) and end.results[0].revenue == 6
    assert end.results[0].runner_up == 0


def test_all_pay_every_seat_pays_its_bid():
    # values 6, 9, 4; bids Ann 3, Ben 5, Cai 1: Ben wins: 9 - 5 = 4; Ann -3; Cai -1.
    # Revenue 3 + 5 + 1 = 9.
    end = play(session("all-pay", [6, 9, 4]), "bid 3, bid 5, bid 1")
    assert end.final_scores() == (-3, 4, -1) and end.results[0].revenue == 9


def test_scores_add_the_rounds_and_the_start_seat_moves_on():
    # Two first-price rounds with values 6, 9, 4. Round 1 (Ann starts): bids 2, 7, 1: Ben
    # pays 7: 9 - 7 = 2. Round 2 (Ben starts, then Cai, Ann): bids Ben 3, Cai 4, Ann 5:
    # Ann pays 5: 6 - 5 = 1. Scores: Ann 1, Ben 2, Cai 0.
    state = play(session("first-price", [6, 9, 4], rounds=2), "bid 2, bid 7, bid 1")
    assert state.current_player == 1 and state.round == 2
    end = play(state, "bid 3, bid 4, bid 5")
    assert end.payoffs == ((0, 2, 0), (1, 0, 0))
    assert end.final_scores() == (1, 2, 0) and end.winners() == (1,)
