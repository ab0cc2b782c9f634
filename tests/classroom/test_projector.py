"""The projector page: what it shows of a session's tables, that it is the lecturer's only, and
that it follows the tables live over its WebSocket (a join made through the hall, and a change
made by another process on the same store)."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from tornado.httpclient import AsyncHTTPClient
from tornado.websocket import websocket_connect

from mogul.classroom import server
from mogul.classroom.desk import Desk
from mogul.classroom.projector import (
    Projectors,
    projector_path,
    qr_scale,
    qr_svg,
    seats_joined,
    table_address,
    table_state,
)
from mogul.classroom.server.hall import Hall
from mogul.classroom.store import TableStore

ADDRESS = "http://10.0.0.7:8866/mogul/hall/"
TOKEN = "lecturer-secret"


@pytest.fixture
def store(tmp_path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    yield s
    s.close()


def test_each_table_says_where_it_is_and_the_class_how_many_joined(store: TableStore) -> None:
    waiting = store.create_table("classic", ["human", "human", "value"], session="Mon", seed=1)
    playing = store.create_table("classic", ["human", "human", "value"], session="Mon", seed=2)
    store.join(waiting.code, "Ann")
    for name in ("Ben", "Cy"):
        store.join(playing.code, name)
    infos = store.tables("Mon")
    assert seats_joined(infos) == (3, 4)  # the bots's seat is not one to join
    assert table_state(infos[0], []) == "1 of 2 seats taken"
    assert table_state(infos[1], store.history(playing.code)) == "round 1 &middot; playing"
    store.pause(playing.code)
    paused = store.info(playing.code)
    assert table_state(paused, store.history(playing.code)) == "round 1 &middot; <b>paused</b>"
    store.end(playing.code)
    ended = store.info(playing.code)
    assert table_state(ended, store.history(playing.code)) == "round 1 &middot; ended"


def test_students_sent_on_to_new_groups_are_counted_once_at_their_new_table(
    store: TableStore,
) -> None:
    # Two tables of two students and a bot play one round of sealed bids; a third table waits
    # for its second student. New groups seat the four at two new tables: each still one
    # student, and their old seats no longer seats to fill.
    made = Desk(store).create_tables(
        "Mon", "second-price-auction", 2, 1, "equilibrium", 3, 0, {"rounds": 1, "budget": 5}
    )
    for t, info in enumerate(made[:2]):
        for ticket in [store.join(info.code, f"S{t}{i}") for i in range(2)]:
            store.act(ticket, store.info(info.code).step, "bid 3")
    store.join(made[2].code, "Late")
    projector = Hall(store, address=ADDRESS).projectors
    assert "<b>5 of 6</b> seats joined" in projector.draw("Mon")
    assert Desk(store).regroup("Mon")[0] == "New groups: 4 students at 2 new tables."
    infos = store.tables("Mon")
    assert len(infos) == 5 and seats_joined(infos) == (9, 10)  # each of the four twice
    moved = store.moved_seats("Mon")
    assert moved == {(info.code, seat) for info in made[:2] for seat in (0, 1)}
    assert seats_joined(infos, moved) == (5, 6)
    assert "<b>5 of 6</b> seats joined" in projector.draw("Mon")


def test_the_qr_code_opens_the_student_page_with_the_table_filled_in(store: TableStore) -> None:
    code = store.create_table("classic", ["human"] * 3, session="Mon", seed=1).code
    pretty = f"{code[:4]}-{code[4:]}"
    assert table_address(ADDRESS, code) == f"{ADDRESS}?table={pretty}"
    assert table_address(ADDRESS + "?lang=en", code) == f"{ADDRESS}?lang=en&table={pretty}"
    hall = Hall(store, address=ADDRESS)
    page = hall.projectors.draw("Mon")
    assert f'<div class="code">{pretty}</div>' in page
    assert qr_svg(table_address(ADDRESS, code), scale=qr_scale(1)) in page  # that text, no other
    assert "<b>0 of 3</b> seats joined" in page and f"<b>{ADDRESS}</b>" in page
    assert "http" not in re.sub(r"<svg.*?</svg>", "", page).replace(ADDRESS, "")  # nothing fetched
    assert [qr_scale(n) for n in (1, 4, 10, 20, 40)] == [14, 7, 5, 3, 2]
    assert projector_path("Mon 3") == "/mogul/hall/projector?session=Mon+3"
    assert projector_path(base_url="/class/") == "/class/mogul/hall/projector"


def test_the_projector_page_is_the_lecturers_and_follows_the_tables_live(
    store: TableStore,
) -> None:
    code = store.create_table("classic", ["human"] * 3, session="Mon", seed=1).code
    store.create_table("classic", ["human"] * 3, session="Older", seed=1)
    store.create_table("classic", ["human"] * 3, session="Newest", seed=1)

    async def visit() -> None:
        hall = Hall(store, address=ADDRESS)
        app = server.make_app(hall, token=TOKEN)
        http = app.listen(0, address="127.0.0.1")
        hall.start()
        port = next(iter(http._sockets.values())).getsockname()[1]
        base = f"http://127.0.0.1:{port}/mogul/hall"
        client = AsyncHTTPClient()
        for query in ("", "?token=", "?token=wrong", "?session=Mon"):
            refused = await client.fetch(f"{base}/projector{query}", raise_error=False)
            assert refused.code == 403, query
            assert refused.reason == "the projector page needs the lecturer's token"
        # the token opens the page once, then leaves the address the room reads (issue 36)
        entry = await client.fetch(
            f"{base}/projector?session=Mon&token={TOKEN}", follow_redirects=False, raise_error=False
        )
        assert (
            entry.code == 302 and entry.headers["Location"] == "/mogul/hall/projector?session=Mon"
        )
        cookie = entry.headers["Set-Cookie"]
        assert (
            TOKEN not in cookie and "HttpOnly" in cookie and "Path=/mogul/hall/projector" in cookie
        )
        page = await client.fetch(
            f"{base}/projector?session=Mon", headers={"Cookie": cookie.split(";")[0]}
        )
        forged = await client.fetch(
            f"{base}/projector?session=Mon",
            headers={"Cookie": "mogul-projector=x"},
            raise_error=False,
        )
        assert forged.code == 403
        assert b'<script src="static/projector.js">' in page.body
        assert "default-src 'self'" in page.headers["Content-Security-Policy"]
        assert b"http" not in page.body.lower().replace(b"http-equiv", b"")
        script = await client.fetch(f"{base}/static/projector.js")
        assert b"projector/ws" in script.body and b"//cdn" not in script.body
        with pytest.raises(Exception, match="403"):
            await websocket_connect(f"ws://127.0.0.1:{port}/mogul/hall/projector/ws?session=Mon")

        async def shows(ws) -> str:
            return json.loads(await asyncio.wait_for(ws.read_message(), 10))["html"]

        newest = await websocket_connect(f"{base.replace('http', 'ws')}/projector/ws?token={TOKEN}")
        assert "Newest" in await shows(newest)  # no session named: the newest
        newest.close()
        projector = await websocket_connect(
            f"{base.replace('http', 'ws')}/projector/ws?session=Mon&token={TOKEN}"
        )
        assert "<b>0 of 3</b> seats joined" in await shows(projector)
        phone = await websocket_connect(f"ws://127.0.0.1:{port}/mogul/hall/ws")
        await phone.write_message(json.dumps({"op": "join", "table": code, "name": "Ann"}))
        assert "<b>1 of 3</b> seats joined" in await shows(projector)  # a join made here
        elsewhere = TableStore(store.url)  # another server process on the same store
        elsewhere.join(code, "Ben")
        elsewhere.join(code, "Cy")
        seen = await shows(projector)
        while "3 of 3" not in seen:  # the two joins may come as one redraw or as two
            seen = await shows(projector)
        assert "round 1 &middot; playing" in seen
        elsewhere.close()
        phone.close()
        projector.close()
        await asyncio.sleep(0.2)
        assert hall.projectors.pages == {}  # a closed page is forgotten
        hall.stop()
        http.stop()

    asyncio.run(visit())


def test_a_projector_page_opened_later_does_not_leave_the_first_one_behind(
    store: TableStore,
) -> None:
    """Opening a second page of a session (the dashboard beside the projector) draws the
    tables as they are now: the first page must get that drawing too, not wait for the next
    change (the second page's drawing marks the session's versions as drawn)."""
    code = store.create_table("classic", ["human"] * 3, session="Mon", seed=1).code

    async def run(work, *args):
        return work(*args)

    async def visit() -> tuple[list[str], list[str]]:
        projectors = Projectors(store, ADDRESS, run)
        following = asyncio.create_task(projectors.follow(0.05))
        first: list[str] = []
        second: list[str] = []
        await projectors.watch(lambda m: first.append(m["html"]), "Mon")
        elsewhere = TableStore(store.url)  # a join on another server: this one is not poked
        elsewhere.join(code, "Ben")
        elsewhere.close()
        await projectors.watch(lambda m: second.append(m["html"]), "Mon")
        await asyncio.sleep(0.3)  # several looks at the store
        following.cancel()
        return first, second

    first, second = asyncio.run(visit())
    assert "<b>0 of 3</b> seats joined" in first[0]
    assert "<b>1 of 3</b> seats joined" in second[-1]
    assert "<b>1 of 3</b> seats joined" in first[-1]
