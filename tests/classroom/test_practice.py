"""Practice: one student alone against bots on the hall's page, no lecturer, no kernel.

``python -m mogul.classroom.server --practice`` makes a table of one person and bots and prints
the address that opens it; the student joins, plays to game over, and a new game is one request
away. Driven here without a network (a page is a list its messages go to), and once through the
command itself (a WebSocket client plays a whole game against its bots).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import free_port
from test_hall import Phone
from websockets.sync.client import connect

from mogul.classroom.server.hall import PRACTICE, Hall, Page, practice_table
from mogul.classroom.store import TableStore
from mogul.classroom.table import OVER, PLAYING, WAITING

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path: Path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'practice.sqlite'}")
    yield s
    s.close()


def handle(hall: Hall, page: Page, message: Any) -> None:
    asyncio.run(hall.handle(page, message))


def first_move(moves: list[list[str]]) -> str:
    """The move a hurried student makes: drop (or take) when it can, else the first button."""
    return next((a for label, a in moves if re.match("Drop|Take", label)), moves[0][1])


def test_a_practice_table_is_one_person_first_and_bots(store: TableStore) -> None:
    table = practice_table(store)
    assert (table.session, table.edition, table.status) == (PRACTICE, "classic", WAITING)
    assert [s.kind for s in table.seats] == ["human", "value", "value", "value"]
    assert table.seats[0].name is None and all(s.name for s in table.seats[1:])
    # a game without a value bot gets three of its first; the bots may be named
    other = practice_table(store, "credit-mobilier")
    assert [s.kind for s in other.seats] == ["human", "random", "random", "random"]
    named = practice_table(store, "rio-grande", ["threshold:drop_at=2", "mc"])
    assert (named.edition, [s.kind for s in named.seats]) == (
        "rio-grande",
        ["human", "threshold:drop_at=2", "mc"],
    )
    with pytest.raises(ValueError, match="3 to 6 players: one person and 2 to 5 bots, got 1"):
        practice_table(store, bots=["value"])
    with pytest.raises(ValueError, match="one person"):
        practice_table(store, bots=["value", "human"])
    with pytest.raises(ValueError, match="unknown bot 'zorro'"):
        practice_table(store, bots=["value", "zorro"])
    assert len(store.tables(PRACTICE)) == 3  # the refused ones left nothing behind


def test_a_student_plays_a_practice_game_to_the_end_and_starts_a_new_one(
    store: TableStore,
) -> None:
    hall = Hall(store, practice=True)
    code = practice_table(store).code
    phone = Phone()
    handle(hall, phone.page, {"op": "join", "table": code, "name": "Ann"})
    seat = phone.last("seat")
    assert (seat["table"], seat["seat"], seat["practice"]) == (code, 0, True)
    # her join dealt the game and the bots moved: it is her move at once, no lecturer
    assert store.info(code).status == PLAYING
    assert phone.last("view")["moves"] and "Your move" in phone.last("view")["line"]
    moves = 0
    while phone.last("view")["moves"]:
        view = phone.last("view")
        handle(
            hall,
            phone.page,
            {"op": "act", "step": view["step"], "action": first_move(view["moves"])},
        )
        moves += 1
        assert moves < 200, "the game did not end"
    end = phone.last("view")
    assert end["status"] == OVER and "Game over" in end["line"]
    assert store.history(code)[-1].is_over
    assert not [m for m in phone.inbox if m["type"] == "error"]
    # a new game: a fresh table, the same game and bots, Ann seated again without typing
    handle(hall, phone.page, {"op": "again"})
    again = phone.last("seat")
    assert again["table"] != code and again["seat"] == 0 and again["practice"] is True
    info = store.info(again["table"])
    assert (info.session, info.edition, info.status) == (PRACTICE, "classic", PLAYING)
    assert [s.kind for s in info.seats] == ["human", "value", "value", "value"]
    assert info.seats[0].name == "Ann"
    view = phone.last("view")
    assert (view["table"], view["step"], view["status"]) == (again["table"], info.step, PLAYING)
    assert view["moves"]
    assert store.info(code).status == OVER  # the old game stays as it ended


def error_of(phone: Phone) -> str:
    return phone.last("error")["message"]


def test_a_new_game_only_at_a_practice_table_that_is_over_in_a_practice_hall(
    store: TableStore,
) -> None:
    practice = practice_table(store).code
    phone = Phone()
    handle(Hall(store), phone.page, {"op": "join", "table": practice, "name": "Ann"})
    handle(Hall(store), phone.page, {"op": "again"})  # a class's hall: no such request
    assert "does not do" in error_of(phone)
    hall = Hall(store, practice=True)
    fresh = Phone()
    handle(hall, fresh.page, {"op": "again"})
    assert error_of(fresh) == "join a table first"
    handle(hall, phone.page, {"op": "again"})
    assert error_of(phone) == "finish this game first: it is not over yet"
    # a class's table (three people, over or not) never gets a new game from a student
    cls = store.create_table("classic", ["human", "value", "value"])
    student = Phone()
    handle(hall, student.page, {"op": "join", "table": cls.code, "name": "Ben"})
    assert student.last("seat")["practice"] is False
    handle(hall, student.page, {"op": "again"})
    assert "practice tables" in error_of(student)
    assert len(store.tables(PRACTICE)) == 1 and len(store.tables("")) == 1


def test_another_device_at_a_taken_practice_table_gets_a_game_of_its_own(
    store: TableStore,
) -> None:
    """The printed address opened on a second phone (or after the browser forgot the seat):
    a join by name at the taken practice table sits at a new one like it; a name no table
    takes leaves no table behind; a class's full table is still full, practice hall or not."""
    hall = Hall(store, practice=True)
    code = practice_table(store, bots=["value", "mc"]).code
    ann, ben = Phone(), Phone()
    handle(hall, ann.page, {"op": "join", "table": code, "name": "Ann"})
    handle(hall, ben.page, {"op": "join", "table": code, "name": "Ben"})
    seat = ben.last("seat")
    assert seat["table"] != code and (seat["seat"], seat["practice"]) == (0, True)
    info = store.info(seat["table"])
    assert (info.session, info.status, info.names[0]) == (PRACTICE, PLAYING, "Ben")
    assert [s.kind for s in info.seats] == ["human", "value", "mc"]
    assert ben.last("view")["moves"] and store.info(code).names[0] == "Ann"
    cy = Phone()
    handle(hall, cy.page, {"op": "join", "table": code, "name": "Bot 2"})
    assert "kept for the bots" in error_of(cy)
    assert len(store.tables(PRACTICE)) == 2
    full = store.create_table("classic", ["human", "value", "value"]).code
    handle(hall, Phone().page, {"op": "join", "table": full, "name": "Dee"})
    handle(hall, cy.page, {"op": "join", "table": full, "name": "Eve"})
    assert "is full" in error_of(cy) and len(store.tables()) == 3


