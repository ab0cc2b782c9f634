"""The auction solver against an independent brute force over the whole game tree.

The brute force below shares no code with ``mogul.auction``: it walks every full history
(the list of moves so far), recomputes the table from the history each time, and picks at
each node the move that is best for the mover by plain recursion, with no memo at all.
Values are multiples of 1/2 and chip values multiples of 1/2, so every payoff is exact in
binary floating point and ties (where the tie rule matters) happen often.
"""

import random

import pytest

from mogul.auction import play, solve, threshold_bot

PLACE_INDEX = {"win": 0, "second": 1, "out": 2}


def table(chips, start, history):
    """Replay a history: (chips left, active seats, seat to move, pot)."""
    n = len(chips)
    left = list(chips)
    active = list(range(n))
    seat, pot = start, 0
    for who, move in history:
        assert who == seat
        if move == "bid":
            left[who] -= 1
            pot += 1
        else:
            active.remove(who)
            pot = 0
        if len(active) > 1:
            seat = who
            while True:
                seat = (seat + 1) % n
                if seat in active:
                    break
    return left, active, seat, pot


def final_payoffs(values, chips, start, chip_value, history):
    """Payoff of each seat after a complete history."""
    n = len(chips)
    left, active, _, _ = table(chips, start, history)
    dropped = [who for who, move in history if move == "drop"]
    collected = [0] * n
    pot = 0
    for who, move in history:
        if move == "bid":
            pot += 1
        else:
            collected[who] += pot
            pot = 0
    place = ["out"] * n
    place[active[0]] = "win"
    place[dropped[-1]] = "second"
    return [
        values[i][PLACE_INDEX[place[i]]] + chip_value * (left[i] + collected[i] - chips[i])
        for i in range(n)
    ]


def brute_force(values, chips, start, chip_value, tie, history, decisions):
    """Equilibrium payoffs and path from this history; record every decision made."""
    left, active, seat, pot = table(chips, start, history)
    if len(active) == 1:
        return final_payoffs(values, chips, start, chip_value, history), []
    drop_pay, drop_path = brute_force(
        values, chips, start, chip_value, tie, history + [(seat, "drop")], decisions
    )
    choice = "drop"
    if left[seat] > 0:
        bid_pay, bid_path = brute_force(
            values, chips, start, chip_value, tie, history + [(seat, "bid")], decisions
        )
        diff = bid_pay[seat] - drop_pay[seat]
        if diff > 1e-9 or (tie == "bid" and diff >= -1e-9):
            choice = "bid"
    decisions.append(({x: left[x] for x in active}, seat, pot, choice))
    if choice == "bid":
        return bid_pay, [(seat, "bid", pot)] + bid_path
    return drop_pay, [(seat, "drop", pot)] + drop_path


def random_instance(rng: random.Random):
    n = rng.choice([2, 3, 3, 4, 4, 4])
    values = [tuple(rng.randint(-2, 16) / 2 for _ in range(3)) for _ in range(n)]
    chips = [rng.randint(0, 4) for _ in range(n)]
    return values, chips, rng.randrange(n), rng.choice([0.0, 0.5, 1.0, 1.0, 1.5, 2.0])


@pytest.mark.parametrize("block", range(8))
@pytest.mark.parametrize("tie", ["drop", "bid"])
def test_solver_matches_brute_force(block, tie):
    rng = random.Random(1000 * block + (tie == "bid"))
    for _ in range(40):
        values, chips, start, cv = random_instance(rng)
        decisions = []
        pay, path = brute_force(values, chips, start, cv, tie, [], decisions)
        sol = solve(values, chips, start=start, chip_value=cv, tie=tie)
        context = (values, chips, start, cv, tie)
        assert list(sol.payoffs) == pay, context
        assert [tuple(st) for st in sol.path] == path, context
        dropped = [who for who, move, _ in path if move == "drop"]
        assert sol.winner == next(i for i in range(len(chips)) if i not in dropped)
        assert sol.runner_up == path[-1][0]
        # the strategy agrees at every decision point of the tree, on or off the path
        for chip_map, seat, pot, choice in decisions:
            assert sol.action(seat, pot, chip_map) == choice, (context, chip_map, seat, pot)


@pytest.mark.parametrize(
    ("values", "chips", "start", "chip_value"),
    [  # the monotonicity counter-examples of test_auction.py, confirmed independently
        ([(3, 3, 0), (7.5, 2, 0)], [2, 3], 1, 2.0),
        ([(3, 3, 0), (8.5, 2, 0)], [2, 3], 1, 2.0),
        ([(5, 2, 2), (1.5, 1.5, 1), (6.5, 2.5, 3)], [4, 2, 3], 2, 2.0),
        ([(5, 2, 2), (1.5, 1.5, 1), (7, 2.5, 3)], [4, 2, 3], 2, 2.0),
    ],
)
def test_counter_examples_hold_in_the_brute_force(values, chips, start, chip_value):
    pay, path = brute_force(values, chips, start, chip_value, "drop", [], [])
    sol = solve(values, chips, start, chip_value)
    assert list(sol.payoffs) == pay
    assert [tuple(s) for s in sol.path] == path


def test_strategy_lists_every_decision_point():
    rng = random.Random(7)
    for _ in range(30):
        values, chips, start, cv = random_instance(rng)
        decisions = []
        brute_force(values, chips, start, cv, "drop", [], decisions)
        expected = {(tuple(m), seat, pot, tuple(m.values())): c for m, seat, pot, c in decisions}
        got = {
            tuple(node): move for node, move in solve(values, chips, start, cv).strategy().items()
        }
        assert got == expected


def test_solver_with_bots_matches_brute_force():
    """Seats played by threshold bots; the rest best-respond (brute force, bot moves forced)."""
    rng = random.Random(11)
    for _ in range(60):
        values, chips, start, cv = random_instance(rng)
        seat, k = rng.randrange(len(chips)), rng.randint(0, 6)
        bot = threshold_bot(k)

        def forced(history, seat=seat, bot=bot, chips=chips, start=start):
            left, active, mover, pot = table(chips, start, history)
            if mover == seat and len(active) > 1:
                return bot(seat, pot, {x: left[x] for x in active})
            return None

        pay, path = brute_force_with(values, chips, start, cv, [], forced)
        sol = solve(values, chips, start, cv, bots={seat: bot})
        assert list(sol.payoffs) == pay
        assert [tuple(st) for st in sol.path] == path
        # ... and the bot alone reproduces the same game when everyone else plays sol
        others = {i: (bot if i == seat else sol.action) for i in range(len(chips))}
        assert play(values, chips, others, start, cv).path == sol.path


def brute_force_with(values, chips, start, chip_value, history, forced):
    """Like ``brute_force`` (tie: drop), but the move is forced where ``forced`` says so."""
    left, active, seat, pot = table(chips, start, history)
    if len(active) == 1:
        return final_payoffs(values, chips, start, chip_value, history), []
    fixed = forced(history)
    options = {}
    for move in ("drop", "bid"):
        if move == "bid" and left[seat] == 0:
            continue
        if fixed is not None and move != fixed and not (fixed == "bid" and left[seat] == 0):
            continue
        options[move] = brute_force_with(
            values, chips, start, chip_value, history + [(seat, move)], forced
        )
    choice = "drop" if "drop" in options else "bid"
    if "bid" in options and "drop" in options:
        diff = options["bid"][0][seat] - options["drop"][0][seat]
        choice = "bid" if diff > 1e-9 else "drop"
    pay, rest = options[choice]
    return pay, [(seat, choice, pot)] + rest
