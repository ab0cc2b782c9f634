"""What the rules read off the track and the goods, checked against the board from scratch.

Through random games, the legal builds and moves at every step are exactly those the
rulebook describes, worked out here from the board's sections alone: a build on each free
track space joined by built track to the eastern edge, a move for each space holding a pawn
of the colour along each built track space leading west, north or south. ``apply`` accepts
exactly the legal actions.
"""

from __future__ import annotations

import copy
import pickle
import random

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier.board import board, connected_spaces
from mogul.games.credit_mobilier.rules import is_legal


def joined_to_the_east(built: set[str]) -> set[str]:
    """Spaces reached from the eastern squares over built track (a search written here)."""
    b = board()
    reached = set(b.eastern)
    grown = True
    while grown:
        grown = False
        for s in b.sections:
            if s.id in built and (s.a in reached) != (s.b in reached):
                reached |= {s.a, s.b}
                grown = True
    return reached


def fresh_builds(state, colour: str) -> list[str]:
    built = {s for s, _ in state.track}
    joined = joined_to_the_east(built)
    if sum(c == colour for _, c in state.track) >= cm.components().track_per_colour:
        return []
    return [
        f"build {colour} {s.id}"
        for s in board().sections
        if s.id not in built and (s.a in joined or s.b in joined)
    ]


def fresh_moves(state, colour: str) -> list[str]:
    """A colour's moves from the board alone: its pawns' spaces in board order, then each way
    out along built track, west first, then north, then south (never east)."""
    b = board()
    built = {s for s, _ in state.track}
    spaces = [s for s in b.spaces if s != cm.COAST and (s, colour) in state.goods]
    moves = []
    for space in spaces:
        for way in ("west", "north", "south"):
            for s in b.sections:
                there = s.b if s.a == space else s.a if s.b == space else None
                if there and s.id in built and b.direction(space, there) == way:
                    moves.append(f"move {colour} {space} {there}")
    return moves


def test_builds_and_moves_are_the_rulebooks_through_random_games():
    rng = random.Random(0)
    checked = 0
    for seed in range(6):
        state = cm.new_game(players=rng.randint(2, 5), seed=seed)
        while not state.is_over:
            legal = [str(a) for a in state.legal_actions()]
            colours = state.dice if state.kind is None else (state.colour,)
            for colour in dict.fromkeys(c for c in colours if c in cm.RAILROADS):
                kind = state.kind
                if kind in (None, "build") and cm.allowance(state.dice, colour, "build"):
                    assert [a for a in legal if a.startswith(f"build {colour} ")] == fresh_builds(
                        state, colour
                    )
                if kind in (None, "move") and cm.allowance(state.dice, colour, "move"):
                    assert [a for a in legal if a.startswith(f"move {colour} ")] == fresh_moves(
                        state, colour
                    )
            state = state.apply(rng.choice(state.legal_actions()))
            checked += 1
    assert checked > 1000


def test_apply_accepts_exactly_the_legal_actions():
    # every legal action, and every build and move of the board in every colour, asked of is_legal
    b = board()
    others = [cm.Build(c, s.id) for c in cm.COMPANIES for s in b.sections[::5]]
    others += [cm.Move(c, s.b, s.a) for c in cm.RAILROADS for s in b.sections[::3]]
    others += [cm.Buy(c) for c in cm.COMPANIES] + [cm.PayRound(c) for c in cm.COMPANIES]
    others += [cm.EndTurn(), cm.Buy("orange")]
    rng = random.Random(2)
    state = cm.new_game(players=3, seed=4)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        for action in {*legal, *others}:
            assert is_legal(state, action) == (action in legal), (state, action)
        state = state.apply(rng.choice(legal))
        steps += 1
    assert steps > 100
    assert not is_legal(state, cm.EndTurn())


def test_every_built_section_is_joined_to_the_eastern_edge():
    rng = random.Random(1)
    state = cm.new_game(players=3, seed=5)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    joined = connected_spaces(board(), frozenset(s for s, _ in state.track))
    assert all(board().section(s).a in joined for s, _ in state.track)
    assert len(state.track) > 20


def test_track_and_goods_stay_in_board_order():
    rng = random.Random(3)
    state = cm.new_game(players=4, seed=21)
    b = board()
    sections = [s.id for s in b.sections]
    while not state.is_over:
        assert [sections.index(s) for s, _ in state.track] == sorted(
            sections.index(s) for s, _ in state.track
        )
        keys = [(b.spaces.index(s), cm.RAILROADS.index(c)) for s, c in state.goods]
        assert keys == sorted(keys)
        state = state.apply(rng.choice(state.legal_actions()))


def test_a_state_copied_or_pickled_plays_on_alike():
    rng = random.Random(4)
    state = cm.new_game(players=4, seed=8)
    while len(state.track) < 6 or state.kind is not None:
        state = state.apply(rng.choice(state.legal_actions()))
    for again in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert again == state and repr(again) == repr(state)
        assert again.legal_actions() == state.legal_actions()
        for action in state.legal_actions():
            assert again.apply(action) == state.apply(action)
