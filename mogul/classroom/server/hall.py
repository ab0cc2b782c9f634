"""The lecture hall: one server process keeps every student page of a class up to date.

``Hall`` sits on a ``TableStore`` and the server's event loop. A page (a WebSocket) joins a
seat, and the hall sends it that seat's *view* (``mogul.classroom.server.views``): the same
table drawing and move labels the widgets show, whose turn it is, and the turn timer. When a table changes, the hall draws it once per watching seat and pushes
the views. A change is seen three ways: a move made through this hall (at once), a
PostgreSQL ``NOTIFY`` from any other server process on the same store (at once), and a
cheap look at every table's version number (every ``poll_seconds``: the SQLite default, and
the safety net under NOTIFY). So several server processes can serve one class.

The same changes redraw the lecturer's projector pages (``mogul.classroom.projector.Projectors``).
One of them is the lecturer's "New groups" (``mogul.classroom.new_groups``): a page at a seat
whose student the store moved on to a new table is sent on there, by whichever hall serves it,
and so is a page that comes back later with the old table's code and key.

Everything a page sends is untrusted: a seat acts only with its key, only on its turn, only
with a legal move, parsed by the game's spec; a bad request gets a sentence back and changes
nothing. A refused move costs no write (the store checks it by a read first) and no view (unless
the page shows an older table); one the newest view the hall drew of its table refutes (out of
turn, a step already past: most clicks of a room clicking at once) costs one look at the
table's version, not that read; a page refused too often in a short time has its requests
dropped unread and is told so once (``Limits.refusals_per_page``). The hall also plays the turn timer (a person idle too long gets the fill bot's move)
and nudges a bot whose move was left unmade (a server killed between a move and the bots').

A *practice* hall (``Hall(store, practice=True)``: ``python -m mogul.classroom.server
--practice``) is for one student alone against bots, no lecturer: ``practice_table`` makes the
table, and a page at a practice table whose game is over may ask for a new game (``"again"``),
a fresh table with the same game and bots, where it sits down under the same name. Another
device joining a practice table already taken, by name, gets such a table of its own.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from mogul.classroom.database import NOTIFY_CHANNEL, sa
from mogul.classroom.projector import Projectors, student_address
from mogul.classroom.sealed import SeatSnapshot
from mogul.classroom.server.limits import FLOODED, Bucket, Limits, bounded
from mogul.classroom.server.views import Turn, howto_html, seat_view
from mogul.classroom.store import TableStore
from mogul.classroom.table import (
    ENDED,
    OVER,
    PLAYING,
    WAITING,
    ClassroomError,
    TableInfo,
    Ticket,
    pretty_code,
)
from mogul.kit.session import HUMAN
from mogul.kit.spec import default_game, games, get_game, resolve

LOG = logging.getLogger("mogul.classroom.hall")
POLL_SECONDS = 0.1
"""How often the hall looks at every table's version (SQLite: other processes' changes)."""
POLL_SECONDS_NOTIFY = 1.0
"""The same with PostgreSQL NOTIFY (the look is then only the safety net)."""
BOT_GRACE_SECONDS = 1.0
"""A bot whose move is still unmade after this long is moved by the hall."""
PRACTICE = "practice"
"""The session of practice tables (one person against bots; see ``practice_table``)."""
PRACTICE_BOTS = 3
"""How many bots a practice table has unless told (fewer or more where the game needs it)."""


def warm_up() -> None:
    """Load every registered game and draw one table of each, so the first student to join
    does not wait for the games' modules to load (seconds on a cold start)."""
    for name in games():
        spec = get_game(name)
        edition = spec.editions[0]
        low = spec.player_range(edition)[0]
        state = spec.new_game(edition, [f"P{i + 1}" for i in range(low)], 0)
        spec.table_html(state, (), [], None)
        for action in state.legal_actions():
            spec.action_label(state, action)
            spec.parse_action(str(action))


