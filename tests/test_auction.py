"""The auction model: hand-worked examples, input checks, properties, counter-examples."""

import json
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mogul.auction import (
    PLACES,
    Step,
    best_response_dynamics,
    compare_mechanisms,
    draw_values,
    payoff_curve,
    payoff_curves,
    play,
    solve,
    threshold_bot,
    threshold_outcomes,
    uniform_values,
)
from mogul.auction.mechanisms import MEASURES
from mogul.auction.mogul import values_from_state
from mogul.plots import (
    KIT_TEMPLATE,
    convergence_figure,
    mechanism_figure,
    payoff_curve_figure,
    pot_ladder_figure,
)


def moves(sol):
    return [(s.seat, s.action, s.pot) for s in sol.path]


# --------------------------------------------------------------------------- worked examples


def test_two_seats_dominant_value_the_loser_is_paid():
    # A = seat 0 (win 10), B = seat 1 (win 1); 3 chips each, chip value 1, A starts.
    # Backwards from the end (A bids at pots 0, 2, 4; B at pots 1, 3, 5):
    #   pot 6, A has no chip: A must drop; B would win having paid 3: 1 - 3 = -2.
    #   pot 5, B (1 chip): drop = 0 + (5 - 2) = 3, bid = -2          -> B drops.
    #   pot 4, A: drop = 4 - 2 = 2, bid = B drops next, A wins 10 - 3 = 7 -> A bids.
    #   pot 3, B: drop = 3 - 1 = 2, bid = 3 (drops at 5)           -> B bids.
    #   pot 2, A: drop = 1, bid = 7; pot 1, B: drop = 1, bid = 3; pot 0, A: bid.
    # With two seats the dropper gets all its own bids back plus the winner's bids.
    sol = solve([(10, 0, 0), (1, 0, 0)], [3, 3], start=0)
    assert moves(sol) == [
        (0, "bid", 0),
        (1, "bid", 1),
        (0, "bid", 2),
        (1, "bid", 3),
        (0, "bid", 4),
        (1, "drop", 5),
    ]
    assert sol.payoffs == (7.0, 3.0)
    assert (sol.winner, sol.runner_up) == (0, 1)
    assert sol.places == ("win", "second")
    assert sol.net_chips == (-3, 3)
    assert sol.paid == (3, 2) and sol.collected == (0, 5)


def test_a_seat_without_chips_must_drop():
    # Seat 0 has no chip: it drops at pot 0 and collects nothing, whatever it values.
    # Seats 1 and 2 (1 chip each, win 5) are left, seat 1 to move:
    #   seat 1 drops now: 0.  seat 1 bids: seat 2 compares drop (collect 1: 0 + 1 = 1)
    #   with bid (seat 1 then has no chip, drops with pot 2; seat 2 wins 5 - 1 = 4): bids.
    #   So seat 1 bidding means collecting 2 having paid 1: +1 > 0. Seat 1 bids.
    sol = solve([(99, 0, 0), (5, 0, 0), (5, 0, 0)], [0, 1, 1], start=0)
    assert moves(sol) == [(0, "drop", 0), (1, "bid", 0), (2, "bid", 1), (1, "drop", 2)]
    assert sol.payoffs == (0.0, 1.0, 4.0)
    assert sol.places == ("out", "second", "win")
    assert sol.action(0, 0, {0: 0, 1: 1, 2: 1}) == "drop"


def test_tie_rule():
    # Seat 0: bid = win 1 - 1 chip = 0 (seat 1 then drops and collects the chip),
    # drop = second 0. Indifferent: the tie rule decides, and it matters to seat 1.
    values, chips = [(1, 0, 0), (0, 0, 0)], [1, 1]
    assert moves(solve(values, chips)) == [(0, "drop", 0)]
    assert solve(values, chips).payoffs == (0.0, 0.0)
    sol = solve(values, chips, tie="bid")
    assert moves(sol) == [(0, "bid", 0), (1, "drop", 1)]
    assert sol.payoffs == (0.0, 1.0)


