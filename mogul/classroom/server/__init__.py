"""The student pages of a lecture hall, served without a kernel per student.

A Jupyter server extension (as Voila is): ``jupyter server`` with this module enabled serves
``/mogul/hall/`` (the student page: a small script and style sheet from ``static/``,
nothing from the internet) and ``/mogul/hall/ws`` (the page's WebSocket to the ``Hall``,
which renders each seat's view and pushes every change). The same handlers run without
Jupyter as ``python -m mogul.classroom.server`` (the benchmark and the tests start several of
these on one PostgreSQL store, or one with ``--workers N``: N processes on one port). The store is ``$MOGUL_CLASSROOM`` (``mogul.classroom.database``).

The student pages ask for no Jupyter token: the page is for students, and what it can do is
checked by the seat key of each request. The lecturer's projector page, ``/mogul/hall/projector``
(``?session=``; default the newest session) with its socket ``/mogul/hall/projector/ws``, is
behind the lecturer's token: in Jupyter the server's own (its token or login cookie, as the
dashboard), without Jupyter the ``--token`` the command prints.
"""

from __future__ import annotations

import hmac
import json
import resource
import socket
import urllib.parse
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.iostream
import tornado.web
import tornado.websocket

from mogul.classroom.projector import student_address
from mogul.classroom.server import dashboard
from mogul.classroom.server.hall import Hall, Page
from mogul.classroom.server.limits import Limits
from mogul.classroom.store import TableStore
from mogul.kit.record import strict_json

STATIC = Path(__file__).parent / "static"
PATH = "mogul/hall"
"""Where the student page lives on the server (below the server's base URL)."""
MAX_MESSAGE = 4096
"""The longest message a page may send (a join or a move is far shorter)."""
MAX_DEPTH = 4
"""The deepest nesting of a page's message (a join or a move is one object of texts)."""
COOKIE = "mogul-projector"
"""The projector page's cookie (the server without Jupyter): the lecturer, without the token."""
PING_SECONDS = 30
"""How often the server pings a page's WebSocket; one silent for as long again is closed."""
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


COMPRESSION: dict[str, Any] | None = None
"""The pages' WebSockets are not compressed (permessage-deflate): a seat's view is about 6 KB,
1.3 KB deflated, a few megabits a second for a thousand students on a local network, while
each compressed socket keeps a compressor of about 300 KB (a thousand students: 300 MB) and
deflates every message on its own (``benchmarks/bench_classroom.py`` measured both)."""

_last: list[Any] = [None, ""]


def encoded(message: dict[str, Any]) -> str:
    """``message`` as JSON; the same message sent to several pages (the pages of one seat, the
    projectors of a session) is written once."""
    if _last[0] is not message:
        _last[:] = [message, json.dumps(message)]
    return _last[1]


class PageHandler(tornado.web.RequestHandler):
    """The student page (one HTML file; the table code comes from ``?table=`` in the script)."""

    def get(self) -> None:
        if not self.request.path.endswith("/"):  # relative links need the trailing slash
            self.redirect(
                self.request.path + "/" + (f"?{self.request.query}" if self.request.query else "")
            )
            return
        for name, value in SECURITY.items():
            self.set_header(name, value)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.write((STATIC / "hall.html").read_bytes())


class SeatSocket(tornado.websocket.WebSocketHandler):
    """A student page's connection to the hall: JSON messages both ways. One address may hold
    ``Limits.pages_per_address`` of these open at once."""

    def initialize(self, hall: Hall) -> None:
        self.hall = hall
        self.page = Page(self._send)
        self.admitted = False

    def open(self) -> None:
        self.page.address = self.request.remote_ip or ""
        self.admitted = self.hall.admit(self.page)
        if not self.admitted:
            self.close(1013, "too many pages open from your address")

    @property
    def max_message_size(self) -> int:
        return (
            16 * MAX_MESSAGE
        )  # longer than a request may be gets a sentence; far longer, a closed socket

    def get_compression_options(self) -> dict[str, Any] | None:
        return COMPRESSION

    async def on_message(self, message: str | bytes) -> None:
        # tornado reads this page's next message only once this one is answered
        if not self.hall.listens(self.page):  # a flood of refused requests: dropped, told once
            return
        if len(message) > MAX_MESSAGE:
            self.hall.refuse(self.page, "that request is too long")
            return
        try:
            parsed = strict_json(message, "the request", max_depth=MAX_DEPTH)
        except ValueError as err:
            self.hall.refuse(self.page, str(err))
            return
        await self.hall.handle(self.page, parsed)

    def on_close(self) -> None:
        if self.admitted:
            self.admitted = False
            self.hall.release(self.page)

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.write_message(encoded(message))
        except tornado.websocket.WebSocketClosedError:
            self.hall.leave(self.page)


