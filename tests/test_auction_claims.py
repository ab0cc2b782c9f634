"""Every claim and number notebook 02 teaches, pinned (issues 13 and 24).

Numbers are exact where they can be (fractions for region ends and shares of types); the
brute-force solver of test_auction_bruteforce.py confirms the tie cases independently of
``solve``. Each test computes a number and checks that the prose states it (``stated``), and
``test_every_number_in_the_prose_is_pinned`` fails when any number in the prose changes.
The helpers ``prose``, ``stated`` and ``prose_numbers`` serve the other notebooks' claim
tests (tests/test_claims_NN.py) too.
"""

import itertools
import json
import re
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from test_auction_bruteforce import brute_force

import mogul
from mogul.auction import (
    all_pay_pure_equilibria,
    backward_induction_table,
    best_response_dynamics,
    chip_value_regions,
    compare_mechanisms,
    compare_over_seeds,
    deviation_gains,
    draw_values,
    gain_step,
    second_prize_sweep,
    share_of_types,
    solve,
    textbook_revenues,
    threshold_outcomes,
    uniform_values,
    win_value_regions,
    winner_map,
)
from mogul.auction.mechanisms import _measures, _rank, all_pay_dynamics, all_pay_outcomes
from mogul.auction.mogul import values_from_state
from mogul.auction.private import _expected

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOK = NOTEBOOKS / "02-auction-theory.ipynb"
NB = "02-auction-theory"
WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve twenty hundred "
    "half twice both once"
)
NUMBER = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)*(?:/\d+)?%?|\b(?:" + "|".join(WORDS.split()) + r")\b", re.IGNORECASE
)


def prose(name: str) -> str:
    """The markdown of a notebook (``name`` like "02-auction-theory"), cells joined."""
    cells = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def prose_numbers(name: str) -> str:
    """Every number of a notebook's markdown, one line per markdown cell that has any."""
    cells = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())["cells"]
    lines = []
    for c in cells:
        if c["cell_type"] == "markdown":
            found = NUMBER.findall("".join(c["source"]))
            if found:
                lines.append(" ".join(found))
    return "\n".join(lines)


def stated(name: str, *fragments: str) -> None:
    """Assert that the notebook's prose contains each fragment (line breaks read as spaces)."""
    text = " ".join(prose(name).split())
    for fragment in fragments:
        assert " ".join(fragment.split()) in text, f"{name} does not state: {fragment!r}"


FIRST = [(10, 3, 0), (8, 2, 0), (6, 1, 0)]
DRAW = uniform_values(win=(2, 10), second=(0, 3), step=1)


def moves(sol):
    return [(s.seat, s.action, s.pot) for s in sol.path]


def spans(regions):
    return [
        (r.low, r.high, r.low_included, r.high_included, r.winner) for r in regions.itertuples()
    ]


# --------------------------------------------------------------------------- 1. the tie


def test_the_first_auction_is_a_tie_at_chip_value_one():
    drop = solve(FIRST, [3, 3, 3], chip_value=1.0)
    bid = solve(FIRST, [3, 3, 3], chip_value=1.0, tie="bid")
    assert (drop.winner, drop.payoffs) == (2, (2.0, 3.0, 3.0))
    assert (bid.winner, bid.payoffs) == (1, (2.0, 5.0, 4.0))
    assert solve(FIRST, [3, 3, 3], chip_value=1 - 1e-6).winner == 1
    # seat 0 at pot 3 (all still in, 2 chips each) gets the same either way
    table = backward_induction_table(FIRST, [3, 3, 3], chip_value=1.0)
    row = table[
        (table.seat == 0) & (table.pot == 3) & (table.chips.map(lambda c: c == {0: 2, 1: 2, 2: 2}))
    ].iloc[0]
    assert row["bid"] == row["drop"] == 3.0 and row.move == "drop"
    stated(NB, "seat 0 is indifferent at pot 3 (bidding and dropping both give it 3 from there)")
    # the brute force agrees under both tie rules
    for tie, sol in (("drop", drop), ("bid", bid)):
        pay, path = brute_force(FIRST, [3, 3, 3], 0, 1.0, tie, [], [])
        assert pay == list(sol.payoffs) and path == moves(sol)


def test_the_notebooks_first_example_is_no_tie():
    a = solve(FIRST, [3, 3, 3], chip_value=0.75)
    assert a.path == solve(FIRST, [3, 3, 3], chip_value=0.75, tie="bid").path
    assert (a.winner, -a.net_chips[2], a.payoffs) == (2, 3, (3.0, 2.25, 3.75))
    stated(
        NB,
        "At a chip value of 0.75 both tie rules give the same equilibrium",
        "seat 2) wins and pays its whole stack",
    )


def test_backward_induction_on_the_tiny_auction():
    table = backward_induction_table([(6, 0, 0), (2, 1, 0)], [2, 2])
    rows = [(r.seat, r.pot, r.bid, r.drop, r.move) for r in table.itertuples()]
    assert rows[0][:2] == (0, 4) and np.isnan(rows[0][2]) and rows[0][3:] == (4.0, "drop")
    assert rows[1:] == [
        (1, 3, 1.0, 4.0, "drop"),
        (0, 2, 5.0, 2.0, "bid"),
        (1, 1, 3.0, 2.0, "bid"),
        (0, 0, 4.0, 0.0, "bid"),
    ]
    sol = solve([(6, 0, 0), (2, 1, 0)], [2, 2])
    assert sol.payoffs == (4.0, 3.0) and -sol.net_chips[0] == 2
    stated(
        NB,
        "pot 3: seat 1 drops (collect 3, second place: $1 + 3 = 4$)",
        "rather than bid its last chip and win after seat 0's forced drop ($2 - 1 = 1$)",
        "pot 2: seat 0 bids ($6 - 1 = 5$",
        "rather than drop ($2$)",
        "pot 1: seat 1 bids (it will drop at pot 3: $4 - 1 = 3$) rather than drop ($1 + 1 = 2$)",
        "pot 0: seat 0 bids ($6 - 2 = 4$",
        "So seat 0 wins after paying 2 chips; seat 1 drops at pot 3",
    )


