"""The turn timer under two server processes on one store, one of them killed (SIGKILL) mid-run
and restarted: both servers play the timers that run out, and a late student's click races
them; still every step holds exactly one move, a step noted as timed out holds the fill bot's
move (never the person's too), a person's move is one their page sent for that very step, and
every page ends on the table's last step with the timed-out moves named. On SQLite and on the
tests' own PostgreSQL server (the ``url`` fixture).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path

from test_hall_servers import Server, Student, settle

from mogul.classroom.bot_moves import bot_action
from mogul.classroom.store import TableStore

TABLES = 3
SEATS = ["human", "human", "human", "value"]
TIMER = 5.0  # the shortest turn timer the store allows
LATE = [None, TIMER / 2, TIMER + 0.25]
"""The late student's turns from the first (``LATE[1]``) on, in turn: clicks in time, with half
the timer to spare so that a busy machine still delivers it first; clicks just as the timer
runs out (a race with both servers' timer); never clicks (the timer must move for them). The
click in time comes first: a slow run may not reach a student's third turn."""


class LateStudent(Student):
    """A student who is slow on every turn (see ``LATE``); the others click at once."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.turns: list[int] = []  # the steps at which this page offered a move
        self.last: dict | None = None
        self.calm = False

    async def receive(self, ws, message: dict) -> None:
        self.ws = ws  # the page's connection now (a new one after its server was killed)
        if message["type"] == "view":
            self.last = message
        if message["type"] != "view" or not message["moves"]:
            await super().receive(ws, {**message, "moves": []})  # keeps the seat and the steps
            return
        self.steps.append(message["step"])
        if self.calm or message["step"] in self.turns:
            return  # the same turn shown again (a reconnect): it is already being thought about
        self.turns.append(message["step"])
        wait = LATE[len(self.turns) % len(LATE)]
        if wait is not None:
            asyncio.create_task(self.click_later(message, wait))

    async def click_later(self, view: dict, wait: float) -> None:
        await asyncio.sleep(wait)
        if self.calm or self.steps[-1] != view["step"]:
            return  # the table moved on (the timer), or the run is over
        action = self.random.choice(view["moves"])[1]
        self.sent.setdefault(view["step"], set()).add(action)
        with contextlib.suppress(Exception):  # the server was killed: the page reconnects
            await self.ws.send(json.dumps({"op": "act", "step": view["step"], "action": action}))


async def play(store: TableStore, servers: list[Server], students: list[Student]) -> None:
    for student in students:
        student.calm = False
    stop = asyncio.Event()
    tasks = [asyncio.create_task(s.run(stop)) for s in students]
    codes = sorted({s.code for s in students})
    start = time.monotonic()
    while time.monotonic() - start < 12:  # the kill comes with timers running at every table
        await asyncio.sleep(0.2)
    servers[0].kill()
    await asyncio.sleep(0.3)
    servers[0].start()
    while time.monotonic() - start < 30:
        await asyncio.sleep(0.2)
    for student in students:  # the run ends: nobody clicks, no timer runs, the bots finish
        student.calm = True
    for code in codes:
        store.set_timer(code, None)
    await settle(store, students, codes)  # the bots finish; every page sees it
    stop.set()
    await asyncio.gather(*tasks)


class QuickStudent(Student):
    """A student who clicks at once, until the run ends."""

    calm = False

    async def receive(self, ws, message: dict) -> None:
        if self.calm and message["type"] == "view":
            message = {**message, "moves": []}
        await super().receive(ws, message)


def test_timers_on_two_servers_and_a_kill_give_each_idle_turn_one_bot_move(
    url: str, tmp_path: Path
) -> None:
    store = TableStore(url)
    codes = [
        store.create_table("classic", SEATS, seed=30 + i, session="timers").code
        for i in range(TABLES)
    ]
    servers = [Server(url, tmp_path / "a.log"), Server(url, tmp_path / "b.log")]
    try:
        for server in servers:
            server.start()
        students = [
            (LateStudent if seat == 0 else QuickStudent)(
                servers[seat % 2], code, f"S{t}{seat}", seed=100 * t + seat
            )
            for t, code in enumerate(codes)
            for seat in range(3)
        ]
        for code in codes:
            store.set_timer(code, TIMER)
        asyncio.run(play(store, servers, students))
    finally:
        for server in servers:
            server.stop()
    late = [s for s in students if isinstance(s, LateStudent)]
    assert sum(s.reconnects for s in students if s.server is servers[0]) >= 3
    fresh = TableStore(url)  # the store alone, nothing kept in memory
    timed_out = 0
    for code in codes:
        info, actions, states = fresh.info(code), fresh.actions(code), fresh.history(code)
        assert len(actions) == info.step == len(states) - 1  # no step missing, none twice
        _, _, timeouts = fresh.clock(code)
        at_table = {s.seat: s for s in students if s.code == code}
        spec = fresh.spec(code)
        for step, action in enumerate(actions):
            seat = states[step].current_player
            if step in timeouts:  # the fill bot's move, played for the person to move
                assert info.seats[seat].is_human, (code, step)
                bot = bot_action(info.fill, spec, info.seed, seat, step, states[step])
                assert action == str(bot), (code, step, action, bot)
            elif seat in at_table:  # the person's own move, sent by their page for that step
                assert action in at_table[seat].sent.get(step, set()), (code, step, seat, action)
        timed_out += len(timeouts)
        for student in at_table.values():  # every page on the last step, timeouts named
            assert student.steps[-1] == info.step, (code, student.name)
        page = next(s for s in late if s.code == code).last
        assert page["timeouts"] == [
            f"Time ran out for {states[t].names[states[t].current_player]}: a bot made move "
            f"{t + 1} for them."
            for t in sorted(timeouts)[-3:]
        ]
    assert timed_out >= TABLES  # every late student had at least one turn they never clicked
    assert any(
        s.sent.get(t) and t not in fresh.clock(s.code)[2] for s in late for t in s.turns
    )  # and late students' clicks in time went through
    fresh.close()
    store.close()
