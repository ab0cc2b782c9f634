"""``python -m mogul.classroom.server --workers N``: N hall processes behind one address and
port (``SO_REUSEPORT``) on the tests' own PostgreSQL server, with 2 and 4 processes.

Students connecting through the one address land on every process; a move made through one
reaches the pages on the others at once, by NOTIFY (the version poll is set to a minute here,
so only NOTIFY can bring it in time); two pages of one seat on two processes clicking for the
same turn at once: the store takes exactly one, the other is told it came too late; a worker
SIGKILLed mid-game: its students come back through the same address, no move lost or doubled,
and the command starts the worker again. The lecturer's New groups, made on no worker at
all, sends every student's page on to their new table, whichever worker holds it, and a page
that comes back later with the old table's code and key too. SQLite is refused (one writer at
a time).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from conftest import _empty, free_port
from test_hall_servers import MOVES, Student, settle, stuck
from websockets.asyncio.client import connect

from mogul.classroom.desk import Desk
from mogul.classroom.server.__main__ import main
from mogul.classroom.store import TableStore

ROOT = Path(__file__).resolve().parents[2]
SERVED = "a worker serves"
"""What each worker logs once it listens to the store and serves."""
NO_POLL = (
    "import mogul.classroom.server.hall as hall; hall.POLL_SECONDS_NOTIFY = 60.0; "
    "from mogul.classroom.server.__main__ import main; main()"
)
"""The command with the version poll once a minute: a change seen sooner came by NOTIFY."""


class Workers:
    """The hall with ``--workers count`` on a free port, started and stopped by its pid."""

    def __init__(self, url: str, count: int, log: Path, poll: bool = True) -> None:
        self.url, self.count, self.log, self.poll = url, count, log, poll
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.left: list[int] = []  # workers still running once the command stopped

    def start(self) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        }
        command = ["-m", "mogul.classroom.server"] if self.poll else ["-c", NO_POLL]
        with self.log.open("a") as out:
            self.process = subprocess.Popen(
                [sys.executable, *command, "--store", self.url, "--port", str(self.port)]
                + ["--workers", str(self.count)],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.wait_served(self.count)

    def wait_served(self, times: int) -> None:
        """Wait until workers have started ``times`` times in all (each listening)."""
        deadline = time.monotonic() + 60
        while self.log.read_text().count(SERVED) < times:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            assert time.monotonic() < deadline, self.log.read_text()[-3000:]
            time.sleep(0.05)

    def pids(self) -> list[int]:
        """The workers' process ids."""
        return [p.pid for p in psutil.Process(self.process.pid).children()]

    def connections(self, pid: int) -> list[int]:
        """The far ports of the connections worker ``pid`` holds."""
        return [
            c.raddr.port
            for c in psutil.Process(pid).net_connections("tcp")
            if c.raddr and c.laddr.port == self.port
        ]

    def serving(self, pages: list) -> list[int]:
        """The pid of the worker holding each WebSocket of ``pages`` (by this end's port)."""
        by_port = {port: pid for pid in self.pids() for port in self.connections(pid)}
        return [by_port[ws.local_address[1]] for ws in pages]

    def held(self) -> dict[int, int]:
        """How many connections each worker holds, by pid."""
        return {pid: len(self.connections(pid)) for pid in self.pids()}

    def stop(self) -> None:
        if self.process is None:
            return
        workers = self.pids() if self.process.poll() is None else []
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.left = [pid for pid in workers if psutil.pid_exists(pid)]  # none, if all is well
        for pid in self.left:
            with contextlib.suppress(psutil.NoSuchProcess):
                psutil.Process(pid).kill()


@pytest.fixture
def pg(postgres_url: str) -> str:
    _empty(TableStore(postgres_url)).close()
    return postgres_url


async def opened(workers: Workers, count: int) -> list:
    """``count`` WebSockets through the workers' one address."""
    url = f"ws://127.0.0.1:{workers.port}/mogul/hall/ws"
    return [await connect(url, open_timeout=10) for _ in range(count)]