# --------------------------------------------------------------------------- 2. exercise 2


EX2_DROP = [
    (F(1, 2), F(6, 7), True, False, 2),
    (F(6, 7), F(1), True, False, 1),
    (F(1), F(6, 5), True, False, 2),
    (F(6, 5), F(3, 2), True, False, 1),
    (F(3, 2), F(2), True, True, 0),
]


def test_exercise_2_regions_are_exact():
    assert spans(chip_value_regions(FIRST, [3, 3, 3], 0.5, 2)) == EX2_DROP
    stated(
        NB,
        "seat 2 on $[1/2, 6/7)$, seat 1 on $[6/7, 1)$, seat 2 on $[1, 6/5)$, seat 1 on "
        "$[6/5, 3/2)$, seat 0 on $[3/2, 2]$, so the winner goes 2, 1, 2, 1, 0",
        "The winner always pays its whole stack of 3 chips here",
        "seat 1 wins again on $[7/3, 8/3)$ and seat 2 on $[7/2, 5)$",
    )
    bid = spans(chip_value_regions(FIRST, [3, 3, 3], 0.5, 2, tie="bid"))
    # with tie="bid" every switch point belongs to the region on its left
    assert [r[:2] + (r[4],) for r in bid[1:]] == [r[:2] + (r[4],) for r in EX2_DROP]
    assert all(not r[2] and r[3] for r in bid[1:])
    assert bid[0] == (F(1, 2), F(1, 2), True, True, 2)  # a tie off the winner: same winner
    assert (chip_value_regions(FIRST, [3, 3, 3], 0.5, 2).winner_pays == 3).all()


def test_dear_chips_do_not_make_the_first_auction_efficient():
    regions = chip_value_regions(FIRST, [3, 3, 3], 0, 5)
    tail = [(r[0], r[1], r[4]) for r in spans(regions) if r[1] > 2 and r[0] < r[1]]
    assert tail == [
        (F(3, 2), F(7, 3), 0),
        (F(7, 3), F(8, 3), 1),
        (F(8, 3), F(7, 2), 0),
        (F(7, 2), F(5), 2),
    ]
    bid = chip_value_regions(FIRST, [3, 3, 3], 0, 5, tie="bid")
    cuts = [r.low for r in bid.itertuples() if not r.low_included]
    assert cuts == [F(1, 4), F(1, 2), F(6, 7), F(1), F(6, 5), F(3, 2), F(7, 3), F(8, 3), F(7, 2)]
    # lambda = 5 is a switch point too: seat 0 wins there with tie="drop", seat 2 with "bid"
    drop = spans(regions)
    assert drop[-1] == (F(5), F(5), True, True, 0) and drop[-2][:2] == (F(7, 2), F(5))
    assert spans(bid)[-1] == (F(7, 2), F(5), False, True, 2)
    # 1/4 and 1/2 are ties that change the path but not the winner
    assert [r[4] for r in spans(regions)[:4]] == [2, 2, 2, 2]
    assert {r[0] for r in spans(regions)[:4]} == {F(0), F(1, 4), F(1, 2)}
    stated(
        NB,
        "seat 2 (the weakest) wins for chip values in $[0, 6/7)$, $[1, 6/5)$ and $[7/2, 5)$",
        "seat 1 on $[6/7, 1)$, $[6/5, 3/2)$ and $[7/3, 8/3)$",
        "on $[3/2, 7/3)$ and $[8/3, 7/2)$, and at $\\lambda = 5$ itself",
        "$\\lambda = 6/7, 1, 6/5, 3/2, 7/3, 8/3, 7/2$ and $5$",
        "(at $\\lambda = 5$ seat 2 wins)",
        "The points $1/4$ and $1/2$ are ties too",
    )


@pytest.mark.parametrize("cut", [F(6, 7), F(1), F(6, 5), F(3, 2), F(7, 3), F(8, 3), F(7, 2)])
def test_region_ends_are_ties_in_the_brute_force(cut):
    # at each end both tie rules are subgame perfect and differ; just inside, they agree
    at = [brute_force(FIRST, [3, 3, 3], 0, float(cut), tie, [], [])[1] for tie in ("drop", "bid")]
    assert at[0] != at[1]
    for side in (cut - F(1, 1000), cut + F(1, 1000)):
        both = [
            brute_force(FIRST, [3, 3, 3], 0, float(side), t, [], [])[1] for t in ("drop", "bid")
        ]
        assert both[0] == both[1] == moves(solve(FIRST, [3, 3, 3], chip_value=float(side)))


def test_regions_hold_everywhere_inside():
    rng = np.random.default_rng(0)
    for r in chip_value_regions(FIRST, [3, 3, 3], 0, 5).itertuples():
        for c in rng.uniform(float(r.low), float(r.high), 5):
            if r.low < c < r.high:
                assert solve(FIRST, [3, 3, 3], chip_value=c).winner == r.winner


def test_win_value_regions_and_the_phase_diagram():
    regions = win_value_regions(FIRST, [3, 3, 3], seat=2, low=0, high=12, chip_value=0.75)
    for r in regions.itertuples():
        mid = (r.low + r.high) / 2
        swept = [*FIRST[:2], (float(mid), 1, 0)]
        assert solve(swept, [3, 3, 3], chip_value=0.75).winner == r.winner
    phase = winner_map(FIRST, [3, 3, 3], seat=2, win_values=[6, 9], low=0, high=3)
    assert set(phase.win) == {6, 9}
    six = phase[phase.win == 6].drop(columns="win").reset_index(drop=True)
    assert six.equals(chip_value_regions(FIRST, [3, 3, 3], 0, 3))