def test_dropping_first_at_pot_zero_earns_nothing():
    # Three seats who all value every place at 0: bidding only loses chips to the next
    # dropper, so everyone drops at once (pot 0 each time).
    sol = solve([(0, 0, 0)] * 3, [5, 5, 5], start=1)
    assert moves(sol) == [(1, "drop", 0), (2, "drop", 0)]
    assert sol.winner == 0 and sol.runner_up == 2 and sol.payoffs == (0.0, 0.0, 0.0)


def test_second_prize_changes_who_fights():
    # The same two rivals, once with a worthless and once with a valuable second place.
    plain = solve([(6, 0, 0), (6, 0, 0), (6, 0, 0)], [4, 4, 4])
    rich = solve([(6, 5, 0), (6, 5, 0), (6, 5, 0)], [4, 4, 4])
    assert plain.path != rich.path
    assert sum(plain.net_chips) == sum(rich.net_chips) == 0


# --------------------------------------------------------------------------- input checks


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"values": [(1, 0, 0)], "chips": [1]}, "2..8 seats"),
        ({"values": [(1, 0, 0)] * 9, "chips": [1] * 9}, "2..8 seats"),
        ({"values": [(1, 0), (1, 0, 0)], "chips": [1, 1]}, r"values\[0\] must be a \(win"),
        ({"values": [(1, 0, math.nan), (1, 0, 0)], "chips": [1, 1]}, "finite"),
        ({"values": [(1, 0, "x"), (1, 0, 0)], "chips": [1, 1]}, "numbers"),
        ({"values": 5, "chips": [1, 1]}, "triples"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1]}, "one count per seat"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, -1]}, r"chips\[1\] must be a non-negative"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, 1.5]}, "non-negative integer"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, True]}, "non-negative integer"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, 1], "start": 2}, "start must be a seat"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, 1], "chip_value": -1}, "chip_value"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, 1], "chip_value": math.inf}, "chip_value"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, 1], "tie": "random"}, "tie must be"),
        ({"values": [(1, 0, 0)] * 2, "chips": [1, 1], "bots": {5: threshold_bot(1)}}, "bots must"),
    ],
)
def test_bad_input_is_explained(kwargs, message):
    with pytest.raises(ValueError, match=message):
        solve(**kwargs)


def test_bad_bot_and_curve_input():
    def rude(seat, pot, chips):
        return "pass"

    with pytest.raises(ValueError, match="returned 'pass'"):
        solve([(1, 0, 0)] * 2, [2, 2], bots={0: rude})
    with pytest.raises(ValueError, match="returned 'pass'"):
        play([(1, 0, 0)] * 2, [2, 2], [rude, rude])
    with pytest.raises(ValueError, match="one bot for each seat"):
        play([(1, 0, 0)] * 2, [2, 2], {0: rude})
    with pytest.raises(ValueError, match="seat must be"):
        payoff_curve([(1, 0, 0)] * 2, [2, 2], seat=2)
    with pytest.raises(ValueError, match="opponents must be"):
        payoff_curve([(1, 0, 0)] * 2, [2, 2], seat=0, opponents="psychic")
    with pytest.raises(ValueError, match="cannot also be given a bot"):
        payoff_curve([(1, 0, 0)] * 2, [2, 2], seat=0, bots={0: threshold_bot(1)})
    sol = solve([(1, 0, 0)] * 3, [1, 1, 1])
    with pytest.raises(ValueError, match="not among the active seats"):
        sol.action(0, 0, {1: 1, 2: 1})
    with pytest.raises(ValueError, match="pot must be"):
        sol.action(0, -1, {0: 1, 1: 1, 2: 1})
    # any consistent decision point can be asked about, even one of a bigger auction
    assert sol.action(0, 9, {0: 1, 1: 1, 2: 1}) in ("bid", "drop")


# --------------------------------------------------------------------------- properties

half = st.integers(-4, 20).map(lambda x: x / 2)


@st.composite
def auctions(draw, seats=None, max_chips=5):
    n = draw(st.integers(2, 5) if seats is None else seats)
    values = [(draw(half), draw(half), draw(half)) for _ in range(n)]
    chips = [draw(st.integers(0, max_chips)) for _ in range(n)]
    start = draw(st.integers(0, n - 1))
    chip_value = draw(st.sampled_from([0.0, 0.5, 1.0, 2.0]))
    return values, chips, start, chip_value


