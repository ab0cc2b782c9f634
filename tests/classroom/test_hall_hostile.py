"""One client against the hall (issue 36): each test is one hostile page or client and one
attack, refused or contained, and a student beside it who is still served.

The attacks on seats run through the hall without a network (a page is a list its messages
go to); the attacks on connections run against a real server on this machine, with small
limits so that each takes a second or two.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sqlite3
import threading
import time
from typing import Any

import pytest
import tornado.httpserver
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from mogul.classroom import server
from mogul.classroom.server.hall import Hall, Page
from mogul.classroom.server.limits import FLOODED, MAX_ERROR, Limits
from mogul.classroom.store import TableStore
from mogul.classroom.table import PLAYING, WAITING, ClassroomError, Ticket, check_name


class Phone:
    """A student page without a browser, from ``address``: it keeps what the hall sends it."""

    def __init__(self, address: str = "10.0.0.1") -> None:
        self.inbox: list[dict[str, Any]] = []
        self.page = Page(self.inbox.append, address=address)

    def errors(self) -> list[str]:
        return [m["message"] for m in self.inbox if m["type"] == "error"]

    def seats(self) -> list[dict[str, Any]]:
        return [m for m in self.inbox if m["type"] == "seat"]


@pytest.fixture
def store(tmp_path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'hall.sqlite'}")
    yield s
    s.close()


def join(hall: Hall, phone: Phone, code: str, name: str) -> None:
    asyncio.run(hall.handle(phone.page, {"op": "join", "table": code, "name": name}))


# --- seats ---------------------------------------------------------------------------------------


def test_one_page_cannot_take_every_seat_of_the_room(store: TableStore) -> None:
    """The audit's socket took all 200 seats of 40 tables in 9.5 s."""
    hall = Hall(store)
    codes = [t.code for t in store.create_tables(10, "classic", ["human"] * 5, seed=1)]
    squatter = Phone()
    for n, code in enumerate(codes * 5):
        join(hall, squatter, code, f"Seat {n}")
    assert len(squatter.seats()) == Limits().joins_per_page[0] == 4
    assert squatter.errors()[-1] == "too many joins at once: wait 5 s and try again"
    student = Phone()  # the same address (one network for the whole hall): still seated
    join(hall, student, codes[-1], "Ann")
    assert [m["seat"] for m in student.seats()] == [0]


def test_one_address_is_bounded_in_open_pages_and_in_joins(store: TableStore) -> None:
    hall = Hall(store, limits=Limits(pages_per_address=3, joins_per_address=(5, 60.0)))
    pages = [Phone() for _ in range(4)]
    assert [hall.admit(p.page) for p in pages] == [True, True, True, False]
    assert hall.admit(Phone("10.0.0.2").page)  # another address is not held up
    hall.release(pages[0].page)
    assert hall.admit(pages[3].page) and hall.open_pages == {"10.0.0.1": 3, "10.0.0.2": 1}
    code = store.create_table("classic", ["human"] * 6, seed=1).code
    clients = [Phone() for _ in range(6)]
    for n, phone in enumerate(clients):  # one page each, all from one address
        join(hall, phone, code, f"Player {n}")
    assert [len(p.seats()) for p in clients] == [1, 1, 1, 1, 1, 0]
    assert "too many joins at once" in clients[-1].errors()[0]


def test_a_class_behind_one_address_comes_back_with_its_keys_past_the_address_bound(
    store: TableStore,
) -> None:
    """After a server restart every page of the room rejoins with its seat key at once: those
    take no seat, so they count against their own page only, not the address's joins (a
    class of 1,000 behind one router would wait 40 s for the last 400)."""
    hall = Hall(store, limits=Limits(joins_per_address=(3, 60.0)))
    code = store.create_table("classic", ["human"] * 3, seed=1).code
    phones = [Phone() for _ in range(3)]
    for n, phone in enumerate(phones):
        join(hall, phone, code, f"Player {n}")
    keys = [p.seats()[0]["key"] for p in phones]
    restarted = Hall(store, limits=Limits(joins_per_address=(3, 60.0)))
    restarted.address_joins = hall.address_joins  # the address has spent its joins
    back = [Phone() for _ in keys]
    for phone, key in zip(back, keys, strict=True):
        asyncio.run(restarted.handle(phone.page, {"op": "join", "table": code, "key": key}))
    assert [p.errors() for p in back] == [[], [], []]
    assert [p.seats()[0]["seat"] for p in back] == [0, 1, 2]
    newcomer = Phone()  # a join by name still counts against the address
    join(restarted, newcomer, store.create_table("classic", ["human"] * 3).code, "Dee")
    assert newcomer.errors() == ["too many joins at once: wait 60 s and try again"]