# --------------------------------------------------------------------------- 3. second prize


@pytest.mark.parametrize(
    ("seats", "tie", "moves_", "pays", "first_drops"),
    [
        (3, "drop", [11, 10, 10, 9, 9], [4, 4, 4, 3, 3], [3, 3, 5, 6, 7]),
        (3, "bid", [11, 11, 12, 11, 10], [4, 4, 4, 4, 3], [3, 4, 6, 7, 8]),
        (4, "drop", [12, 13, 12, 14, 15], [4] * 5, [1, 2, 2, 4, 5]),
        (4, "bid", [12, 14, 15, 15, 16], [4] * 5, [2, 4, 4, 5, 6]),
    ],
)
def test_second_prize_tables(seats, tie, moves_, pays, first_drops):
    sweep = second_prize_sweep(8, (0, 2, 4, 6, 8), seats=seats, chips=4, tie=tie)
    assert sweep.moves.tolist() == moves_ and sweep.winner_pays.tolist() == pays
    firsts = [int(d.split()[0].split("@")[1]) for d in sweep.drops]
    assert firsts == first_drops and firsts == sorted(firsts)  # the first drop never comes earlier
    assert sweep.drops.iloc[-1].endswith("@0")  # second = win: the duel ends at pot 0
    says = {
        (3, "drop"): 'With 3 seats and `tie="drop"` it does (11, 10, 10, 9, 9 moves)',
        (3, "bid"): 'with `tie="bid"` the moves go 11, 11, 12, 11, 10',
        (4, "drop"): "and with 4 seats 12, 13, 12, 14, 15 while the winner always pays 4",
    }
    if (seats, tie) in says:
        stated(NB, says[seats, tie])


def test_exercise_3_second_prize():
    sweep = second_prize_sweep(6, range(7), seats=3, chips=3)
    assert [s for s, d in zip(sweep.second, sweep.drops, strict=True) if d.endswith("@0")] == [5, 6]
    firsts = [int(d.split()[0].split("@")[1]) for d in sweep.drops]
    assert firsts == [1, 3, 3, 4, 4, 5, 5]
    stated(
        NB,
        "the duel ends at pot 0 for $s = 5$ and $s = 6$",
        "The first drop comes at pots 1, 3, 3, 4, 4, 5, 5 for $s = 0, \\dots, 6$",
    )


def test_exercise_1_both_tie_rules():
    values = [(4, 0, 0), (3, 0, 0)]
    drop, bid = solve(values, [2, 2], start=1), solve(values, [2, 2], start=1, tie="bid")
    assert moves(drop) == [(1, "bid", 0), (0, "bid", 1), (1, "drop", 2)]
    assert drop.payoffs == (3.0, 1.0)
    assert moves(bid) == [
        (1, "bid", 0),
        (0, "bid", 1),
        (1, "bid", 2),
        (0, "bid", 3),
        (1, "drop", 4),
    ]
    assert bid.payoffs == (2.0, 2.0)
    table = backward_induction_table(values, [2, 2], start=1)
    ties = table[table["bid"] == table["drop"]][["seat", "pot"]].values.tolist()
    assert ties == [[0, 3], [1, 2]]
    stated(
        NB,
        "Seat 0 wins paying 1 chip: payoffs (3, 1)",
        "Seat 0 wins paying 2 chips: payoffs (2, 2)",
    )


# --------------------------------------------------------------------------- 4. private values


def test_the_value_grid_is_exactly_uniform():
    sample = draw_values(DRAW, seats=3, samples=30_000, seed=0)
    wins = np.unique(sample[:, :, 0], return_counts=True)
    assert wins[0].tolist() == list(range(2, 11))
    assert np.allclose(wins[1] / wins[1].sum(), 1 / 9, atol=0.004)  # 2 and 10 too, not 1/16
    seconds = np.unique(sample[:, :, 1], return_counts=True)
    assert seconds[0].tolist() == [0, 1, 2, 3]
    assert np.allclose(seconds[1] / seconds[1].sum(), 1 / 4, atol=0.005)
    with pytest.raises(ValueError, match="whole number of steps"):
        uniform_values(win=(2, 10.5), step=1)


@pytest.fixture(scope="module")
def notebook_sample():
    return draw_values(DRAW, seats=3, samples=200, seed=1)


@pytest.fixture(scope="module")
def one_k(notebook_sample):
    return best_response_dynamics(
        notebook_sample, [6, 6, 6], by_seats_left=False, min_gain=0.05, damping=1.0
    )


@pytest.fixture(scope="module")
def by_seats_left(notebook_sample):
    return best_response_dynamics(notebook_sample, [6, 6, 6])


