"""2,000 games of uniformly random play end, with money and pawns accounted for at every step.

(10,000 until the readable engine gave up its caches and became about 4x slower, then 4,000;
2,000 since the agreement tests replay every game the batch engine plays in this engine, a few
thousand more with the end checked whole. This file was the suite's largest CPU cost; every
block still covers 2 to 5 players.)

The games are split into blocks so that ``pytest -n 2`` shares them between workers. Every
step of every game gets the cheap checks (``cm_checks.check_step_cheaply``: the players' cash
plus the treasuries change exactly by what the bank paid or took, no pawn appears or
vanishes); every game's end is checked whole. A smaller set of games gets the full
bookkeeping at every step (``check_step``: each seat's cash, each treasury, each share, each
pawn and track section against the events).
"""

from __future__ import annotations

import random

import pytest
from cm_checks import check_step, check_step_cheaply, pawn_counts

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier.rules import colours_outside_coast

GAMES = 2_000
BLOCKS = 20
MAX_STEPS = 20_000
"""Far above any game seen: random games take about 300 decisions."""


def random_game(seed: int, check=check_step_cheaply) -> tuple[cm.GameState, cm.GameState, int]:
    """A random game at 2 to 5 players (by seed): (first state, final state, decisions)."""
    first = state = cm.new_game(players=2 + seed % 4, seed=seed)
    rng = random.Random(seed)
    for steps in range(MAX_STEPS):
        if state.is_over:
            return first, state, steps
        after = state.apply(rng.choice(state.legal_actions()))
        check(state, after)
        state = after
    raise AssertionError(f"game {seed} did not end within {MAX_STEPS} decisions")


def check_end(first: cm.GameState, final: cm.GameState) -> None:
    assert final.is_over and final.current_player is None and final.legal_actions() == []
    assert pawn_counts(final) == pawn_counts(first) and len(final.goods) == 24
    assert len(colours_outside_coast(final.goods)) <= 2 < len(colours_outside_coast(first.goods))
    assert final.final_scores() == final.money and min(final.money) >= 0
    best = max((m, s.total) for m, s in zip(final.money, final.stocks, strict=True))
    assert final.winners() == tuple(
        seat
        for seat, (m, s) in enumerate(zip(final.money, final.stocks, strict=True))
        if (m, s.total) == best
    )


@pytest.mark.parametrize("block", range(BLOCKS))
def test_random_games_end_with_everything_accounted_for(block):
    size = GAMES // BLOCKS
    for seed in range(block * size, (block + 1) * size):
        first, final, _ = random_game(seed)
        check_end(first, final)


def test_full_bookkeeping_at_every_step_of_some_games():
    lengths = []
    for seed in range(GAMES, GAMES + 40):
        first, final, steps = random_game(seed, check=check_step)
        check_end(first, final)
        lengths.append(steps)
    assert 50 < sum(lengths) / len(lengths) < 2000, lengths


def test_the_same_seed_and_actions_give_the_same_game():
    first, final, _ = random_game(7)
    again_first, again_final, _ = random_game(7)
    assert (first, final) == (again_first, again_final)
    assert random_game(8)[1] != final