class ProjectorPage(tornado.web.RequestHandler):
    """The lecturer's projector page (one HTML file; its script opens ``projector/ws``).

    The room reads the projector's address bar, so the token never stays there: opened with
    ``?token=``, the page sets a cookie of its own (HttpOnly, for the projector's path only)
    and sends the browser to the same address without the token.
    """

    def initialize(self, token: str | None = None) -> None:
        self.lecturer_token = token

    def _pass(self) -> str:
        """What the projector's cookie holds: derived from the token, not the token itself."""
        return hmac.new(self.lecturer_token.encode(), b"mogul projector", "sha256").hexdigest()

    def lecturer(self) -> bool:
        """True for the lecturer: the request carries the token (``?token=``) or the cookie
        the page set when it was opened with the token."""
        if not self.lecturer_token:
            return False
        given = self.get_argument("token", "")
        if given:
            return hmac.compare_digest(given, self.lecturer_token)
        cookie = self.get_cookie(COOKIE, "")
        return bool(cookie) and hmac.compare_digest(cookie, self._pass())

    def remember_lecturer(self) -> None:
        """Let this browser in without the token from now on (the projector's cookie)."""
        self.set_cookie(
            COOKIE, self._pass(), path=self.request.path, httponly=True, samesite="Strict"
        )

    def get(self) -> None:
        if not self.lecturer():
            raise tornado.web.HTTPError(403, reason="the projector page needs the lecturer's token")
        if "token" in self.request.query_arguments:  # in, now off the screen the room reads
            self.remember_lecturer()
            query = urllib.parse.urlencode(
                [
                    (name, value.decode("utf-8", "replace"))
                    for name, values in self.request.query_arguments.items()
                    if name != "token"
                    for value in values
                ]
            )
            self.redirect(self.request.path + (f"?{query}" if query else ""))
            return
        for name, value in SECURITY.items():
            self.set_header(name, value)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.write((STATIC / "projector.html").read_bytes())


class ProjectorSocket(tornado.websocket.WebSocketHandler):
    """The projector page's connection: the hall sends it the session's tables when they change."""

    def initialize(self, hall: Hall, token: str | None = None) -> None:
        self.hall, self.lecturer_token = hall, token

    lecturer = ProjectorPage.lecturer
    _pass = ProjectorPage._pass

    async def get(self, *args: Any, **kwargs: Any) -> None:
        if not self.lecturer():
            raise tornado.web.HTTPError(403, reason="the projector needs the lecturer's token")
        await super().get(*args, **kwargs)

    def get_compression_options(self) -> dict[str, Any] | None:
        return COMPRESSION

    async def open(self) -> None:
        session = self.get_argument("session", None)
        await self.hall.projectors.watch(self._send, session)

    def on_message(self, message: str | bytes) -> None:
        pass  # the projector only listens

    def on_close(self) -> None:
        self.hall.projectors.leave(self._send)

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.write_message(encoded(message))
        except tornado.websocket.WebSocketClosedError:
            self.hall.projectors.leave(self._send)


def handlers(
    hall: Hall,
    base_url: str = "/",
    token: str | None = None,
    lecturer: tuple[type, type] = (ProjectorPage, ProjectorSocket),
) -> list[tuple[Any, ...]]:
    """The hall's tornado handlers below ``base_url``; the projector's (``lecturer``: the page's
    and its socket's handler) ask for ``token``."""
    root = base_url.rstrip("/") + "/" + PATH
    page, socket = lecturer
    return [
        (root + "/?", PageHandler),
        (root + "/ws", SeatSocket, {"hall": hall}),
        (root + "/projector", page, {"token": token}),  # relative links: no trailing slash
        (root + "/projector/ws", socket, {"hall": hall, "token": token}),
        *dashboard.handlers(root, hall, token, lecturer, SECURITY, COOKIE),  # its page
        (root + "/static/(.*)", tornado.web.StaticFileHandler, {"path": str(STATIC)}),
    ]


def make_app(hall: Hall, token: str | None = None) -> tornado.web.Application:
    """A tornado application serving only the student pages (``/`` goes to them) and the
    projector page (behind ``token``; None: nobody may open it)."""
    return tornado.web.Application(
        [
            (r"/", tornado.web.RedirectHandler, {"url": "/" + PATH + "/"}),
            *handlers(hall, token=token),
        ],
        websocket_ping_interval=PING_SECONDS,
        websocket_ping_timeout=PING_SECONDS,
    )