def test_private_values_numbers_of_the_notebook(notebook_sample, one_k, by_seats_left):
    # sample of 200 profiles, seed 1; chip value 1; seat 0 starts; epsilon against the rows
    br = by_seats_left
    assert one_k.converged and round(one_k.epsilon, 3) == 0.555
    assert not br.converged and round(br.epsilon, 3) == 0.135
    assert br.thresholds.shape == (200, 3, 2)
    # shares of types, exactly: every gain is a multiple of 1/200
    step = gain_step(notebook_sample, 1.0, 200)
    assert step == F(1, 200)
    shares = [
        share_of_types(r.gains, 0.05, step, at_least=a) for r in (one_k, br) for a in (False, True)
    ]
    assert shares == [F(26, 75), F(227, 600), F(4, 75), F(19, 300)]
    exactly = int((np.round(one_k.gains * 200) == 10).sum())
    assert exactly == 19 == (shares[1] - shares[0]) * 600
    # issue 40, item 7: the shares count the 600 seat-rows (200 rows x 3 seats), not the 36 types
    assert one_k.gains.size == 600 and shares[0] * 600 == int(
        (np.round(one_k.gains * 200) > 10).sum()
    )
    assert len({tuple(t) for t in notebook_sample.reshape(-1, 3).tolist()}) == 36
    assert "of the types gain" not in prose(NB)
    # against the independent distribution the text states (each rival type 1/36)
    stated_eps = [
        deviation_gains(
            notebook_sample, r.thresholds, [6, 6, 6], rivals="independent", draw=DRAW
        ).max()
        for r in (one_k, br)
    ]
    assert [round(e, 3) for e in stated_eps] == [0.685, 0.166]
    # the sample's marginal, independently, is yet another number: the rows are correlated
    marginal = deviation_gains(notebook_sample, br.thresholds, [6, 6, 6], rivals="independent")
    assert round(marginal.max(), 3) == 0.157
    stated(
        NB,
        "a type can gain up to 0.555 points against the sample's rows",
        "exactly 26/75 = 34.7% of the 600 seat-rows gain more than 0.05 and 227/600 = 37.8% at least 0.05",
        "the largest gain falls to 0.135 (4/75 = 5.3% of the seat-rows gain more than 0.05, "
        "19/300 = 6.3% at least 0.05)",
        "the same two profiles give ε = 0.685 and 0.166",
        "Exactly 26/75 = 34.7% of the 600 seat-rows gain more than 0.05, and 227/600 = 37.8% gain at "
        "least 0.05: 19 seat-rows gain exactly 0.05",
        "A seat's type in one row is a **seat-row**: 600 of them, in which the 36 types recur",
        "$\\varepsilon = 0.555$ points against the sample's rows (0.685 against the independent "
        "distribution)",
        "36 types, 1/36 each",
        "200 sampled profiles (seed 1)",
    )


def test_the_inertia_rule_does_not_depend_on_rounding(notebook_sample):
    # gains of exactly min_gain must not switch, whichever side float noise puts them on
    shifted = notebook_sample + 1e-12  # the same game, other rounding
    a = best_response_dynamics(
        notebook_sample, [6, 6, 6], by_seats_left=False, min_gain=0.05, damping=1.0
    )
    b = best_response_dynamics(shifted, [6, 6, 6], by_seats_left=False, min_gain=0.05, damping=1.0)
    assert (a.thresholds == b.thresholds).all()
    with pytest.raises(ValueError, match="whole multiples of 1/200"):
        share_of_types(np.array([0.0123]), 0.05, F(1, 200))


def test_all_pay_has_no_pure_equilibrium_on_199_of_the_200_profiles(notebook_sample):
    pure = [all_pay_pure_equilibria(row, [6, 6, 6]) for row in notebook_sample]
    assert sum(not p for p in pure) == 199
    assert {r: p for r, p in enumerate(pure) if p} == {187: [(1, 0, 1)]}
    # the check is the definition: in row 187 nobody gains by another bid
    row = notebook_sample[187]

    def pay(bids):
        places, net = all_pay_outcomes(np.array([bids]))
        return [row[i, places[0, i]] + net[0, i] for i in range(3)]

    now = pay([1, 0, 1])
    for seat, bid in itertools.product(range(3), range(7)):
        bids = [1, 0, 1]
        bids[seat] = bid
        assert pay(bids)[seat] <= now[seat] + 1e-9
    stated(
        NB,
        "on 199 of the 200 sampled profiles above, none of the $7^3 = 343$ bid profiles is "
        "an equilibrium (only row 187 has one)",
    )
    # Exercise 7: the row's values, the payoffs and every deviation the solution names
    assert row.tolist() == [[7, 0, 0], [2, 0, 0], [3, 3, 0]]
    assert now == [6, 0, 2]
    deviations = {(0, 0): 0, (0, 2): 5, (1, 1): -1, (1, 2): 0, (2, 0): 0, (2, 2): 1}
    for (seat, bid), payoff in deviations.items():
        bids = [1, 0, 1]
        bids[seat] = bid
        assert pay(bids)[seat] == payoff, (seat, bid)
    stated(
        NB,
        "seat 0 values winning at 7, seat 1 at 2, seat 2 at 3 and second place also at 3",
        "seat 0 wins, 7 - 1 = 6; seat 2 is second, 3 - 1 = 2; seat 1 is out, 0",
        "bidding 2 or more wins for 7 - 2 = 5 or less",
        "gives 0 - 1 = -1",
        "bidding 2 wins for 2 - 2 = 0, the same as now: **indifferent**",
        "bidding 2 wins for 3 - 2 = 1. Both are worse than 2",
    )


@pytest.mark.slow
def test_the_private_values_all_pay_game_mixes_in_part():
    """Issue 40, item 7: what the prose says of the private-values all-pay game rests on that
    game (fictitious play on three samples), not on the complete-information check."""
    mixing, pure = [], []
    for seed in (1, 2, 3):
        result = all_pay_dynamics(draw_values(DRAW, 3, 200, seed), [6, 6, 6])
        mixing.append(int(((result.mix > 0.05).sum(axis=2) >= 2).sum()))
        pure.append(int((result.mix.max(axis=2) >= 0.99).sum()))
        assert result.mix.shape[:2] == (200, 3) and result.epsilon < 0.06
    assert (min(mixing), max(mixing), min(pure), max(pure)) == (270, 292, 182, 216)
    stated(
        NB,
        "That check is of the complete-information game, where every seat knows every value. It "
        "says nothing about the private-values game",
        "on the samples of seeds 1, 2 and 3 (200 profiles each) between "
        f"{min(mixing)} and {max(mixing)} of the 600 seat-rows put more than 5% on each of two or "
        f"more bids, and between {min(pure)} and {max(pure)} put at least 99% on one bid",
    )
    assert "each type *mixes*" not in prose(NB)


