"""The preview a lecturer runs before class: ``simulate`` with the lab's bots.

Equilibrium bots, 3 seats, values uniform on 0..10, budget 10 (enough for every textbook
bid): the mean revenue per round of each mechanism is compared with what the bots' bids give
exactly, averaged over all 11^3 value profiles (the arithmetic of the payments done here
again, and for English by ``mogul.auction.threshold_outcomes``), within 4 standard errors of
the simulated mean (200 sessions of 5 rounds). Those exact means lie near the textbook
revenue (n - 1)/(n + 1) x 10 = 5 of revenue equivalence, but not on it: whole-chip values,
bids rounded to whole chips and the English tie rule (drop at a new price equal to the
value) move each by up to 0.52 chips.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mogul
from mogul.auction import threshold_outcomes
from mogul.games.auction_lab.equilibrium import (
    all_pay_bid,
    english_threshold,
    first_price_bid,
    textbook_revenue,
    whole,
)
from mogul.games.auction_lab.values import parse_values

SEATS, GAMES, ROUNDS = 3, 200, 5
UNIFORM = parse_values("uniform 0..10")
PROFILES = np.array(list(itertools.product(range(11), repeat=SEATS)))


def exact_revenue(mechanism: str) -> float:
    """Mean revenue of one round over every value profile (each equally likely), with the
    seats in the round's order (the first seat wins ties)."""
    if mechanism == "english":
        ks = np.vectorize(lambda v: english_threshold(v, 10))(PROFILES)
        return float(-threshold_outcomes(ks, [10] * SEATS, 0, "english")[1].sum(axis=1).mean())
    bid = {
        "first-price": lambda v: whole(first_price_bid(v, SEATS, UNIFORM), 10),
        "second-price": lambda v: v,
        "all-pay": lambda v: whole(all_pay_bid(v, SEATS, UNIFORM), 10),
    }[mechanism]
    bids = np.vectorize(bid)(PROFILES)
    # highest bid first; equal bids: the earlier seat (a stable sort keeps seat order)
    ranked = np.argsort(-bids, axis=1, kind="stable")
    rows = np.arange(len(bids))
    top, second = bids[rows, ranked[:, 0]], bids[rows, ranked[:, 1]]
    revenue = {"first-price": top, "second-price": second, "all-pay": bids.sum(axis=1)}
    return float(revenue[mechanism].mean())


@pytest.mark.parametrize("mechanism", ["english", "first-price", "second-price", "all-pay"])
def test_equilibrium_revenue_is_what_the_theory_gives(mechanism):
    sim = mogul.simulate(f"{mechanism}-auction", ["equilibrium"] * SEATS, seed=3, games=GAMES)
    games = sim.games.groupby("game").first()
    assert len(games) == GAMES and (games.rounds == ROUNDS).all()
    per_round = games.revenue / ROUNDS
    error = per_round.std(ddof=1) / np.sqrt(GAMES)
    exact = exact_revenue(mechanism)
    assert abs(per_round.mean() - exact) < 4 * error, (per_round.mean(), exact, error)
    assert abs(exact - textbook_revenue(SEATS, UNIFORM)) <= 0.52
    assert textbook_revenue(SEATS, UNIFORM) == 5.0


def test_mogul_auction_has_no_revenue_and_its_rounds_table():
    sim = mogul.simulate("auction-lab", ["equilibrium", "naive", "random"], seed=1, games=20)
    assert (sim.games.revenue == 0).all() and (sim.games.mechanism == "mogul").all()
    rounds = sim.tables["rounds"]
    assert len(rounds) == 20 * ROUNDS * SEATS
    # per round, the chips only move between seats, and the payoffs add up to the prize
    by_round = rounds.groupby(["game", "round"])
    assert (by_round.payment.sum() == 0).all()
    prize = rounds[rounds.won].set_index(["game", "round"]).value
    assert (by_round.payoff.sum() == prize).all()


@pytest.mark.parametrize("bot", ["naive", "random"])
def test_every_bot_plays_every_mechanism_and_its_records_replay(bot):
    for mechanism in ("mogul", "english", "first-price", "second-price", "all-pay"):
        sim = mogul.simulate(f"{mechanism}-auction", [bot] * 4, seed=2, games=5)
        record = sim.record(4)
        final = record.replay()
        assert final.is_over and list(final.final_scores()) == list(
            sim.games[sim.games.game == 4].sort_values("seat").score
        )


def test_naive_bidders_overbid_in_first_price():
    # Bidding the value in a first-price auction leaves no surplus: every payoff is 0.
    sim = mogul.simulate("first-price-auction", ["naive"] * 3, seed=5, games=20)
    assert (sim.tables["rounds"].payoff == 0).all()
