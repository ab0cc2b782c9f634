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

from bisect import bisect_left, insort
from functools import cache
from typing import NamedTuple

from mogul.games.credit_mobilier.actions import Build, Move
from mogul.games.credit_mobilier.board import (
    COAST,
    board,
    buildable,
    moves_from,
    section_order,
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
    pawns: tuple[tuple[str, str], ...]  # the goods pawn at each place of ``goods_order``
    pawn_ways: tuple[tuple[tuple[str, Move], ...], ...]  # ``ways_out`` by place in ``goods_order``


@cache
def tables() -> BoardTables:
    """The board's tables (see ``BoardTables``)."""
    b = board()
    order = section_order(b)
    ways_out = {
        colour: {
            space: tuple(
                (sid, move_action(colour, space, there)) for sid, there, _ in moves_from(b, space)
            )
            for space in b.spaces
        }
        for colour in RAILROADS
    }
    pawns = tuple((s, c) for s in b.spaces for c in RAILROADS)
    return BoardTables(
        ways_out=ways_out,
        way=ways(b),
        builds={c: {s.id: build_action(c, s.id) for s in b.sections} for c in RAILROADS},
        ends={s.id: (s.a, s.b) for s in b.sections},
        touching={space: touching(b, space) for space in b.spaces},
        section_order=order,
        track_order={(sid, c): i for sid, i in order.items() for c in RAILROADS},
        goods_order={pawn: i for i, pawn in enumerate(pawns)},
        pawns=pawns,
        pawn_ways=tuple(ways_out[c][s] for s, c in pawns),
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
    ``buildable`` (free track spaces joined to the eastern edge, in board order), ``builds``
    (colour -> a ``Build`` on each buildable space, as asked) and ``moves`` (the moves along it
    from pawns standing at given places, as asked: ``moves_from``).
    """

    built: frozenset[str]
    owner: dict[str, str]
    markers: dict[str, int]
    buildable: tuple[str, ...]
    builds: dict[str, tuple[Build, ...]]
    moves: dict[tuple[int, ...], tuple[Move, ...]]

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
        track.moves = {}
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
        order = tables().goods_order
        return self.moves_from(tuple(order[space, colour] for space in spaces))

    def moves_from(self, places: tuple[int, ...]) -> tuple[Move, ...]:
        """The moves of pawns at ``places`` (``tables().goods_order``) along built track, in turn.

        Kept for the places asked: a colour's pawns stand on the same places move after move
        until one of them moves off its space or onto a new one.
        """
        found = self.moves.get(places)
        if found is None:
            ways, built = tables().pawn_ways, self.built
            found = tuple([move for at in places for section, move in ways[at] if section in built])
            if len(self.moves) >= _MOVES_KEPT:
                self.moves.clear()
            self.moves[places] = found
        return found


_MOVES_KEPT = 1024
"""At most this many places' moves kept with one track (then they start again)."""

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
    facts.moves = {}
    return _keep(track, facts)


def with_section(track: Pawns, section: str, colour: str) -> Track:
    """The track once ``section`` is built in ``colour``, its facts kept beside it."""
    return track_facts(track).with_section(section, colour)


class Goods(tuple):
    """A state's goods, (space, colour) per goods pawn in board order, and their facts.

    It equals (and prints as) the plain tuple of its pawns; beside them it carries ``places``
    (each pawn's place in board order, ``tables().goods_order``: numbers, cheaper to find and
    compare than the pawns; never changed) and ``stands`` (railroad colour -> the places its
    pawns stand on, one per space, in board order), from which the track finds the colour's
    moves (``moves_along``).
    """

    places: list[int]
    stands: dict[str, tuple[int, ...]]

    def __reduce__(self) -> tuple:
        return tuple, (tuple(self),)  # copied or pickled as the plain tuple: facts are redone

    @property
    def spaces(self) -> dict[str, tuple[str, ...]]:
        """Railroad colour -> the spaces with its pawns, in board order."""
        pawns = tables().pawns
        return {c: tuple(pawns[p][0] for p in stand) for c, stand in self.stands.items()}

    def with_move(self, move: Move) -> Goods:
        """The goods once ``move`` is made, still in board order, their facts kept beside them."""
        t = tables()
        colour = move.colour
        here = t.goods_order[move.from_space, colour]  # the pawn's place before and after
        there = t.goods_order[move.to_space, colour]
        places = self.places
        at = places.index(here)
        to = bisect_left(places, there)
        vacated = at + 1 == len(places) or places[at + 1] != here  # pawns alike stand side by side
        arrived = to == len(places) or places[to] != there  # no pawn alike there yet
        if to > at:
            to -= 1  # (counted without the moving pawn)
        pawns, moved = list(self), list(places)
        del pawns[at], moved[at]
        pawns.insert(to, t.pawns[there])
        moved.insert(to, there)
        goods = Goods(pawns)
        goods.places = moved
        stand = self.stands[colour]
        if vacated or arrived:
            stand = list(stand)
            if vacated:
                stand.remove(here)
            if arrived:
                insort(stand, there)
            stand = tuple(stand)
        goods.stands = {**self.stands, colour: stand}
        return goods

    def moves_along(self, track: Pawns, colour: str) -> tuple[Move, ...]:
        """The moves of the ``colour`` pawns along ``track``: space by space, west, north, south."""
        return track_facts(track).moves_from(self.stands[colour])

    def outside_coast(self) -> tuple[str, ...]:
        """The railroad colours with goods still off the Pacific Coast, in railroad order."""
        # the coast comes first in board order: a colour with a pawn elsewhere has it last
        pawns = tables().pawns
        return tuple(
            c for c, stand in self.stands.items() if stand and pawns[stand[-1]][0] != COAST
        )


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
    facts.places = places = list(map(tables().goods_order.__getitem__, goods))
    facts.stands = {
        c: tuple(dict.fromkeys(p for p, (_, c2) in zip(places, goods, strict=True) if c2 == c))
        for c in RAILROADS
    }
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