def test_exercise_4_the_type_that_gains_most(notebook_sample, one_k):
    i, j = np.unravel_index(one_k.gains.argmax(), one_k.gains.shape)
    assert j == 0 and notebook_sample[i, j].tolist() == [2, 3, 0] and one_k.thresholds[i, j] == 4
    # what it wants: keep 4 while three are in, drop at pot 3 in the duel
    options = np.array([[k2, k3] for k2 in range(19) for k3 in range(19)])
    thr = np.repeat(one_k.thresholds[:, :, None], 2, axis=2)
    u = _expected(notebook_sample[[i], 0], 0, options, thr, (6, 6, 6), 0, 1.0, "mogul")[0]
    best = options[np.isclose(u, u.max())].tolist()
    assert best == [[3, 4], [3, 5], [3, 6]]  # three equally good (issue 40, item 7)
    assert u.max() - u[4 * 19 + 4] == pytest.approx(one_k.epsilon)  # that alone is epsilon
    stated(
        NB,
        "seat 0's type (win 2, second 3), which plays one threshold of 4",
        "Of its deviations to a threshold by seats left, three gain most, each the full 0.555 points "
        "(as much as any deviation): each drops when the pot reaches 3 in the duel, and while three "
        "are in keeps 4 or moves to 5 or 6. The simplest of the three keeps 4 while three are in and "
        "drops when the pot reaches 3 in the duel",
        "this deviation alone gains the full 0.555 points",
    )
    assert "Its best deviation" not in prose(NB)


def brute_best_payoff(vals_i, seat, rival_rows, chips, start, cv, rule):
    """Best payoff of one type over every map from public histories to moves (enumerated)."""
    n = len(chips)
    nodes: set = set()

    def walk(row, policy, record):
        history, have, active, mover, pot, net = (), list(chips), list(range(n)), start, 0, 0
        english = rule == "english"
        while len(active) > 1:
            can = have[mover] > pot if english else have[mover] > 0
            if mover == seat:
                record.add(history)
                move = policy.get(history, "drop") if can else "drop"
            else:
                k = row[mover][len(active) - 2]
                move = "bid" if pot < k and can else "drop"
            history += ((mover, move),)
            if move == "bid":
                if not english:
                    have[mover] -= 1
                    net -= mover == seat
                pot += 1
            else:
                if mover == seat:
                    place = 1 if len(active) == 2 else 2
                    return vals_i[place] + cv * (net + (0 if english else pot))
                active.remove(mover)
                pot = pot if english else 0
            later = [x for x in active if x > mover]
            mover = later[0] if later else active[0]
        return vals_i[0] + cv * (net - (pot if english else 0))

    for _ in range(12):  # grow the set of own decision histories to a fixed point
        known, found = sorted(nodes), set()
        for moves_ in itertools.product(("bid", "drop"), repeat=len(known)):
            policy = dict(zip(known, moves_, strict=True))
            for row in rival_rows:
                walk(row, policy, found)
        if found <= nodes:
            break
        nodes |= found
    best = -np.inf
    for moves_ in itertools.product(("bid", "drop"), repeat=len(nodes)):
        policy = dict(zip(sorted(nodes), moves_, strict=True))
        best = max(best, np.mean([walk(row, policy, set()) for row in rival_rows]))
    return best


@pytest.mark.parametrize("rule", ["mogul", "english"])
def test_deviation_gains_match_a_brute_force_over_all_strategies(rule):
    rng = np.random.default_rng(4)
    values = draw_values(uniform_values(win=(0, 4), second=(0, 2), step=1), 3, 4, seed=5)
    thr = rng.integers(0, 4, size=(4, 3, 2))
    chips = (1, 2, 1)
    gains = deviation_gains(values, thr, chips, start=1, chip_value=1.0, rule=rule)
    for seat in range(3):
        rows = [thr[s].tolist() for s in range(4)]
        for s in range(4):
            own = [list(r) for r in rows]
            places, net = threshold_outcomes(
                np.array(
                    [[*own[r][:seat], thr[s, seat].tolist(), *own[r][seat + 1 :]] for r in range(4)]
                ),
                chips,
                1,
                rule,
            )
            now = np.mean([values[s, seat, places[r, seat]] + net[r, seat] for r in range(4)])
            best = brute_best_payoff(values[s, seat], seat, rows, chips, 1, 1.0, rule)
            assert gains[s, seat] == pytest.approx(max(best - now, 0.0), abs=1e-9)


# --------------------------------------------------------------------------- 5. mechanisms


def test_rank_orders_any_bids_and_breaks_ties_by_turn_order():
    # sample 93 of the issue: the old key bid*(n+1) - rank/(n+1) gave the win to seat 0
    assert _rank(np.array([[0, 0, 0.104]]), start=0)[0].tolist() == [2, 0, 1]
    assert _rank(np.array([[1, 1, 0]]), start=1)[0].tolist() == [1, 0, 2]
    assert _rank(np.array([[2, 5, 5, 2]]), start=3)[0].tolist() == [1, 2, 3, 0]
    places, net = all_pay_outcomes(np.array([[0, 0, 0.104]]), start=0)
    assert places[0].tolist() == [1, 2, 0] and net[0].tolist() == [0, 0, -0.104]


def test_textbook_revenue_equivalence():
    for seats, low, high in ((3, 2, 10), (4, 0, 1), (2, 1, 3)):
        r = textbook_revenues(seats, low, high)
        assert r["exact"] == pytest.approx(low + (high - low) * (seats - 1) / (seats + 1))
        assert r["english"] == pytest.approx(r["exact"], abs=1e-6)
        assert r["all_pay"] == pytest.approx(r["exact"], abs=1e-6)


