"""How long the lecturer's dashboard (the hall's page, no kernel) takes to show its tables.

Starts the class's server as ``mogul classroom`` does (one Jupyter server carrying the hall)
on a fresh SQLite store holding ``--tables`` tables of today's session, some joined; then, in
Chromium (``$MOGUL_CHROMIUM``, else /usr/bin/chromium), ``--runs`` times each in a new browser
context (no cache): from asking for the page to every table's card shown. Prints each run,
the median, and the machine's load average (1 minute) before and after. The target of issue
39 (item 4): well under 2 s; the Voila dashboard it replaced took 2.8-4.5 s on a quiet machine.

    python benchmarks/bench_dashboard.py [--runs 5] [--tables 8]
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-dashboard"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fill(store_path: Path, tables: int) -> None:
    """``tables`` tables of 3 people in today's session, the first half with one joined."""
    from mogul.classroom.store import TableStore

    store = TableStore(f"sqlite:///{store_path}")
    made = store.create_tables(tables, "classic", ["human"] * 3, datetime.date.today().isoformat())
    for info in made[: tables // 2]:
        store.join(info.code, "Ann")
    store.close()


def timed(browser, url: str, cards: int) -> float:
    """Seconds from asking for ``url`` to ``cards`` table cards shown, in a new context."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    start = time.monotonic()
    page.goto(url, timeout=120_000)
    page.locator(".mogul-table-card").nth(cards - 1).wait_for(timeout=120_000)
    seconds = time.monotonic() - start
    context.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tables", type=int, default=8)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-dashboard-") as folder:
        home = Path(folder)
        fill(home / "class.sqlite", args.tables)
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "MOGUL_"))}
        env.update(
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            JUPYTER_CONFIG_DIR=str(home / "config"),
            JUPYTER_DATA_DIR=str(home / "data"),
            JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        )
        argv = [sys.executable, "-m", "mogul", "classroom", "--port", str(port)]
        argv += ["--db", str(home / "class.sqlite"), "--token", TOKEN]
        with (home / "server.log").open("w") as log:
            server = subprocess.Popen(argv, cwd=home, env=env, stdout=log, stderr=log)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(600):
                try:
                    urllib.request.urlopen(f"{base}/mogul/hall/", timeout=5).close()
                    break
                except OSError:
                    assert server.poll() is None, (home / "server.log").read_text()
                    time.sleep(0.1)
            url = f"{base}/mogul/hall/dashboard?token={TOKEN}"
            load = os.getloadavg()[0]
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=os.environ.get("MOGUL_CHROMIUM", "/usr/bin/chromium"),
                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
                )
                timed(browser, url, args.tables)  # the server's first answers
                runs = [timed(browser, url, args.tables) for _ in range(args.runs)]
                browser.close()
            shown = " ".join(f"{s:.2f}" for s in runs)
            print(
                f"median {statistics.median(runs):.2f} s to {args.tables} tables shown "
                f"(runs: {shown})"
            )
            print(f"load average (1 min): {load:.1f} before, {os.getloadavg()[0]:.1f} after")
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)


if __name__ == "__main__":
    main()