async def answer(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), 10))


async def until(ws, kind: str, step: int | None = None) -> dict:
    """The next message of ``kind`` (a view: at ``step`` or later) on ``ws``."""
    while True:
        message = await answer(ws)
        if message["type"] == kind and (step is None or message["step"] >= step):
            return message


async def sent_on(ws) -> tuple[dict, dict]:
    """The seat message of a page sent on to a new table, and that table's newest view (a view
    of it may come just before the seat: the page draws it once its seat comes)."""
    seen: dict[str, dict] = {}
    while (message := await answer(ws))["type"] != "seat":
        if message["type"] == "view":
            seen[message["table"]] = message
    view = seen.get(message["table"]) or await until(ws, "view")
    return message, view


@pytest.mark.parametrize("count", [2, 4])
def test_students_through_one_address_reach_every_worker_and_see_moves_by_notify(
    pg: str, tmp_path: Path, count: int
) -> None:
    store = TableStore(pg)
    table = store.create_table("classic", ["human"] * max(3, count), seed=3)
    workers = Workers(pg, count, tmp_path / "hall.log", poll=False)
    delays: list[float] = []

    async def run() -> None:
        pages = await opened(workers, 16 * count)
        on: dict[int, list] = {}
        for ws, pid in zip(pages, workers.serving(pages), strict=True):
            on.setdefault(pid, []).append(ws)
        assert sorted(on) == sorted(workers.pids()), {pid: len(w) for pid, w in on.items()}
        # one seat per worker (a third seat of two workers' table: the first worker again)
        seats = [on[pid][i // count] for i, pid in enumerate(sorted(on) * 2)][: max(3, count)]
        for i, ws in enumerate(seats):
            await ws.send(json.dumps({"op": "join", "table": table.code, "name": f"S{i}"}))
            assert (await until(ws, "seat"))["seat"] == i
        views = [await until(ws, "view", 0) for ws in seats]
        served = workers.serving(seats)
        for step in range(3 * count):
            mover = next(i for i, v in enumerate(views) if v["moves"])
            clicked = time.perf_counter()
            action = views[mover]["moves"][0][1]
            await seats[mover].send(json.dumps({"op": "act", "step": step, "action": action}))
            for i, ws in enumerate(seats):
                views[i] = await until(ws, "view", step + 1)
                assert views[i]["step"] == step + 1
                if served[i] != served[mover]:
                    delays.append(time.perf_counter() - clicked)
        for ws in pages:
            await ws.close()

    try:
        workers.start()
        asyncio.run(run())
    finally:
        workers.stop()
    assert store.info(table.code).step == 3 * count
    assert len(delays) >= 3 * count  # every move reached pages on other workers
    assert max(delays) < 10, delays  # the poll (a minute) brought none: NOTIFY did, at once
    store.close()


def test_two_pages_of_one_seat_on_two_workers_clicking_at_once_make_one_move(
    pg: str, tmp_path: Path
) -> None:
    store = TableStore(pg)
    table = store.create_table("classic", ["human"] * 3, seed=5)
    workers = Workers(pg, 2, tmp_path / "hall.log")
    races: dict[int, tuple[str, str]] = {}  # step -> the two clicks of the race for it
    errors: list[str] = []  # every error any page got

    async def view(ws, step: int) -> dict:
        """The page's view at ``step`` or later; errors on the way are noted."""
        while (message := await answer(ws))["type"] != "view" or message["step"] < step:
            if message["type"] == "error":
                errors.append(message["message"])
        return message

    async def refused(pages: list, count: int) -> None:
        """Wait until ``count`` errors came in all (each page read for a moment at a time)."""
        while len(errors) < count:
            for ws in pages:
                with contextlib.suppress(TimeoutError):
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.1))
                    if message["type"] == "error":
                        errors.append(message["message"])

    async def run() -> None:
        pages = await opened(workers, 32)
        first = {}
        for ws, pid in zip(pages, workers.serving(pages), strict=True):
            first.setdefault(pid, ws)
        a, b = first.values()  # Ann's two pages, one on each worker
        others = [ws for ws in pages if ws not in (a, b)][:2]
        await a.send(json.dumps({"op": "join", "table": table.code, "name": "Ann"}))
        key = (await until(a, "seat"))["key"]
        await b.send(json.dumps({"op": "join", "table": table.code, "key": key}))
        await until(b, "seat")
        for i, ws in enumerate(others):
            await ws.send(json.dumps({"op": "join", "table": table.code, "name": f"S{i}"}))
            await until(ws, "seat")
        everyone = [a, b, *others]
        views = [await view(ws, 0) for ws in everyone]
        for step in range(30):
            click = {"op": "act", "step": step}
            if views[0]["moves"]:  # Ann's turn: both her pages click at once
                moves = [m[1] for m in views[0]["moves"]]
                races[step] = (moves[0], moves[-1])
                await asyncio.gather(
                    a.send(json.dumps({**click, "action": moves[0]})),
                    b.send(json.dumps({**click, "action": moves[-1]})),
                )
            else:
                mover = next(i for i, v in enumerate(views) if v["moves"])
                click["action"] = views[mover]["moves"][0][1]
                await everyone[mover].send(json.dumps(click))
            views = [await view(ws, step + 1) for ws in everyone]
            assert [v["step"] for v in views] == [step + 1] * 4
            await asyncio.wait_for(refused([a, b], len(races)), 10)
        for ws in everyone:  # a second refusal of a race would come by now
            with contextlib.suppress(TimeoutError):
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
                    if message["type"] == "error":
                        errors.append(message["message"])
        for ws in pages:
            await ws.close()

    try:
        workers.start()
        asyncio.run(run())
    finally:
        workers.stop()
    actions = store.actions(table.code)
    assert store.info(table.code).step == len(actions) == 30  # one move per step, none doubled
    assert len(races) >= 5
    # each race: one of its two clicks stored, the other refused in one sentence
    assert all(actions[step] in clicks for step, clicks in races.items())
    assert len(errors) == len(races), errors
    assert all(e.startswith("too late: the table moved on") for e in errors), errors
    store.close()