@settings(max_examples=150, deadline=None)
@given(auctions())
def test_outcome_is_consistent(game):
    values, chips, start, cv = game
    sol = solve(values, chips, start, cv)
    n = len(chips)
    assert sum(sol.net_chips) == 0  # chips are conserved; the pot ends empty
    assert sorted(sol.places) == sorted(["win", "second"] + ["out"] * (n - 2))
    assert sol.path[-1].action == "drop" and sol.path[-1].seat == sol.runner_up
    for i in range(n):
        assert sol.paid[i] <= chips[i]
        # dropping at one's first turn guarantees at least the worst place value
        assert sol.payoffs[i] >= min(values[i]) - 1e-9
    # replaying the strategy as bots gives the same auction
    assert play(values, chips, [sol.action] * n, start, cv).path == sol.path


@settings(max_examples=100, deadline=None)
@given(auctions(), st.data())
def test_shifting_a_seats_values_shifts_only_its_payoff(game, data):
    values, chips, start, cv = game
    i = data.draw(st.integers(0, len(chips) - 1))
    c = data.draw(half)
    shifted = [tuple(x + c for x in v) if j == i else v for j, v in enumerate(values)]
    a, b = solve(values, chips, start, cv), solve(shifted, chips, start, cv)
    assert a.path == b.path
    assert b.payoffs[i] == a.payoffs[i] + c


@settings(max_examples=100, deadline=None)
@given(auctions(seats=st.just(2), max_chips=6), st.data())
def test_two_seats_a_higher_win_value_never_loses_the_win(game, data):
    # Holds in two-seat auctions (checked here); with three seats it fails, see below.
    values, chips, start, cv = game
    i = data.draw(st.integers(0, 1))
    before = solve(values, chips, start, cv)
    raised = [
        (v[0] + data.draw(half.filter(lambda x: x > 0)), *v[1:]) if j == i else v
        for j, v in enumerate(values)
    ]
    if before.winner == i:
        assert solve(raised, chips, start, cv).winner == i


# --------------------------------------------------------------------------- counter-examples


def test_a_higher_win_value_can_lower_the_payoff():
    # Seat 0: win 3, second 3 (it only cares about chips), 2 chips. Seat 1: win w,
    # second 2, 3 chips, moves first. Chip value 2. Backwards (seat 1 bids at pots 0, 2):
    #   pot 3, seat 0 (1 chip): drop = 3 + 2*(3 - 1) = 7 > bid (it would then lose the
    #          war: seat 1 drops at 4)                                    -> seat 0 drops.
    #   pot 2, seat 1: drop = 2 + 2*(2 - 1) = 4, bid = w - 2*2 (seat 0 drops at 3).
    #     w = 7.5: 3.5 < 4, seat 1 would drop.  w = 8.5: 4.5 > 4, seat 1 would bid.
    #   pot 1, seat 0: drop = 3 + 2*1 = 5. If seat 1 drops at 2, bidding wins 3 - 2 = 1;
    #     if seat 1 bids at 2, bidding leads to dropping at 3 for 7.
    #     w = 7.5: seat 0 drops at 1; seat 1 wins having paid 1: 7.5 - 2 = 5.5.
    #     w = 8.5: seat 0 bids, collects 3 at pot 3; seat 1 pays 2: 8.5 - 4 = 4.5.
    # Valuing the win more makes seat 1's threat to fight on credible, so seat 0 stays in
    # to be paid more: a stronger bidder is milked. No ties are involved.
    low = solve([(3, 3, 0), (7.5, 2, 0)], [2, 3], start=1, chip_value=2)
    high = solve([(3, 3, 0), (8.5, 2, 0)], [2, 3], start=1, chip_value=2)
    assert moves(low) == [(1, "bid", 0), (0, "drop", 1)]
    assert moves(high) == [(1, "bid", 0), (0, "bid", 1), (1, "bid", 2), (0, "drop", 3)]
    assert low.payoffs == (5.0, 5.5) and high.payoffs == (7.0, 4.5)
    assert low.winner == high.winner == 1