def practice_table(
    store: TableStore, game: str | None = None, bots: list[str] | None = None
) -> TableInfo:
    """A new table of ``game`` (a game or edition name; None: the default game) for one person,
    in the first seat, against ``bots`` (the game's bot names; default: ``PRACTICE_BOTS`` of its
    value bot, else of its first), in the ``PRACTICE`` session. ``ValueError`` says what was
    wrong with the game or the bots."""
    spec, edition = resolve(default_game() if game is None else game)
    low, high = spec.player_range(edition)
    if bots is None:
        bot = "value" if "value" in spec.bots else next(iter(spec.bots))
        bots = [bot] * min(max(PRACTICE_BOTS, low - 1), high - 1)
    if not low - 1 <= len(bots) <= high - 1:
        raise ValueError(
            f"the {edition} edition is for {low} to {high} players: one person and "
            f"{low - 1} to {high - 1} bots, got {len(bots)}"
        )
    if HUMAN in bots:
        raise ValueError(f"a practice table has one person; its other seats are bots, got {bots}")
    return store.create_table(edition, [HUMAN, *bots], session=PRACTICE)


@dataclass(eq=False)
class Page:
    """One open student page: how to send it a message, its seat once it has one (and that
    seat's claim stamp), the table version it was last shown (an older snapshot is never sent
    after a newer one), the address it comes from, its joins and requests still allowed, and
    whether it was told it floods."""

    send: Callable[[dict[str, Any]], None]
    ticket: Ticket | None = None
    version: int = -1
    address: str = ""
    joined: float | None = None
    claimed: bool = False  # ``joined`` is known (from the snapshot its join took)
    joins: Bucket | None = None
    refusals: Bucket | None = None
    flooded: float = float("-inf")  # when it was last told FLOODED (monotonic seconds)


