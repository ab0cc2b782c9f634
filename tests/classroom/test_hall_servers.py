"""Two hall server processes on one store, students split between them, and one of the two
killed (SIGKILL) mid-game and started again: every page sees every move, none is lost or
doubled. On SQLite (one file, two processes) and on the tests' own PostgreSQL server
(LISTEN/NOTIFY between the processes).

Each student is a WebSocket client in this process: it joins by name, then (after its
server died) by its seat key, and on its turn plays a move its page offered.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import free_port
from websockets.asyncio.client import connect

from mogul.classroom.store import TableStore
from mogul.classroom.table import PLAYING

ROOT = Path(__file__).resolve().parents[2]
TABLES, MOVES = 4, 36  # each table plays this many moves (people and a bot)
SEATS = ["human", "human", "human", "value"]


class Server:
    """``python -m mogul.classroom.server`` on a free port, started and killed by its pid."""

    def __init__(self, url: str, log: Path) -> None:
        self.url, self.port, self.log = url, free_port(), log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        }
        with self.log.open("a") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "mogul.classroom.server",
                    "--store",
                    self.url,
                    "--port",
                    str(self.port),
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while "Student page:" not in self.log.read_text():
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the hall server did not start in 60 s"
            time.sleep(0.1)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.log.write_text(self.log.read_text().replace("Student page:", "(killed) page:"))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Student:
    """One student's page over a WebSocket, rejoining by key after its server died."""

    def __init__(self, server: Server, code: str, name: str, seed: int) -> None:
        self.server, self.code, self.name = server, code, name
        self.random = random.Random(seed)
        self.key: str | None = None
        self.seat: int | None = None
        self.sent: dict[int, set[str]] = {}  # step -> the moves this page sent for it
        self.steps: list[int] = []  # the step of every view, in order
        self.reconnects = 0
        self.heard: list[str] = []  # the last few messages, for the failure message

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with connect(
                    f"ws://127.0.0.1:{self.server.port}/mogul/hall/ws", open_timeout=5
                ) as ws:
                    join = {"op": "join", "table": self.code}
                    join.update({"key": self.key} if self.key else {"name": self.name})
                    await ws.send(json.dumps(join))
                    while not stop.is_set():
                        try:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
                        except TimeoutError:
                            continue
                        await self.receive(ws, message)
            except (OSError, TimeoutError, ConnectionError) as err:  # the server is down: try again
                if not isinstance(err, ConnectionRefusedError | OSError | TimeoutError):
                    raise
                self.reconnects += 1
                await asyncio.sleep(0.2)
            except Exception as err:  # websockets' ConnectionClosed
                if type(err).__name__ not in (
                    "ConnectionClosedError",
                    "ConnectionClosedOK",
                    "InvalidStatus",
                ):
                    raise
                self.reconnects += 1
                await asyncio.sleep(0.2)

    async def receive(self, ws, message: dict) -> None:
        self.heard = [
            *self.heard[-4:],
            f"{message['type']} {message.get('step', message.get('message', ''))}",
        ]
        if message["type"] == "seat":
            self.key, self.seat = message["key"], message["seat"]
        elif message["type"] == "view":
            self.steps.append(message["step"])
            if message["moves"] and message["step"] < MOVES:
                await asyncio.sleep(self.random.uniform(0, 0.05))
                action = self.random.choice(message["moves"])[1]
                self.sent.setdefault(message["step"], set()).add(action)
                await ws.send(json.dumps({"op": "act", "step": message["step"], "action": action}))


async def play(
    store: TableStore, servers: list[Server], students: list[Student], codes: list[str]
) -> None:
    stop = asyncio.Event()
    tasks = [asyncio.create_task(s.run(stop)) for s in students]
    killed = False
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        steps = [store.info(code).step for code in codes]
        if not killed and sum(steps) >= TABLES * MOVES // 3:
            servers[0].kill()  # mid-game, with moves in flight
            killed = True
            await asyncio.sleep(0.3)
            servers[0].start()
        if killed and all(step >= MOVES for step in steps):
            break
    await settle(store, students, codes)  # the last moves (a bot's) reach every page
    stop.set()
    await asyncio.gather(*tasks)
    assert killed and all(store.info(code).step >= MOVES for code in codes), stuck(store, students)


def resting_step(store: TableStore, code: str) -> int | None:
    """The table's step if it waits for a person (or has stopped), None while a bot is to move.

    The hall moves a bot a moment after the person before it (on the server that stored that
    move, or on any server after ``BOT_GRACE_SECONDS``), so every page may show a step for a
    while that the bot is about to leave.
    """
    info = store.info(code)
    state = store.history(code)[-1]
    bot_to_move = (
        info.status == PLAYING
        and not state.is_over
        and not info.seats[state.current_player].is_human
    )
    return None if bot_to_move else info.step


async def settle(store: TableStore, students: list[Student], codes: list[str]) -> None:
    """Wait (up to a minute) until every table rests and every page shows its last step.

    Pages that agree on a step are not enough: when that step is a bot's, the bot's move is
    still to come (seen: every page on step 34, the table on 35 when the test looked).
    """
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        steps = {code: resting_step(store, code) for code in codes}
        if all(s.steps and s.steps[-1] == steps[s.code] for s in students):
            return
        await asyncio.sleep(0.2)


def stuck(store: TableStore, students: list[Student]) -> str:
    """Where each table stopped: its step, whose move it waits for, what each page heard last."""
    lines = []
    for code in dict.fromkeys(s.code for s in students):
        info, states = store.info(code), store.history(code)
        seat = states[-1].current_player
        lines.append(f"table {code} at step {info.step} ({info.status}), waiting for seat {seat}")
        lines += [
            f"  seat {s.seat} on {'a' if s.server.log.name == 'a.log' else 'b'}: "
            f"reconnects {s.reconnects}, heard {s.heard}"
            for s in students
            if s.code == code
        ]
    return "\n".join(lines)


def test_two_servers_one_store_a_kill_and_a_restart_lose_and_double_no_move(
    url: str, tmp_path: Path
) -> None:
    store = TableStore(url)
    codes = [store.create_table("classic", SEATS, seed=10 + i).code for i in range(TABLES)]
    servers = [Server(url, tmp_path / "a.log"), Server(url, tmp_path / "b.log")]
    try:
        for server in servers:
            server.start()
        students = [
            Student(servers[0 if seat != 1 else 1], code, f"S{t}{seat}", seed=100 * t + seat)
            for t, code in enumerate(codes)
            for seat in range(3)
        ]
        asyncio.run(play(store, servers, students, codes))
    finally:
        for server in servers:
            server.stop()
    assert (
        sum(s.reconnects for s in students if s.server is servers[0]) >= 6
    )  # they did lose their server
    fresh = TableStore(url)  # nothing kept in memory: the store alone
    for code in codes:
        info = fresh.info(code)
        actions = fresh.actions(code)
        states = fresh.history(code)  # replays: no step missing
        assert len(actions) == info.step == len(states) - 1
        at_table = {s.seat: s for s in students if s.code == code}
        for step, action in enumerate(actions):
            seat = states[step].current_player
            if seat in at_table:  # a person's move: one their page sent for that very step
                assert action in at_table[seat].sent.get(step, set()), (code, step, seat, action)
        for student in at_table.values():  # every page saw every move, in order, up to the last
            assert student.steps == sorted(student.steps) or student.reconnects
            assert student.steps[-1] == info.step
    fresh.close()
    store.close()
