"""What the room's projector shows while a class plays: the student page's address, "N of M seats
joined", and one card per table of the session: its code in large type, a QR code that opens
the student page with the code filled in (drawn here as SVG by ``segno``: nothing is fetched),
and where the table is (seats taken, the round, paused, over).

It is the hall's projector page (``/mogul/hall/projector``, 1920x1080, behind
the lecturer's token, see ``mogul.classroom.server``), kept up to date by ``Projectors`` (it
looks at the session's table versions whenever the hall sees a change: a move there, a
PostgreSQL ``NOTIFY``, the hall's poll, and sends the page its redrawn HTML over its
WebSocket). It shows nothing a student could not see on the projector anyway.

The student page's address comes from ``$MOGUL_HALL_URL`` or this machine's address on the
local network.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import urllib.parse
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from mogul.classroom.serve import HALL_URL_ENV, student_address
from mogul.classroom.store import TableStore
from mogul.classroom.table import (
    ENDED,
    OVER,
    PAUSED,
    PLAYING,
    WAITING,
    TableInfo,
    pretty_code,
)
from mogul.kit.spec import get_game

try:
    import segno
except ModuleNotFoundError as err:  # the kit without its classroom extra
    raise ModuleNotFoundError(
        'the classroom\'s QR codes need segno: pip install "mogul-kit[classroom]"', name=err.name
    ) from err

LOG = logging.getLogger("mogul.classroom.projector")

"""The environment variable giving the student page's address (else this machine's, port 8866)."""


def table_address(address: str, code: str) -> str:
    """The student page with table ``code`` filled in (what the table's QR code holds)."""
    return f"{address}{'&' if '?' in address else '?'}table={pretty_code(code)}"


def qr_svg(text: str, scale: int = 5) -> str:
    """A QR code of ``text`` as inline SVG (made here: nothing is fetched), with a ``viewBox``
    so that a page may draw it smaller than ``scale`` px a module without cutting it off."""
    qr = segno.make(text, error="m")
    width, height = qr.symbol_size(scale=scale, border=2)
    svg = qr.svg_inline(scale=scale, border=2)
    return svg.replace("<svg ", f'<svg viewBox="0 0 {width} {height}" ', 1)


def seats_joined(
    infos: list[TableInfo], moved: Collection[tuple[str, int]] = frozenset()
) -> tuple[int, int]:
    """(people's seats taken, people's seats) over ``infos``: bots' seats are not counted, nor
    the seats (code, seat) in ``moved``, whose student moved on to a new group and is counted
    at their new table (``TableStore.moved_seats``)."""
    people = [
        s for info in infos for s in info.seats if s.is_human and (info.code, s.seat) not in moved
    ]
    return sum(1 for s in people if s.name is not None), len(people)


def projector_path(session: str | None = None, base_url: str = "/") -> str:
    """The projector page's path on the server (for the dashboard's link), of ``session``
    (None: the newest session)."""
    query = "" if session is None else "?" + urllib.parse.urlencode({"session": session})
    return f"{base_url.rstrip('/')}/mogul/hall/projector{query}"


def table_state(info: TableInfo, states: list[Any]) -> str:
    """Where a table is, in a few words for the projector: seats taken, the round, paused..."""
    if info.status == WAITING:
        people = [s for s in info.seats if s.is_human]
        taken = sum(1 for s in people if s.name is not None)
        return f"{taken} of {len(people)} seats taken"
    if not states:
        return html.escape(info.status)
    state = states[-1]
    if info.status == OVER or state.is_over:
        return "game over"
    stage = f"round {get_game(info.game).stage(state)}"
    if info.status == PAUSED:
        return f"{stage} &middot; <b>paused</b>"
    if info.status == ENDED:
        return f"{stage} &middot; ended"
    return f"{stage} &middot; playing" if info.status == PLAYING else stage


def table_bids(info: TableInfo, states: list[Any], held: frozenset[int] = frozenset()) -> str:
    """Sealed bids on the projector, with nobody's name or value: how many of the round's
    bids are in (``held``: seats whose bid waits for its turn), and the game's
    ``projector_panel`` face (the auction lab: the last closed round's bids, high to low);
    "" for a table that has neither."""
    if not states or info.status not in (PLAYING, PAUSED, OVER):
        return ""
    spec, state = get_game(info.game), states[-1]
    parts = []
    waiting = spec.simultaneous(state) if spec.simultaneous and not state.is_over else ()
    if waiting:
        seats = len(state.names)
        done = seats - len(waiting) + len(held & set(waiting))
        dots = "&#9679;" * done + "&#9675;" * (seats - done)
        parts.append(f'<span class="dots">{dots}</span> {done} of {seats} bids in')
    panel = spec.face("projector_panel")
    if panel is not None:
        parts.append(panel(state))
    return "<br>".join(part for part in parts if part)


def qr_scale(tables: int) -> int:
    """The QR codes' module size in px: large for a few tables, small for a full hall."""
    return (
        14 if tables <= 2 else 7 if tables <= 6 else 5 if tables <= 12 else 3 if tables <= 28 else 2
    )


def table_card(
    info: TableInfo,
    states: list[Any],
    address: str,
    scale: int,
    held: frozenset[int] = frozenset(),
) -> str:
    """One table on the projector: its code, its QR code, where it is and its sealed bids
    (``table_bids``)."""
    bids = table_bids(info, states, held)
    return (
        f'<div class="table" data-code="{info.code}">'
        f'<div class="code">{pretty_code(info.code)}</div>'
        f"{qr_svg(table_address(address, info.code), scale=scale)}"
        f'<div class="state">{table_state(info, states)}</div>'
        + (f'<div class="bids">{bids}</div>' if bids else "")
        + "</div>"
    )


def projector_html(
    session: str,
    infos: list[TableInfo],
    cards: list[str],
    address: str,
    moved: Collection[tuple[str, int]] = frozenset(),
) -> str:
    """The projector page's content: the address, how many joined (``seats_joined``: the
    seats in ``moved`` are not counted), the tables' cards."""
    taken, total = seats_joined(infos, moved)
    size = "few" if len(infos) <= 2 else "some" if len(infos) <= 6 else "many"
    tables = "".join(cards) or "<p>No tables yet: create them on your dashboard.</p>"
    return (
        f'<div class="address">Open <b>{html.escape(address)}</b></div>'
        '<div class="how">and type your table\'s code, or scan its QR code.</div>'
        f'<div class="joined"><b>{taken} of {total}</b> seats joined'
        f'<span class="session"> &middot; {html.escape(session)}</span></div>'
        f'<div class="tables {size}">{tables}</div>'
    )


class Projectors:
    """The open projector pages of one hall, by session, kept up to date (see the module
    docstring). ``watch`` adds a page (``send`` takes its messages), ``leave`` drops it,
    ``poke`` asks for a look at the store soon. ``run(work, *args)`` runs a store call off
    the event loop (the hall's worker threads); ``address`` is the student page's. The
    dashboard's panel only calls ``draw`` (no ``run``: it has no pages to follow)."""

    def __init__(
        self,
        store: TableStore,
        address: str,
        run: Callable[..., Awaitable[Any]] | None = None,
    ) -> None:
        self.store, self.run, self.address = store, run, address
        self.pages: dict[str, set[Callable[[dict[str, Any]], None]]] = {}
        self.seen: dict[str, dict[str, int]] = {}  # session -> the versions last drawn
        self.cards: dict[tuple[str, int, int], str] = {}  # (code, version, scale) -> its card
        self._poked: asyncio.Event | None = None

    async def watch(self, send: Callable[[dict[str, Any]], None], session: str | None) -> str:
        """Show ``session`` (None: the newest) on the page ``send`` writes to; the session."""
        if session is None:
            sessions = await self.run(self.store.sessions)
            session = sessions[-1] if sessions else ""
        pages = self.pages.setdefault(session, set())
        pages.add(send)
        content = await self.run(self.draw, session)
        # every page of the session gets it: the drawing marks the session's versions as drawn
        message = {"type": "projector", "html": content}
        for page in list(pages):
            page(message)
        return session

    def leave(self, send: Callable[[dict[str, Any]], None]) -> None:
        """Forget a projector page (its socket closed)."""
        for session, pages in list(self.pages.items()):
            pages.discard(send)
            if not pages:
                del self.pages[session]
                self.seen.pop(session, None)

    def poke(self) -> None:
        """Something changed: look at the watched sessions soon (no-op with none watched)."""
        if self._poked is not None and self.pages:
            self._poked.set()

    def draw(self, session: str) -> str:
        """The projector page's content for ``session`` as the store has it now (a worker
        thread: it reads the store; a table's card is redrawn only when its version changed)."""
        store = self.store
        infos = store.tables(session)
        scale = qr_scale(len(infos))
        cards = []
        for info in infos:
            key = (info.code, info.version, scale)
            if key not in self.cards:
                states = store.history(info.code) if info.status != WAITING else []
                sealed = states and get_game(info.game).simultaneous is not None
                held = store.held_seats(info.code) if sealed else frozenset()
                self.cards[key] = table_card(info, states, self.address, scale, held)
            cards.append(self.cards[key])
        self.seen[session] = {info.code: info.version for info in infos}
        live = {(i.code, i.version, scale) for i in infos}
        for key in [k for k in self.cards if k[0] in self.seen[session] and k not in live]:
            del self.cards[key]
        # read after the tables: a move since shows in their versions, and draws them again
        moved = store.moved_seats(session)
        return projector_html(session, infos, cards, self.address, moved)

    async def follow(self, seconds: float) -> None:
        """Redraw the pages of every session whose tables changed: when poked, or every
        ``seconds`` (runs until cancelled)."""
        self._poked = asyncio.Event()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), seconds)
            self._poked.clear()
            for session in list(self.pages):
                try:
                    versions = await self.run(self.store.versions, session)
                    if versions == self.seen.get(session) or session not in self.pages:
                        continue
                    content = await self.run(self.draw, session)
                except Exception:  # a database hiccup: the next look tries again
                    LOG.exception("redrawing the projector of session %r", session)
                    continue
                message = {"type": "projector", "html": content}  # one for every page
                for send in list(self.pages.get(session, ())):
                    send(message)


__all__ = [
    "HALL_URL_ENV",
    "Projectors",
    "projector_html",
    "projector_path",
    "qr_scale",
    "qr_svg",
    "seats_joined",
    "student_address",
    "table_address",
    "table_bids",
    "table_card",
    "table_state",
]
