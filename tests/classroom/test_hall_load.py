"""A room clicking at once (issue 39): what a click costs the store and the hall.

A click the hall's own newest view refutes (out of turn, a step already past) is refused with
the store's sentence after one look at the table's version, no transaction; a move's write holds the lock for two statements, and
a table changed between a move's read and its write is checked again under the lock, so every
move still lands exactly once. The figures are ``benchmarks/bench_classroom.py``'s.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

from mogul.classroom.server.hall import Hall, Page
from mogul.classroom.server.views import Turn
from mogul.classroom.store import TableStore
from mogul.classroom.table import ClassroomError


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'hall.sqlite'}"


def dealt(store: TableStore, people: int = 3) -> tuple[str, list[Any]]:
    code = store.create_table("classic", ["human"] * people, seed=4).code
    return code, [store.join(code, f"Player {chr(65 + i)}") for i in range(people)]


def test_a_click_the_halls_view_refutes_is_refused_on_a_look_at_the_version(url: str) -> None:
    store = TableStore(url)
    hall = Hall(store, threads=0)
    code = store.create_table("classic", ["human"] * 3, seed=4).code
    inboxes: list[list[dict[str, Any]]] = [[], [], []]
    pages = [Page(box.append) for box in inboxes]

    async def play() -> None:
        for i, page in enumerate(pages):
            await hall.handle(page, {"op": "join", "table": code, "name": f"P{i}"})
        view = [box for box in inboxes if box[-1]["moves"]][0][-1]
        mover = view["seat"]
        others = [p for p in pages if p.ticket.seat != mover]
        reads: list[str] = []
        for name in ("act", "version", "snapshot", "info"):
            method = getattr(store, name)

            def counted(*args: Any, _name: str = name, _method: Any = method) -> Any:
                reads.append(_name)
                return _method(*args)

            setattr(store, name, counted)
        # out of turn at the step every page shows: the store's sentence, one look
        await hall.handle(others[0], {"op": "act", "step": 0, "action": "pass"})
        assert inboxes[others[0].ticket.seat][-1] == {
            "type": "error",
            "message": f"it is {view['name']}'s turn, not yours",
        }
        assert reads == ["version"]
        # the mover's move goes to the store and every page sees it
        await hall.handle(pages[mover], {"op": "act", "step": 0, "action": view["moves"][0][1]})
        assert "act" in reads and all(box[-1]["step"] == 1 for box in inboxes)
        reads.clear()
        # a click for the step already past: too late, again on a look at the version
        await hall.handle(pages[mover], {"op": "act", "step": 0, "action": view["moves"][0][1]})
        assert inboxes[mover][-1]["message"].startswith(
            "too late: the table moved on since your page showed it (step 0, now 1)"
        )
        assert reads == ["version"]
        reads.clear()
        # a step the hall has not shown yet is for the store to judge
        await hall.handle(pages[mover], {"op": "act", "step": 7, "action": "pass"})
        assert reads[0] == "act" and inboxes[mover][-1]["type"] == "error"

    asyncio.run(play())
    assert len(store.actions(code)) == 1
    store.close()


def test_the_turn_of_a_view_refutes_only_what_the_store_would_refuse() -> None:
    turn = Turn(version=9, step=4, status="playing", mover=2, name="Cy")
    assert turn.refutes(2, 4) is None  # the mover's click at this step: for the store
    assert turn.refutes(1, 4) == "it is Cy's turn, not yours"
    assert turn.refutes(2, 3).startswith("too late")
    assert turn.refutes(2, 5) is None and turn.refutes(2, "4") is None  # the store says why
    assert turn.refutes(2, True) is None
    paused = Turn(version=9, step=4, status="paused", mover=None)
    assert paused.refutes(2, 4) == "your lecturer paused this table; wait a moment"


def statements_of_writes(store: TableStore) -> list[list[str]]:
    """The SQL of each write transaction on ``store``'s engine from now on (first words)."""
    writes: list[list[str]] = []

    @sa.event.listens_for(store.engine, "before_cursor_execute")
    def noted(conn, cursor, statement, parameters, context, executemany) -> None:
        words = statement.split()[0].upper()
        if statement.startswith("BEGIN IMMEDIATE"):
            writes.append([])
        elif (
            writes
            and words not in ("BEGIN", "COMMIT")
            and conn.get_execution_options().get("write")
        ):
            writes[-1].append(words)

    return writes


