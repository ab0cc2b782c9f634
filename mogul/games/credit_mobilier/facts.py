"""What the rules read off the track and the goods, worked out once and kept up to date step by step.

The rules (``rules.py``) ask the same questions many times a turn: which track spaces are
built and whose they are, where track may be built, where each colour's goods pawns stand and
which ways they may leave. A state's track is a tuple that successive states share until
something is built, and likewise its goods until a pawn moves, so the answers travel with the
tuple itself: the engine's track is a ``Track`` and its goods are ``Goods``, tuples equal to
the plain tuples of the same sections or pawns, which also carry their facts. They are worked
out from the last ones when a section is built (``with_section``) or a pawn moves
(``with_move``): only what the step touched changes. A plain tuple (a state made by hand)
gets its facts worked out when first asked (``track_facts``, ``goods_facts``). The board's own
tables (the ways out of every space, the move between two spaces, one shared action object
per unit action) are built once from ``board.json``.
"""

from __future__ import annotations

from bisect import insort
from functools import cache
from typing import NamedTuple

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

Pawns = tuple[tuple[str, str], ...]  # (space, colour) per goods pawn, or (track space, colour)

# One shared object per unit action: the legal actions are built from these.
build_action = cache(Build)
move_action = cache(Move)


class BoardTables(NamedTuple):
    """The board's tables the rules look things up in, built once from ``board.json`` (``tables``)."""

    ways_out: dict[str, dict[str, tuple[tuple[str, Move], ...]]]
    """Colour -> space -> (track space, move) for each way its pawn may leave (west, north, south)."""
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
    order = section_order(b)
    return BoardTables(
        ways_out={
            colour: {
                space: tuple(
                    (sid, move_action(colour, space, there))
                    for sid, there, _ in moves_from(b, space)
                )
                for space in b.spaces
            }
            for colour in RAILROADS
        },
        way=ways(b),
        builds={c: {s.id: build_action(c, s.id) for s in b.sections} for c in RAILROADS},
        ends={s.id: (s.a, s.b) for s in b.sections},
        touching={space: touching(b, space) for space in b.spaces},
        section_order=order,
        track_order={(sid, c): i for sid, i in order.items() for c in RAILROADS},
        goods_order={
            (s, c): i for i, (s, c) in enumerate((s, c) for s in b.spaces for c in RAILROADS)
        },
        space_order=space_order(b),
    )


def exits(built: frozenset[str], pawn: tuple[str, str]) -> tuple[Move, ...]:
    """The moves of a goods pawn (space, colour) along the ``built`` track: west, north, south."""
    space, colour = pawn
    return tuple([move for section, move in tables().ways_out[colour][space] if section in built])


class Track(tuple):
    """A state's track, (track space, colour) per built section in board order, and its facts.

    It equals (and prints as) the plain tuple of its sections; beside them it carries what the
    rules read off the track: ``built`` (the track spaces with track on them), ``owner``
    (track space -> colour of its track), ``markers`` (colour -> its markers on the board),
    ``buildable`` (free track spaces joined to the eastern edge, in board order) and ``builds``
    (colour -> a ``Build`` on each buildable space, as asked).
    """

    built: frozenset[str]
    owner: dict[str, str]
    markers: dict[str, int]
    buildable: tuple[str, ...]
    builds: dict[str, tuple[Build, ...]]

    def __reduce__(self) -> tuple:
        return tuple, (tuple(self),)  # copied or pickled as the plain tuple: facts are redone

    def with_section(self, section: str, colour: str) -> Track:
        """The track once ``section`` is built in ``colour``, its facts kept beside it.

        Every built section is joined to the eastern edge, so the spaces joined to it are the
        eastern squares and the ends of built sections: the new section's two ends join the
        free sections touching them (no search of the board needed).
        """
        t = tables()
        grown = list(self)
        insort(grown, (section, colour), key=t.track_order.__getitem__)
        track = Track(grown)
        track.built = built = self.built | {section}
        a, b = t.ends[section]
        free = list(self.buildable)
        if section in free:  # (always, for a legal build)
            free.remove(section)
        for joined in (*t.touching[a], *t.touching[b]):
            if joined not in built and joined not in free:
                insort(free, joined, key=t.section_order.__getitem__)
        track.buildable = tuple(free)
        track.owner = {**self.owner, section: colour}
        track.markers = {**self.markers, colour: self.markers.get(colour, 0) + 1}
        track.builds = {}
        return track

    def builds_of(self, colour: str) -> tuple[Build, ...]:
        """A ``Build`` of ``colour`` on each buildable track space, in board order."""
        found = self.builds.get(colour)
        if found is None:
            found = self.builds[colour] = tuple(
                map(tables().builds[colour].__getitem__, self.buildable)
            )
        return found

    def moves_of(self, colour: str, spaces: tuple[str, ...]) -> tuple[Move, ...]:
        """The moves of ``colour`` pawns on ``spaces`` along built track, space by space."""
        ways_out, built = tables().ways_out[colour], self.built
        return tuple(
            [move for space in spaces for section, move in ways_out[space] if section in built]
        )


