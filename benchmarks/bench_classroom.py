"""Classroom load test: the lecture hall's student pages at 200 students (or 1,000, or a burst).

One run prints one table: the hall on SQLite and on PostgreSQL, each with ``--servers`` server
processes (``python -m mogul.classroom.server``, as ``make classroom`` serves the student
pages) and again on two servers with one of them killed (SIGKILL) halfway and restarted on its
port. On PostgreSQL, ``--workers 1 2`` runs each server as ``--workers 1`` then ``--workers 2``
(processes on one port, ``SO_REUSEPORT``), and ``--tables 40 80 160`` runs each at 200, 400
and 800 students: issue 39's "2 processes: 1.6x the students of one at the same p90".

Over a fresh store (a SQLite file; a throwaway PostgreSQL server, as tests/classroom start
one), ``--tables`` x ``--seats`` simulated students (40 x 5) in this one process, each a
WebSocket client like the page's script, spread over the servers, 100 students per address
(127.0.0.2, 127.0.0.3 ...: a room's network behind a few routers, each within the hall's bounds
per address). They arrive over ``--arrival`` seconds and join by name; then, for ``--seconds``,
every student acts 1-3 s after their turn comes, and joins again with their seat key if their
server goes away. ``--burst S`` adds a run where instead, every S seconds, every student clicks
in the same second: the one to move a move, every other one a click out of turn (refused).
``--tables 200`` is a hall of 1,000. Per run:

* join: from opening the WebSocket to the page's first view of the table (p50/p90/p99, max);
* click -> others: from a student's move to each other seat's page showing it;
* the servers' CPU seconds and peak memory (RSS and USS, all server processes), and the
  machine's load average (1 minute) over the run, lowest and highest;
* the audit: every stored move is one its page sent for that very step (else "doubled"),
  every click the table then showed as made is stored (else "lost"); the run fails otherwise.

    python benchmarks/bench_classroom.py [--store sqlite|postgresql|both] [--servers 2] [--no-kill]
    python benchmarks/bench_classroom.py --store sqlite --no-kill --tables 200 --burst 5 --seconds 40
    python benchmarks/bench_classroom.py --store postgresql --no-kill --workers 1 2 --tables 40 80 160
    python benchmarks/bench_classroom.py --sealed --tables 40 --seconds 30 --burst 3

``--sealed``: issue 38's load instead, the auction lab's first-price sealed bids: every
``--burst`` seconds every student seals a bid in the same second (in any seat order: the hall
holds a bid made before its seat's turn); bid -> result is from the round's last bid to each
page showing the round's result (target: p90 under 300 ms at 200 students).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the lecture hall: simulated students over WebSockets ----------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank), in milliseconds (nan for none)."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] * 1000


def percentiles(label: str, values: list[float]) -> str:
    """p50, p90, p99 and max of ``values`` (seconds), in milliseconds."""
    if not values:
        return f"{label}: no samples"
    return (
        f"{label}: n={len(values)}  p50 {percentile(values, 0.5):.0f} ms  p90 "
        f"{percentile(values, 0.9):.0f} ms  p99 {percentile(values, 0.99):.0f} ms  "
        f"max {max(values) * 1000:.0f} ms"
    )


@contextlib.contextmanager
def throwaway_postgres():
    """A PostgreSQL server in a temporary folder (as tests/classroom start one); its URL."""
    sys.path.insert(0, str(ROOT / "tests" / "classroom"))
    import conftest  # the tests' helpers: where PostgreSQL's programs are, and a free port

    folder = conftest.pg_bin()
    if folder is None:
        raise SystemExit(conftest.INSTALL)
    import pwd

    user = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
    home = Path(tempfile.mkdtemp(prefix="mogul-bench-pg-"))
    data, port = home / "data", free_port()
    run_as = {"user": user.pw_uid, "group": user.pw_gid} if user else {}
    if user:
        os.chown(home, user.pw_uid, user.pw_gid)
    db_user = user.pw_name if user else pwd.getpwuid(os.geteuid()).pw_name
    options = f"-p {port} -c listen_addresses=127.0.0.1 -k {home} -c max_connections=200"
    try:
        subprocess.run(
            [str(folder / "initdb"), "-D", str(data), "-A", "trust", "-U", db_user, "-E", "UTF8"],
            cwd=home,
            check=True,
            capture_output=True,
            **run_as,
        )
        subprocess.run(
            [
                str(folder / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(home / "log"),
                "-o",
                options,
                "-w",
                "start",
            ],
            cwd=home,
            check=True,
            capture_output=True,
            **run_as,
        )
        yield f"postgresql+psycopg://{db_user}@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [str(folder / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
            cwd=home,
            capture_output=True,
            **run_as,
        )
        subprocess.run(["rm", "-rf", str(home)])


PROFILE: Path | None = None
"""``--profile``: where the servers' event loops write their cProfile (one file per server)."""


