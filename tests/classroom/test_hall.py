"""The lecture hall: each seat's view from the game's spec, and every page request untrusted.

The hall is driven here without a network (a page is a list its messages go to); the
server processes, their WebSockets and PostgreSQL between them are in ``test_hall_servers``.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from typing import Any

import pytest
import sqlalchemy as sa

from mogul.classroom.database import TABLES
from mogul.classroom.server import hall as hall_module
from mogul.classroom.server.hall import Hall, Page
from mogul.classroom.server.views import howto_html, seat_view, status_line
from mogul.classroom.store import TableStore
from mogul.classroom.table import ClassroomError, Ticket, seat_labels
from mogul.kit.session import last_events
from mogul.kit.spec import games, get_game


class Phone:
    """A student page without a browser: it keeps what the hall sends it."""

    def __init__(self) -> None:
        self.inbox: list[dict[str, Any]] = []
        self.page = Page(self.inbox.append)

    def last(self, kind: str) -> dict[str, Any]:
        return [m for m in self.inbox if m["type"] == kind][-1]

    @property
    def view(self) -> dict[str, Any]:
        return self.last("view")


@pytest.fixture
def sqlite_store(tmp_path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'hall.sqlite'}")
    yield s
    s.close()


def handle(hall: Hall, page: Page, message: Any) -> None:
    asyncio.run(hall.handle(page, message))


def seated(
    store: TableStore, game: str = "classic", people: int = 3, seed: int = 4
) -> tuple[Hall, str, list[Phone]]:
    hall = Hall(store)
    code = store.create_table(game, ["human"] * people, seed=seed).code
    phones = [Phone() for _ in range(people)]
    for i, phone in enumerate(phones):
        handle(hall, phone.page, {"op": "join", "table": code, "name": f"Player {chr(65 + i)}"})
    return hall, code, phones


def mover_of(phones: list[Phone]) -> Phone:
    (mover,) = [p for p in phones if p.view["moves"]]
    return mover


def test_joining_pages_get_their_seat_once_with_the_key_and_then_views(
    sqlite_store: TableStore,
) -> None:
    hall, code, phones = seated(sqlite_store)
    seats = [p.last("seat") for p in phones]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert all(s["new"] and re.fullmatch(r"[A-Z2-9]{12}", s["key"]) for s in seats)
    assert "runner-up" in seats[0]["howto"] and "border" in seats[0]["howto"]
    # the last join dealt the game: every page sees step 0, and only the mover has buttons
    assert [p.view["step"] for p in phones] == [0, 0, 0]
    assert sum(bool(p.view["moves"]) for p in phones) == 1
    assert "Your move" in mover_of(phones).view["line"]
    # the views are the widgets' drawing: the spec's table_html and action labels
    states = sqlite_store.history(code)
    info = sqlite_store.info(code)
    spec = sqlite_store.spec(code)
    mover = mover_of(phones)
    seat = mover.view["seat"]
    labels = ["you" if i == seat else label for i, label in enumerate(seat_labels(info))]
    assert mover.view["table_html"] == spec.table_html(
        states[-1], (), last_events(states, 8), labels
    )
    assert mover.view["moves"] == [
        [spec.action_label(states[-1], a), str(a)] for a in states[-1].legal_actions()
    ]


def test_a_move_reaches_every_page_and_a_reload_with_the_key_gets_the_seat_back(
    sqlite_store: TableStore,
) -> None:
    hall, code, phones = seated(sqlite_store)
    mover = mover_of(phones)
    label, action = mover.view["moves"][-1]
    handle(hall, mover.page, {"op": "act", "step": 0, "action": action})
    assert [p.view["step"] for p in phones] == [1, 1, 1]
    assert sqlite_store.actions(code) == [action]
    # a reload: a fresh page with the seat key, no name, comes back to the same seat
    key = phones[1].last("seat")["key"]
    hall.leave(phones[1].page)
    again = Phone()
    handle(hall, again.page, {"op": "join", "table": code.lower(), "key": key})
    assert again.last("seat")["seat"] == 1 and again.last("seat")["new"] is False
    assert again.view["step"] == 1


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("not a dict", "not a request"),
        ({"op": "delete everything"}, "does not do"),
        ({"op": "act", "step": 0, "action": "bid"}, None),  # from the page of a seat not to move
        ({"op": "act", "step": 0, "action": "__import__('os').system('true')"}, "not a move"),
        ({"op": "act", "step": 0, "action": "sell 99"}, "not"),
        ({"op": "act", "step": True, "action": "bid"}, "names no step"),
        ({"op": "act", "step": "0", "action": "bid"}, "names no step"),
        ({"op": "act", "step": 5, "action": "bid"}, "too late"),
        ({"op": "act", "step": 0, "action": ["bid"]}, "not a move"),
        ({"op": "join", "table": "ABCD-EFGH", "name": "Eve"}, "no table"),
        ({"op": "join", "table": 12, "name": "Eve"}, "table code"),
    ],
)
def test_a_bad_request_gets_a_sentence_and_changes_nothing(
    sqlite_store: TableStore, message: Any, expected: str | None
) -> None:
    hall, code, phones = seated(sqlite_store)
    mover = mover_of(phones)
    sender = mover if expected is not None else next(p for p in phones if p is not mover)
    before = (sqlite_store.info(code).version, sqlite_store.actions(code))
    sender.inbox.clear()
    handle(hall, sender.page, message)
    error = sender.last("error")["message"]
    assert len(error) > 10
    if expected is None:
        assert re.match(r"it is .*'s turn, not yours", error)
    else:
        assert expected in error
    assert (sqlite_store.info(code).version, sqlite_store.actions(code)) == before


def test_a_page_acts_only_with_its_seat_and_a_wrong_key_is_refused(
    sqlite_store: TableStore,
) -> None:
    hall = Hall(sqlite_store)
    code = sqlite_store.create_table("classic", ["human"] * 3, seed=2).code
    stranger = Phone()
    handle(hall, stranger.page, {"op": "act", "step": 0, "action": "bid"})
    assert stranger.last("error")["message"] == "join a table first"
    handle(hall, stranger.page, {"op": "join", "table": code, "key": "AAAABBBBCCCC"})
    assert "does not belong" in stranger.last("error")["message"]
    handle(hall, stranger.page, {"op": "join", "table": code, "key": 12345})
    assert "seat key" in stranger.last("error")["message"]
    assert sqlite_store.info(code).names == [None, None, None]


@pytest.mark.parametrize("game", games())
def test_every_registered_game_has_a_view_and_its_own_how_to_play(
    sqlite_store: TableStore, game: str
) -> None:
    spec = get_game(game)
    people = spec.player_range(spec.editions[0])[0]
    hall, code, phones = seated(sqlite_store, game, people)
    assert howto_html(spec) == phones[0].last("seat")["howto"]
    assert spec.title not in howto_html(spec)  # the game's own text, not the fallback line
    for _ in range(6):  # a few moves, each from the page of the seat to move
        mover = mover_of(phones)
        handle(
            hall,
            mover.page,
            {"op": "act", "step": mover.view["step"], "action": mover.view["moves"][0][1]},
        )
        assert "error" not in [m["type"] for m in mover.inbox[-1:]]
    assert sqlite_store.info(code).step == 6 == phones[0].view["step"]


def test_deleting_a_table_is_only_for_an_unused_one_and_its_pages_are_told(
    sqlite_store: TableStore,
) -> None:
    hall, code, phones = seated(sqlite_store)
    with pytest.raises(ClassroomError, match="has players or moves: end it instead"):
        sqlite_store.delete_table(code)
    empty = sqlite_store.create_table("classic", ["human"] * 3)
    watcher = Phone()
    handle(hall, watcher.page, {"op": "join", "table": empty.code, "name": "Zoe"})
    with pytest.raises(ClassroomError, match="has players"):
        sqlite_store.delete_table(empty.code)
    unused = sqlite_store.create_table("classic", ["human"] * 3)
    sqlite_store.delete_table(unused.code)
    assert unused.code not in sqlite_store.versions()
    with pytest.raises(ClassroomError, match="there is no table"):
        sqlite_store.info(unused.code)


def test_a_new_seat_key_replaces_the_lost_one(sqlite_store: TableStore) -> None:
    hall, code, phones = seated(sqlite_store)
    old = phones[2].last("seat")["key"]
    ticket = sqlite_store.reissue_key(code, 2)
    assert ticket.seat == 2 and ticket.key != old
    with pytest.raises(ClassroomError, match="does not belong"):
        sqlite_store.join(code, "", old)
    assert sqlite_store.join(code, "", ticket.key).seat == 2
    with pytest.raises(ClassroomError, match="does not hold the key"):  # nor moves with it
        sqlite_store.act(Ticket(code, 2, old), 0, "bid")
    bots = sqlite_store.create_table("classic", ["human", "value", "value"])
    with pytest.raises(ClassroomError, match="has no student"):
        sqlite_store.reissue_key(bots.code, 1)


def test_the_turn_timer_gives_an_idle_seat_its_bots_move_and_every_page_says_so(
    sqlite_store: TableStore,
) -> None:
    hall, code, phones = seated(sqlite_store)
    with pytest.raises(ClassroomError, match="from 5 to 600 seconds"):
        sqlite_store.set_timer(code, 1)
    sqlite_store.set_timer(code, 30)
    asyncio.run(hall.changed())
    mover = mover_of(phones)
    timer = mover.view["timer"]
    assert timer["who"] == "you" and 29 < timer["left"] <= 30
    other = next(p for p in phones if p is not mover)
    assert other.view["timer"]["who"] == mover.view["name"]
    asyncio.run(hall.tick())  # not yet due: nothing happens
    assert sqlite_store.info(code).step == 0
    with sqlite_store.engine.begin() as conn:  # the turn began 31 s ago
        conn.execute(
            sa.update(TABLES).where(TABLES.c.code == code).values(updated=time.time() - 31)
        )
    assert sqlite_store.due(time.time()) == [(code, 0)]
    asyncio.run(hall.tick())
    assert sqlite_store.info(code).step == 1
    assert sqlite_store.clock(code)[2] == frozenset({0})
    for phone in phones:
        assert phone.view["step"] == 1
        assert phone.view["timeouts"] == [
            f"Time ran out for {mover.view['name']}: a bot made move 1 for them."
        ]
    assert sqlite_store.time_out(code, 0) is False  # a second server is too late: no doubled move
    assert sqlite_store.info(code).step == 1
    sqlite_store.set_timer(code, None)
    asyncio.run(hall.changed())
    assert mover_of(phones).view["timer"] is None


def test_the_views_follow_a_change_made_elsewhere(sqlite_store: TableStore) -> None:
    hall, code, phones = seated(sqlite_store)
    other = TableStore(sqlite_store.url)  # another server process, or the lecturer's dashboard
    other.pause(code)
    asyncio.run(hall.changed())
    assert all("Paused" in p.view["line"] and p.view["moves"] == [] for p in phones)
    other.resume(code)
    asyncio.run(hall.changed())
    assert sum(bool(p.view["moves"]) for p in phones) == 1
    info = sqlite_store.info(code)
    assert (
        seat_view(info, sqlite_store.history(code), 0, (None, 0.0, frozenset()), 0.0)["status"]
        == "playing"
    )


def test_a_stale_click_answered_to_its_own_page_still_lets_a_change_reach_every_page(
    sqlite_store: TableStore,
) -> None:
    """A page that clicks late is shown the table as it is now, and only that page: the other
    pages at the table must still get that version when the change reaches this server.

    (Found by the two-server test under load: the answer to the late click marked the version
    as pushed, the change's own push was then skipped, and the seat to move never saw its turn.)
    """
    hall, code, phones = seated(sqlite_store)
    late = next(p for p in phones if not p.view["moves"])
    other = TableStore(sqlite_store.url)  # another server moves the table on
    mover = mover_of(phones)
    other.act(
        Ticket(code, mover.view["seat"], mover.last("seat")["key"]), 0, mover.view["moves"][0][1]
    )
    handle(hall, late.page, {"op": "act", "step": 0, "action": "pass"})  # shown step 1 alone
    assert "too late" in late.last("error")["message"] and late.view["step"] == 1
    assert [p.view["step"] for p in phones if p is not late] == [0, 0]
    asyncio.run(hall.changed(code))  # the change reaches this server (NOTIFY or the poll)
    assert [p.view["step"] for p in phones] == [1, 1, 1]
    assert sum(bool(p.view["moves"]) for p in phones) == 1
    other.close()


def test_the_page_its_script_and_the_socket_served_by_tornado(sqlite_store: TableStore) -> None:
    """The handlers as ``mogul classroom`` (``python -m mogul.classroom.server``) mounts them."""
    import json as jsonlib

    from tornado.httpclient import AsyncHTTPClient
    from tornado.websocket import websocket_connect

    from mogul.classroom import server

    code = sqlite_store.create_table("classic", ["human"] * 3, seed=1).code

    async def visit() -> None:
        app = server.make_app(Hall(sqlite_store))
        http = app.listen(0, address="127.0.0.1")
        port = next(iter(http._sockets.values())).getsockname()[1]
        base = f"http://127.0.0.1:{port}/mogul/hall"
        client = AsyncHTTPClient()
        moved = await client.fetch(
            f"{base}?table={code}", follow_redirects=False, raise_error=False
        )
        assert moved.code == 302 and moved.headers["Location"] == f"/mogul/hall/?table={code}"
        page = await client.fetch(f"{base}/?table={code}")
        assert (
            b'<script src="static/hall.js">' in page.body
            and b"http" not in page.body.lower().replace(b"http-equiv", b"")
        )
        assert "default-src 'self'" in page.headers["Content-Security-Policy"]
        script = await client.fetch(f"{base}/static/hall.js")
        assert b"localStorage" in script.body and b"//cdn" not in script.body
        ws = await websocket_connect(f"ws://127.0.0.1:{port}/mogul/hall/ws")
        await ws.write_message("x" * 5000)
        assert jsonlib.loads(await ws.read_message()) == {
            "type": "error",
            "message": "that request is too long",
        }
        await ws.write_message(jsonlib.dumps({"op": "join", "table": code, "name": "Ann"}))
        assert jsonlib.loads(await ws.read_message())["type"] == "seat"
        assert (
            jsonlib.loads(await ws.read_message())["line"]
            == "Waiting for players: 1 of 3 seats taken."
        )
        ws.close()
        http.stop()

    asyncio.run(visit())


def test_a_store_that_fails_a_click_is_named_and_the_same_click_works_once_it_is_back(
    sqlite_store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit's full disk: the click gets a sentence, the table is unchanged, the page keeps
    its view (its script redraws the buttons on an error), and the click goes through later."""
    hall, code, phones = seated(sqlite_store)
    mover = mover_of(phones)
    step, (_, action) = mover.view["step"], mover.view["moves"][0]
    before = sqlite_store.actions(code)
    real = sqlite_store.act

    def disk_full(*args: Any, **kwargs: Any) -> Any:
        raise sa.exc.OperationalError("INSERT", {}, Exception("database or disk is full"))

    monkeypatch.setattr(sqlite_store, "act", disk_full)
    handle(hall, mover.page, {"op": "act", "step": step, "action": action})
    assert mover.last("error")["message"] == "the table store did not answer; try again in a moment"
    assert sqlite_store.actions(code) == before and mover.view["moves"]
    monkeypatch.setattr(sqlite_store, "act", real)
    handle(hall, mover.page, {"op": "act", "step": step, "action": action})
    assert len(sqlite_store.actions(code)) == len(before) + 1


def test_a_seats_view_shows_nothing_of_the_hidden_pile(sqlite_store: TableStore) -> None:
    hall, code, phones = seated(sqlite_store, seed=3)
    states = sqlite_store.history(code)
    spec = sqlite_store.spec(code)
    state = states[-1]
    other = spec.determinize(state.view(1), random.Random(1))
    assert other.deck != state.deck  # a different hidden pile ...
    labels = ["", "you", ""]
    log = last_events(states, 8)
    assert phones[1].view["table_html"] == spec.table_html(state, (), log, labels)
    assert spec.table_html(other, (), log, labels) == spec.table_html(state, (), log, labels)
    assert [spec.action_label(other, a) for a in other.legal_actions()] == [
        spec.action_label(state, a) for a in state.legal_actions()
    ]  # ... the same page for seat 1


def test_the_status_line_says_whose_move_it_is_or_why_nothing_happens(
    sqlite_store: TableStore,
) -> None:
    hall, code, phones = seated(sqlite_store)
    mover = mover_of(phones)
    waiting = next(p for p in phones if p is not mover)
    assert waiting.view["line"] == f"Waiting for <b>{mover.view['name']}</b>."
    sqlite_store.end(code)
    asyncio.run(hall.changed())
    assert all(p.view["line"] == "<b>This table was ended</b> by your lecturer." for p in phones)
    assert all(p.view["moves"] == [] for p in phones)
    bots = sqlite_store.create_table("classic", ["value", "value", "value"], seed=1)
    info, states = sqlite_store.info(bots.code), sqlite_store.history(bots.code)
    final = states[-1]
    assert final.is_over and len(final.winners()) == 1
    (winner,) = final.winners()
    assert status_line(info, final, winner) == "<b>Game over. You win!</b>"
    loser = (winner + 1) % 3
    assert status_line(info, final, loser) == f"<b>Game over.</b> {final.names[winner]} wins."


def test_a_bot_left_to_move_is_moved_by_the_hall_after_a_grace_time(
    sqlite_store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server that stored a person's move died before its bots answered: the hall that
    shows the table moves the bot once ``BOT_GRACE_SECONDS`` have passed."""
    code = sqlite_store.create_table("classic", ["human", "value", "value"], seed=2).code
    ann = sqlite_store.join(code, "Ann")
    move_bots = sqlite_store.move_bots
    monkeypatch.setattr(sqlite_store, "move_bots", lambda code, limit=0: 0)  # the mover dies
    sqlite_store.act(ann, 0, "bid")
    monkeypatch.setattr(sqlite_store, "move_bots", move_bots)
    state = sqlite_store.history(code)[-1]
    assert state.names[state.current_player].startswith("Bot")  # a bot is left to move
    monkeypatch.setattr(hall_module, "BOT_GRACE_SECONDS", 0.05)

    async def watch() -> Phone:
        hall = Hall(sqlite_store, threads=0)
        hall._loop = asyncio.get_running_loop()
        phone = Phone()
        await hall.handle(phone.page, {"op": "join", "table": code, "key": ann.key})
        assert phone.view["moves"] == []  # the bot's turn: Ann waits
        for _ in range(100):
            await asyncio.sleep(0.02)
            if phone.view["moves"]:
                break
        return phone

    phone = asyncio.run(watch())
    state = sqlite_store.history(code)[-1]
    assert state.names[state.current_player] == "Ann" and phone.view["moves"]
    assert phone.view["step"] == len(sqlite_store.actions(code)) > 1
