"""The projector page: what the room's projector shows while a class plays (1920x1080).

The student page's address in large type, "N of M seats joined", and one card per table of the
session: its code in large type, a QR code that opens the student page with the code filled in
(drawn here as SVG by ``segno``: nothing is fetched), and where the table is (seats taken,
the round, paused, over). ``Projectors`` keeps every open projector page up to date: it looks
at the session's table versions whenever the hall sees a change (a move here, a PostgreSQL
``NOTIFY``, the hall's poll) and sends the page its redrawn HTML over its WebSocket.

The page is the lecturer's (it is behind the lecturer's token, see ``mogul.classroom.server``);
it shows nothing a student could not see on the projector anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mogul.classroom.projector import projector_path, qr_svg, seats_joined, table_address
from mogul.classroom.store import (
    ENDED,
    OVER,
    PAUSED,
    PLAYING,
    WAITING,
    TableInfo,
    TableStore,
    pretty_code,
)
from mogul.kit.spec import get_game

LOG = logging.getLogger("mogul.classroom.projector")


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


def qr_scale(tables: int) -> int:
    """The QR codes' module size in px: large for a few tables, small for a full hall."""
    return (
        14 if tables <= 2 else 7 if tables <= 6 else 5 if tables <= 12 else 3 if tables <= 28 else 2
    )


def table_card(info: TableInfo, states: list[Any], address: str, scale: int) -> str:
    """One table on the projector: its code, its QR code and where it is."""
    return (
        f'<div class="table" data-code="{info.code}">'
        f'<div class="code">{pretty_code(info.code)}</div>'
        f"{qr_svg(table_address(address, info.code), scale=scale)}"
        f'<div class="state">{table_state(info, states)}</div></div>'
    )


def projector_html(session: str, infos: list[TableInfo], cards: list[str], address: str) -> str:
    """The projector page's content: the address, how many joined, the tables' cards."""
    taken, total = seats_joined(infos)
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
    the event loop (the hall's worker threads); ``address`` is the student page's."""

    def __init__(self, store: TableStore, run: Callable[..., Awaitable[Any]], address: str) -> None:
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
        for page in list(pages):
            page({"type": "projector", "html": content})
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
                self.cards[key] = table_card(info, states, self.address, scale)
            cards.append(self.cards[key])
        self.seen[session] = {info.code: info.version for info in infos}
        live = {(i.code, i.version, scale) for i in infos}
        for key in [k for k in self.cards if k[0] in self.seen[session] and k not in live]:
            del self.cards[key]
        return projector_html(session, infos, cards, self.address)

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
                for send in list(self.pages.get(session, ())):
                    send({"type": "projector", "html": content})


__all__ = [
    "Projectors",
    "projector_html",
    "projector_path",
    "table_card",
    "table_state",
]