def test_welfare_counts_the_second_prize_and_chips_are_transfers():
    values = np.array([[[5, 4, 0], [6, 0, 0], [1, 1, 0]]], dtype=float)
    # seat 1 wins, seat 0 second: 6 + 4 = 10, the best; seat 0 winning would give 5 + 1 = 6
    m = _measures(values, np.array([[1, 0, 2]]), np.array([[0, -3, 0]]), 1.0)
    assert (m["efficient"], m["welfare"], m["bidders_surplus"], m["revenue"]) == (1.0, 10, 7, 3)
    # the highest win value wins, but the second prize goes to the wrong seat: not efficient
    m = _measures(values, np.array([[2, 0, 1]]), np.array([[0, 0, 0]]), 1.0)
    assert (m["efficient"], m["welfare"]) == (0.0, 7)


def test_english_duel_threshold_and_equilibrium():
    # two bidders, raises of one chip, the winner pays the price to the bank: seat 0 raises
    # to 1 and 3, seat 1 to 2 and 4, seat 0 quits at 4 (its limit 3): one chip above it
    places, net = threshold_outcomes(np.array([[3, 5]]), [9, 9], start=0, rule="english")
    assert places[0].tolist() == [1, 0] and net[0].tolist() == [0, -4]
    places, net = threshold_outcomes(np.array([[9, 9]]), [2, 4], start=0, rule="english")
    assert places[0].tolist() == [1, 0] and net[0].tolist() == [0, -2]  # budget of 2 binds
    values = draw_values(DRAW, seats=3, samples=40, seed=3)
    english = best_response_dynamics(values, [3, 3, 3], rule="english")
    assert english.converged and english.epsilon == 0.0
    # in the duel, "raise while win - (price + 1) >= second" is dominant: switching any
    # type's duel threshold to win - second never lowers its payoff
    thr = english.thresholds
    for seat in range(3):
        for s in range(40):
            w, second, _ = values[s, seat]
            now = thr[s, seat]
            options = np.array([now, [max(w - second, 0), now[1]]])
            u = _expected(values[[s], seat], seat, options, thr, (3, 3, 3), 0, 1.0, "english")
            assert u[0, 1] >= u[0, 0] - 1e-9


def test_all_pay_fictitious_play_is_an_epsilon_equilibrium():
    values = draw_values(DRAW, seats=3, samples=30, seed=3)
    result = all_pay_dynamics(values, [3, 3, 3], iterations=600)
    assert result.epsilon < 0.1
    assert np.allclose(result.mix.sum(axis=2), 1.0)
    # the exact expected payoff of one bid, by enumerating the rivals' mixed bids
    mix, s, seat, bid = result.mix, 4, 1, 2
    total = 0.0
    for r in range(30):
        for b0, b2 in itertools.product(range(4), repeat=2):
            p = mix[r, 0, b0] * mix[r, 2, b2]
            if p:
                places, _ = all_pay_outcomes(np.array([[b0, bid, b2]]), start=0)
                total += p * values[s, seat, places[0, seat]] / 30
    from mogul.auction.mechanisms import _all_pay_utility

    u = _all_pay_utility(values[:, seat], seat, mix, 0, 1.0)
    assert u[s, bid] == pytest.approx(total - bid)


def test_compare_over_seeds_intervals():
    table = compare_over_seeds(DRAW, 3, [2, 2, 2], samples=12, seeds=[0, 1, 2])
    runs = table.attrs["runs"]
    one = runs.xs("english", level="mechanism")
    assert table.loc["english", "revenue"] == pytest.approx(one.revenue.mean())
    assert table.loc["english", "revenue_ci"] == pytest.approx(4.303 * one.revenue.std() / 3**0.5)
    first = compare_mechanisms(draw_values(DRAW, 3, 12, 0), [2, 2, 2])
    assert runs.xs(0, level="seed").round(12).equals(first.round(12))


@pytest.mark.slow
def test_mechanism_claims_of_the_notebook():
    table = compare_over_seeds(
        DRAW, 3, [6, 6, 6], samples=120, seeds=range(8), ties=("drop", "bid")
    )
    lo = table.efficient - table.efficient_ci
    hi = table.efficient + table.efficient_ci
    private, ci_drop, ci_bid = table.index[:3]
    assert hi[private] < min(lo[ci_drop], lo[ci_bid])  # private values cost efficiency
    assert hi["english"] < lo["all-pay"] and hi["english"] < lo[private]  # English least
    rev = table.revenue
    assert (
        rev["all-pay"] - table.revenue_ci["all-pay"] > rev["english"] + table.revenue_ci["english"]
    )
    assert round(rev["all-pay"], 1) == 6.3 and round(rev["english"], 1) == 5.4
    assert (table.revenue_ci[["all-pay", "english"]] < 0.1).all()
    assert (table.loc[[private, ci_drop, ci_bid], "revenue"].abs() < 1e-12).all()
    ci = table.revenue_ci
    eps = table.epsilon
    assert [round(eps[m], 3) for m in (private, "all-pay", "english")] == [0.183, 0.065, 0.0]
    # issue 40, item 7: revenue equivalence needs the same allocation, and these two differ
    eff = table.efficient
    assert f"{eff['english']:.3f} {eff['all-pay']:.3f}" == "0.530 0.641"
    assert hi["english"] < lo["all-pay"]
    stated(
        NB,
        f"({rev['all-pay']:.3f} ± {ci['all-pay']:.3f} chips against "
        f"{rev['english']:.3f} ± {ci['english']:.3f})",
        "for Mogul with private values 0.183",
        "for the all-pay auction 0.065, for English 0 to three decimals",
        "All-pay: about 6.3 chips against 5.4 for English",
        "a mean over 8 seeds (0 to 7) of 120 sampled profiles",
        "First of all, the two auctions do not give the prizes to the same types, which the theorem "
        "requires: the English auction puts both prizes where they add most value in "
        f"{eff['english']:.3f} of the profiles, the all-pay auction in {eff['all-pay']:.3f}. The "
        "values are discrete, not continuous; budgets, whole chips and the second prize break "
        "further assumptions.",
        f"(efficient in {eff['english']:.3f} against {eff['all-pay']:.3f} of the profiles)",
    )


