"""What the rules read off the track and the goods, worked out once and kept up to date step by step.

The rules (``rules.py``) ask the same questions many times a turn: which track spaces are
built and whose they are, where track may be built, where each colour's goods pawns stand and
which ways they may leave. A state's track is a tuple that successive states share until
something is built, and likewise its goods until a pawn moves, so the answers are kept beside
them (``keep``, keyed by the tuple's identity) and worked out from the last answers when a
section is built (``TrackFacts.with_section``) or a pawn moves (``GoodsFacts.with_move``): only
what the step touched changes. The board's own tables (the ways out of every space, the move
between two spaces, one shared action object per unit action) are built once from ``board.json``.
"""

from __future__ import annotations

from bisect import insort
from functools import cache
from typing import Any, NamedTuple

from mogul.games.credit_mobilier.actions import Build, Move
from mogul.games.credit_mobilier.board import (
    COAST,
    board,
    buildable,
    moves_from,
    section_order,
    space_order,
    touching,
    ways,
)
from mogul.games.credit_mobilier.components import RAILROADS

Track = tuple[tuple[str, str], ...]  # (track space, colour) per built section, in board order
Goods = tuple[tuple[str, str], ...]  # (space, colour) per goods pawn, in board order

# One shared object per unit action: the legal actions are built from these.
build_action = cache(Build)
move_action = cache(Move)


class BoardTables(NamedTuple):
    """The board's tables the rules look things up in, built once from ``board.json`` (``tables``)."""

    ways_out: dict[tuple[str, str], tuple[tuple[str, Move], ...]]
    """Goods pawn (space, colour) -> (track space, move) for each way it may leave (west, north, south)."""
    way: dict[tuple[str, str], tuple[str, str]]  # (from, to) -> (track space, direction)
    builds: dict[str, dict[str, Build]]  # colour -> track space -> the Build there
    ends: dict[str, tuple[str, str]]  # track space -> the spaces at its two ends
    touching: dict[str, tuple[str, ...]]  # space -> the track spaces with it at one end
    section_order: dict[str, int]  # track space -> its place in board order
    track_order: dict[tuple[str, str], int]  # built section (track space, colour) -> board order
    goods_order: dict[tuple[str, str], int]  # goods pawn -> board order, then railroad order
    space_order: dict[str, int]  # space -> its place in board order


@cache
def tables() -> BoardTables:
    """The board's tables (see ``BoardTables``)."""
    b = board()
    pawns = [(space, colour) for space in b.spaces for colour in RAILROADS]
    order = section_order(b)
    return BoardTables(
        ways_out={
            (space, colour): tuple(
                (sid, move_action(colour, space, there)) for sid, there, _ in moves_from(b, space)
            )
            for space, colour in pawns
        },
        way=ways(b),
        builds={c: {s.id: build_action(c, s.id) for s in b.sections} for c in RAILROADS},
        ends={s.id: (s.a, s.b) for s in b.sections},
        touching={space: touching(b, space) for space in b.spaces},
        section_order=order,
        track_order={(sid, c): i for sid, i in order.items() for c in RAILROADS},
        goods_order={pawn: i for i, pawn in enumerate(pawns)},
        space_order=space_order(b),
    )


def exits(built: frozenset[str], pawn: tuple[str, str]) -> tuple[Move, ...]:
    """The moves of a goods pawn (space, colour) along the ``built`` track: west, north, south."""
    return tuple([move for section, move in tables().ways_out[pawn] if section in built])


class TrackFacts(NamedTuple):
    """What the rules read off the track: worked out once per track (``track_facts``)."""

    built: frozenset[str]  # the track spaces with track on them
    owner: dict[str, str]  # track space -> colour of its track
    markers: dict[str, int]  # colour -> its markers on the board
    buildable: tuple[str, ...]  # free track spaces joined to the eastern edge, in board order
    builds: dict[str, tuple[Build, ...]]  # colour -> a Build on each buildable space (as asked)
    exits: dict[str, dict[str, tuple[Move, ...]]]  # colour -> space -> a pawn's moves (as asked)

    def with_section(self, section: str, colour: str) -> TrackFacts:
        """The facts once ``section`` is built in ``colour``.

        Every built section is joined to the eastern edge, so the spaces joined to it are the
        eastern squares and the ends of built sections: the new section's two ends join the
        free sections touching them (no search of the board needed). Only pawns on those two
        ends gain a way out.
        """
        t = tables()
        built = self.built | {section}
        a, b = t.ends[section]
        joined = {*self.buildable, *t.touching[a], *t.touching[b]} - built
        pawn_exits = {}
        for pawn_colour, known in self.exits.items():
            known = pawn_exits[pawn_colour] = known.copy()
            known.pop(a, None)
            known.pop(b, None)
        owner = self.owner.copy()
        owner[section] = colour
        markers = self.markers.copy()
        markers[colour] = markers.get(colour, 0) + 1
        return TrackFacts(
            built=built,
            owner=owner,
            markers=markers,
            buildable=tuple(sorted(joined, key=t.section_order.__getitem__)),
            builds={},
            exits=pawn_exits,
        )

    def builds_of(self, colour: str) -> tuple[Build, ...]:
        """A ``Build`` of ``colour`` on each buildable track space, in board order."""
        found = self.builds.get(colour)
        if found is None:
            found = tuple(map(tables().builds[colour].__getitem__, self.buildable))
            self.builds[colour] = found
        return found

    def moves_of(self, colour: str, spaces: tuple[str, ...]) -> tuple[Move, ...]:
        """The moves of ``colour`` pawns on ``spaces`` along built track, space by space."""
        known = self.exits[colour]
        moves: list[Move] = []
        for space in spaces:
            found = known.get(space)
            if found is None:
                found = known[space] = exits(self.built, (space, colour))
            moves += found
        return tuple(moves)