class Hall:
    """Student pages over one ``TableStore`` (see the module docstring).

    ``handle`` answers a page's message; ``start`` begins following the store on the running
    event loop; ``stop`` ends that. The store's calls run on ``threads`` worker threads, so a
    slow database round trip holds up one table, not the whole room (0: on the event loop).
    ``address`` is the student page's, for the projector (default: ``student_address()``).
    ``limits``: how much one page or one address may take (``Limits``). ``practice``: a page
    at a practice table whose game is over may ask for a new game (see the module docstring).
    """

    def __init__(
        self,
        store: TableStore,
        poll_seconds: float | None = None,
        listen: bool = True,
        threads: int = 4,
        address: str | None = None,
        limits: Limits | None = None,
        practice: bool = False,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.practice = practice
        self.open_pages: dict[str, int] = {}  # address -> its open pages
        self.address_joins: dict[str, Bucket] = {}
        self.projectors = Projectors(store, address or student_address(), self._run)
        self.listen = listen and not store.is_sqlite
        self.poll_seconds = poll_seconds or (POLL_SECONDS_NOTIFY if self.listen else POLL_SECONDS)
        self.pages: dict[str, set[Page]] = {}  # table code -> its open pages
        self.seen: dict[str, int] = {}  # table code -> the newest version pushed
        self.turns: dict[str, Turn] = {}  # table code -> where its newest views drawn show it
        in_memory = store.url in ("sqlite://", "sqlite:///:memory:")  # one shared connection
        self.executor = (
            ThreadPoolExecutor(threads, "mogul-hall") if threads and not in_memory else None
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task] = []
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()
        self._nudges: set[tuple[str, int]] = set()
        self._pushing: dict[str, bool] = {}  # table code -> asked again while its push runs

    async def _run(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` on a worker thread (or here, without workers)."""
        if self.executor is None:
            return work(*args)
        return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)

    # --- a page's messages -------------------------------------------------------------------------
    async def handle(self, page: Page, message: Any) -> None:
        """Answer one message from ``page`` (already parsed from JSON; anything at all)."""
        try:
            if not isinstance(message, dict):
                raise ClassroomError("the page sent something that is not a request")
            op = message.get("op")
            if op == "join":
                await self._join(page, message)
            elif op == "act":
                await self._act(page, message)
            elif op == "again" and self.practice:
                await self._again(page)
            else:
                raise ClassroomError("the page asked for something the hall does not do")
        except ClassroomError as err:
            self.refuse(page, str(err))
        except sa.exc.OperationalError:  # the database restarted or is out of reach: say so
            LOG.exception("the classroom store failed a page's request")
            page.send(
                {
                    "type": "error",
                    "message": "the table store did not answer; try again in a moment",
                }
            )

    def _refusals(self, page: Page) -> Bucket:
        if page.refusals is None:
            page.refusals = Bucket(*self.limits.refusals_per_page)
        return page.refusals

    def refuse(self, page: Page, why: str) -> None:
        """Tell ``page`` its request was refused, and why; it counts against the page's
        ``Limits.refusals_per_page``."""
        self._refusals(page).take()
        page.send({"type": "error", "message": bounded(why)})

    def listens(self, page: Page) -> bool:
        """True if the hall reads ``page``'s next request; False while the page is over its
        ``Limits.refusals_per_page`` (the request is dropped), and the page is told so in one
        sentence per flood (at most once in the time its whole burst takes to come back)."""
        if self._refusals(page).ready():
            return True
        burst, seconds = self.limits.refusals_per_page
        now = time.monotonic()
        if now - page.flooded >= burst * seconds:
            page.flooded = now
            page.send({"type": "error", "message": FLOODED})
        return False

    def admit(self, page: Page) -> bool:
        """Count a new page from its address; False (not counted) if that address has its
        ``Limits.pages_per_address`` open already."""
        open_now = self.open_pages.get(page.address, 0)
        if open_now >= self.limits.pages_per_address:
            LOG.warning("refused a page from %s: %d pages open", page.address, open_now)
            return False
        self.open_pages[page.address] = open_now + 1
        return True

    def release(self, page: Page) -> None:
        """A page counted by ``admit`` closed."""
        self.leave(page)
        left = self.open_pages.get(page.address, 0) - 1
        if left > 0:
            self.open_pages[page.address] = left
        else:
            self.open_pages.pop(page.address, None)
            self.address_joins.pop(page.address, None)

    def _may_join(self, page: Page, with_key: bool = False) -> None:
        """Refuse a join past the page's ``Limits.joins_per_page`` or its address's
        ``joins_per_address``; a seat key's (a page coming back to its seat: takes no seat)
        counts against the page's only, so a whole class behind one address is back at once
        after a server restart."""
        if page.joins is None:
            page.joins = Bucket(*self.limits.joins_per_page)
        buckets = [page.joins]
        if not with_key:
            buckets.append(
                self.address_joins.setdefault(page.address, Bucket(*self.limits.joins_per_address))
            )
        for bucket in buckets:
            if not bucket.take():
                raise ClassroomError(
                    f"too many joins at once: wait {max(1, round(bucket.wait))} s and try again"
                )

    async def _join(self, page: Page, message: dict[str, Any]) -> None:
        code, name, key = message.get("table"), message.get("name"), message.get("key")
        if key is not None and not isinstance(key, str):
            raise ClassroomError("a seat key is 12 letters and digits")
        self._may_join(page, with_key=bool(key))
        if self.practice and not key:
            try:
                info = await self._run(self.store.info, code)
            except ClassroomError:
                info = None  # the join below says what is wrong with the code
            if info is not None and info.session == PRACTICE and info.status != WAITING:
                await self._new_game(page, info, name)  # another device: a game of its own
                return
        ticket = await self._run(self.store.join, code, name, key or None)
        await self._sit(page, ticket, new=not key)

    async def move_pages(self, moves: Mapping[tuple[str, int], Any]) -> int:
        """Send on at once each page open here at an old seat (code, seat) of ``moves`` (new
        groups: ``Desk.regroup``), as every hall does when it hears that the store moved the
        seat's student (``push``); how many pages it sent on."""
        return sum([await self.push(code) for code in {code for code, _ in moves}])

    async def _sit(self, page: Page, ticket: Ticket, new: bool, moved: bool = False) -> None:
        """Seat ``page`` with ``ticket`` (just joined: ``new``; sent there by new groups:
        ``moved``) and show it the table; a seat whose student moved on sends it on."""
        self.leave(page)
        page.ticket, page.version, page.claimed = ticket, -1, False
        self.pages.setdefault(ticket.code, set()).add(page)
        snap = await self._run(self.store.seat_snapshot, ticket.code)
        info, went = snap[0], snap[4].get(ticket.seat)
        if went is not None:  # a page back at a seat whose student has a new group
            await self._send_on(page, ticket, went)
            return
        # snapshots older than this one (a push under way) may still come: they are no news
        page.joined, page.claimed = info.seats[ticket.seat].joined, True
        page.send(
            {
                "type": "seat",
                "table": ticket.code,
                "pretty": pretty_code(ticket.code),
                "seat": ticket.seat,
                "key": ticket.key,
                "new": new,
                "moved": moved,
                "howto": howto_html(resolve(info.edition)[0]),
                "practice": self.practice and info.session == PRACTICE,
            }
        )
        for other, was, to in self._show(ticket.code, snap, force=True):
            await self._send_on(other, was, to)

    async def _send_on(self, page: Page, was: Ticket, to: str) -> None:
        """Seat ``page``, at seat ``was`` whose student moved on to a new group at table ``to``,
        there (the student took their seat key along: the store checks it), unless another
        push sent it on meanwhile; a key that no longer opens a seat there (the lecturer gave
        it a new one) loses the page its seat."""
        try:
            ticket = await self._run(self.store.join, to, "", was.key)
        except ClassroomError:
            if page.ticket is not was:
                return
            self.leave(page)
            page.ticket = None
            page.send(
                {
                    "type": "error",
                    "message": f"you moved on to table {pretty_code(to)} in new groups, and "
                    "your seat key no longer opens a seat there: ask your lecturer for one",
                    "lost": True,
                }
            )
            return
        if page.ticket is was:
            await self._sit(page, ticket, new=False, moved=True)  # the key they hold

    async def _again(self, page: Page) -> None:
        """A new game for a page at a practice table whose game is over: a fresh table with the
        same game, bots and fill bot, the page sitting down under the same name."""
        if page.ticket is None:
            raise ClassroomError("join a table first")
        info = await self._run(self.store.info, page.ticket.code)
        if info.session != PRACTICE:
            raise ClassroomError("a new game is for practice tables; ask your lecturer")
        if info.status not in (OVER, ENDED):
            raise ClassroomError("finish this game first: it is not over yet")
        self._may_join(page)
        await self._new_game(page, info, info.seats[page.ticket.seat].name)

    async def _new_game(self, page: Page, like: TableInfo, name: Any) -> None:
        """Seat ``page`` under ``name`` at a fresh practice table like ``like`` (its game, bots
        and fill bot)."""
        kinds = [s.kind for s in like.seats]
        table = await self._run(
            self.store.create_table, like.edition, kinds, PRACTICE, None, like.fill
        )
        try:
            ticket = await self._run(self.store.join, table.code, name)
        except ClassroomError:  # a name no table takes: no table left behind
            await self._run(self.store.delete_table, table.code)
            raise
        await self._sit(page, ticket, new=True)

    async def _act(self, page: Page, message: dict[str, Any]) -> None:
        if page.ticket is None:
            raise ClassroomError("join a table first")
        code = page.ticket.code
        turn = self.turns.get(code)
        why = turn and turn.refutes(page.ticket.seat, message.get("step"))
        # most clicks of a room clicking at once: refused after one look at the table's version
        if why and await self._unchanged(code, turn.version):
            if turn.version > page.version:
                await self.push(code, only=page)
            raise ClassroomError(why)
        try:
            await self._run(self.store.act, page.ticket, message.get("step"), message.get("action"))
        except ClassroomError:
            # refused: the sentence says why; the table too, if this page shows an older one
            try:
                newer = await self._run(self.store.version, code) > page.version
            except ClassroomError:  # the table was removed: the push says so
                newer = True
            if newer:
                await self.push(code, only=page)
            raise
        await self.push(code)

    async def _unchanged(self, code: str, version: int) -> bool:
        """True if table ``code`` is still at ``version`` (False: changed, or removed)."""
        try:
            return await self._run(self.store.version, code) == version
        except ClassroomError:
            return False

    def leave(self, page: Page) -> None:
        """Forget ``page`` (its socket closed, or it joined another seat)."""
        if page.ticket is not None:
            pages = self.pages.get(page.ticket.code)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del self.pages[page.ticket.code]
                    self.seen.pop(page.ticket.code, None)
                    self.turns.pop(page.ticket.code, None)

    # --- pushing views -----------------------------------------------------------------------------
    async def push(self, code: str, force: bool = False, only: Page | None = None) -> int:
        """Send each page at table ``code`` (or ``only``) its seat's view if the table changed
        (or ``force``), and a page whose seat's student moved on to a new group on to their
        new table; how many pages it sent on.

        A push asked for while one of the same table runs is folded into one more push after
        it: in a burst (a round of sealed bids, every seat within a second) a table is read
        once or twice, not once per bid."""
        if force or only is not None:
            return await self._push(code, force, only)
        if code in self._pushing:
            self._pushing[code] = True  # the push under way reads the table once more
            return 0
        self._pushing[code] = False
        sent = 0
        try:
            while True:
                sent += await self._push(code)
                if not self._pushing[code]:
                    return sent
                self._pushing[code] = False
        finally:
            del self._pushing[code]

    async def _push(self, code: str, force: bool = False, only: Page | None = None) -> int:
        if not (only or self.pages.get(code)):
            return 0
        try:
            snap = await self._run(self.store.seat_snapshot, code)
        except ClassroomError:  # the lecturer deleted the table
            pages = [only] if only is not None else list(self.pages.pop(code, ()))
            self.turns.pop(code, None)
            for page in pages:
                page.send(
                    {
                        "type": "error",
                        "message": f"table {pretty_code(code)} was removed by your lecturer",
                    }
                )
            return 0
        moving = self._show(code, snap, force, only)
        for page, was, to in moving:
            await self._send_on(page, was, to)
        return len(moving)

    def _show(
        self, code: str, snap: SeatSnapshot, force: bool = False, only: Page | None = None
    ) -> list[tuple[Page, Ticket, str]]:
        """Send the pages of table ``code`` (or ``only``) their views of ``snap``; the pages
        whose seat's student moved on to a new group, with their ticket and the table the
        student went to (the caller sends them on)."""
        info, states, clock, held, moved = snap
        if only is None and not force and self.seen.get(code, -1) >= info.version:
            return []
        now = time.time()
        views: dict[int, dict[str, Any]] = {}
        moving = []
        for page in [only] if only is not None else list(self.pages.get(code, ())):
            if page.ticket is None or info.version < page.version:
                continue  # a newer view already went to this page
            seat = page.ticket.seat
            if seat in moved:
                moving.append((page, page.ticket, moved[seat]))
                continue
            if page.claimed and info.seats[seat].joined != page.joined:  # freed, or re-keyed
                self.leave(page)
                page.ticket = None
                page.send(
                    {
                        "type": "error",
                        "message": f"your lecturer gave seat {seat + 1} of table "
                        f"{pretty_code(code)} to someone else: join again",
                        "lost": True,
                    }
                )
                continue
            if seat not in views:
                views[seat] = seat_view(info, states, seat, clock, now, held)
            page.version = info.version
            page.send(views[seat])
        if only is None:  # a view shown to one page alone is still to be pushed to the others
            self.seen[code] = max(self.seen.get(code, -1), info.version)
        known = self.turns.get(code)
        if code in self.pages and (known is None or known.version < info.version):
            self.turns[code] = Turn.of(info, states)
        self.projectors.poke()
        state = states[-1] if states else None
        if (
            state is not None
            and info.status == PLAYING
            and not state.is_over
            and (not info.seats[state.current_player].is_human or state.current_player in held)
        ):
            self._nudge_later(code, len(states) - 1)
        return moving

    def _nudge_later(self, code: str, step: int) -> None:
        """Move a bot left to move at ``step`` after ``BOT_GRACE_SECONDS``, if still needed."""
        if self._loop is None or (code, step) in self._nudges:
            return
        self._nudges.add((code, step))

        def nudge() -> None:
            self._nudges.discard((code, step))
            self._loop.create_task(self._nudge(code, step))

        self._loop.call_later(BOT_GRACE_SECONDS, nudge)

    async def _nudge(self, code: str, step: int) -> None:
        try:
            if (await self._run(self.store.info, code)).step == step and await self._run(
                self.store.move_bots, code
            ):
                await self.push(code)
        except Exception:  # the table went away, the store hiccuped: the poll tries again
            LOG.exception("moving the bots of table %s", code)

    async def changed(self, code: str | None = None, version: int | None = None) -> None:
        """A table changed elsewhere (``code``, at ``version`` if known; None: look at every
        watched table)."""
        if code is not None:
            self.projectors.poke()  # a projector may show it with no student page here
            if version is None or self.seen.get(code, -1) < version:  # else: shown already
                await self.push(code)
            return
        if not self.pages:
            return
        versions = await self._run(self.store.versions)
        stale = [t for t in list(self.pages) if versions.get(t) != self.seen.get(t)]
        await asyncio.gather(*(self.push(t, force=t not in versions) for t in stale))

    async def tick(self) -> None:
        """Play the turn timers that ran out (any server may: the store lets one win)."""
        for code, step in await self._run(self.store.due, time.time()):
            try:
                if await self._run(self.store.time_out, code, step):
                    await self.push(code)
            except ClassroomError:
                pass  # another server moved first

    # --- following the store -----------------------------------------------------------------------
    def start(self) -> None:
        """Follow the store from the running event loop (and, on PostgreSQL, LISTEN)."""
        self._loop = asyncio.get_running_loop()
        warm_up()
        self._tasks = [
            self._loop.create_task(self._every(self.poll_seconds, self.changed)),
            self._loop.create_task(self._every(0.5, self.tick)),
            self._loop.create_task(self.projectors.follow(self.poll_seconds)),
        ]
        if self.listen:
            try:  # listening before the first page comes: no change it should see goes unseen
                first = self._listening()
            except Exception:  # the database is out of reach: the thread tries again
                LOG.exception("listening to the classroom store")
                first = None
            self._listener = threading.Thread(
                target=self._listen, args=(first,), name="mogul-hall-listen", daemon=True
            )
            self._listener.start()

    def stop(self) -> None:
        """Stop following the store."""
        self._stopping.set()
        for task in self._tasks:
            task.cancel()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)

    async def _every(self, seconds: float, work: Callable[[], Any]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await work()
            except Exception:  # a database hiccup: log it, try again next time
                LOG.exception("following the classroom store")

    def _listening(self) -> Any:
        """PostgreSQL: a connection of its own that LISTENs on the store's channel."""
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        conn = psycopg.connect(url, autocommit=True)
        conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
        return conn

    def _listen(self, conn: Any = None) -> None:
        """Hand each table change NOTIFY names on ``conn`` (a ``_listening`` one, or a new one)
        to the loop (a move this hall made and pushed comes back too, and is skipped there),
        listening again if the connection breaks."""
        while not self._stopping.is_set():
            try:
                with conn or self._listening() as listening:
                    while not self._stopping.is_set():
                        for note in listening.notifies(timeout=1.0):
                            code, _, version = note.payload.partition(":")
                            news = self.changed(code, int(version) if version else None)
                            asyncio.run_coroutine_threadsafe(news, self._loop)
            except Exception:  # the database restarted: listen again (the poll covers the gap)
                LOG.exception("listening to the classroom store")
                self._stopping.wait(1.0)
            conn = None


__all__ = [
    "Hall",
    "Page",
    "PRACTICE",
    "practice_table",
    "warm_up",
]