# --------------------------------------------------------------------------- the duel


def test_the_duel_pays_the_loser_and_a_higher_value_can_lower_the_payoff():
    two = solve([(10, 0, 0), (1, 0, 0)], [3, 3], start=0)
    assert (two.runner_up, two.path[-1].pot, two.net_chips) == (1, 5, (-3, 3))
    stated(
        NB,
        "The weak seat 1 (win worth 1) bids to the last moment and drops with a pot of 5: "
        "it gains the strong seat's 3 chips",
    )
    pays = []
    for win in (7.5, 8.5):
        s = solve([(3, 3, 0), (win, 2, 0)], [2, 3], start=1, chip_value=2)
        assert s.path == solve([(3, 3, 0), (win, 2, 0)], [2, 3], 1, 2, tie="bid").path  # no tie
        pays.append((-s.net_chips[1], s.payoffs[1]))
    assert pays == [(1, 5.5), (2, 4.5)]  # valuing the win more lowers seat 1's payoff


def test_textbook_numbers_stated():
    assert textbook_revenues(3, 2, 10)["exact"] == pytest.approx(2 + 8 * 2 / 4) == 6
    assert textbook_revenues(4, 0, 1)["exact"] == pytest.approx(0.6)
    stated(
        NB,
        "both equal $2 + 8 \\cdot 2/4 = 6$",
        "3 bidders, values uniform on [2, 10]",
        "`textbook_revenues(4, 0, 1)` gives 0.6 for both, which is $0 + 1 \\cdot 3/5$",
    )


# --------------------------------------------------------------------------- 6. live game


def test_exercise_6_live_game():
    game = mogul.new_game("classic", players=4, seed=7)
    got = []
    for cv in (0.2, 0.5, 1.0):
        rest = values_from_state(game, chip_value=cv).solve()
        got.append((rest.winner, -rest.net_chips[rest.winner], len(rest.path)))
    assert got == [(1, 6, 17), (2, 6, 15), (2, 3, 8)]
    bid = []
    for cv in (0.2, 0.5, 1.0):
        rest = values_from_state(game, chip_value=cv).solve(tie="bid")
        bid.append((rest.winner, -rest.net_chips[rest.winner], len(rest.path)))
    assert bid == [(1, 6, 18), (3, 6, 16), (1, 3, 10)]
    assert values_from_state(game).chip_value == 0.2  # 1 point per 5 chips, without rounding
    for cv, d, b in zip((0.2, 0.5, 1), got, bid, strict=True):
        stated(
            NB,
            f"| {cv} | seat {d[0]} wins, pays {d[1]} chips, {d[2]} moves | "
            f"seat {b[0]} wins, pays {b[1]} chips, {b[2]} moves |",
        )
    stated(NB, "A chip is worth 0.2 points: the rules score 1 point per *full* 5 chips")


# --------------------------------------------------------------------------- the notebook


def notebook_text():
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_notebook_states_the_model_and_cites_its_sources():
    text = notebook_text()
    for needed in (
        'tie="drop"',
        'tie="bid"',
        r"\lambda",
        "**Players**",
        "**Actions**",
        "**Information**",
        "**Payoffs**",
        "**Tie rule**",
        "**Type**",
        "**Strategy**",
        "**Subgame-perfect equilibrium**",
        "**ε-equilibrium**",
        "weakly dominant",
        "the lowest type gets the same expected payoff in both",
        "Cramton, P., Gibbons, R., & Klemperer, P. (1987)",
        "Engelbrecht-Wiggans, R. (1994)",
        "Krishna, V. (2010)",
        "Milgrom, P. (2004)",
        "Vickrey, W. (1961)",
        "Myerson, R. B. (1981)",
        "Revenue equivalence",
    ):
        assert needed in text, needed
    assert "war of attrition in which" not in text  # the duel is not a war of attrition
    assert "1/9 each" in text
    assert "honest distance" not in text and "compute an equilibrium" not in text
    assert "dominant, as in" not in text.replace("weakly dominant", "")
    assert "Four auctions" not in json.dumps(json.loads(NOTEBOOK.read_text())["cells"])


def test_every_reference_is_cited_where_it_is_used():
    text = notebook_text()
    body, refs = text.split("## References")
    entries = [e for e in refs.split("\n* ") if "(" in e]
    assert len(entries) == 12
    for entry in entries:
        author = entry.strip("* \n").split(",")[0]
        year = re.search(r"\((\d{4})", entry).group(1)
        assert re.search(
            rf"{author}[^()]*?,? (et al\., )?{year}|{author}[^()]{{0,60}}\({year}", body
        ), (author, year)


def test_exercise_solutions_are_collapsed():
    text = notebook_text()
    exercises = re.findall(r"\*\*Exercise \d \(", text)
    assert len(exercises) >= 5
    assert text.count("<details><summary>Solution</summary>") == len(exercises)
    assert text.count("</details>") == len(exercises)
    assert "*Solution.*" not in text  # no solution left in the open


# --------------------------------------------------------------------------- what a class sees


