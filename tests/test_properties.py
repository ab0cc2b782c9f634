"""Properties of random legal play: conservation, bookkeeping, termination, determinism."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_state, check_step

import mogul

MAX_STEPS = 5_000  # far above any real game (about 200 steps with 4 players)


def play_randomly(players: int, seed: int, quick_start: bool = False, check: bool = True):
    """Play uniformly random legal actions to the end, checking invariants at every step."""
    rng = random.Random(seed)
    s = mogul.new_game("classic", players=players, seed=seed, quick_start=quick_start)
    check_state(s)
    actions = []
    for _ in range(MAX_STEPS):
        if s.is_over:
            return s, actions
        action = rng.choice(s.legal_actions())
        after = s.apply(action)
        if check:
            check_step(s, after)
        actions.append(action)
        s = after
    raise AssertionError(f"game {players=} {seed=} did not end in {MAX_STEPS} steps")


@settings(max_examples=150, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_invariant_and_ends(players, seed):
    final, _ = play_randomly(players, seed)
    assert final.is_over and final.round <= 31 - players + 1


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1))
def test_quick_start_play_keeps_every_invariant(players, seed):
    final, _ = play_randomly(players, seed, quick_start=True)
    assert final.is_over


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_ten_thousand_random_games_keep_every_invariant(players):
    # 2,500 games per player count: 10,000 in all, every step checked.
    for seed in range(2_500):
        play_randomly(players, seed)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_same_seed_and_actions_give_the_same_game(players, seed):
    final, actions = play_randomly(players, seed, check=False)
    again = mogul.new_game("classic", players=players, seed=seed)
    for a in actions:
        again = again.apply(a)
    assert again == final


def test_crash_lies_in_the_last_five_cards_uniformly():
    counts = [0] * 5
    for seed in range(5_000):
        deck = mogul.new_game(players=4, seed=seed).deck
        from_bottom = len(deck) - 1 - [c.is_crash for c in deck].index(True)
        counts[from_bottom] += 1
    assert all(900 < c < 1100 for c in counts), counts  # 1,000 expected in each position


def test_seeded_deals_differ_between_seeds_and_repeat_for_one_seed():
    a = mogul.new_game(players=4, seed=11)
    assert a == mogul.new_game(players=4, seed=11)
    assert len({mogul.new_game(players=4, seed=s).deck for s in range(20)}) == 20
