"""The lecturer's dashboard served by the hall (``mogul.classroom.server.dashboard``): the page and
its socket are the lecturer's only; each request does what it says to a SQLite store and the
page sees the tables change; a bad request changes nothing and says why."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

from mogul.classroom import server
from mogul.classroom.export import slug
from mogul.classroom.server.dashboard import buttons_html
from mogul.classroom.server.hall import Hall
from mogul.classroom.store import TableStore
from mogul.classroom.table import ENDED, PAUSED, PLAYING

ADDRESS = "http://10.0.0.7:8866/mogul/hall/"
TOKEN = "lecturer-secret"


@pytest.fixture
def store(tmp_path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    yield s
    s.close()


class Lecturer:
    """A dashboard's socket: what it sends, and the messages it got, read until one fits."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def next(self, fits: Callable[[dict[str, Any]], bool], seconds: float = 5) -> dict:
        """The next message that ``fits`` (others are skipped)."""
        async with asyncio.timeout(seconds):
            while True:
                raw = await self.ws.read_message()
                assert raw is not None, "the socket closed"
                message = json.loads(raw)
                if fits(message):
                    return message

    async def said(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send ``request``; the dashboard's answer (its message line)."""
        await self.ws.write_message(json.dumps(request))
        return await self.next(lambda m: m["type"] == "message")

    async def board(self, fits: Callable[[dict[str, Any]], bool] = lambda b: True) -> dict:
        """The next drawing of the session's tables that ``fits``."""
        return (await self.next(lambda m: m["type"] == "projector" and fits(m["html"])))["html"]


def followers() -> int:
    """How many followers of the store (``Projectors.follow``) run on this loop."""
    return sum("Projectors.follow" in repr(t.get_coro()) for t in asyncio.all_tasks())


def serve(store: TableStore, visit: Callable[[str, Hall], Any], tmp_path=None) -> None:
    """Run ``visit(base, hall)`` against a hall serving ``store`` with the lecturer's token."""

    async def run() -> None:
        hall = Hall(store, address=ADDRESS)
        http = server.make_app(hall, token=TOKEN).listen(0, address="127.0.0.1")
        hall.start()
        port = next(iter(http._sockets.values())).getsockname()[1]
        try:
            await visit(f"127.0.0.1:{port}/mogul/hall", hall)
        finally:
            hall.stop()
            http.stop()

    asyncio.run(run())


def test_the_page_and_its_socket_are_the_lecturers_only(store: TableStore) -> None:
    async def visit(base: str, hall: Hall) -> None:
        client = AsyncHTTPClient()
        for query in ("", "?token=", "?token=wrong", "?session=Mon"):
            refused = await client.fetch(f"http://{base}/dashboard{query}", raise_error=False)
            assert (refused.code, refused.reason) == (
                403,
                "the dashboard needs the lecturer's token",
            ), query
        forged = await client.fetch(
            f"http://{base}/dashboard", headers={"Cookie": "mogul-projector=x"}, raise_error=False
        )
        assert forged.code == 403
        for query in ("", "?token=wrong"):
            with pytest.raises(Exception, match="403"):
                await websocket_connect(f"ws://{base}/dashboard/ws{query}")
        # the token opens the page once; the address bar loses it, the browser keeps a cookie
        # for the dashboard and one for the projector page its link opens
        entry = await client.fetch(
            f"http://{base}/dashboard?session=Mon+3&token={TOKEN}",
            follow_redirects=False,
            raise_error=False,
        )
        assert (
            entry.code == 302 and entry.headers["Location"] == "/mogul/hall/dashboard?session=Mon+3"
        )
        cookies = entry.headers.get_list("Set-Cookie")
        assert [c.split("Path=")[1].split(";")[0] for c in cookies] == [
            "/mogul/hall/dashboard",
            "/mogul/hall/projector",
        ]
        assert all(TOKEN not in c and "HttpOnly" in c for c in cookies)
        cookie = {"Cookie": cookies[0].split(";")[0]}
        page = await client.fetch(f"http://{base}/dashboard?session=Mon", headers=cookie)
        assert b'<script src="static/dashboard.js">' in page.body
        assert "default-src 'self'" in page.headers["Content-Security-Policy"]
        assert b"http" not in page.body.lower().replace(b"http-equiv", b"")
        projector = await client.fetch(f"http://{base}/projector", headers=cookie)
        assert projector.code == 200
        script = await client.fetch(f"http://{base}/static/dashboard.js")
        assert b"dashboard/ws" in script.body and b"//cdn" not in script.body
        ws = await websocket_connect(
            HTTPRequest(f"ws://{base}/dashboard/ws?session=Mon", headers=cookie)
        )
        setup = json.loads(await ws.read_message())
        assert (
            setup["session"] == "Mon"
            and ["Mogul (Michael Schacht): classic", "classic"] in (setup["games"])
        )
        assert setup["bots"]["classic"][0] == "value"
        ws.close()
        with pytest.raises(Exception, match="403"):  # another site's page, the lecturer's cookie
            await websocket_connect(
                HTTPRequest(
                    f"ws://{base}/dashboard/ws?session=Mon",
                    headers={**cookie, "Origin": "http://elsewhere.example"},
                )
            )

    serve(store, visit)


def test_each_request_does_what_it_says_and_the_page_follows(
    store: TableStore, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("MOGUL_CLASSROOM_EXPORT", str(tmp_path / "out"))
    elsewhere_code = store.create_table("classic", ["human"] * 3, session="Other").code

    async def visit(base: str, hall: Hall) -> None:
        ws = await websocket_connect(f"ws://{base}/dashboard/ws?session=Week+3&token={TOKEN}")
        lecturer = Lecturer(ws)
        first = await lecturer.board()
        assert first["tables"] == [] and "<b>0 of 0</b> seats joined" in first["summary"]
        assert f"<code>{ADDRESS}</code>" in first["summary"]
        assert 'href="projector?session=Week+3"' in first["summary"]
        create = {"op": "create", "game": "classic", "bot": "value", "count": 2, "people": 3}
        said = await lecturer.said({**create, "bots": 1, "timer": 30})
        assert said == {"type": "message", "html": "Created 2 tables.", "error": False}
        board = await lecturer.board(lambda b: len(b["tables"]) == 2)
        infos = store.tables("Week 3")
        assert [t["code"] for t in board["tables"]] == [i.code for i in infos]
        assert [[s.kind for s in i.seats] for i in infos] == [["human"] * 3 + ["value"]] * 2
        assert [store.clock(i.code)[0] for i in infos] == [30.0, 30.0]
        first_code, second_code = (i.code for i in infos)
        assert (
            "waiting" in board["tables"][0]["html"]
            and 'data-op="start"' in board["tables"][0]["html"]
        )
        # a double click makes nothing; a bad form says why and makes nothing
        said = await lecturer.said({**create, "bots": 1, "timer": 30})
        assert said["error"] and "a moment ago" in said["html"]
        for bad, why in [
            ({"count": 0}, "Tables is a whole number from 1 to 60, got 0"),
            ({"count": "2"}, "Tables is a whole number from 1 to 60, got &#x27;2&#x27;"),
            ({"people": 9}, "People per table is a whole number from 0 to 8, got 9"),
            ({"timer": 3}, "a turn timer is from 5 to 600 seconds, got 3"),
            ({"game": "chess"}, "chess"),
            ({"people": 8, "bots": 1}, "players"),
        ]:
            said = await lecturer.said({**create, **bad})
            assert said["error"] and why in said["html"], (bad, said)
        assert len(store.tables("Week 3")) == 2
        # a student joins through the hall: the dashboard shows it
        phone = await websocket_connect(f"ws://{base}/ws")
        await phone.write_message(json.dumps({"op": "join", "table": first_code, "name": "Ann"}))
        board = await lecturer.board(lambda b: "Ann" in b["tables"][0]["html"])
        assert "<b>1 of 6</b> seats joined" in board["summary"]
        assert '<option value="0">1: Ann</option>' in board["tables"][0]["html"]
        # start: the free seats get the bot
        said = await lecturer.said({"op": "start", "table": first_code})
        assert said["html"] == f"Table {first_code[:4]}-{first_code[4:]} started."
        assert store.info(first_code).status == PLAYING
        board = await lecturer.board(lambda b: "round 1" in b["tables"][0]["html"])
        assert 'data-op="pause"' in board["tables"][0]["html"]
        await lecturer.said({"op": "pause", "table": first_code})
        assert store.info(first_code).status == PAUSED
        board = await lecturer.board(lambda b: "paused" in b["tables"][0]["html"])
        assert 'data-op="resume"' in board["tables"][0]["html"]
        await lecturer.said({"op": "resume", "table": first_code})
        assert store.info(first_code).status == PLAYING
        # a new seat key, shown here only
        said = await lecturer.said({"op": "key", "table": first_code, "seat": 0})
        assert "New seat key for Ann (seat 1" in said["html"]
        key = said["html"].split("monospace'>")[1].split("<")[0].replace("-", "")
        assert store.join(first_code, "", key).seat == 0
        # free a seat: at the table still waiting
        store.join(second_code, "Squatter")
        said = await lecturer.said({"op": "free", "table": second_code, "seat": 0})
        assert "Squatter is no longer there" in said["html"]
        assert store.info(second_code).names[0] is None
        # the wrong seat, a table of another session, an unknown request: refused
        said = await lecturer.said({"op": "free", "table": second_code, "seat": 7})
        assert said["error"] and "seat 8" in said["html"]
        said = await lecturer.said({"op": "end", "table": elsewhere_code})
        assert said == {
            "type": "message",
            "html": "that table is not in this session",
            "error": True,
        }
        assert store.info(elsewhere_code).status == "waiting"
        said = await lecturer.said({"op": "drop_tables"})
        assert said["error"] and "does not do" in said["html"]
        said = await lecturer.said({"op": "delete", "table": first_code})  # played: refused
        assert said["error"] and "end it instead" in said["html"]
        # the turn timer for every unfinished table; end; delete the unused table; export
        said = await lecturer.said({"op": "timer", "seconds": 0})
        assert said["html"] == "No turn timer" and store.clock(first_code)[0] is None
        await lecturer.said({"op": "end", "table": first_code})
        assert store.info(first_code).status == ENDED
        said = await lecturer.said({"op": "delete", "table": second_code})
        assert not said["error"] and [i.code for i in store.tables("Week 3")] == [first_code]
        board = await lecturer.board(lambda b: len(b["tables"]) == 1)
        assert (
            "ended" in board["tables"][0]["html"]
            and 'data-op="end"' not in board["tables"][0]["html"]
        )
        said = await lecturer.said({"op": "export"})
        assert (
            said["html"].startswith("Exported")
            and (tmp_path / "out" / slug("Week 3") / "session.json").is_file()
        )
        assert followers() == 2  # the projectors' and, while a dashboard is open, the dashboard's
        phone.close()
        ws.close()
        await asyncio.sleep(0.1)
        assert followers() == 1  # the dashboard's follower stops with its last page

    serve(store, visit)


def test_a_cards_buttons_are_the_ones_that_apply(store: TableStore) -> None:
    code = store.create_table("classic", ["human"] * 3, session="S", seed=1).code
    waiting = buttons_html(store.info(code))
    assert 'data-op="start"' in waiting and 'data-op="delete" data-confirm="1"' in waiting
    assert 'data-op="end" data-confirm="1"' in waiting and "<select" not in waiting
    store.join(code, "<b>Ann</b>")
    joined = buttons_html(store.info(code))
    assert 'data-op="delete"' not in joined and "&lt;b&gt;Ann&lt;/b&gt;" in joined
    assert (
        'data-op="key" data-confirm="1"' in joined and 'data-op="free" data-confirm="1"' in joined
    )
    store.join(code, "Ben")
    store.join(code, "Cy")
    playing = buttons_html(store.info(code))
    assert 'data-op="pause"' in playing and 'data-op="start"' not in playing
    store.end(code)
    ended = buttons_html(store.info(code))
    assert 'data-op="end"' not in ended and 'data-op="pause"' not in ended