def start_hall(
    url: str, log: Path, port: int | None = None, workers: int = 1
) -> tuple[subprocess.Popen, int]:
    """A hall server over store ``url`` (on ``port``, default a free one; ``workers``: its
    ``--workers``, processes on that one port), once every process serves: (process, port)."""
    port = port or free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    before = log.read_bytes() if log.exists() else b""
    started, served = before.count(b"Student page:"), before.count(b"a worker serves")
    with log.open("ab") as out:
        profile = [] if PROFILE is None else ["-m", "cProfile", "-o", f"{PROFILE}-{port}.prof"]
        proc = subprocess.Popen(
            [sys.executable, *profile, "-m", "mogul.classroom.server"]
            + ["--store", url, "--port", str(port)]
            + (["--workers", str(workers)] if workers > 1 else []),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 90
    while (
        log.read_bytes().count(b"Student page:") <= started
        or workers > 1
        and log.read_bytes().count(b"a worker serves") < served + workers
    ):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the hall server did not start:\n" + log.read_text()[-3000:])
        time.sleep(0.1)
    return proc, port


def stop_halls(started: list[tuple[subprocess.Popen, int]]) -> None:
    """Stop the hall servers ``start_hall`` started (SIGTERM, then up to 10 s each)."""
    for proc, _ in started:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)


