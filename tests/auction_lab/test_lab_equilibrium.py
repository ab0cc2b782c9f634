"""The equilibrium bot against the theory and against ``mogul.auction``'s solver."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mogul
from mogul.auction import deviation_gains, textbook_revenues, threshold_outcomes
from mogul.auction.auction_lab import SETTINGS, lab_equilibrium, value_sample
from mogul.games.auction_lab.bots import EquilibriumBot, NaiveBot
from mogul.games.auction_lab.equilibrium import (
    THRESHOLDS,
    all_pay_bid,
    english_threshold,
    mogul_thresholds,
)
from mogul.games.auction_lab.values import parse_values
from mogul.kit.bots import play_states

UNIFORM = parse_values("uniform 0..10")


def bot_bid(mechanism, players, value, seat=1, **setup):
    values = [value if s == seat else 0 for s in range(players)]
    state = mogul.new_game(
        "auction-lab", players, 1, mechanism=mechanism, rounds=1, drawn=[values], **setup
    )
    return EquilibriumBot().bid(state.view(seat))


@pytest.mark.parametrize(
    ("players", "value", "bid"),
    [
        (2, 7, 4),  # 1/2 x 7 = 3.5, halves up: 4
        (3, 5, 3),  # 2/3 x 5 = 3.33: 3
        (4, 7, 5),  # 3/4 x 7 = 5.25: 5
        (4, 10, 8),  # 3/4 x 10 = 7.5: 8
        (8, 9, 8),  # 7/8 x 9 = 7.875: 8
        (3, 0, 0),
    ],
)
def test_first_price_bids_n_minus_1_over_n_of_the_value_rounded(players, value, bid):
    assert bot_bid("first-price", players, value) == bid
    assert bid == min(10, int((players - 1) / players * value + 0.5))


def test_first_price_from_a_lowest_value_and_within_the_budget():
    # uniform 4..12, 3 seats: 4 + 2/3 (10 - 4) = 8; a budget of 6 cuts it to 6.
    assert bot_bid("first-price", 3, 10, values="uniform 4..12") == 8
    assert bot_bid("first-price", 3, 10, values="uniform 4..12", budget=6) == 6


def test_second_price_bids_the_value_within_the_budget():
    assert bot_bid("second-price", 4, 9) == 9
    assert bot_bid("second-price", 4, 9, budget=6) == 6


@pytest.mark.parametrize(
    ("players", "value", "bid"),
    [
        (2, 6, 2),  # 10 x 1/2 x 0.6^2 = 1.8: 2
        (3, 10, 7),  # 10 x 2/3 x 1 = 6.67: 7
        (3, 5, 1),  # 10 x 2/3 x 0.5^3 = 0.83: 1
    ],
)
def test_all_pay_bids_the_textbook_bid_rounded(players, value, bid):
    assert bot_bid("all-pay", players, value) == bid


@pytest.mark.parametrize("players", [2, 3, 5])
def test_all_pay_and_first_price_bids_give_the_textbook_revenue(players):
    # n E[b(V)] (all-pay) and E[b(max V)] (first-price) for V uniform on [2, 10], by the
    # trapezoid rule, against mogul.auction's textbook revenues (revenue equivalence).
    dist = parse_values("uniform 2..10")
    v = np.linspace(2, 10, 20001)
    all_pay = players * np.trapezoid([all_pay_bid(x, players, dist) for x in v], v) / 8
    top = players * ((v - 2) / 8) ** (players - 1) / 8  # density of the highest value
    first = np.trapezoid((2 + (players - 1) / players * (v - 2)) * top, v)
    book = textbook_revenues(players, 2, 10)
    assert all_pay == pytest.approx(book["all_pay"], abs=1e-3)
    assert first == pytest.approx(book["exact"], abs=1e-3)


def test_english_threshold_is_an_exact_equilibrium():
    # Raising while the new price is below the value: no type of any seat gains anything
    # by any deviation (mogul.auction's backward induction over the public histories).
    sample = value_sample(UNIFORM, 3, 60, second=0, seed=4)
    thresholds = np.vectorize(lambda v: english_threshold(int(v), 10))(sample[:, :, 0])
    gains = deviation_gains(sample, thresholds, [10, 10, 10], rule="english")
    assert gains.max() == pytest.approx(0.0, abs=1e-9)


def rotated(sample_row, start):
    """A sample row (by place after the start seat) as values by seat."""
    n = len(sample_row)
    by_seat = [0] * n
    for position in range(n):
        by_seat[(start + position) % n] = int(sample_row[position])
    return by_seat


def play_rounds(mechanism, rows, budget=10, thresholds=None):
    """The lab played by equilibrium bots on the sample's rows, one row per round."""
    n = len(rows[0])
    drawn = [rotated(row, number % n) for number, row in enumerate(rows)]
    state = mogul.new_game(
        "auction-lab",
        n,
        1,
        mechanism=mechanism,
        rounds=len(rows),
        budget=budget,
        drawn=drawn,
        start_player=0,
    )
    bots = [EquilibriumBot(thresholds=thresholds) for _ in range(n)]
    return play_states(state, bots)[0][-1]