def track_facts(track: Track) -> TrackFacts:
    """The facts of a state's track (see ``TrackFacts``), worked out once per track tuple."""
    kept = _TRACKS.get(id(track))
    if kept is not None and kept[0] is track:
        return kept[1]
    built = frozenset(s for s, _ in track)
    markers: dict[str, int] = {}
    for _, colour in track:
        markers[colour] = markers.get(colour, 0) + 1
    facts = TrackFacts(
        built, dict(track), markers, buildable(board(), built), {}, {c: {} for c in RAILROADS}
    )
    return keep(_TRACKS, track, facts)


def with_section(track: Track, section: str, colour: str) -> Track:
    """The track once ``section`` is built in ``colour``, its facts kept beside it."""
    grown = list(track)
    insort(grown, (section, colour), key=tables().track_order.__getitem__)
    grown = tuple(grown)
    keep(_TRACKS, grown, track_facts(track).with_section(section, colour))
    return grown


class GoodsFacts:
    """What the rules read off the goods: worked out once per goods tuple (``goods_facts``).

    Besides where each colour's pawns stand, the facts keep each colour's moves along the
    track they were last asked for (``moves_along``): a colour's moves change only when its
    own pawns move or when track is built.
    """

    __slots__ = ("spaces", "moves", "track")

    def __init__(self, spaces: dict[str, tuple[str, ...]], moves: dict, track: Track | None):
        self.spaces = spaces  # railroad colour -> spaces with its pawns, in board order
        self.moves = moves  # railroad colour -> its pawns' moves along ``track`` (as asked)
        self.track = track

    def with_move(self, move: Move, vacated: bool) -> GoodsFacts:
        """The facts once ``move`` is made (``vacated``: no pawn of its colour is left behind)."""
        colour = move.colour
        spaces = list(self.spaces[colour])
        if vacated:
            spaces.remove(move.from_space)
        if move.to_space not in spaces:
            insort(spaces, move.to_space, key=tables().space_order.__getitem__)
        moves = self.moves.copy()
        moves.pop(colour, None)
        return GoodsFacts({**self.spaces, colour: tuple(spaces)}, moves, self.track)

    def moves_along(self, track: Track, colour: str) -> tuple[Move, ...]:
        """The moves of the ``colour`` pawns along ``track``: space by space, west, north, south."""
        if track is not self.track:  # track was built since: every colour's moves may change
            self.moves = {}
            self.track = track
        found = self.moves.get(colour)
        if found is None:
            found = self.moves[colour] = track_facts(track).moves_of(colour, self.spaces[colour])
        return found

    def outside_coast(self) -> tuple[str, ...]:
        """The railroad colours with goods still off the Pacific Coast, in railroad order."""
        # the coast comes first in board order: a colour with a pawn elsewhere has it last
        return tuple(c for c, spaces in self.spaces.items() if spaces and spaces[-1] != COAST)


def goods_facts(goods: Goods) -> GoodsFacts:
    """The facts of a state's goods (see ``GoodsFacts``), worked out once per goods tuple."""
    kept = _GOODS.get(id(goods))
    if kept is not None and kept[0] is goods:
        return kept[1]
    spaces = {c: tuple(dict.fromkeys(s for s, pawn in goods if pawn == c)) for c in RAILROADS}
    return keep(_GOODS, goods, GoodsFacts(spaces, {}, None))


def with_move(goods: Goods, move: Move) -> Goods:
    """The goods once ``move`` is made, still in board order, their facts kept beside them."""
    pawn = (move.from_space, move.colour)
    moved = list(goods)
    at = moved.index(pawn)
    del moved[at]
    vacated = at == len(moved) or moved[at] != pawn  # pawns alike stand side by side
    insort(moved, (move.to_space, move.colour), key=tables().goods_order.__getitem__)
    moved = tuple(moved)
    keep(_GOODS, moved, goods_facts(goods).with_move(move, vacated))
    return moved


def goods_order(pawn: tuple[str, str]) -> int:
    """Sort key of a goods pawn (space, colour): board order of the space, then railroad order."""
    return tables().goods_order[pawn]


_TRACKS: dict[int, tuple] = {}
_GOODS: dict[int, tuple] = {}
_KEEP_AT_MOST = {id(_TRACKS): 256, id(_GOODS): 64}
"""Facts kept at most of each kind. The garbage collector walks every object kept, and runs
more often the more are kept (with 20,000 random games ran about 15% slower): a game has a
few dozen tracks but a new goods tuple at almost every step, so the tracks of the last few
games and the goods of the last few steps are kept; facts no longer kept are worked out
again when asked."""


def keep(kept: dict[int, tuple], key: tuple, facts: Any) -> Any:
    """Keep ``facts`` beside the tuple ``key`` (held, so its identity stays its own)."""
    if len(kept) >= _KEEP_AT_MOST[id(kept)]:
        kept.clear()
    kept[id(key)] = (key, facts)
    return facts