def test_figures_leave_room_for_labels_and_markers():
    from mogul.plots.auction import (
        convergence_figure,
        mechanism_figure,
        payoff_curve_figure,
        pot_ladder_figure,
        winner_regions_figure,
    )

    sol = solve(FIRST, [3, 3, 3], chip_value=0.75)
    values = draw_values(DRAW, 3, 12, seed=0)
    table = compare_over_seeds(DRAW, 3, [2, 2, 2], samples=10, seeds=[0, 1])
    br = best_response_dynamics(values, [2, 2, 2], max_iter=2)
    figs = {
        "ladder": pot_ladder_figure(sol.path),
        "curves": payoff_curve_figure({"seat 0": payoff_curve_frame()}, x_max=5),
        "dynamics": convergence_figure(br.trace),
        "mechanisms": mechanism_figure(table),
        "regions": winner_regions_figure(chip_value_regions(FIRST, [3, 3, 3], 0, 3)),
        "map": winner_regions_figure(winner_map(FIRST, [3, 3, 3], 2, [4, 6], 0, 3)),
    }
    for name, fig in figs.items():
        layout = fig.to_dict()["layout"]
        axes = [k for k in layout if k.startswith(("xaxis", "yaxis"))]
        assert axes and all(layout[k].get("automargin") for k in axes), name
        titles = [layout[k].get("title", {}).get("text", "") for k in axes]
        assert not any(re.search(r"//|_|\(\)", t or "") for t in titles), (name, titles)
        if "legend" in layout:  # a legend sits above the plot, never beside it
            assert layout["legend"]["orientation"] == "h" and layout["legend"]["y"] > 1
    ladder = figs["ladder"]
    assert all(t.cliponaxis is False for t in ladder.data[1:])
    assert (
        ladder.layout.yaxis.range[0]
        < 0
        < max(st.pot for st in sol.path)
        < ladder.layout.yaxis.range[1]
    )
    bars = figs["mechanisms"].data
    assert all(b.orientation == "h" for b in bars)  # long mechanism names get their own room
    assert list(bars[0].y) == list(table.index) and bars[0].error_x.array is not None
    assert figs["curves"].layout.xaxis.range == (-0.5, 5.5)


def payoff_curve_frame():
    from mogul.auction import payoff_curve

    return payoff_curve(FIRST, [3, 3, 3], seat=0)


# --------------------------------------------------------------------------- every number


PROSE_NUMBERS_02 = """
2 1 one 2 3 4 5 6
one 0 1 three 0 1 1 1 0 1 both 1967 68 1994 6 one 0
Two 2 1 0 0 6 1 2 1
4 0 4 1 3 1 3 1 3 4 0 2 1 1 2 0 6 1 5 1 2 1 1 3 4 1 3 1 1 2 0 0 6 2 4 2 0 0 2 1 3 8
Three 3 10 3 0 8 2 0 6 1 0 0 0.75 both
2 1 0 3 both 3
two once once
2 0 6/7 1 6/5 7/2 5 1 6/7 1 6/5 3/2 7/3 8/3 0 3/2 7/3 8/3 7/2 5 6/7 1 6/5 3/2 7/3 8/3 7/2 5 5 2 1/4 1/2 2 0 12 one half 2 once
one 0.75 both
two 1999 one 1987 1994 one
1 1 5 3
8 Three 4 both four 4
four 8 0 once 3 11 10 10 9 9 11 11 12 11 10 4 12 13 12 14 15 4
2 3 10 1/9 0 1 2 3 1/4 0 36 1/36 Three 6 1 0 1967 68 200 1 three one 600 36 once two one 200 36 36 twice 1/36 three 1998 2 1/2 once one one 0.05 0.05 1/200 1/200 0.05
one 0.555 26/75 34.7% 600 0.05 227/600 37.8% 0.05 0.135 4/75 5.3% 0.05 19/300 6.3% 0.05 zero two 0.685 0.166 two once one Once two 1 one 1961 three 199 200 7 3 343 187 one
600 7 7 600 1951 1998 2 one one 1 2 3 200 270 292 600 5% two 182 216 99% one 1981 1981 2010 3 2004 3 two one both 0 3 2 10 one 1 both 2 8 2/4 6
6 10 two two both 8 0 7 120 95% half 8 0.183 0.135 0.065 0 three
0 one 6.274 0.085 5.428 0.065 two both 0.530 0.641 6
four 0.2 1 5 four
1 Two 2 1 1 0 4 1 3 0 once once 1 0 4 1 4 3 0 1 3 1 4 1 3 0 3 2 1 2 0 3 1 2 1 1 0 4 1 3 1 0 1 2 2 1 1 0 1 0 1 2 0 1 3 1 0 3 2 1 4 4 1 3 2 1 0 2 2 1 0 1 4 2 2 0 Both 1 4 0 2 2 2 4 0 0 3 0 0 2 2 1 2 10 3 0 8 2 0 6 1 0 3 0 1/2 2 0.5 2 2 1/2 6/7 1 6/7 1 2 1 6/5 1 6/5 3/2 0 3/2 2 2 1 2 1 0 3 2 1 7/3 8/3 2 7/2 5 3 Three 3 6 1 0 6 0 6 7 3 3 0 5 6 1 3 3 4 4 5 5 0 6 4 one 0.05 0.555 0.685 26/75 34.7% 600 0.05 227/600 37.8% 0.05 19 0.05 0 2 3 one 4 three 0.555 3 three 4 5 6 three 4 three 3 One 0.555 5 4 0 1 6.3 5.4 95% 0.1 two 0.530 0.641 4 0 1 0.6 both 0 1 3/5 four 6 7 0.2 0.5 1 0.2 1 6 17 1 6 18 0.5 2 6 15 3 6 16 1 2 3 8 1 3 10 four 7 187 one 0 7 1 2 2 3 3 0 0 1 0 1 6 0 1 0 1 1 0 1 0 2 1 0 0 7 1 6 2 3 1 2 1 0 0 0 2 1 0 2 7 2 5 Both 6 1 1 three 0 1 1 2 2 2 0 2 0 1 0 2 3 2 1 Both 2 187 6 6 6 1 0 1
1951 1999 89 1 1987 55 3 1994 6 3 1998 1967 68 14 2010 2 2004 1981 6 1 1994 6 1981 71 3 1961 16 1
"""


def test_every_number_in_the_prose_is_pinned():
    # One line per markdown cell. A number that changes in the prose fails here; the tests
    # above compute the numbers that are claims and check that the prose states them.
    assert prose_numbers("02-auction-theory") == PROSE_NUMBERS_02.strip()
