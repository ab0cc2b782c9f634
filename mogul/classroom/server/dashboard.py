"""The lecturer's dashboard served by the hall: a page and a WebSocket, no kernel.

``/mogul/hall/dashboard`` (``?session=``; default today's date) is behind the lecturer's token,
as the projector page is (the ``--token``, which the page turns into a cookie of its own and takes off the address bar, with the
projector's cookie too, so its link opens without the token). Its socket
``/mogul/hall/dashboard/ws`` sends the session's tables whenever one changes (``Dashboards``:
the projector's follower, ``mogul.classroom.projector.Projectors``, drawing the dashboard's
cards instead of the projector's) and takes the lecturer's requests, each one of the desk's
calls (``mogul.classroom.desk``): create tables, the turn timer, start, pause or resume, end,
delete, a new seat key, free a seat, export. The page asks a second press for what cannot be
undone (End, Delete, a new seat key, Free seat).

The debrief: a session whose games have a ``debrief`` face (``GameSpec.faces``; the auction
lab: notebook 09 on the live session) gets a Debrief section. The page asks for it
(``{"op": "debrief"}``) when the lecturer opens it or presses Refresh, and again when rounds
end while it is open (every drawing of the tables says how many rounds are over; the page asks
at most every few seconds). The hall computes it on a thread of its own (the phones' store
calls keep the hall's workers), one at a time, again only when rounds ended since and at
most every ``DEBRIEF_SECONDS`` (about a second for 200 students); the figures are
plotly's JSON, drawn by the plotly.js the plotly package ships, served to the lecturer's pages
only (``dashboard/plotly.min.js``: no internet in the hall).
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import gzip
import html
import http.cookies
import importlib.metadata
import json
import logging
import time
import urllib.parse
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import tornado.web
import tornado.websocket

from mogul.classroom.database import sa
from mogul.classroom.desk import Desk, bot_choices, card_html, game_choices, setup_fields, unused
from mogul.classroom.projector import Projectors, projector_path, seats_joined
from mogul.classroom.server.hall import Hall
from mogul.classroom.table import ENDED, OVER, PAUSED, PLAYING, WAITING, ClassroomError, TableInfo
from mogul.kit.record import strict_json
from mogul.kit.spec import get_game

LOG = logging.getLogger("mogul.classroom.dashboard")
STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""The longest request the page may send (a Create is about 120 characters)."""
POLL_SECONDS = 0.25
"""How often the dashboard looks at its session's table versions (a phone's join through the
hall, a move, another server's change: on the page within this and a redraw)."""
DEBRIEF_SECONDS = 3.0
"""The shortest time between two computations of a session's debrief (a shared hall)."""
TABLE_OPS = ("start", "pause", "resume", "end", "delete", "key", "free")
"""The requests about one table (``"table"``: its code; ``key`` and ``free`` also ``"seat"``)."""


def buttons_html(info: TableInfo) -> str:
    """A card's buttons: the ones that apply to the table as it is now. ``data-confirm``
    marks what the page asks a second press for."""

    def button(op: str, label: str, confirm: bool = False, extra: str = "") -> str:
        ask = ' data-confirm="1"' if confirm else ""
        return f'<button type="button" data-op="{op}"{ask}{extra}>{label}</button>'

    row = []
    if info.status == WAITING:
        row.append(button("start", "Start now", extra=' title="free seats get bots"'))
    if info.status == PLAYING:
        row.append(button("pause", "Pause"))
    if info.status == PAUSED:
        row.append(button("resume", "Resume"))
    if info.status not in (ENDED, OVER):
        row.append(button("end", "End", confirm=True, extra=' class="danger"'))
    if unused(info):
        row.append(button("delete", "Delete", confirm=True))
    people = [s for s in info.seats if s.is_human and s.name]
    out = f'<div class="buttons">{"".join(row)}</div>'
    if people:
        options = "".join(
            f'<option value="{s.seat}">{s.seat + 1}: {html.escape(s.name)}</option>' for s in people
        )
        out += (
            f'<div class="seats"><select aria-label="Seat">{options}</select>'
            + button("key", "New seat key", True, ' title="for a student who lost theirs"')
            + button("free", "Free seat", True, ' title="for someone who took a seat not theirs"')
            + "</div>"
        )
    return out