def test_the_command_prints_the_table_a_student_plays_to_the_end_and_cleans_up(
    tmp_path: Path,
) -> None:
    """``--practice --bots value,value``: the printed address (and its QR code, for an address
    on the network) opens the page at the table; a WebSocket client joins and plays to game over, then asks for a new game; SIGTERM stops the
    server and its own store is gone."""
    port, tmp = free_port(), tmp_path / "tmp"
    tmp.mkdir()
    env = {
        **os.environ,
        "TMPDIR": str(tmp),
        "MOGUL_HALL_URL": f"http://127.0.0.1:{port}/mogul/hall/",  # as for a room: a QR code too
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    argv = [sys.executable, "-m", "mogul.classroom.server", "--practice", "--bots", "value,value"]
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [*argv, "--port", str(port)], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60
        printed = re.compile(r"Practice: (\S+\?table=([A-Z2-9]{4}-[A-Z2-9]{4})).*\u2580\n", re.S)
        while not (found := printed.search(log.read_text())):  # the address, then its QR code
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the practice server did not start in 60 s"
            time.sleep(0.1)
        url, code = found.groups()
        assert url == f"http://127.0.0.1:{port}/mogul/hall/?table={code}"
        assert "classic against value, value" in log.read_text()
        corner = "\u2588 \u2584\u2584\u2584\u2584\u2584 \u2588"  # a QR code's finder pattern
        assert corner in log.read_text()
        with urllib.request.urlopen(url, timeout=10) as page:
            assert "Join your table" in page.read().decode()
        with pytest.raises(urllib.error.HTTPError) as refused:  # no lecturer: no projector
            urllib.request.urlopen(f"http://127.0.0.1:{port}/mogul/hall/projector", timeout=10)
        assert refused.value.code == 403
        with connect(f"ws://127.0.0.1:{port}/mogul/hall/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"op": "join", "table": code, "name": "Ann"}))
            code = code.replace("-", "")  # the page tidies the code as the QR codes write it
            seat = json.loads(ws.recv(10))
            assert seat["type"] == "seat" and seat["practice"] is True
            moves, acted = 0, -1
            while True:
                m = json.loads(ws.recv(10))
                assert m["type"] == "view", m
                if m["status"] == OVER:
                    break
                if m["moves"] and m["step"] > acted:  # a page acts once on each view it shows
                    acted = m["step"]
                    ws.send(
                        json.dumps({"op": "act", "step": acted, "action": first_move(m["moves"])})
                    )
                    moves += 1
                    assert moves < 200, "the game did not end"
            assert "Game over" in m["line"] and moves > 5
            ws.send(json.dumps({"op": "again"}))
            # views until the seat: the old table's, or already the new one's (the page follows
            # its table from the moment it sits down; the seat then comes with the table again)
            while (m := json.loads(ws.recv(10)))["type"] != "seat":
                assert m["type"] == "view", m
            assert m["table"] != code and m["practice"] is True
            view = json.loads(ws.recv(10))
            assert view["table"] == m["table"] and view["moves"]
        assert list(tmp.iterdir())  # the store lives while the server does
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0, log.read_text()[-3000:]
        assert list(tmp.rglob("*")) == [], log.read_text()[-3000:]  # and goes with it
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