def bound_connections(server: tornado.httpserver.HTTPServer, per_address: int) -> None:
    """Keep at most ``per_address`` HTTP connections of ``server`` open from one address: a
    further one is closed at once (a page's WebSocket, once open, counts among the hall's
    ``Limits.pages_per_address`` instead). Works on any tornado HTTP server, ours or Jupyter's,
    by wrapping the two methods through which its connections come and go."""
    open_from: dict[str, int] = {}
    address_of: dict[Any, str] = {}
    accept, closed = server.handle_stream, server.on_close

    def handle_stream(stream: tornado.iostream.IOStream, address: Any) -> Any:
        ip = address[0] if isinstance(address, tuple) else str(address)
        if open_from.get(ip, 0) >= per_address:
            stream.close()
            return None
        open_from[ip] = open_from.get(ip, 0) + 1
        address_of[stream] = ip
        return accept(stream, address)

    def on_close(server_conn: Any) -> None:
        closed(server_conn)
        ip = address_of.pop(server_conn.stream, None)
        if ip is not None:
            left = open_from[ip] - 1
            if left:
                open_from[ip] = left
            else:
                del open_from[ip]

    server.handle_stream = handle_stream  # type: ignore[method-assign]
    server.on_close = on_close  # type: ignore[method-assign]


def _open_files_for_sockets(limits: Limits) -> int:
    """Raise this process's bound on open files to what the system allows (every socket is a
    file); the bound on connections per address: at most half of it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return min(limits.connections_per_address, max(1, soft // 2))


def listen(
    app: tornado.web.Application,
    port: int,
    ip: str = "127.0.0.1",
    limits: Limits | None = None,
    sockets: list[socket.socket] | None = None,
) -> tornado.httpserver.HTTPServer:
    """Serve ``app`` on ``ip:port`` (or on ``sockets``, bound already: one of several worker
    processes on one port) with the hall's ``limits``: connections per address
    (``bound_connections``), and a connection that takes longer than ``header_seconds`` to send
    a request's headers or sits idle that long between requests is closed."""
    limits = limits or Limits()
    server = tornado.httpserver.HTTPServer(
        app,
        idle_connection_timeout=limits.header_seconds,
        body_timeout=limits.header_seconds,
        max_header_size=16 * 1024,
    )
    bound_connections(server, _open_files_for_sockets(limits))
    if sockets is None:
        server.listen(port, address=ip)
    else:
        server.add_sockets(sockets)
    return server


def jupyter_lecturer() -> tuple[type, type]:
    """The projector's handlers checked by the Jupyter server's own login (its token or its
    cookie, as for JupyterLab) instead of a token of ours."""
    from jupyter_server.base.handlers import JupyterHandler

    class JupyterProjectorPage(ProjectorPage, JupyterHandler):
        def lecturer(self) -> bool:
            return self.current_user is not None

        def remember_lecturer(self) -> None:
            pass  # Jupyter set its login cookie when it read the token

        @tornado.web.authenticated  # else Jupyter's login page
        def get(self) -> None:
            super().get()

    class JupyterProjectorSocket(ProjectorSocket, JupyterHandler):
        lecturer = JupyterProjectorPage.lecturer

        def set_default_headers(self) -> None:
            pass  # Jupyter's page headers mean nothing on a WebSocket

    return JupyterProjectorPage, JupyterProjectorSocket


def _bound_jupyter_server(serverapp: Any, limits: Limits) -> None:
    """Jupyter's own HTTP server (made after the extensions load) gets the hall's bound on
    connections per address and its header time-out (not the body's: notebooks upload)."""
    http = getattr(serverapp, "http_server", None)
    if http is None:
        return
    bound_connections(http, _open_files_for_sockets(limits))
    http.conn_params.header_timeout = limits.header_seconds


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "mogul.classroom.server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Add the student pages to a running Jupyter server (its store: ``$MOGUL_CLASSROOM``)."""
    base_url = serverapp.web_app.settings.get("base_url", "/")
    hall = Hall(
        TableStore(), address=student_address(serverapp.port, base_url.lstrip("/") + PATH + "/")
    )
    web_app = serverapp.web_app
    web_app.add_handlers(".*$", handlers(hall, base_url, lecturer=jupyter_lecturer()))
    serverapp.io_loop.add_callback(hall.start)
    serverapp.io_loop.add_callback(_bound_jupyter_server, serverapp, hall.limits)
    serverapp.log.info(
        "Mogul's lecture hall: student pages at %s%s/ (store %r)",
        web_app.settings.get("base_url", "/"),
        PATH,
        hall.store,
    )


__all__ = [
    "Hall",
    "PageHandler",
    "ProjectorPage",
    "ProjectorSocket",
    "SeatSocket",
    "bound_connections",
    "handlers",
    "jupyter_lecturer",
    "listen",
    "make_app",
]
