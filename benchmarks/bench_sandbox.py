"""The audit's attacks on the referee (issues 27 and 36): time, memory and processes left for each.

Run: .venv/bin/python benchmarks/bench_sandbox.py [time_limit]   (from the repository root)
Each attacker plays a tournament with three honest bots (3 seats, 24 games, time limit 1 s
unless given). Printed per attack: the run's wall time, its failures (bot: reason x count),
the peak memory of all the run's processes together (the referee and every sandbox,
sampled every 20 ms), the peak of the largest sandbox, and the processes of the run still
alive 0.2 s after it returned (target: none). The first line is a clean run for comparison.
The snooping cases (issue 36) read files of the checkout, the current folder and a folder put
on sys.path, or connect to a 0777 socket there: "snoop: raised" means it found something.
"""

import contextlib
import functools
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import hostile_bots as hb  # noqa: E402
from hostile_bots import attacks, snoop  # noqa: E402

from mogul import tournament  # noqa: E402
from mogul.kit.guard import bwrap  # noqa: E402

OTHERS = [hb.Honest, "value", "random"]


class Peak:
    """Samples the memory of this process and its descendants until stopped."""

    def __init__(self) -> None:
        self.total = self.largest = 0
        self.running = True
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self) -> None:
        me = psutil.Process()
        while self.running:
            sizes = []
            for p in [me, *me.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    sizes.append(p.memory_info().rss)
            self.total = max(self.total, sum(sizes))
            self.largest = max(self.largest, max(sizes[1:], default=0))
            time.sleep(0.02)

    def stop(self) -> None:
        self.running = False
        self.thread.join()


def left(since: float) -> int:
    time.sleep(0.2)
    mine = [
        p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE
    ]
    stray = [
        p
        for p in psutil.process_iter(["cmdline", "create_time"])
        if p.info["create_time"] >= since and "sleep 60" in " ".join(p.info["cmdline"] or [])
    ]
    return len(mine) + len(stray)


def main(limit: float) -> None:
    marker = Path("/tmp") / f"bench-sandbox-{time.time_ns()}"
    root = Path(__file__).resolve().parents[1]
    folder = Path(tempfile.mkdtemp())  # on sys.path, as the folder of a referee's script is
    folder.chmod(0o755)  # as a script's folder is: a bot running as a user of its own may read it
    sys.path.insert(0, str(folder))
    (folder / "seed.txt").write_text("1\n")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(folder / "s"))
    os.chmod(folder / "s", 0o777)
    server.listen()
    peek = functools.partial
    cases = {
        "clean run": hb.Honest,
        "pickled answer": functools.partial(attacks.PickleAnswer, marker=str(marker)),
        "seed spy": attacks.SeedSpy,
        "saboteur (kill, SIGINT)": attacks.Saboteur,
        "forker (sleep 601)": attacks.Forker,
        "fork bomb": attacks.ForkBomb,
        "8 x 100 MB processes": attacks.Splitter,
        "another bot's source": peek(snoop.Snoop, paths=[attacks.__file__]),
        "project root, cwd": peek(snoop.Snoop, paths=[str(root / "pyproject.toml"), "README.md"]),
        ".git": peek(snoop.Snoop, paths=[str(root / ".git")]),
        "seed file on sys.path": peek(snoop.Snoop, paths=[str(folder / "seed.txt")]),
        "0777 socket on sys.path": peek(snoop.Snoop, sockets=[str(folder / "s")]),
        "3 GB while loading": attacks.LoadHog(),
        "20 s while loading": attacks.SlowLoad(),
        "40 MB printed": attacks.Shouter,
        "spy (env, /proc, net)": attacks.Spy,
        "vandal (kit files)": functools.partial(
            attacks.Vandal, target=attacks.__file__, folder=str(Path.cwd())
        ),
    }
    print(
        f"namespaces: {'bubblewrap ' + bwrap() if bwrap() else 'none (fallback)'}; time limit {limit:g} s"
    )
    print(f"{'attack':26} {'time s':>7} {'peak MB':>8} {'box MB':>7} {'left':>5}  failures")
    for label, bot in cases.items():
        since = time.time()
        peak = Peak()
        start = time.perf_counter()
        t = tournament(
            "classic",
            [bot, *OTHERS],
            players=3,
            repetitions=1,
            seed=5,
            time_limit=limit,
            progress=False,
        )
        took = time.perf_counter() - start
        peak.stop()
        counts = t.failures.groupby(["bot", "reason"]).size()
        failures = ", ".join(f"{b}: {r} x{n}" for (b, r), n in counts.items()) or "none"
        if t.partial:
            failures += " (run stopped!)"
        print(
            f"{label:26} {took:7.1f} {peak.total / 1e6:8.0f} {peak.largest / 1e6:7.0f} {left(since):5d}  {failures}"
        )
    print(f"pickle ran in the referee: {marker.exists()}")
    server.close()


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