def test_a_higher_win_value_can_lose_the_win_with_three_seats():
    # Seat 2 moves first. With win 6.5 it bids once and wins; with win 7 it prefers to
    # drop at once (out = 3), because after a bid the others would milk it harder.
    values = [(5, 2, 2), (1.5, 1.5, 1), (6.5, 2.5, 3)]
    low = solve(values, [4, 2, 3], start=2, chip_value=2)
    high = solve(values[:2] + [(7, 2.5, 3)], [4, 2, 3], start=2, chip_value=2)
    assert moves(low) == [(2, "bid", 0), (0, "drop", 1), (1, "drop", 0)]
    assert moves(high) == [(2, "drop", 0), (0, "bid", 0), (1, "drop", 1)]
    assert (low.winner, high.winner) == (2, 0)
    assert low.payoffs[2] == 4.5 and high.payoffs[2] == 3.0


# --------------------------------------------------------------------------- payoff curves


def test_payoff_curve_columns_and_bounds():
    values, chips = [(10, 3, 0), (8, 2, 0), (6, 1, 0)], [3, 3, 3]
    df = payoff_curve(values, chips, seat=2)
    assert list(df.columns) == [
        "k",
        "payoff",
        "place",
        "paid",
        "collected",
        "winner",
        "equilibrium",
    ]
    assert list(df.k) == list(range(10))
    eq = solve(values, chips).payoffs[2]
    assert (df.equilibrium == eq).all()
    assert df.payoff.max() == eq  # the best threshold reproduces the equilibrium payoff here
    # k = 0: drop at the first turn, collecting the two chips bid before it
    assert df.iloc[0][["payoff", "place", "paid", "collected"]].tolist() == [2.0, "out", 0, 2]


@settings(max_examples=80, deadline=None)
@given(auctions(seats=st.integers(2, 4), max_chips=4), st.data())
def test_naive_curve_never_beats_the_equilibrium(game, data):
    # Against fixed equilibrium strategies the equilibrium strategy is a best response,
    # so no threshold does better.
    values, chips, start, cv = game
    seat = data.draw(st.integers(0, len(chips) - 1))
    df = payoff_curve(values, chips, seat, start, cv, max_k=sum(chips) + 1)
    assert (df.payoff <= df.equilibrium + 1e-9).all()
    # k beyond every reachable pot means "bid while you can": all those rows agree
    assert df.payoff.iloc[-1] == df.payoff.iloc[-2]


def test_naive_best_threshold_reaches_the_equilibrium_in_two_seat_games():
    for w0 in range(0, 12, 3):
        for w1 in range(0, 12, 2):
            values, chips = [(w0, 1, 0), (w1, 2, 0)], [4, 3]
            for seat in (0, 1):
                df = payoff_curve(values, chips, seat)
                assert df.payoff.max() == df.equilibrium[0]


def test_informed_opponents_and_bots():
    values, chips = [(10, 3, 0), (8, 2, 0), (6, 1, 0)], [3, 3, 3]
    informed = payoff_curve(values, chips, seat=2, opponents="informed")
    for k in (0, 2, 5):
        direct = solve(values, chips, bots={2: threshold_bot(k)}).payoffs[2]
        assert informed.payoff[k] == direct
    # commitment can be worth more than the equilibrium when the others know of it
    assert informed.payoff.max() >= informed.equilibrium[0]
    # a bot opponent: seat 0 always drops at once
    quitter = {0: threshold_bot(0)}
    df = payoff_curve(values, chips, seat=2, bots=quitter)
    assert df.equilibrium[0] == solve(values, chips, bots=quitter).payoffs[2]
    assert isinstance(df, pd.DataFrame)


def test_play_with_threshold_bots():
    out = play([(5, 1, 0)] * 3, [2, 2, 2], [threshold_bot(1), threshold_bot(9), threshold_bot(2)])
    # seat 0 bids at 0; seat 1 bids at 1; seat 2 bids at 2? no: 2 >= 2, it drops with 2.
    assert out.path[:3] == (Step(0, "bid", 0), Step(1, "bid", 1), Step(2, "drop", 2))
    assert out.places[2] == "out"
    assert sum(out.net_chips) == 0


def test_surplus_chips_do_not_matter():
    # Seat 1 holds far more chips than anyone: it can never run out first, so the auction is
    # the same as with one chip more than the richest rival.
    values = [(6, 2, 0), (5, 1, 0), (7, 3, 1)]
    rich, capped = solve(values, [3, 50, 2]), solve(values, [3, 4, 2])
    assert rich.path == capped.path and rich.payoffs == capped.payoffs