def summary_html(
    session: str,
    infos: list[TableInfo],
    address: str,
    moved: Collection[tuple[str, int]] = frozenset(),
) -> str:
    """The line above the cards: seats joined (a student sent on to a new group counted once,
    at the new table), the student page, the projector page's link."""
    taken, total = seats_joined(infos, moved)
    projector = html.escape(projector_path(session).rsplit("/", 1)[1])  # relative: beside this page
    return (
        f"<b>{taken} of {total}</b> seats joined &middot; student page: "
        f"<code>{html.escape(address)}</code> &middot; "
        f'<a href="{projector}" target="_blank" rel="noopener">Open the projector page</a>'
    )


class Dashboards(Projectors):
    """The open dashboard pages of one hall, by session: the projector's follower (``watch``,
    ``leave``, ``poke``, ``follow``) with the dashboard's drawing. What ``draw`` returns goes
    to the pages as the message's ``"html"``: the summary line and one card per table (its
    code, version and HTML; a card is drawn again only when its table's version changed)."""

    def __init__(self, hall: Hall) -> None:
        super().__init__(hall.store, hall.projectors.address, hall.projectors.run)
        self.following: asyncio.Task | None = None
        self.drawn: dict[tuple[str, int], tuple[str, int]] = {}  # (code, version) -> card, rounds
        self.rounds: dict[str, int | None] = {}  # session -> rounds over (None: no debrief)
        self.debriefs: dict[str, tuple[int | None, float, dict[str, Any]]] = {}
        self.computing: dict[str, asyncio.Lock] = {}  # one debrief at a time per session
        # the debriefs' own thread (none where the hall has no workers: an in-memory store)
        self.thinker = ThreadPoolExecutor(1, "mogul-debrief") if hall.executor else None

    async def think(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` on the debriefs' thread (or here, without one)."""
        if self.thinker is None:
            return work(*args)
        return await asyncio.get_running_loop().run_in_executor(self.thinker, work, *args)

    def start(self) -> None:
        """Follow the store from the running event loop while a dashboard page is open."""
        if self.following is None:
            self.following = asyncio.get_running_loop().create_task(self.follow(POLL_SECONDS))

    def leave(self, send: Any) -> None:
        """Forget a dashboard page; with none left, stop following the store."""
        super().leave(send)
        if not self.pages and self.following is not None:
            self.following.cancel()
            self.following = None
        for session in [s for s in self.debriefs if s not in self.pages]:
            del self.debriefs[session]

    def draw(self, session: str) -> dict[str, Any]:  # type: ignore[override]
        """The dashboard's content for ``session`` as the store has it now (a worker thread)."""
        infos = self.store.tables(session)
        cards, rounds, debriefs = [], 0, False
        for info in infos:
            key = (info.code, info.version)
            if key not in self.drawn:
                states = self.store.history(info.code) if info.status != WAITING else []
                over = get_game(info.game).stage(states[-1]) - 1 if states else 0
                self.drawn[key] = (card_html(info, states) + buttons_html(info), over)
            card, over = self.drawn[key]
            cards.append({"code": info.code, "version": info.version, "html": card})
            if get_game(info.game).faces.get("debrief"):
                debriefs, rounds = True, rounds + over
        self.rounds[session] = rounds if debriefs else None
        self.seen[session] = {info.code: info.version for info in infos}
        live = set(self.seen[session].items())
        for key in [k for k in list(self.drawn) if k[0] in self.seen[session] and k not in live]:
            del self.drawn[key]
        return {
            "session": session,
            "summary": summary_html(session, infos, self.address, self.store.moved_seats(session)),
            "tables": cards,
            "debrief": self.rounds[session],
        }

    async def debrief(self, session: str) -> dict[str, Any]:
        """The session's debrief for a page that asked: the last one while no round ended
        since; else computed again on the debriefs' thread, once the last one is
        ``DEBRIEF_SECONDS`` old (the pages that ask meanwhile wait for it)."""
        async with self.computing.setdefault(session, asyncio.Lock()):
            last = self.debriefs.get(session)
            if last is not None and last[0] == self.rounds.get(session):
                return last[2]
            if last is not None:
                await asyncio.sleep(last[1] + DEBRIEF_SECONDS - time.monotonic())
            rounds = self.rounds.get(session)
            content = await self.think(self.debriefed, session, rounds)
            self.debriefs[session] = (rounds, time.monotonic(), content)
            return content

    def debriefed(self, session: str, rounds: int | None) -> dict[str, Any]:
        """The debrief of every game of ``session`` that has one (the debriefs' thread):
        ``{"rounds": the rounds over it shows, "games": [{"title", "summary", "sections"}]}``."""
        out = []
        for game in sorted({info.game for info in self.store.tables(session)}):
            spec = get_game(game)
            if not spec.faces.get("debrief"):
                continue
            try:
                part = spec.face("debrief")(self.store, session)
            except Exception:  # a bug in a debrief: say so, and the class plays on
                LOG.exception("the debrief of %s in session %r failed", game, session)
                part = {
                    "summary": "The debrief could not be drawn (the hall's log says why); "
                    "the class can play on.",
                    "sections": [],
                }
            out.append({"title": spec.title, **part})
        return {"rounds": rounds, "games": out}


class DashboardPage:
    """The dashboard page (``dashboard.html``): mixed into the projector page's handler, whose
    ``lecturer`` (the token or its cookie) and ``_pass`` it uses."""

    def initialize(self, token: str | None, headers: Mapping[str, str], cookie: str) -> None:
        self.lecturer_token, self.page_headers, self.lecturer_cookie = token, headers, cookie

    def remember_lecturer(self) -> None:
        """Let this browser in without the token: the dashboard's cookie, and the projector's (its link on the page opens without the token)."""
        if not self.lecturer_token:
            return
        folder = self.request.path.rsplit("/", 1)[0]
        for path in (self.request.path, folder + "/projector"):  # one name: two headers
            cookie = http.cookies.SimpleCookie({self.lecturer_cookie: self._pass()})
            cookie[self.lecturer_cookie].update(
                {"path": path, "httponly": True, "samesite": "Strict"}
            )
            self.add_header("Set-Cookie", cookie[self.lecturer_cookie].OutputString())

    def get(self) -> None:
        if not self.lecturer():
            raise tornado.web.HTTPError(403, reason="the dashboard needs the lecturer's token")
        if "token" in self.request.query_arguments:  # in, now off the address bar
            self.remember_lecturer()
            session = self.get_argument("session", None)
            query = "" if session is None else "?" + urllib.parse.urlencode({"session": session})
            self.redirect(self.request.path + query)
            return
        for name, value in self.page_headers.items():
            self.set_header(name, value)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.write((STATIC / "dashboard.html").read_bytes())


@functools.cache
def plotly_js() -> tuple[bytes, bytes]:
    """The plotly.js that the installed plotly package ships, as it is and gzipped (made once)."""
    from plotly.offline import get_plotlyjs

    script = get_plotlyjs().encode()
    return script, gzip.compress(script, compresslevel=6, mtime=0)


def plotly_path() -> str:
    """The script's address, relative to the dashboard page, with the plotly version (a new
    version is a new address, so a browser may keep the script for a day)."""
    return f"dashboard/plotly.min.js?v={importlib.metadata.version('plotly')}"


class PlotlyScript:
    """plotly.js for the dashboard's debrief, to the lecturer only (the dashboard's cookie):
    mixed into the projector page's handler, whose ``lecturer`` it uses."""

    def initialize(self, token: str | None) -> None:
        self.lecturer_token = token

    async def get(self) -> None:
        if not self.lecturer():
            raise tornado.web.HTTPError(403, reason="the debrief's script is the lecturer's")
        # read and packed once, off the event loop (a third of a second the phones never wait)
        plain, packed = await asyncio.get_running_loop().run_in_executor(None, plotly_js)
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "private, max-age=86400")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Vary", "Accept-Encoding")
        if "gzip" in self.request.headers.get("Accept-Encoding", ""):
            self.set_header("Content-Encoding", "gzip")
            self.write(packed)
        else:
            self.write(plain)


class DashboardSocket:
    """The dashboard page's connection: the session's tables when they change, one way; the
    lecturer's requests, the other (see the module docstring). Mixed into the projector's
    socket handler, whose ``lecturer`` it uses."""

    def initialize(self, hall: Hall, dashboards: Dashboards, token: str | None = None) -> None:
        self.hall, self.dashboards, self.lecturer_token = hall, dashboards, token
        self.desk = Desk(hall.store)
        self.session = ""

    async def get(self, *args: Any, **kwargs: Any) -> None:
        if not self.lecturer():
            raise tornado.web.HTTPError(403, reason="the dashboard needs the lecturer's token")
        await tornado.websocket.WebSocketHandler.get(self, *args, **kwargs)

    @property
    def max_message_size(self) -> int:
        return 16 * MAX_MESSAGE

    async def open(self) -> None:
        self.session = self.get_argument("session", "").strip()[:80] or (
            datetime.date.today().isoformat()
        )
        games = game_choices()
        self._send(
            {
                "type": "setup",
                "session": self.session,
                "games": games,
                "bots": {edition: bot_choices(edition) for _, edition in games},
                "setups": {edition: setup_fields(edition) for _, edition in games},
                "plotly": plotly_path(),
            }
        )
        self.dashboards.start()
        await self.dashboards.watch(self._send, self.session)

    async def on_message(self, message: str | bytes) -> None:
        try:
            if len(message) > MAX_MESSAGE:
                raise ClassroomError("that request is too long")
            request = strict_json(message, "the request", max_depth=2)
            if not isinstance(request, dict):
                raise ClassroomError("the page sent something that is not a request")
            if request.get("op") == "debrief":
                self._send({"type": "debrief", **await self.dashboards.debrief(self.session)})
                return
            said, code = await self.dashboards.run(self.act, request)
        except (ClassroomError, ValueError) as err:
            self._send({"type": "message", "html": html.escape(str(err)), "error": True})
            return
        except sa.exc.OperationalError:
            LOG.exception("the classroom store failed the dashboard's request")
            said = "the table store did not answer; try again in a moment"
            self._send({"type": "message", "html": said, "error": True})
            return
        self._send({"type": "message", "html": said, "error": False})
        moved, self.moved = getattr(self, "moved", {}), {}
        if moved:  # new groups: the students' pages go to their new tables
            await self.hall.move_pages(moved)
        self.dashboards.poke()
        if code is not None:
            await self.hall.changed(code)  # the students' pages at once

    def act(self, request: dict[str, Any]) -> tuple[str, str | None]:
        """Do what ``request`` asks (a worker thread): the sentence to show, and the table it
        changed (None: none, or several)."""
        op, desk, store, session = request.get("op"), self.desk, self.hall.store, self.session
        if op == "create":
            made = desk.create_tables(
                session,
                request.get("game"),
                request.get("people"),
                request.get("bots", 0),
                request.get("bot"),
                request.get("count"),
                request.get("timer", 0),
                request.get("setup"),
            )
            return f"Created {len(made)} table{'s' if len(made) > 1 else ''}.", None
        if op == "timer":
            return desk.set_timer(session, request.get("seconds")), None
        if op == "regroup":
            said, self.moved = desk.regroup(session)
            return said, None
        if op == "export":
            return desk.export(session)[1], None
        if op not in TABLE_OPS:
            raise ClassroomError("the page asked for something the dashboard does not do")
        code = request.get("table")
        if not isinstance(code, str) or store.info(code).session != session:
            raise ClassroomError("that table is not in this session")
        if op == "key":
            return desk.new_key(code, request.get("seat")), code
        if op == "free":
            return desk.free_seat(code, request.get("seat")), code
        if op == "delete":
            store.delete_table(code)
        else:
            getattr(store, op)(code)
        done = {"start": "started", "pause": "paused", "resume": "playing again", "end": "ended"}
        return f"Table {code[:4]}-{code[4:]} {done.get(op, 'deleted')}.", code

    def on_close(self) -> None:
        self.dashboards.leave(self._send)

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.write_message(json.dumps(message))
        except tornado.websocket.WebSocketClosedError:
            self.dashboards.leave(self._send)


def handlers(
    root: str,
    hall: Hall,
    token: str | None,
    lecturer: tuple[type, type],
    headers: Mapping[str, str],
    cookie: str,
) -> list[tuple[Any, ...]]:
    """The dashboard's handlers below ``root`` (the hall's path): ``DashboardPage``,
    ``DashboardSocket`` and ``PlotlyScript`` mixed into the projector's ``lecturer`` handlers
    (checked with ``token``), the page sent with ``headers``; the lecturer's ``cookie`` (the
    projector's name) set for both pages."""
    page, socket = lecturer
    dashboards = Dashboards(hall)
    return [
        (
            root + "/dashboard",
            type("DashboardPage", (DashboardPage, page), {}),
            {"token": token, "headers": headers, "cookie": cookie},
        ),
        (
            root + "/dashboard/ws",
            type("DashboardSocket", (DashboardSocket, socket), {}),
            {"hall": hall, "dashboards": dashboards, "token": token},
        ),
        (
            root + "/dashboard/plotly.min.js",  # the dashboard's cookie covers it
            type("PlotlyScript", (PlotlyScript, page), {}),
            {"token": token},
        ),
    ]


__all__ = [
    "DashboardPage",
    "DEBRIEF_SECONDS",
    "DashboardSocket",
    "Dashboards",
    "PlotlyScript",
    "buttons_html",
    "handlers",
    "plotly_js",
    "plotly_path",
    "summary_html",
]