def test_the_lecturer_frees_a_seat_a_squatter_took_and_the_squatter_sees_no_more(
    store: TableStore,
) -> None:
    hall = Hall(store)
    code = store.create_table("classic", ["human"] * 3, seed=1).code
    squatters = [Phone() for _ in range(3)]
    for n, phone in enumerate(squatters):
        join(hall, phone, code, f"Squat {n}")
    assert store.info(code).status == PLAYING  # the squatters' joins dealt the game
    assert store.free_seat(code, 1).status == WAITING  # nobody moved yet: back to waiting
    assert store.info(code).names == ["Squat 0", None, "Squat 2"]
    student = Phone("10.0.0.9")
    join(hall, student, code, "Ann")  # the real student sits down and the game is dealt again
    assert student.seats()[0]["seat"] == 1 and store.info(code).status == PLAYING
    lost = [m for m in squatters[1].inbox if m.get("lost")]
    assert lost and lost[0]["message"] == (
        f"your lecturer gave seat 2 of table {code[:4]}-{code[4:]} to someone else: join again"
    )
    after = squatters[1].inbox[squatters[1].inbox.index(lost[0]) + 1 :]
    assert not [m for m in after if m["type"] == "view"]  # not a view of Ann's seat
    asyncio.run(hall.handle(squatters[1].page, {"op": "act", "step": 0, "action": "bid"}))
    assert squatters[1].errors()[-1] == "join a table first"
    # once a person has moved, the seat is not freed: the store says what to do instead
    mover = next(p for p in [*squatters, student] if p.page.ticket and p.inbox[-1].get("moves"))
    action = mover.inbox[-1]["moves"][0][1]
    asyncio.run(hall.handle(mover.page, {"op": "act", "step": 0, "action": action}))
    with pytest.raises(ClassroomError, match="give the seat a new key, or end the table"):
        store.free_seat(code, 0)


