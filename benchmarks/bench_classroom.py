"""Classroom load test: 30 student pages on one machine, localhost only (bounded: a few minutes).

Serves the student page as ``make classroom`` does (Voila, the kit's template, progressive
rendering) over a fresh SQLite store, opens ``--tables`` x ``--seats``
pages in one headless Chromium (a browser context each, like separate devices), arriving
spread over ``--arrival`` seconds, joins them to their tables, then lets every table play
``--moves`` moves at once: at each table the student to move thinks ``--think`` seconds,
clicks a move button, and the other seats' pages are watched until their table changes
(``--arrival 0 --think 0`` is the stampede: everyone at once, clicking without a pause).
Prints:

* page to table: from opening the page to the join form, and from "Join" to the table;
* click to the other seats seeing the move: median, p90, max (the goal: p90 under 1 s);
* memory per session: each kernel's unique memory (USS) and resident size (RSS).

The browser runs on the same two cores as the server here; in class it runs on the
students' own devices, so these times are pessimistic.

    python benchmarks/bench_classroom.py [--tables 10 --seats 3 --moves 12] [--preheat 30]

``--preheat N`` serves with N preheated kernels instead (Voila refuses preheating together
with progressive rendering, so that run has it off; the student page draws no charts).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "mogul" / "classroom" / "pages" / "student.ipynb"
CHROMIUM = os.environ.get("MOGUL_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_voila(store: Path, home: Path, pool: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "MOGUL_CLASSROOM": str(store), "JUPYTER_PATH": str(ROOT / "share" / "jupyter"),
           "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}  # fmt: skip
    argv = [sys.executable, "-m", "voila", str(PAGE), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
            "--Voila.port_retries=0", "--template=mogul"]
    if pool:
        argv += ["--preheat_kernel=True", f"--VoilaConfiguration.default_pool_size={pool}"]
    else:
        argv += ["--progressive_rendering=True"]
    log = open(home / "voila.log", "wb")  # noqa: SIM115 - lives as long as the server
    proc = subprocess.Popen(argv, cwd=PAGE.parent, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"http://127.0.0.1:{port}/"
        if proc.poll() is not None:
            raise RuntimeError("Voila exited:\n" + (home / "voila.log").read_text()[-3000:])
        time.sleep(0.25)
    raise RuntimeError("Voila did not start within 90 s")


def wait_for_pool(proc: subprocess.Popen, pool: int, timeout: float = 600) -> float:
    """Wait until ``pool`` preheated kernels exist and the server's processes are idle; seconds."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        server = psutil.Process(proc.pid)
        procs = [server, *server.children(recursive=True)]
        kernels = [p for p in procs if "ipykernel" in " ".join(p.cmdline())]
        for p in procs:
            p.cpu_percent(interval=None)  # starts the measurement
        time.sleep(1.0)
        busy = sum(p.cpu_percent(interval=None) for p in procs)  # percent of one core, last second
        if len(kernels) >= pool and busy < 15:
            return time.monotonic() - t0
    raise RuntimeError(f"the {pool} preheated kernels were not ready within {timeout} s")