def test_a_worker_killed_mid_game_loses_and_doubles_no_move(pg: str, tmp_path: Path) -> None:
    store = TableStore(pg)
    codes = [
        store.create_table("classic", ["human"] * 3 + ["value"], seed=20 + i).code for i in range(3)
    ]
    workers = Workers(pg, 4, tmp_path / "hall.log")
    students = [
        Student(workers, code, f"S{t}{seat}", seed=100 * t + seat)
        for t, code in enumerate(codes)
        for seat in range(3)
    ]
    killed: list[int] = []  # how many students the killed worker held

    async def run() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(s.run(stop)) for s in students]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            steps = [store.info(code).step for code in codes]
            if not killed and sum(steps) >= len(codes) * MOVES // 3:
                held = workers.held()
                victim = max(held, key=lambda pid: held[pid])
                os.kill(victim, signal.SIGKILL)  # mid-game, with moves in flight
                killed.append(held[victim])
                await asyncio.to_thread(workers.wait_served, 5)  # the command starts another
            if killed and all(step >= MOVES for step in steps):
                break
        await settle(store, students, codes)
        stop.set()
        await asyncio.gather(*tasks)

    try:
        workers.start()
        asyncio.run(run())
        assert len(workers.pids()) == 4
    finally:
        workers.stop()
    assert workers.left == []  # SIGTERM to the command stopped every worker
    assert killed and all(store.info(code).step >= MOVES for code in codes), stuck(store, students)
    assert killed[0] >= 1 and sum(s.reconnects for s in students) >= killed[0]  # and came back
    fresh = TableStore(pg)  # nothing kept in memory: the store alone
    for code in codes:
        info, actions, states = fresh.info(code), fresh.actions(code), fresh.history(code)
        assert len(actions) == info.step == len(states) - 1
        at_table = {s.seat: s for s in students if s.code == code}
        for step, action in enumerate(actions):
            seat = states[step].current_player
            if seat in at_table:  # a person's move: one their page sent for that very step
                assert action in at_table[seat].sent.get(step, set()), (code, step, seat, action)
        for student in at_table.values():  # every page shows the table exactly
            assert student.steps[-1] == info.step
    fresh.close()
    store.close()


