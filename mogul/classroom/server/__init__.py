"""The student pages of a lecture hall, served without a kernel per student.

A Jupyter server extension (as Voila is): ``jupyter server`` with this module enabled serves
``/mogul/hall/`` (the student page: a small script and style sheet from ``static/``,
nothing from the internet) and ``/mogul/hall/ws`` (the page's WebSocket to the ``Hall``,
which renders each seat's view and pushes every change). The same handlers run without
Jupyter as ``python -m mogul.classroom.server`` (the benchmark and the tests start several of
these on one PostgreSQL store). The store is ``$MOGUL_CLASSROOM`` (``mogul.classroom.schema``).

These handlers ask for no Jupyter token: the page is for students, and what it can do is
checked by the seat key of each request (the lecturer's Voila dashboard on the same server
still needs the token).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import tornado.web
import tornado.websocket

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


def handlers(hall: Hall, base_url: str = "/") -> list[tuple[Any, ...]]:
    """The hall's tornado handlers below ``base_url``."""
    root = base_url.rstrip("/") + "/" + PATH
    return [
        (root + "/?", PageHandler),
        (root + "/ws", SeatSocket, {"hall": hall}),
        (root + "/static/(.*)", tornado.web.StaticFileHandler, {"path": str(STATIC)}),
    ]


def make_app(hall: Hall) -> tornado.web.Application:
    """A tornado application serving only the student pages (``/`` goes to them)."""
    return tornado.web.Application(
        [
            (r"/", tornado.web.RedirectHandler, {"url": "/" + PATH + "/"}),
            *handlers(hall),
        ]
    )


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "mogul.classroom.server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Add the student pages to a running Jupyter server (its store: ``$MOGUL_CLASSROOM``)."""
    hall = Hall(TableStore())
    web_app = serverapp.web_app
    web_app.add_handlers(".*$", handlers(hall, web_app.settings.get("base_url", "/")))
    serverapp.io_loop.add_callback(hall.start)
    serverapp.log.info(
        "Mogul's lecture hall: student pages at %s%s/ (store %r)",
        web_app.settings.get("base_url", "/"),
        PATH,
        hall.store,
    )


__all__ = ["Hall", "PageHandler", "SeatSocket", "handlers", "make_app"]