def test_a_moves_write_is_two_statements(url: str) -> None:
    store = TableStore(url)
    code, tickets = dealt(store)
    state = store.history(code)[-1]
    writes = statements_of_writes(store)
    store.act(tickets[state.current_player], 0, str(state.legal_actions()[0]))
    assert writes == [["UPDATE", "INSERT"]]
    store.close()


@pytest.mark.parametrize("meanwhile", ["timer", "same move"])
def test_a_table_changed_between_a_moves_read_and_its_write_is_checked_under_the_lock(
    url: str, monkeypatch: pytest.MonkeyPatch, meanwhile: str
) -> None:
    store, other = TableStore(url), TableStore(url)  # two servers on one file
    code, tickets = dealt(store)
    state = store.history(code)[-1]
    ticket, action = tickets[state.current_player], str(state.legal_actions()[0])
    write, done = store._write, []

    def after_the_read(*args: Any) -> Any:
        if not done:
            done.append(meanwhile)
            if meanwhile == "timer":  # a change that moves nothing: the move still lands
                other.set_timer(code, 60)
            else:  # the same click through the other server: only one lands
                other.act(ticket, 0, action)
        return write(*args)

    monkeypatch.setattr(store, "_write", after_the_read)
    if meanwhile == "timer":
        assert store.act(ticket, 0, action) == 1
    else:
        with pytest.raises(ClassroomError, match="too late"):
            store.act(ticket, 0, action)
    assert store.actions(code) == [action] == other.actions(code)
    assert len(store.history(code)) == 2
    store.close()
    other.close()


def test_one_processs_writers_queue_before_sqlites_lock(url: str) -> None:
    """Two threads writing at once: the second waits on the store's own queue, not on SQLite's
    lock (whose busy handler sleeps up to 100 ms a time): with SQLite told not to wait at all,
    it still lands."""
    import threading

    store = TableStore(url)
    code, tickets = dealt(store)

    @sa.event.listens_for(store.engine, "connect")
    def no_waiting(dbapi_connection, _record) -> None:
        dbapi_connection.execute("PRAGMA busy_timeout = 0")

    store.engine.dispose()  # every connection from now on: no busy wait
    holding, results = threading.Event(), []

    def long_write() -> None:
        with store._write(code):
            holding.set()
            threading.Event().wait(0.3)

    first = threading.Thread(target=long_write)
    first.start()
    holding.wait(5)
    try:
        results.append(store.pause(code).status)
    except sa.exc.OperationalError as err:
        results.append(str(err.orig))
    first.join()
    assert results == ["paused"]
    store.close()


def test_a_change_this_hall_pushed_comes_back_by_notify_and_costs_no_read(
    empty_postgres_url: str,
) -> None:
    """PostgreSQL: every change NOTIFYs ``CODE:VERSION``; the hall that made and pushed it hears
    it too, and has nothing to read for it (each server of several hears every change)."""
    store = TableStore(empty_postgres_url)
    hall = Hall(store)
    code = store.create_table("classic", ["human"] * 3, seed=4).code
    pages = [Page(lambda message: None) for _ in range(3)]
    heard: list[tuple[str | None, int | None]] = []
    snapshots: list[str] = []
    changed, snapshot = hall.changed, store.snapshot

    async def hearing(code: str | None = None, version: int | None = None) -> None:
        heard.append((code, version))
        await changed(code, version)

    def reading(code: str) -> Any:
        snapshots.append(code)
        return snapshot(code)

    hall.changed, store.snapshot = hearing, reading

    async def play() -> None:
        hall.start()
        for i, page in enumerate(pages):
            await hall.handle(page, {"op": "join", "table": code, "name": f"P{i}"})
        state = store.history(code)[-1]
        mover = pages[state.current_player]
        action = str(state.legal_actions()[0])
        await hall.handle(mover, {"op": "act", "step": 0, "action": action})
        read = len(snapshots)  # the move's own push
        version = store.version(code)
        for _ in range(100):  # the move's NOTIFY comes back, then its handling ends
            if (code, version) in heard:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.05)
        assert (code, version) in heard
        assert len(snapshots) == read
        hall.stop()

    asyncio.run(play())
    store.close()
