"""Conservation over 3,000 random games of the 2013 edition for each of 3, 4 and 5 players.

At every step of every game the 45 chips are all with the players, in the pot or in the bank.
Around every action step (and so at least twice a round) the 37 shares are all held, sold,
unseen or on the table; no station holds two houses, no player has more than six, and houses
only ever come onto the map (a move keeps the count). A count that went wrong during an auction
would still be wrong at the next of these checks. The games run in blocks so that xdist can
spread them over workers.

3,000 per count, not 10,000: every step of the readable engine is checked here, which made
this file the suite's slowest (200 s of CPU); the rarer rules still come up in every block
(the last assertion), and the batch engine's agreement tests play far more games.
"""

from __future__ import annotations

import random

import pytest

import mogul
from mogul.games.mogul.rules import AUCTION, RUNNER_UP

GAMES_PER_COUNT = 3_000
BLOCKS = 3
CHIPS = 45
SHARES = 37
HOUSES = 6


def _check_chips(state) -> None:
    players = state.players
    assert sum([p.chips for p in players]) + state.pot + state.bank == CHIPS
    assert state.pot >= 0 and state.bank >= 0 and min([p.chips for p in players]) >= 0


def _check(state, houses_before: int) -> int:
    """The conservation laws of shares and houses; returns the houses on the map."""
    players = state.players
    untaken = not state.is_over and not (state.phase == RUNNER_UP and state.winner_choice == "take")
    held = sum(p.shares.total for p in players)
    assert held + state.sold.total + len(state.unseen) + untaken == SHARES
    placed = [station for p in players for station in p.houses]
    assert len(placed) == len(set(placed)), f"two houses on one station: {placed}"
    assert max(len(p.houses) for p in players) <= HOUSES
    assert len(placed) in (houses_before, houses_before + 1)
    return len(placed)


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_chips_shares_and_houses_are_conserved_in_random_games(players, block):
    per_block = GAMES_PER_COUNT // BLOCKS
    moves = credits = 0
    for seed in range(block * per_block, (block + 1) * per_block):
        rng = random.Random(seed)
        state = mogul.new_game("rio-grande", players=players, seed=seed)
        _check_chips(state)
        houses = _check(state, 0)
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            moves += type(action) is mogul.Branch and action.move_from is not None
            credits += type(action) is mogul.Credit
            before = state.phase
            state = state.apply(action)
            _check_chips(state)
            if before != AUCTION or state.phase != AUCTION:
                houses = _check(state, houses)
        assert all(p.credits <= 1 for p in state.players)
        assert state.final_scores() == tuple(b.total for b in state.score_breakdown())
    # The random games reach the rarer rules too: moved houses and credits.
    assert moves > 0 and credits > 0
