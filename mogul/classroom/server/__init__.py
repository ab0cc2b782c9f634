"""The student pages of a lecture hall, served without a kernel per student.

A Jupyter server extension (as Voila is): ``jupyter server`` with this module enabled serves
``/mogul/hall/`` (the student page: a small script and style sheet from ``static/``,
nothing from the internet) and ``/mogul/hall/ws`` (the page's WebSocket to the ``Hall``,
which renders each seat's view and pushes every change). The same handlers run without
Jupyter as ``python -m mogul.classroom.server`` (the benchmark and the tests start several of
these on one PostgreSQL store). The store is ``$MOGUL_CLASSROOM`` (``mogul.classroom.database``).

The student pages ask for no Jupyter token: the page is for students, and what it can do is
checked by the seat key of each request. The lecturer's projector page, ``/mogul/hall/projector``
(``?session=``; default the newest session) with its socket ``/mogul/hall/projector/ws``, is
behind the lecturer's token: in Jupyter the server's own (its token or login cookie, as the
Voila dashboard), without Jupyter the ``--token`` the command prints.
"""

from __future__ import annotations

import hmac
import json
from pathlib import Path
from typing import Any

import tornado.web
import tornado.websocket

from mogul.classroom.projector import student_address
from mogul.classroom.server.hall import Hall, Page
from mogul.classroom.store import TableStore

STATIC = Path(__file__).parent / "static"
PATH = "mogul/hall"
"""Where the student page lives on the server (below the server's base URL)."""
MAX_MESSAGE = 4096
"""The longest message a page may send (a join or a move is far shorter)."""
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


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
    """A student page's connection to the hall: JSON messages both ways."""

    def initialize(self, hall: Hall) -> None:
        self.hall = hall
        self.page = Page(self._send)

    @property
    def max_message_size(self) -> int:
        return (
            16 * MAX_MESSAGE
        )  # longer than a request may be gets a sentence; far longer, a closed socket

    def get_compression_options(self) -> dict[str, Any] | None:
        return {}  # the views are HTML: they compress well

    async def on_message(self, message: str | bytes) -> None:
        # tornado reads this page's next message only once this one is answered
        if len(message) > MAX_MESSAGE:
            self._send({"type": "error", "message": "that request is too long"})
            return
        try:
            parsed = json.loads(message)
        except ValueError:
            parsed = None
        await self.hall.handle(self.page, parsed)

    def on_close(self) -> None:
        self.hall.leave(self.page)

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.write_message(json.dumps(message))
        except tornado.websocket.WebSocketClosedError:
            self.hall.leave(self.page)


class ProjectorPage(tornado.web.RequestHandler):
    """The lecturer's projector page (one HTML file; its script opens ``projector/ws``)."""

    def initialize(self, token: str | None = None) -> None:
        self.lecturer_token = token

    def lecturer(self) -> bool:
        """True for the lecturer: the request carries the token (``?token=``)."""
        given = self.get_argument("token", "")
        return bool(self.lecturer_token and given) and hmac.compare_digest(
            given, self.lecturer_token
        )

    def get(self) -> None:
        if not self.lecturer():
            raise tornado.web.HTTPError(403, reason="the projector page needs the lecturer's token")
        for name, value in SECURITY.items():
            self.set_header(name, value)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.write((STATIC / "projector.html").read_bytes())


class ProjectorSocket(tornado.websocket.WebSocketHandler):
    """The projector page's connection: the hall sends it the session's tables when they change."""

    def initialize(self, hall: Hall, token: str | None = None) -> None:
        self.hall, self.lecturer_token = hall, token

    lecturer = ProjectorPage.lecturer

    async def get(self, *args: Any, **kwargs: Any) -> None:
        if not self.lecturer():
            raise tornado.web.HTTPError(403, reason="the projector needs the lecturer's token")
        await super().get(*args, **kwargs)

    def get_compression_options(self) -> dict[str, Any] | None:
        return {}

    async def open(self) -> None:
        session = self.get_argument("session", None)
        await self.hall.projectors.watch(self._send, session)

    def on_message(self, message: str | bytes) -> None:
        pass  # the projector only listens

    def on_close(self) -> None:
        self.hall.projectors.leave(self._send)

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.write_message(json.dumps(message))
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
        (root + "/static/(.*)", tornado.web.StaticFileHandler, {"path": str(STATIC)}),
    ]


def make_app(hall: Hall, token: str | None = None) -> tornado.web.Application:
    """A tornado application serving only the student pages (``/`` goes to them) and the
    projector page (behind ``token``; None: nobody may open it)."""
    return tornado.web.Application(
        [
            (r"/", tornado.web.RedirectHandler, {"url": "/" + PATH + "/"}),
            *handlers(hall, token=token),
        ]
    )


def jupyter_lecturer() -> tuple[type, type]:
    """The projector's handlers checked by the Jupyter server's own login (its token or its
    cookie, as for the Voila dashboard) instead of a token of ours."""
    from jupyter_server.base.handlers import JupyterHandler

    class JupyterProjectorPage(ProjectorPage, JupyterHandler):
        def lecturer(self) -> bool:
            return self.current_user is not None

        @tornado.web.authenticated  # else Jupyter's login page
        def get(self) -> None:
            super().get()

    class JupyterProjectorSocket(ProjectorSocket, JupyterHandler):
        lecturer = JupyterProjectorPage.lecturer

        def set_default_headers(self) -> None:
            pass  # Jupyter's page headers mean nothing on a WebSocket

    return JupyterProjectorPage, JupyterProjectorSocket


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
    "handlers",
    "jupyter_lecturer",
    "make_app",
]