@pytest.mark.parametrize(("players", "budget"), [(2, 10), (3, 10), (3, 6)])
def test_mogul_bot_plays_the_solver_thresholds(players, budget):
    # thresholds.json holds what mogul.auction computes now (budget 10; budget 6 is handed
    # to the bot), and the bot's play of the lab equals mogul.auction's play of those
    # thresholds on the same values (winner, runner-up, chips), round by round; each round
    # starts one seat on, as the lab does.
    eq = lab_equilibrium(players, "uniform 0..10", budget, 0)
    handed = None
    if budget == 10:
        assert mogul_thresholds(players, "uniform 0..10", 10, 0) == eq.table
    else:
        handed = eq.table
    rows = eq.sample[:20, :, 0]
    end = play_rounds("mogul", rows, budget, handed)
    ks = np.asarray(eq.result.thresholds)[:20]
    places, net = threshold_outcomes(ks, [budget] * players, start=0)
    for number, (result, place, chips) in enumerate(zip(end.results, places, net, strict=True)):
        by_seat = [(number + p) % players for p in range(players)]  # seat of each place
        assert by_seat[list(place).index(0)] == result.winner
        assert by_seat[list(place).index(1)] == result.runner_up
        assert [result.payments[by_seat[p]] for p in range(players)] == list(-chips)


def test_english_bot_play_equals_the_solver_play():
    sample = value_sample(UNIFORM, 3, 20, second=0, seed=2)
    end = play_rounds("english", sample[:, :, 0])
    ks = np.vectorize(lambda v: english_threshold(int(v), 10))(sample[:, :, 0])
    places, net = threshold_outcomes(ks, [10] * 3, start=0, rule="english")
    for number, (result, place, chips) in enumerate(zip(end.results, places, net, strict=True)):
        by_seat = [(number + p) % 3 for p in range(3)]
        assert by_seat[list(place).index(0)] == result.winner
        assert [result.payments[by_seat[p]] for p in range(3)] == list(-chips)


def test_the_thresholds_file_covers_its_settings():
    entries = json.loads(THRESHOLDS.read_text())
    assert [(e["players"], e["values"], e["budget"], e["second"]) for e in entries] == list(
        SETTINGS
    )
    for e in entries:  # one threshold list per place and value, each k a reachable pot
        assert len(e["thresholds"]) == e["players"]
        assert all(len(by_value) == 11 for by_value in e["thresholds"])
        assert all(0 <= k <= 10 * e["players"] for p in e["thresholds"] for ks in p for k in ks)
        assert 0 <= e["epsilon"] < 1.5


def test_mogul_settings_without_thresholds_play_naive():
    # Budget 7 is not in thresholds.json: the bot plays as NaiveBot, pay by pay.
    assert mogul_thresholds(3, "uniform 0..10", 7, 0) is None
    state = mogul.new_game("auction-lab", 3, 1, rounds=2, budget=7, drawn=[[6, 2, 3], [1, 9, 4]])
    decisions = 0
    while not state.is_over:
        view, legal = state.view(state.current_player), state.legal_actions()
        assert EquilibriumBot().threshold(view) is None
        move = EquilibriumBot().choose(view, legal)
        assert move == NaiveBot().choose(view, legal)
        state, decisions = state.apply(move), decisions + 1
    assert decisions > 6 and state.results[0].winner == 0  # value 6 pays longest


def test_a_scripted_value_off_the_range_plays_the_range_end():
    # value 50 with values uniform 0..10: the threshold of value 10 (the table's last).
    state = mogul.new_game("auction-lab", 3, 1, rounds=1, drawn=[[50, 2, 3]], start_player=0)
    table = mogul_thresholds(3, "uniform 0..10", 10, 0)
    assert EquilibriumBot().threshold(state.view(0)) == table[0][10][0]