class SimulatedStudent:
    """One student's page: a WebSocket client that joins by name, moves 1-3 s after its turn
    comes, and (as the page's script does) joins again with its seat key if the connection
    drops. It keeps every click it sent and what became of it, for ``audit``."""

    def __init__(
        self,
        port: int,
        code: str,
        name: str,
        think: tuple[float, float],
        clicks: dict,
        seen: list,
        seed: int,
        burst: float | None = None,
    ) -> None:
        import random

        self.port, self.code, self.name, self.think = port, code, name, think
        self.burst = burst  # every ``burst`` seconds, every student clicks in the same second
        # a class of 100 students per address (a room's wifi behind a few routers), so a
        # thousand stay within the hall's bounds per address
        self.address = f"127.0.0.{2 + seed // 100 // 20}"
        self.clicks, self.seen = clicks, seen  # (table, step) -> click time; click -> seen delays
        self.random = random.Random(seed)
        self.step = -1
        self.join_seconds: float | None = None
        self.key: str | None = None
        self.seat: int | None = None
        self.ws = None
        self.sent: dict[int, set[str]] = {}  # step -> the moves this page sent for it
        self.pending: tuple[int, str] | None = None  # the click awaiting its answer
        self.accepted: list[tuple[int, str]] = []  # clicks the table then showed as made
        self.refused: list[tuple[int, str]] = []
        self.errors: list[str] = []
        self.reconnects = 0
        self.origin = 0.0  # the bursts' clock (perf_counter seconds)
        self.moves: list = []  # the moves the last view offered (burst mode)

    async def run(self, delay: float, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        await asyncio.sleep(delay)
        bursts = asyncio.create_task(self.bursts(stop)) if self.burst else None
        start = time.perf_counter()  # join time: from opening the connection to the table
        turn: asyncio.Task | None = None
        while not stop.is_set():
            try:
                async with connect(
                    f"ws://127.0.0.1:{self.port}/mogul/hall/ws",
                    max_size=2**22,
                    open_timeout=10,
                    local_addr=(self.address, 0),
                ) as ws:
                    self.ws = ws
                    join = {"op": "join", "table": self.code}
                    join.update({"key": self.key} if self.key else {"name": self.name})
                    await ws.send(json.dumps(join))
                    while not stop.is_set():
                        try:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        except TimeoutError:
                            continue
                        offered = self.receive(message, start)
                        if offered and not self.burst and (turn is None or turn.done()):
                            turn = asyncio.create_task(self.act(message, stop))
            except Exception as err:  # the server went away (websockets' ConnectionClosed...)
                gone = ("ConnectionClosedError", "ConnectionClosedOK", "InvalidStatus")
                if not isinstance(err, OSError | TimeoutError) and type(err).__name__ not in gone:
                    raise
                self.reconnects += 1
                await asyncio.sleep(0.3)
        if bursts is not None:
            bursts.cancel()

    async def bursts(self, stop: asyncio.Event) -> None:
        """Burst mode: at every ``burst`` seconds of the run's clock, click somewhere in that
        second: the student to move makes a move, every other one a click out of turn (which
        the hall must refuse cheaply)."""
        n = 1
        while not stop.is_set():
            at = self.origin + n * self.burst + self.random.uniform(0, 1)
            n += 1
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            if self.ws is None or self.step < 0 or self.pending is not None or stop.is_set():
                continue
            if self.moves:
                await self.click(self.step, self.random.choice(self.moves)[1])
            else:  # out of turn: refused, stored nowhere
                with contextlib.suppress(Exception):
                    message = {"op": "act", "step": self.step, "action": "out-of-turn"}
                    await self.ws.send(json.dumps(message))

    def receive(self, message: dict, start: float) -> bool:
        """Note what the page got; True if it offers this student a move."""
        now = time.perf_counter()
        if message["type"] == "seat":
            self.key, self.seat = message["key"], message["seat"]
        elif message["type"] == "error":
            if self.pending is not None:
                self.refused.append(self.pending)
                self.pending = None
            self.errors.append(message["message"])
        if message["type"] != "view":
            return False
        if self.join_seconds is None:
            self.join_seconds = now - start
        if self.pending is not None and message["step"] > self.pending[0]:
            self.accepted.append(self.pending)  # nobody else moves at that step: it was ours
            self.pending = None
        for step in range(max(self.step, 0), message["step"]):  # the moves this view shows
            clicked = self.clicks.get((self.code, step))
            if clicked is not None and clicked[1] != self.name:
                self.seen.append(now - clicked[0])
        self.step = max(self.step, message["step"])
        self.moves = message["moves"] if message["step"] == self.step else []
        return bool(message["moves"])

    async def act(self, view: dict, stop: asyncio.Event) -> None:
        await asyncio.sleep(self.random.uniform(*self.think))
        if stop.is_set() or self.step != view["step"] or view["step"] in self.sent:
            return  # moved on, or clicked already (the same step's view came again)
        label, action = self.random.choice(view["moves"])
        await self.click(view["step"], action)

    async def click(self, step: int, action: str) -> None:
        """Send a move for ``step``, noting it for the latency and the audit."""
        self.clicks[(self.code, step)] = (time.perf_counter(), self.name)
        self.sent.setdefault(step, set()).add(action)
        self.pending = (step, action)
        self.moves = []
        with contextlib.suppress(Exception):  # a killed server: the page joins again
            await self.ws.send(json.dumps({"op": "act", "step": step, "action": action}))


class SealedBidder(SimulatedStudent):
    """A student in an auction lab of sealed bids: every ``burst`` seconds, every student whose
    page offers a bid seals one in the same second (the number field's "bid N"), whatever the
    seat order. ``rounds`` keeps, per (table, round), the time the round's last bid was sent;
    ``seen`` gets, for each page, the time from that last bid to the page showing the round's
    result (the next round, or the end)."""

    def __init__(self, *args, rounds: dict, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rounds = rounds
        self.round = 0  # the round the page shows
        self.number: dict | None = None
        self.bids: dict[int, str] = {}  # round -> the bid sent for it

    def receive(self, message: dict, start: float) -> bool:
        import re

        now = time.perf_counter()
        if message["type"] == "error":
            self.errors.append(message["message"])
            self.pending = None
        if message["type"] == "seat":
            self.key, self.seat = message["key"], message["seat"]
        if message["type"] != "view":
            return False
        if self.join_seconds is None:
            self.join_seconds = now - start
        found = re.search(r"round (\d+) of", message.get("panel", ""))
        shown = int(found.group(1)) if found and message["status"] == "playing" else self.round
        if message["status"] == "over":
            shown = self.round + 1
        for number in range(max(self.round, 1), shown):  # rounds this view shows closed
            last = self.rounds.get((self.code, number))
            if last is not None:
                self.seen.append(now - last)
        self.round = max(self.round, shown)
        self.step = message["step"]
        self.number = message["number"]
        if self.pending is not None and (self.number is None or shown > self.pending[0]):
            self.accepted.append(self.pending)
            self.pending = None
        return False

    async def bursts(self, stop: asyncio.Event) -> None:
        n = 1
        while not stop.is_set():
            at = self.origin + n * self.burst + self.random.uniform(0, 1)
            n += 1
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            if self.ws is None or self.number is None or self.pending is not None:
                continue
            if stop.is_set() or self.round in self.bids:
                continue
            action = f"bid {self.random.randint(self.number['low'], self.number['high'])}"
            self.bids[self.round] = action
            self.pending = (self.round, action)
            self.rounds[(self.code, self.round)] = time.perf_counter()  # the latest bid sent
            with contextlib.suppress(Exception):
                message = {"op": "act", "step": self.step, "action": action}
                await self.ws.send(json.dumps(message))


def sealed_audit(store, students: list[SealedBidder], codes: list[str]) -> tuple[int, int, int]:
    """(bids stored, lost, doubled): every closed round's bid of each seat is the one its page
    sent for that round (else doubled), and every bid a page saw taken is stored (else lost)."""
    stored = lost = doubled = 0
    for code in codes:
        states = store.history(code)
        results = states[-1].results if states else ()
        pages = {s.seat: s for s in students if s.code == code}
        stored += len(store.actions(code))
        for r in results:
            for seat, amount in enumerate(r.bids):
                page = pages.get(seat)
                if page is None or page.bids.get(r.number) != f"bid {amount}":
                    doubled += 1
        for page in pages.values():
            lost += sum(
                1
                for number, action in page.accepted
                if number <= len(results) and action != f"bid {results[number - 1].bids[page.seat]}"
            )
    return stored, lost, doubled


async def sealed_run(tables: int, seats: int, arrival: float, seconds: float, burst: float) -> None:
    """Issue 38's load: ``tables`` auction-lab tables of first-price sealed bids (``seats``
    students each) on one hall server over SQLite; every ``burst`` seconds every student seals
    a bid within the same second. Prints bid -> result (the round's last bid sent to each page
    showing the result) and the audit; fails if a bid was lost or doubled."""
    sys.path.insert(0, str(ROOT))
    from mogul.classroom.store import TableStore

    with tempfile.TemporaryDirectory(prefix="mogul-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'class.sqlite'}"
        store = TableStore(url)
        setup = {"rounds": 100, "budget": 10}
        made = store.create_tables(
            tables, "first-price-auction", ["human"] * seats, "lab", 1, None, setup
        )
        codes = [t.code for t in made]
        started = [start_hall(url, Path(tmp) / "hall.log")]
        try:
            rounds: dict = {}
            seen: list[float] = []
            students = [
                SealedBidder(
                    started[0][1],
                    code,
                    f"S{t}-{s}",
                    (0, 0),
                    {},
                    seen,
                    t * 100 + s,
                    burst,
                    rounds=rounds,
                )
                for t, code in enumerate(codes)
                for s in range(seats)
            ]
            stop = asyncio.Event()
            load_before = os.getloadavg()
            cpu0 = process_figures(family(started))[0]
            me0 = sum(psutil.Process().cpu_times()[:2])
            t0 = time.perf_counter()
            for student in students:
                student.origin = t0 + arrival
            n = len(students)
            tasks = [
                asyncio.create_task(s.run(arrival * i / n, stop)) for i, s in enumerate(students)
            ]
            loads = []
            while time.perf_counter() - t0 < arrival + seconds:
                await asyncio.sleep(1.0)
                loads.append(os.getloadavg()[0])
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            cpu = process_figures(family(started))[0] - cpu0
            me = sum(psutil.Process().cpu_times()[:2]) - me0
            wall = time.perf_counter() - t0
            stored, lost, doubled = sealed_audit(store, students, codes)
            errors = [e for s in students for e in s.errors]
            closed = sum(len(store.history(c)[-1].results) for c in codes)
            print(
                f"--- sealed bids (first-price auction lab), SQLite, 1 server: {n} students at "
                f"{tables} tables of {seats}; every {burst:g} s every student bids in the same second"
            )
            print(percentiles("bid -> result (the round's last bid to each page)", seen))
            print(
                f"rounds closed {closed}; bids stored {stored}, lost {lost}, doubled {doubled}; "
                f"refused {len(errors)}" + (f" (e.g. {errors[0]!r})" if errors else "")
            )
            print(
                f"server CPU {cpu:.1f} s in {wall:.0f} s; the students (this process): CPU "
                f"{me:.1f} s; load average {load_before[0]:.1f} before, "
                f"{min(loads, default=0):.1f}-{max(loads, default=0):.1f} during",
                flush=True,
            )
            if lost or doubled:
                raise SystemExit("bids were lost or doubled: see the audit above")
        finally:
            stop_halls(started)
            store.close()


def audit(store, students: list[SimulatedStudent], codes: list[str]) -> tuple[int, int, int]:
    """(moves stored, lost, doubled) over the run: a click whose table then showed it made but
    that the store does not hold is lost; a stored move that no page sent for that very step
    (a click applied twice, or at another step) is doubled. The store must replay whole."""
    lost = doubled = stored = 0
    for code in codes:
        actions, states = store.actions(code), store.history(code)
        assert len(states) == len(actions) + 1 or not states and not actions  # none missing
        stored += len(actions)
        pages = {s.seat: s for s in students if s.code == code}
        for step, action in enumerate(actions):
            page = pages.get(states[step].current_player)
            if page is None or action not in page.sent.get(step, set()):
                doubled += 1
        for page in pages.values():
            lost += sum(
                1
                for step, action in page.accepted
                if step >= len(actions) or actions[step] != action
            )
    return stored, lost, doubled


def family(started: list[tuple[subprocess.Popen, int]]) -> list[psutil.Process]:
    """The hall servers' processes: each server and its workers (``--workers``)."""
    procs = []
    for proc, _ in started:
        with contextlib.suppress(psutil.Error):
            parent = psutil.Process(proc.pid)
            procs += [parent, *parent.children()]
    return procs


def process_figures(procs: list[psutil.Process]) -> tuple[float, float, float]:
    """(CPU seconds, RSS MB, USS MB) of the processes, summed."""
    cpu = rss = uss = 0.0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            cpu += t.user + t.system
            info = p.memory_full_info()
            rss += info.rss / 2**20
            uss += info.uss / 2**20
    return cpu, rss, uss


async def hall_run(
    url: str,
    label: str,
    servers: int,
    tables: int,
    seats: int,
    arrival: float,
    seconds: float,
    think: tuple[float, float],
    home: Path,
    kill: bool = False,
    burst: float | None = None,
    workers: int = 1,
) -> dict:
    """One measurement on the store at ``url`` (see the module docstring); ``workers``: each
    server's ``--workers``; ``kill``: SIGKILL the
    first server halfway through the play and start it again on its port; ``burst``: every
    ``burst`` seconds after the arrival, every student clicks in the same second (the one to
    move a move, the others out of turn) instead of 1-3 s after their turn. Returns the figures."""
    sys.path.insert(0, str(ROOT))
    from mogul.classroom.store import TableStore

    store = TableStore(url)
    session = f"bench-{label}-{servers}-{workers}-{tables}-{kill}-{burst}"
    codes = [
        t.code
        for t in store.create_tables(tables, "classic", ["human"] * seats, session=session, seed=1)
    ]
    logs = [home / f"hall-{session}-{i}.log" for i in range(servers)]
    started = [start_hall(url, log, workers=workers) for log in logs]
    procs = family(started)
    try:
        load_before = os.getloadavg()
        clicks: dict = {}
        seen: list[float] = []
        students = [
            SimulatedStudent(
                started[(t * seats + s) % servers][1],
                code,
                f"S{t}-{s}",
                think,
                clicks,
                seen,
                t * 100 + s,
                burst,
            )
            for t, code in enumerate(codes)
            for s in range(seats)
        ]
        stop = asyncio.Event()
        cpu0 = process_figures(procs)[0]
        cpu_killed = 0.0
        me0 = sum(psutil.Process().cpu_times()[:2])
        t0 = time.perf_counter()
        for s in students:
            s.origin = t0 + arrival
        n = len(students)
        tasks = [asyncio.create_task(s.run(arrival * i / n, stop)) for i, s in enumerate(students)]
        peak = (0.0, 0.0)
        loads = []
        killed = not kill
        while time.perf_counter() - t0 < arrival + seconds:
            await asyncio.sleep(1.0)
            procs = family(started)
            _, rss, uss = process_figures(procs)
            peak = (max(peak[0], rss), max(peak[1], uss))
            loads.append(os.getloadavg()[0])
            if not killed and time.perf_counter() - t0 > arrival + seconds / 2:
                cpu_killed = process_figures(family(started[:1]))[0]
                started[0][0].send_signal(signal.SIGKILL)
                started[0][0].wait(10)
                await asyncio.sleep(0.3)
                started[0] = await asyncio.to_thread(
                    start_hall, url, logs[0], started[0][1], workers
                )
                killed = True
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        wall = time.perf_counter() - t0
        cpu1 = process_figures(family(started))[0] + cpu_killed
        me1 = sum(psutil.Process().cpu_times()[:2])
        joins = [s.join_seconds for s in students if s.join_seconds is not None]
        errors = [e for s in students for e in s.errors]
        stored, lost, doubled = audit(store, students, codes)
        figures = {
            "label": f"hall, {label}, {servers} server{'s' if servers > 1 else ''}"
            + (f" of {workers} processes" if workers > 1 else "")
            + (", one SIGKILLed, restarted" if kill else "")
            + (f", all click every {burst:g} s" if burst else ""),
            "students": n,
            "joins": joins,
            "seen": seen,
            "cpu": cpu1 - cpu0,
            "rss": peak[0],
            "uss": peak[1],
            "audit": f"{stored} moves, lost {lost}, doubled {doubled}",
            "lost": lost + doubled,
            "load": (min(loads, default=0.0), max(loads, default=0.0)),
        }
        print(
            f"--- {figures['label']}: {n} students at {tables} tables of {seats}, arriving over "
            f"{arrival:g} s, then {seconds:g} s of play, "
            + (
                f"everyone clicks every {burst:g} s"
                if burst
                else f"think {think[0]:g}-{think[1]:g} s"
            )
        )
        print(f"joined: {len(joins)} of {n}; " + percentiles("join -> table", joins))
        print(percentiles("click -> other seats see it", seen))
        print(
            f"moves: {sum(len(s.sent.get(k, ())) for s in students for k in s.sent)} clicks sent, "
            f"{stored} moves stored, lost {lost}, doubled {doubled}; refused: {len(errors)}"
            + (f" (e.g. {errors[0]!r})" if errors else "")
            + f"; reconnects {sum(s.reconnects for s in students)}"
        )
        print(
            f"servers: CPU {cpu1 - cpu0:.1f} s in {wall:.0f} s; memory peak RSS {peak[0]:.0f} MB, "
            f"USS {peak[1]:.0f} MB (all {len(procs)} processes); the students (this process): CPU "
            f"{me1 - me0:.1f} s; load average {load_before[0]:.1f} before, "
            f"{figures['load'][0]:.1f}-{figures['load'][1]:.1f} during",
            flush=True,
        )
        return figures
    finally:
        stop_halls(started)
        store.close()


def table(rows: list[dict]) -> str:
    """The run's figures, one row per measurement (students in brackets; times in ms, CPU in
    s, memory in MB): join is from opening the page (the hall: its WebSocket) to the table
    shown, click -> others from a click to each other seat's page showing the move; CPU and
    memory are the servers' (memory: the peak)."""
    head = (
        f"{'':60} {'join p50/p90/p99':>18} {'click->others p50/p90/p99':>26} {'CPU s':>6} "
        f"{'RSS MB':>7} {'USS MB':>7} {'load':>9}  moves"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        join = "/".join(f"{percentile(r['joins'], q):.0f}" for q in (0.5, 0.9, 0.99))
        seen = "/".join(f"{percentile(r['seen'], q):.0f}" for q in (0.5, 0.9, 0.99))
        name = f"{r['label']} ({r['students']})"
        lines.append(
            f"{name:60} {join:>18} {seen:>26} {r['cpu']:>6.1f} "
            f"{r['rss']:>7.0f} {r['uss']:>7.0f} {r['load'][0]:>4.1f}-{r['load'][1]:<4.1f}  "
            f"{r['audit']}"
        )
    return "\n".join(lines)


async def hall_main(
    stores: list[str],
    servers: int,
    kill: bool,
    tables: list[int],
    seats: int,
    arrival: float,
    seconds: float,
    think: tuple[float, float],
    burst: float | None = None,
    steady: bool = True,
    workers: list[int] = (1,),
) -> list[dict]:
    """The hall on each store, at each number of ``tables`` with each of ``workers`` (its
    ``--workers``; PostgreSQL only, SQLite runs one), and, with ``kill``, on two servers with
    one killed; with ``burst``, the bursts' run after the steady one; figures."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="mogul-bench-") as tmp:
        home = Path(tmp)
        for kind in stores:
            counts = [1] if kind == "sqlite" else workers
            sizes = [(t, w) for t in tables for w in counts]
            runs = [(max(servers, 1), t, w, False, None) for t, w in sizes if steady or not burst]
            runs += [(2, tables[0], 1, True, None)] if kill else []
            runs += [(max(servers, 1), t, w, False, burst) for t, w in sizes] if burst else []
            with contextlib.ExitStack() as stack:
                if kind == "sqlite":
                    url, label = f"sqlite:///{home / 'class.sqlite'}", "SQLite"
                else:
                    url, label = stack.enter_context(throwaway_postgres()), "PostgreSQL"
                for count, size, processes, killing, bursts in runs:
                    rows.append(
                        await hall_run(
                            url,
                            label,
                            count,
                            size,
                            seats,
                            arrival,
                            seconds,
                            think,
                            home,
                            killing,
                            bursts,
                            processes,
                        )
                    )
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tables",
        type=int,
        nargs="+",
        default=[40],
        help="tables (default 40; 200 is 1,000 students); several: a run at each",
    )
    parser.add_argument("--seats", type=int, default=5, help="people per table (default 5)")
    parser.add_argument("--store", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--servers", type=int, default=1, help="hall server processes sharing the students"
    )
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[1],
        metavar="N",
        help="PostgreSQL: each server as --workers N, N processes on one port; several: a run "
        "with each (e.g. 1 2: one process against two); SQLite runs one",
    )
    parser.add_argument(
        "--no-kill",
        action="store_true",
        help="skip the run on two servers with one killed (SIGKILL) mid-run and restarted",
    )
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="seconds of play after the arrival"
    )
    parser.add_argument(
        "--arrival", type=float, default=10.0, help="seconds over which the students arrive"
    )
    parser.add_argument(
        "--burst",
        type=float,
        metavar="SECONDS",
        help="also a run where, every SECONDS, every student clicks in the same second",
    )
    parser.add_argument(
        "--no-steady",
        action="store_true",
        help="with --burst: only the bursts' run (skip the run of students acting 1-3 s after their turn)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="PREFIX",
        help="run each server under cProfile (its event loop: views, sockets), written to "
        "PREFIX-PORT.prof when it stops",
    )
    parser.add_argument(
        "--sealed",
        action="store_true",
        help="instead: the auction lab's sealed bids (first-price), every student bidding in "
        "the same second every --burst seconds (default 3), SQLite, one server",
    )
    args = parser.parse_args()
    PROFILE = args.profile
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    if args.sealed:
        print(f"machine: {psutil.cpu_count()} cores; before: {uptime}")
        asyncio.run(
            sealed_run(args.tables[0], args.seats, args.arrival, args.seconds, args.burst or 3.0)
        )
        after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        raise SystemExit(print(f"after:  {after}"))
    chosen = ["sqlite", "postgresql"] if args.store == "both" else [args.store]
    rows = asyncio.run(
        hall_main(
            chosen,
            args.servers,
            not args.no_kill,
            args.tables,
            args.seats,
            args.arrival,
            args.seconds,
            (1.0, 3.0),
            args.burst,
            not args.no_steady,
            args.workers,
        )
    )
    print()
    print(f"machine: {psutil.cpu_count()} cores; before: {uptime}")
    print(f"after:  {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(table(rows))
    if any(r.get("lost") for r in rows):
        raise SystemExit("moves were lost or doubled: see the audit above")