def test_a_page_coming_back_is_not_told_it_lost_its_seat_by_an_older_snapshot(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A push already under way when a page rejoins carries a snapshot from before: its seat's
    claim looks different there, and that is no news (seen with two servers and a kill)."""
    hall = Hall(store)
    code = store.create_table("classic", ["human"] * 3, seed=1).code
    first = Phone()
    join(hall, first, code, "Ann")
    before = store.snapshot(code)
    key = first.seats()[0]["key"]
    hall.leave(first.page)
    snapshot = store.snapshot

    def with_a_push_under_way(code: str):  # the older snapshot lands while the join waits
        hall._show(code, before, force=True)
        return snapshot(code)

    monkeypatch.setattr(store, "snapshot", with_a_push_under_way)
    again = Phone()
    asyncio.run(hall.handle(again.page, {"op": "join", "table": code, "key": key}))
    assert again.errors() == [] and again.page.ticket is not None
    assert again.inbox[-1]["type"] == "view" and again.inbox[-1]["name"] == "Ann"


def test_an_error_sentence_is_bounded_whatever_the_page_sent(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 10 MB table code must not come back as a 10 MB message."""
    hall = Hall(store)

    def quoting(code: str, name: str, key: str | None) -> None:
        raise ClassroomError(f"there is no table {code!r}")

    monkeypatch.setattr(store, "join", quoting)
    phone = Phone()
    join(hall, phone, "A" * 10_000_000, "Ann")
    (error,) = phone.errors()
    assert len(error) == MAX_ERROR and error.startswith("there is no table 'AAAA")


def test_a_refused_click_comes_back_while_another_process_holds_the_write_lock(
    store: TableStore,
) -> None:
    """An out-of-turn click and a wrong key are refused at once, with one sentence, while
    SQLite's write lock is held elsewhere (issue 39: every click took the lock first); a legal
    click waits for the lock and then lands, once."""
    hall = Hall(store)
    code = store.create_table("classic", ["human"] * 3, seed=1).code
    phones = [Phone() for _ in range(3)]
    for n, phone in enumerate(phones):
        join(hall, phone, code, f"Player {n}")
    mover = next(p for p in phones if p.inbox[-1]["moves"])
    idle = next(p for p in phones if p is not mover)
    step, action = mover.inbox[-1]["step"], mover.inbox[-1]["moves"][0][1]
    forged = Phone()  # a page holding the mover's seat with a key that is not its own
    forged.page.ticket = Ticket(code, mover.page.ticket.seat, "AAAABBBBCCCC")
    forged.page.version = idle.page.version
    holder = sqlite3.connect(store.url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is writing, and takes its time

    def click(phone: Phone) -> threading.Thread:
        message = {"op": "act", "step": step, "action": action}
        thread = threading.Thread(target=asyncio.run, args=(hall.handle(phone.page, message),))
        thread.start()
        return thread

    try:
        for phone in (idle, forged):
            phone.inbox.clear()
            click(phone).join(5)
        refused = [list(idle.inbox), list(forged.inbox)]  # back while the lock is held
        legal = click(mover)
        legal.join(0.5)
        assert legal.is_alive()  # a move that may be played waits for the lock
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    legal.join(10)
    name = store.info(code).names[mover.page.ticket.seat]
    assert refused == [  # one sentence each, and no view: the pages are up to date
        [{"type": "error", "message": f"it is {name}'s turn, not yours"}],
        [{"type": "error", "message": "this page does not hold the key of that seat"}],
    ]
    assert store.actions(code) == [action] and mover.inbox[-1]["step"] == step + 1


@pytest.mark.parametrize(
    "name", ["\u0301" * 24, "a" + "\u0301" * 23, "\u0301\u0302\u0303", "\u0489" * 10]
)
def test_a_name_of_combining_marks_is_refused(name: str) -> None:
    with pytest.raises(ClassroomError, match="a name needs a letter or digit"):
        check_name(name)


@pytest.mark.parametrize("name", ["Zoë", "Nguyễn Thị", "हिन्दी", "Ana-María", "Jürgen 2", "李雷"])
def test_names_people_have_still_pass(name: str) -> None:
    assert check_name(name) == name


# --- connections --------------------------------------------------------------------------------


async def _serve(
    store: TableStore, limits: Limits
) -> tuple[Hall, tornado.httpserver.HTTPServer, int]:
    """The hall served as ``mogul classroom`` serves it (``listen``)."""
    hall = Hall(store, limits=limits)
    http = server.listen(server.make_app(hall), 0, "127.0.0.1", limits)
    port = next(iter(http._sockets.values())).getsockname()[1]
    return hall, http, port


def _page_load(port: int) -> bytes:
    """The student page's first bytes, as a browser asks; b"" if the server closed on us."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        try:
            s.sendall(b"GET /mogul/hall/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return s.recv(100)
        except ConnectionResetError:
            return b""


async def _closed(s: socket.socket, seconds: float) -> bool:
    """True if the server closes ``s`` within ``seconds`` (sending nothing)."""
    try:
        return await asyncio.wait_for(asyncio.get_running_loop().sock_recv(s, 10), seconds) == b""
    except ConnectionResetError:
        return True


def test_slow_and_half_sent_requests_are_bounded_per_address_and_timed_out(
    store: TableStore,
) -> None:
    """1,050 half-sent requests from one address, 300 slowloris connections held for 20 s:
    on the class's server (``mogul classroom``)."""
    limits = Limits(connections_per_address=5, header_seconds=0.5)

    async def attack() -> tuple[bool, bytes, list[bool], float, bytes]:
        hall, http, port = await _serve(store, limits)
        slow = []
        for _ in range(6):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /mogul/hall/ HTTP/1.1\r\nHost: x\r\n")  # and never the end
            s.setblocking(False)
            slow.append(s)
        loop = asyncio.get_running_loop()
        sixth = await _closed(slow[5], 2)  # closed at once
        held = await loop.run_in_executor(None, _page_load, port)  # 5 open: none is free
        start = time.monotonic()
        for s in slow[:5]:  # a byte now and then does not keep a connection
            s.send(b"X")
        ended = await asyncio.gather(*(_closed(s, 3) for s in slow[:5]))
        took = time.monotonic() - start
        served = await loop.run_in_executor(None, _page_load, port)
        for s in slow:
            s.close()
        http.stop()
        return sixth, held, ended, took, served

    sixth, held, ended, took, served = asyncio.run(attack())
    assert sixth and held == b""  # refused: the address holds its 5
    assert ended == [True] * 5 and took < 1.0  # the header time-out closed every slow one
    assert served.startswith(b"HTTP/1.1 200")


def test_one_client_cannot_open_more_pages_than_its_address_may(store: TableStore) -> None:
    """1,500 WebSockets from one client were all accepted."""
    limits = Limits(pages_per_address=3)

    async def attack() -> tuple[list[int | None], str]:
        hall, http, port = await _serve(store, limits)
        url = f"ws://127.0.0.1:{port}/mogul/hall/ws"
        sockets = [await connect(url) for _ in range(4)]
        codes = []
        for ws in sockets:
            try:
                await asyncio.wait_for(ws.recv(), 0.5)
                codes.append(None)
            except ConnectionClosed as closed:
                codes.append(closed.rcvd.code if closed.rcvd else -1)
            except TimeoutError:
                codes.append(None)  # open and quiet: admitted
        await sockets[0].close()
        await asyncio.sleep(0.1)
        again = await connect(url)  # one closed: one more may open
        await again.send(json.dumps({"op": "join", "table": "ABCD-2345", "name": "Ann"}))
        answer = json.loads(await asyncio.wait_for(again.recv(), 5))["message"]
        for ws in [*sockets, again]:
            await ws.close()
        http.stop()
        return codes, answer

    codes, answer = asyncio.run(attack())
    assert codes == [None, None, None, 1013]
    assert answer == "there is no table 'ABCD2345': check the code on the board"


async def _view_at(ws: Any, step: int) -> dict[str, Any]:
    """The first view of ``step`` or later that ``ws`` receives (what comes before: skipped)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "view" and message["step"] >= step:
            return message


def test_a_flood_of_clicks_gets_one_sentence_and_the_next_moves_still_land(
    store: TableStore,
) -> None:
    """One page sends 2,000 out-of-turn clicks without reading (issue 39: 20,000 kept the
    server busy for a minute, each costing the write lock and a full view back). Beyond its
    limit they are dropped and it is told so; the flood is answered at once; the mover's click,
    and the flooder's own when its turn comes, land, each once."""
    burst = Limits().refusals_per_page[0]

    async def flood() -> tuple[list[dict[str, Any]], float, list[str], list[str]]:
        hall, http, port = await _serve(store, Limits())
        code = store.create_table("classic", ["human"] * 3, seed=1).code
        sockets = [await connect(f"ws://127.0.0.1:{port}/mogul/hall/ws") for _ in range(3)]
        for n, ws in enumerate(sockets):
            await ws.send(json.dumps({"op": "join", "table": code, "name": f"P{n}"}))
        views = [await _view_at(ws, 0) for ws in sockets]
        mover = next(n for n, v in enumerate(views) if v["moves"])
        flooder = (mover + 1) % 3
        with contextlib.suppress(TimeoutError):  # views of the deal pushed twice: not answers
            while True:
                await asyncio.wait_for(sockets[flooder].recv(), 0.5)
        click = {"op": "act", "step": 0, "action": views[mover]["moves"][0][1]}
        start = time.monotonic()
        for _ in range(2000):
            await sockets[flooder].send(json.dumps(click))
        answers: list[dict[str, Any]] = []
        while not answers or "step -1" not in answers[-1].get("message", ""):
            # a probe every 0.3 s: its answer comes once the whole flood is answered
            await sockets[flooder].send(json.dumps({"op": "act", "step": -1, "action": "bid"}))
            try:
                while not answers or "step -1" not in answers[-1].get("message", ""):
                    answers.append(json.loads(await asyncio.wait_for(sockets[flooder].recv(), 0.3)))
            except TimeoutError:
                assert time.monotonic() - start < 30, "the flood was not answered in 30 s"
        drained = time.monotonic() - start
        played: list[str] = []
        while len(played) < 30:
            move = {
                "op": "act",
                "step": views[mover]["step"],
                "action": views[mover]["moves"][0][1],
            }
            await sockets[mover].send(json.dumps(move))
            played.append(move["action"])
            views = [await _view_at(ws, move["step"] + 1) for ws in sockets]
            if mover == flooder:
                break
            mover = next(n for n, v in enumerate(views) if v["moves"])
        for ws in sockets:
            await ws.close()
        http.stop()
        return answers, drained, played, store.actions(code)

    answers, drained, played, stored = asyncio.run(flood())
    print(f"2,000 out-of-turn clicks answered in {drained:.2f} s with {len(answers)} messages")
    assert {m["type"] for m in answers} == {"error"}  # no view for a refused click
    messages = [m["message"] for m in answers]
    assert messages.count(FLOODED) >= 1 and "turn, not yours" in messages[0]
    assert burst <= len(answers) < 100  # not one answer per click
    assert stored == played and len(played) >= 2  # the flooder moved too; none lost or doubled


def test_deeply_nested_json_gets_a_sentence_and_the_socket_stays(store: TableStore) -> None:
    """A 2,000-level nested message closed its socket with an uncaught RecursionError."""

    async def attack() -> list[str]:
        hall, http, port = await _serve(store, Limits())
        ws = await connect(f"ws://127.0.0.1:{port}/mogul/hall/ws")
        answers = []
        for message in ["[" * 2000 + "]" * 2000, '{"op": NaN}', "{" * 3 + "}" * 3]:
            await ws.send(message)
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), 5))["message"])
        await ws.send(json.dumps({"op": "join", "table": "ABCD-2345", "name": "Ann"}))
        answers.append(json.loads(await asyncio.wait_for(ws.recv(), 5))["message"])
        await ws.close()
        http.stop()
        return answers

    deep, nan, broken, join_after = asyncio.run(attack())
    assert deep == "the request is nested too deeply (more than 4 levels)"
    assert nan.startswith("the request is not strict JSON: NaN is not a number JSON allows")
    assert broken.startswith("the request is not valid JSON")
    assert join_after.startswith("there is no table 'ABCD2345'")