def test_new_groups_send_on_the_pages_on_every_worker_and_a_page_that_comes_back_later(
    pg: str, tmp_path: Path
) -> None:
    # Two tables of two students, each table's students on two workers; the lecturer's New
    # groups is made here, outside every worker (as a dashboard on a third process would be):
    # only the store's change, by NOTIFY, can tell the workers (the poll is set to a minute).
    store = TableStore(pg)
    made = Desk(store).create_tables(
        "s", "second-price-auction", 2, 0, "equilibrium", 2, 0, {"rounds": 1, "budget": 5}
    )
    workers = Workers(pg, 2, tmp_path / "hall.log", poll=False)

    async def run() -> None:
        pages = await opened(workers, 32)
        on: dict[int, list] = {}
        for ws, pid in zip(pages, workers.serving(pages), strict=True):
            on.setdefault(pid, []).append(ws)
        first, second = on.values()
        students = {}  # name -> (its page, its seat message)
        for t, info in enumerate(made):
            for i, ws in enumerate([first[t], second[t]]):  # one on each worker
                name = f"Student {t}{i}"
                await ws.send(json.dumps({"op": "join", "table": info.code, "name": name}))
                students[name] = (ws, await until(ws, "seat"))
        for ws, _ in students.values():
            view = await until(ws, "view", 0)
            await ws.send(json.dumps({"op": "act", "step": view["step"], "action": "bid 3"}))
        for ws, _ in students.values():
            while (await until(ws, "view"))["status"] != "over":
                pass
        said, _ = await asyncio.to_thread(Desk(store).regroup, "s")
        assert said == "New groups: 4 students at 2 new tables."
        new = {t.code for t in store.tables("s")} - {info.code for info in made}
        for name, (ws, old) in students.items():
            seat, view = await sent_on(ws)  # with no request of its own
            assert seat["moved"] and seat["table"] in new and seat["key"] == old["key"]
            assert store.info(seat["table"]).seats[seat["seat"]].name == name
            assert (view["table"], view["seat"], view["name"]) == (
                seat["table"],
                seat["seat"],
                name,
            )
            while view["status"] != "playing":  # dealt when the new group's last one came
                view = await until(ws, "view")
            assert view["number"] == {"word": "bid", "low": 0, "high": 5}
        # a page that comes back later with the old table's code and key, on either worker
        ws, old = students["Student 00"]
        for again in (first[-1], second[-1]):  # pages that held no seat yet
            await again.send(json.dumps({"op": "join", "table": old["table"], "key": old["key"]}))
            seat, view = await sent_on(again)
            assert seat["moved"] and seat["table"] in new and seat["key"] == old["key"]
            assert view["table"] == seat["table"] and view["name"] == "Student 00"
        for ws in pages:
            await ws.close()

    try:
        workers.start()
        asyncio.run(run())
    finally:
        workers.stop()
    assert sorted(n for t in store.tables("s") if t.status == "playing" for n in t.names) == [
        "Student 00",
        "Student 01",
        "Student 10",
        "Student 11",
    ]
    store.close()


def test_workers_are_refused_on_sqlite_and_with_practice(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    for argv, said in [
        (["--store", str(tmp_path / "class.sqlite")], "--workers above 1 needs a PostgreSQL"),
        (["--practice"], "--workers goes without --practice"),
    ]:
        with pytest.raises(SystemExit):
            main([*argv, "--workers", "2"])
        assert said in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--workers", "0"])
    assert "--workers 0: one process or more" in capsys.readouterr().err