def stop(proc: subprocess.Popen) -> None:
    kids = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
    for pid in kids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def kernel_memory(proc: subprocess.Popen) -> list[tuple[float, float]]:
    """(USS, RSS) in MB of each kernel of the server."""
    out = []
    for p in psutil.Process(proc.pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(p.cmdline()):
                info = p.memory_full_info()
                out.append((info.uss / 2**20, info.rss / 2**20))
        except psutil.Error:
            pass
    return out


def cpu_seconds(proc: subprocess.Popen) -> tuple[float, float]:
    """CPU seconds used so far by (the server and its kernels, everything else we started:
    the browser). Processes that ended are not counted."""

    def used(procs: list[psutil.Process]) -> float:
        total = 0.0
        for p in procs:
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    server = psutil.Process(proc.pid)
    ours = {p.pid for p in [server, *server.children(recursive=True)]}
    mine = psutil.Process().children(recursive=True)
    return used([psutil.Process(pid) for pid in ours]), used([p for p in mine if p.pid not in ours])


def summary(label: str, values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return (f"{label}: n={len(values)}  median {statistics.median(values):.3f} s  p90 {p90:.3f} s  "
            f"max {values[-1]:.3f} s")  # fmt: skip


async def open_student(browser, url: str, code: str, name: str, delay: float) -> tuple[object, float, float]:
    """A student's page joined to ``code`` after ``delay`` seconds: (page, seconds to the form,
    seconds from Join to the table)."""
    await asyncio.sleep(delay)
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    await page.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:)"), lambda route: route.abort())
    t0 = time.perf_counter()
    await page.goto(url, timeout=300_000)
    await page.locator(".mogul-join").wait_for(timeout=300_000)
    t1 = time.perf_counter()
    await page.get_by_label("Table code").fill(code)
    await page.get_by_label("Your name").fill(name)
    await page.get_by_role("button", name="Join the table").click()
    await page.locator(".mogul-student .mogul-status").filter(has_text=re.compile(".")).wait_for(timeout=120_000)
    t2 = time.perf_counter()
    return page, t1 - t0, t2 - t1


async def game_text(page) -> str:
    return await page.locator(".mogul-game").inner_text() if await page.locator(".mogul-game").count() else ""


async def play_table(pages: list, moves: int, think: float, seen: list[float]) -> None:
    """Play ``moves`` moves at one table; record click -> every other page changed."""
    for page in pages:
        await page.locator(".mogul-game").wait_for(timeout=120_000)
    for _ in range(moves):
        mover = None
        deadline = time.monotonic() + 60
        while mover is None and time.monotonic() < deadline:
            for page in pages:
                mine = "Your move" in await page.locator(".mogul-status").inner_text()
                if mine and await page.locator(".mogul-moves button").count():
                    mover = page
                    break
            else:
                await asyncio.sleep(0.05)
        if mover is None:
            raise RuntimeError("no student had a move for 60 s")
        others = [p for p in pages if p is not mover]
        before = [await game_text(p) for p in others]
        await asyncio.sleep(think)
        buttons = mover.locator(".mogul-moves button")
        pick = buttons.filter(has_text=re.compile("^(Bid|Take)"))
        click = time.perf_counter()
        await (pick if await pick.count() else buttons).first.click()

        async def changed(page, text: str, click: float = click) -> None:
            await page.wait_for_function(
                "t => { const g = document.querySelector('.mogul-game'); return g && g.innerText !== t; }",
                arg=text, timeout=60_000, polling="raf",
            )  # fmt: skip
            seen.append(time.perf_counter() - click)

        await asyncio.gather(*(changed(p, t) for p, t in zip(others, before, strict=True)))


async def main(tables: int, seats: int, moves: int, pool: int, arrival: float, think: float) -> None:
    sys.path.insert(0, str(ROOT))
    from mogul.classroom.store import TableStore

    with tempfile.TemporaryDirectory(prefix="mogul-bench-") as tmp:
        home = Path(tmp)
        store_path = home / "class.sqlite"
        store = TableStore(store_path)
        codes = [t.code for t in store.create_tables(tables, "classic", ["human"] * seats, session="bench", seed=1)]
        proc, url = start_voila(store_path, home, pool)
        try:
            if pool:
                print(f"{pool} preheated kernels ready after {wait_for_pool(proc, pool):.0f} s (before the class)")
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                t0 = time.perf_counter()
                cpu_start = cpu_seconds(proc)
                n = tables * seats
                opened = await asyncio.gather(*(
                    open_student(browser, url, code, f"S{t}-{s}", arrival * (t * seats + s) / n)
                    for t, code in enumerate(codes) for s in range(seats)
                ))  # fmt: skip
                print(f"{len(opened)} sessions joined in {time.perf_counter() - t0:.1f} s "
                      f"({tables} tables x {seats} seats arriving over {arrival:g} s, "
                      + (f"{pool} preheated kernels)" if pool else "kernels started on arrival, as make classroom)"))  # fmt: skip
                cpu_joined = cpu_seconds(proc)
                print(f"CPU while arriving: server and kernels {cpu_joined[0] - cpu_start[0]:.1f} s, "
                      f"browser {cpu_joined[1] - cpu_start[1]:.1f} s")  # fmt: skip
                print(summary("page to join form", [o[1] for o in opened]))
                print(summary("Join to table     ", [o[2] for o in opened]))
                seen: list[float] = []
                pages = [o[0] for o in opened]
                cpu0 = cpu_seconds(proc)
                t1 = time.perf_counter()
                await asyncio.gather(*(play_table(pages[t * seats : (t + 1) * seats], moves, think, seen) for t in range(tables)))
                print(f"{tables * moves} clicks at {tables} tables at once (think time {think:g} s) "
                      f"in {time.perf_counter() - t1:.1f} s")
                print(summary("click to other seats seeing it", seen))
                cpu1 = cpu_seconds(proc)
                wall = time.perf_counter() - t1
                print(f"CPU while playing: server and kernels {cpu1[0] - cpu0[0]:.1f} s, browser "
                      f"{cpu1[1] - cpu0[1]:.1f} s, in {wall:.1f} s on {psutil.cpu_count()} cores")  # fmt: skip
                memory = kernel_memory(proc)
                if memory:
                    uss = [m[0] for m in memory]
                    rss = [m[1] for m in memory]
                    print(f"memory per session (kernel): USS mean {statistics.mean(uss):.0f} MB, "
                          f"RSS mean {statistics.mean(rss):.0f} MB, {len(memory)} kernels, "
                          f"USS total {sum(uss):.0f} MB")  # fmt: skip
                await browser.close()
        finally:
            stop(proc)
            store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--moves", type=int, default=12, help="moves per table")
    parser.add_argument("--preheat", type=int, default=0, help="preheated kernels (default none, as make classroom)")
    parser.add_argument("--arrival", type=float, default=30.0, help="seconds over which the students arrive")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a student thinks before a click")
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.seats, args.moves, args.preheat, args.arrival, args.think))
