"""The facts kept build by build and move by move (``facts.py``) equal the facts worked out afresh."""

from __future__ import annotations

import random

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier import facts
from mogul.games.credit_mobilier.board import board, buildable, connected_spaces, moves_from


def fresh_facts(state) -> tuple:
    """Built sections, owners, markers, buildable spaces and each colour's spaces, from scratch."""
    b = board()
    built = frozenset(s for s, _ in state.track)
    markers: dict[str, int] = {}
    for _, colour in state.track:
        markers[colour] = markers.get(colour, 0) + 1
    spaces = {
        c: tuple(dict.fromkeys(s for s, pawn in state.goods if pawn == c)) for c in cm.RAILROADS
    }
    return built, dict(state.track), markers, buildable(b, built), spaces


def kept_facts(state) -> tuple:
    t = facts.track_facts(state.track)
    spaces = facts.goods_facts(state.goods).spaces
    return t.built, t.owner, t.markers, t.buildable, spaces


def test_kept_facts_equal_fresh_ones_through_random_games():
    rng = random.Random(0)
    checked = 0
    for seed in range(12):
        state = cm.new_game(players=rng.randint(2, 5), seed=seed)
        while not state.is_over:
            assert kept_facts(state) == fresh_facts(state)
            t = facts.track_facts(state.track)
            for pawn in set(state.goods):  # a pawn's ways out along built track, west/north/south
                ways = [sid for sid, _, _ in moves_from(board(), pawn[0]) if sid in t.built]
                moves = t.moves_of(pawn[1], (pawn[0],))
                assert [board().between(m.from_space, m.to_space).id for m in moves] == ways
            state = state.apply(rng.choice(state.legal_actions()))
            checked += 1
    assert checked > 2000


def test_every_built_section_is_joined_to_the_eastern_edge():
    rng = random.Random(1)
    state = cm.new_game(players=3, seed=5)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    joined = connected_spaces(board(), frozenset(s for s, _ in state.track))
    assert all(board().section(s).a in joined for s, _ in state.track)
    assert len(state.track) > 20


def fresh_moves(state, colour: str) -> list[str]:
    """A colour's moves worked out from the board alone: its pawns' spaces in board order, then
    each way out (west, north, south) along built track."""
    built = {s for s, _ in state.track}
    spaces = dict.fromkeys(s for s, c in state.goods if c == colour)
    return [
        f"move {colour} {space} {there}"
        for space in spaces
        for sid, there, _ in moves_from(board(), space)
        if sid in built
    ]


def test_moves_kept_with_the_goods_follow_every_branch_of_track_and_goods():
    # Facts kept with a goods tuple serve every state sharing it: a branch that builds track
    # and one that does not must each get their own moves.
    rng = random.Random(3)
    state = cm.new_game(players=4, seed=21)
    branches = 0
    while not state.is_over:
        for action in state.legal_actions()[:6]:
            after = state.apply(action)
            for colour in cm.RAILROADS:
                kept = facts.goods_facts(after.goods).moves_along(after.track, colour)
                assert [str(m) for m in kept] == fresh_moves(after, colour)
            branches += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert branches > 500


def test_facts_travel_with_tuples_equal_to_the_plain_ones():
    # The engine's track, goods and dice are tuples that carry their facts (Track, Goods,
    # Roll): equal to, printed as, and copied or pickled as the plain tuples; a state made by
    # hand from plain tuples gets the same answers.
    import copy
    import pickle

    from mogul.games.credit_mobilier.dice import Roll

    rng = random.Random(4)
    state = cm.new_game(players=4, seed=8)
    while len(state.track) < 6 or state.kind is not None:
        state = state.apply(rng.choice(state.legal_actions()))
    assert type(state.track) is facts.Track and type(state.goods) is facts.Goods
    assert type(state.dice) is Roll
    plain = state._replace(
        track=tuple(state.track), goods=tuple(state.goods), dice=tuple(state.dice)
    )
    for field in ("track", "goods", "dice"):
        value = getattr(state, field)
        assert value == tuple(value) and hash(value) == hash(tuple(value))
        assert repr(value) == repr(tuple(value))
        assert type(copy.copy(value)) is tuple and type(pickle.loads(pickle.dumps(value))) is tuple
    assert repr(plain) == repr(state) and plain == state
    assert plain.legal_actions() == state.legal_actions()
    again = pickle.loads(pickle.dumps(state))
    for action in state.legal_actions():
        assert plain.apply(action) == state.apply(action) == again.apply(action)