TrackFacts = Track
"""What the rules read off the track: a ``Track`` carries them (``track_facts``)."""


def track_facts(track: Pawns) -> Track:
    """The state's track with its facts (see ``Track``): worked out here for a plain tuple."""
    if track.__class__ is Track:
        return track
    kept = _PLAIN.get(id(track))
    if kept is not None and kept[0] is track:
        return kept[1]
    facts = Track(track)
    facts.built = built = frozenset(s for s, _ in track)
    facts.owner = dict(track)
    facts.markers = {}
    for _, colour in track:
        facts.markers[colour] = facts.markers.get(colour, 0) + 1
    facts.buildable = buildable(board(), built)
    facts.builds = {}
    return _keep(track, facts)


def with_section(track: Pawns, section: str, colour: str) -> Track:
    """The track once ``section`` is built in ``colour``, its facts kept beside it."""
    return track_facts(track).with_section(section, colour)


class Goods(tuple):
    """A state's goods, (space, colour) per goods pawn in board order, and their facts.

    It equals (and prints as) the plain tuple of its pawns; beside them it carries ``spaces``
    (railroad colour -> the spaces with its pawns, in board order) and each colour's moves
    along the track they were last asked for (``moves_along``): a colour's moves change only
    when its own pawns move or when track is built.
    """

    spaces: dict[str, tuple[str, ...]]
    moves: dict[str, tuple[Move, ...]]  # railroad colour -> its pawns' moves along ``track``
    track: Pawns | None

    def __reduce__(self) -> tuple:
        return tuple, (tuple(self),)  # copied or pickled as the plain tuple: facts are redone

    def with_move(self, move: Move) -> Goods:
        """The goods once ``move`` is made, still in board order, their facts kept beside them."""
        t = tables()
        colour, here, there = move.colour, move.from_space, move.to_space
        pawn = (here, colour)
        moved = list(self)
        at = moved.index(pawn)
        del moved[at]
        vacated = at == len(moved) or moved[at] != pawn  # pawns alike stand side by side
        insort(moved, (there, colour), key=t.goods_order.__getitem__)
        goods = Goods(moved)
        spaces = self.spaces[colour]
        if vacated or there not in spaces:
            spaces = [s for s in spaces if s != here] if vacated else list(spaces)
            if there not in spaces:
                insort(spaces, there, key=t.space_order.__getitem__)
            spaces = tuple(spaces)
        goods.spaces = {**self.spaces, colour: spaces}
        goods.moves = moves = self.moves.copy()
        moves.pop(colour, None)
        goods.track = self.track
        return goods

    def moves_along(self, track: Pawns, colour: str) -> tuple[Move, ...]:
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


GoodsFacts = Goods
"""What the rules read off the goods: ``Goods`` carry them (``goods_facts``)."""


def goods_facts(goods: Pawns) -> Goods:
    """The state's goods with their facts (see ``Goods``): worked out here for a plain tuple."""
    if goods.__class__ is Goods:
        return goods
    kept = _PLAIN.get(id(goods))
    if kept is not None and kept[0] is goods:
        return kept[1]
    facts = Goods(goods)
    facts.spaces = {c: tuple(dict.fromkeys(s for s, pawn in goods if pawn == c)) for c in RAILROADS}
    facts.moves = {}
    facts.track = None
    return _keep(goods, facts)


def with_move(goods: Pawns, move: Move) -> Goods:
    """The goods once ``move`` is made, still in board order, their facts kept beside them."""
    return goods_facts(goods).with_move(move)


def goods_order(pawn: tuple[str, str]) -> int:
    """Sort key of a goods pawn (space, colour): board order of the space, then railroad order."""
    return tables().goods_order[pawn]


_PLAIN: dict[int, tuple] = {}
_KEEP_AT_MOST = 64
"""Facts kept for plain tuples (states made by hand, or dealt: the engine's own steps make
``Track`` and ``Goods``), by the tuple's identity; facts no longer kept are worked out again."""


def _keep(plain: Pawns, facts: Track | Goods) -> Track | Goods:
    """Keep ``facts`` beside the plain tuple (held, so its identity stays its own)."""
    if len(_PLAIN) >= _KEEP_AT_MOST:
        _PLAIN.clear()
    _PLAIN[id(plain)] = (plain, facts)
    return facts