# --------------------------------------------------------------------------- private values


def test_draw_values_is_seeded_and_checked():
    draw = uniform_values(win=(2, 10), second=(0, 3), step=1)
    a, b = draw_values(draw, seats=3, samples=50, seed=4), draw_values(draw, 3, 50, seed=4)
    assert a.shape == (50, 3, 3) and (a == b).all()
    assert (a[:, :, 0] >= 2).all() and (a[:, :, 0] <= 10).all() and (a[:, :, 2] == 0).all()
    assert (a == a.round()).all()
    assert not (draw_values(draw, 3, 50, seed=5) == a).all()
    with pytest.raises(ValueError, match="one per seat"):
        draw_values([draw, draw], seats=3, samples=5)
    with pytest.raises(ValueError, match="low <= high"):
        uniform_values(win=(5, 1))
    with pytest.raises(ValueError, match="three finite numbers"):
        draw_values(lambda rng: (1.0, 2.0), seats=2, samples=3)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.data())
def test_vectorised_threshold_play_matches_play(n, data):
    chips = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    start = data.draw(st.integers(0, n - 1))
    thr = data.draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    places, net = threshold_outcomes(np.array([thr]), chips, start)
    out = play([(0, 0, 0)] * n, chips, [threshold_bot(k) for k in thr], start)
    assert [PLACES[p] for p in places[0]] == list(out.places)
    assert net[0].tolist() == list(out.net_chips)


@pytest.fixture(scope="module")
def dynamics():
    values = draw_values(uniform_values(win=(2, 10), second=(0, 3), step=1), 3, 60, seed=2)
    return best_response_dynamics(values, [4, 4, 4], chip_value=1.0)


def test_best_response_dynamics_reaches_a_fixed_point():
    # one threshold for the whole auction, every improving type switching: a fixed point
    values = draw_values(uniform_values(win=(2, 10), second=(0, 3), step=1), 3, 120, seed=2)
    fixed = best_response_dynamics(values, [6, 6, 6], by_seats_left=False, damping=1.0)
    assert fixed.converged and fixed.thresholds.shape == (120, 3)
    assert list(fixed.trace.columns) == [
        "iteration",
        "seat",
        "mean_threshold",
        "changed",
        "expected_payoff",
    ]
    last = fixed.trace[fixed.trace.iteration == fixed.trace.iteration.max()]
    assert (last.changed == 0).all()
    # a fixed point: starting there, one more sweep changes nothing
    again = best_response_dynamics(
        values, [6, 6, 6], initial=fixed.thresholds, max_iter=1, by_seats_left=False
    )
    assert again.converged and (again.thresholds == fixed.thresholds).all()
    # reproducible
    same = best_response_dynamics(values, [6, 6, 6], by_seats_left=False, damping=1.0)
    assert (same.thresholds == fixed.thresholds).all()


def test_compare_mechanisms():
    values = draw_values(uniform_values(win=(2, 10), second=(0, 3), step=1), 3, 40, seed=3)
    table = compare_mechanisms(values, [3, 3, 3], ties=("drop", "bid"))
    assert list(table.index) == [
        "mogul, private values",
        "mogul, complete information (tie: drop)",
        "mogul, complete information (tie: bid)",
        "english",
        "all-pay",
    ]
    assert list(table.columns) == [*MEASURES, "epsilon", "converged"]
    mogul = table.iloc[:3]
    # in Mogul the chips stay at the table: what the winner pays, the droppers receive
    assert (
        np.allclose(mogul.winner_pays, mogul.droppers_net) and (mogul.revenue.abs() < 1e-12).all()
    )
    assert np.allclose(mogul.welfare, mogul.bidders_surplus)
    assert table.loc["english", "droppers_net"] == 0  # the English winner pays the bank
    assert table.loc["english", "revenue"] == table.loc["english", "winner_pays"]
    assert table.loc["all-pay", "droppers_net"] < 0  # all-pay losers pay too
    # welfare = bidders' surplus + the chips paid to the bank (chip value 1)
    assert np.allclose(table.welfare, table.bidders_surplus + table.revenue)
    assert (table.efficient.between(0, 1)).all()
    assert (table.epsilon.iloc[1:3] == 0).all()


# --------------------------------------------------------------------------- figures


def test_figures_use_the_kit_template_and_plain_rounded_data(dynamics):
    values, chips = [(10, 3, 0), (8, 2, 0), (6, 1, 0)], [3, 3, 3]
    sol = solve(values, chips)
    curves = payoff_curves(values, chips)
    assert curves[1].equals(payoff_curve(values, chips, 1))
    figs = [
        payoff_curve_figure({f"seat {i}": df for i, df in curves.items()}),
        payoff_curve_figure(curves[0]),
        pot_ladder_figure(sol.path),
        convergence_figure(dynamics.trace),
        mechanism_figure(compare_mechanisms(dynamics.values[:20], [4, 4, 4], max_iter=3)),
    ]
    for fig in figs:
        assert fig.layout.template == go.layout.Template(KIT_TEMPLATE)
        assert "bdata" not in fig.to_json()  # plain lists: readable, stable stored outputs
    ladder = figs[2]
    assert list(ladder.data[0].y) == [st.pot for st in sol.path]
    assert list(ladder.data[2].text) == [
        f"seat {s.seat} takes {s.pot}" for s in sol.path if s.action == "drop"
    ]
    assert len(figs[0].data) == 9 and list(figs[0].data[3].y) == curves[1].payoff.tolist()
    assert len(json.dumps(KIT_TEMPLATE.to_plotly_json())) < 600


# --------------------------------------------------------------------------- live games


def test_values_from_a_live_game():
    mogul = pytest.importorskip("mogul")
    state = mogul.new_game("classic", players=4, seed=7)
    live = values_from_state(state)
    assert live.active == (0, 1, 2, 3) and live.seat == state.current_player and live.pot == 0
    assert live.chips == tuple(p.chips for p in state.players)
    assert live.chip_value == 1 / state.edition.chips_per_point
    for win, second, out in live.values:
        assert win >= second >= out == 0.0
    rest = live.solve()
    assert sum(rest.net_chips) == 0 and rest.path[0].seat == state.current_player
    # play the equilibrium moves in the engine: the analysis of the rest stays the same
    for step in rest.path[:3]:
        state = state.apply(mogul.Bid() if step.action == "bid" else mogul.Drop())
    later = values_from_state(state)
    assert later.values == live.values
    assert later.solve().path == rest.path[3:]


def test_rollout_values_are_seeded():
    mogul = pytest.importorskip("mogul")
    state = mogul.new_game("classic", players=3, seed=3)
    a = values_from_state(state, method="rollout", rollouts=2, seed=1)
    assert a == values_from_state(state, method="rollout", rollouts=2, seed=1)
    assert all(math.isfinite(x) for v in a.values for x in v)
    with pytest.raises(ValueError, match="method must be"):
        values_from_state(state, method="guess")
    with pytest.raises(ValueError, match="rollouts must be"):
        values_from_state(state, method="rollout", rollouts=0)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_fast_naive_curves_play_exactly_like_threshold_bots(data):
    # payoff_curve walks the solver's chains; play() with the bots is the reference
    n = data.draw(st.integers(2, 5))
    values = [tuple(data.draw(st.integers(0, 8)) for _ in range(3)) for _ in range(n)]
    chips = [data.draw(st.integers(0, 4)) for _ in range(n)]
    start = data.draw(st.integers(0, n - 1))
    cv = data.draw(st.sampled_from([0.25, 0.5, 1.0, 2.0]))
    tie = data.draw(st.sampled_from(["drop", "bid"]))
    base = solve(values, chips, start, cv, tie)
    for seat, curve in payoff_curves(values, chips, start, cv, tie=tie, solution=base).items():
        for k in range(sum(chips) + 1):
            bots = {i: base.action for i in range(n)}
            bots[seat] = threshold_bot(k)
            out = play(values, chips, bots, start, cv)
            row = curve.iloc[k]
            assert (row.payoff, row.place, row.paid, row.winner) == (
                out.payoffs[seat],
                out.places[seat],
                out.paid[seat],
                out.winner,
            )
