"""Simulations at scale: the batch engine's tables, end to end, on one and two workers.

    python benchmarks/bench_simulate.py                     # all three figures
    python benchmarks/bench_simulate.py --skip-cli          # the million games only
    python benchmarks/bench_simulate.py --games 100000      # a smaller big run
    python benchmarks/bench_simulate.py --skip-cli --workers 1,2 --tables games

Prints, each beside the load average at the time and, for the big runs, how many cores other
processes kept busy meanwhile (the machine may be shared: repeat when it is quiet):

* the command line end to end (a fresh process: imports, compiled-code cache, the games,
  every table written as CSV) for 10,000 random 4-player classic games; target < 5 s;
* ``simulate(..., out=folder)`` for ``--games`` games (default 1,000,000), every table
  streamed to ``--format`` (default Feather, the compact, fastest one), in a fresh process
  per worker count, one row each: games, tables, format, workers, wall seconds, games per
  second, the peak resident memory of the process and of its largest worker, the CPU
  seconds of the process and of its pool, all counted over the run itself (imports and a
  100-game warm-up before it are not); targets < 30 s and < 1 GB on one worker, and two
  workers >= 1.8x one (runs taking turns, the best of ``--repeat`` kept, the load at its
  end beside it). Then the ratio of two workers to one, by wall time and by CPU time (the
  run's CPU seconds shared by its processes, as if each had a core to itself and kept it
  busy: what a shared machine disturbs less). One worker is this process (one thread:
  nothing is compressed in the background); two are this process and a pool worker (a
  batch run's process plays chunks too, between writing them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUN = """
import json, os, resource, sys, time
from mogul.kit.simulate import simulate
games, workers, tables, out, fmt = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4], sys.argv[5]
simulate("classic", ["random"], games=100, players=4, out=out + "-warm", format=fmt, progress=False)
def cpu(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime
def machine():  # CPU seconds the whole machine spent busy (Linux), else 0
    try:
        ticks = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")
me, kids, busy = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN), machine()
start = time.perf_counter()
sim = simulate("classic", ["random"], games=games, players=4, seed=1, tables=tables, out=out,
               format=fmt, progress=False, **({"workers": workers} if workers > 1 else {}))
seconds = time.perf_counter() - start
me, kids, busy = cpu(resource.RUSAGE_SELF) - me, cpu(resource.RUSAGE_CHILDREN) - kids, machine() - busy
print(json.dumps({"seconds": seconds, "games": sim.games_finished,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "worker_peak": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,
                  "cpu": me + kids, "parent_cpu": me, "others": max(0.0, busy - me - kids) / seconds if busy else None}))
"""


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def others(figures: dict[str, float]) -> str:
    """How many cores other processes kept busy during the run, on average (Linux)."""
    if figures.get("others") is None:
        return ""
    return f"; other processes busy {figures['others']:.2f} of {os.cpu_count()} cores"


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def cli(folder: Path, games: int, tables: str) -> float:
    """Seconds for the command line, from a fresh process to the files and the manifest."""
    shutil.rmtree(folder, ignore_errors=True)
    argv = [sys.executable, "-m", "mogul", "simulate", "--bots", "random", "--players", "4"]
    argv += ["--games", str(games), "--tables", tables, "--format", "csv", "--no-progress"]
    start = time.perf_counter()
    subprocess.run([*argv, "--out", str(folder)], check=True, capture_output=True, env=env())
    seconds = time.perf_counter() - start
    assert json.loads((folder / "manifest.json").read_text())["games_finished"] == games
    return seconds


def big(folder: Path, games: int, workers: int, tables: str, fmt: str) -> dict[str, float]:
    """One streamed run in a fresh process; its figures."""
    shutil.rmtree(folder, ignore_errors=True)
    argv = [sys.executable, "-c", RUN, str(games), str(workers), tables, str(folder), fmt]
    result = subprocess.run(argv, check=True, capture_output=True, text=True, env=env())
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    figures["bytes"] = sum(p.stat().st_size for p in folder.glob(f"*.{fmt}"))
    figures["load"] = load()
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(f"{folder}-warm", ignore_errors=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--tables", default="games,rounds,auctions")
    parser.add_argument(
        "--format", default="feather", choices=["csv", "parquet", "feather"], help="of the big runs"
    )
    parser.add_argument("--skip-cli", action="store_true")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each figure (best kept)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as tmp:
        if not args.skip_cli:
            cli(Path(tmp) / "warm", 100, args.tables)  # compiles the kernels if needed
            for _ in range(args.repeat):
                seconds = cli(Path(tmp) / "cli", 10_000, args.tables)
                print(
                    f"CLI, 10,000 4-player games, {args.tables} as CSV: {seconds:.2f} s  ({load()})"
                )
        print(" | ".join(COLUMNS))
        counts = [int(w) for w in args.workers.split(",")]
        runs: dict[int, list[dict[str, float]]] = {workers: [] for workers in counts}
        for _ in range(args.repeat):  # in turns, so that each count sees the machine alike
            for workers in counts:
                folder = Path(tmp) / "big"
                runs[workers].append(big(folder, args.games, workers, args.tables, args.format))
        rates, cpu_rates = {}, {}
        for workers in counts:
            best = min(runs[workers], key=lambda r: r["seconds"])
            rates[workers] = best["games"] / best["seconds"]
            cpu_rates[workers] = max(
                r["games"] / cpu_per_process(r, workers) for r in runs[workers]
            )
            row = (
                f"{best['games']:,}",
                args.tables,
                args.format,
                str(workers),
                f"{best['seconds']:.1f}",
                f"{rates[workers]:,.0f}",
                f"{best['peak'] / 2**20:.0f}",
                f"{best['worker_peak'] / 2**20:.0f}",
                f"{best['parent_cpu']:.1f} / {best['cpu'] - best['parent_cpu']:.1f}",
                f"{best['bytes'] / 2**30:.2f}",
                f"{best['load']}{others(best)}",
            )
            print(" | ".join(row), flush=True)
        if 1 in rates and 2 in rates:
            print(
                f"two workers / one worker: {rates[2] / rates[1]:.2f}x wall time, "
                f"{cpu_rates[2] / cpu_rates[1]:.2f}x by CPU time  ({load()})"
            )


COLUMNS = (
    "games",
    "tables",
    "format",
    "workers",
    "wall s",
    "games/s",
    "peak RSS MB",
    "largest worker RSS MB",
    "CPU s this process / pool",
    "GB written",
    "load 1, 5, 15 min",
)


def cpu_per_process(figures: dict[str, float], workers: int) -> float:
    """The run's CPU seconds shared by its ``workers`` processes: its wall time if it had a
    core per process to itself, kept busy (a figure that other work on a shared machine
    disturbs less than the wall time)."""
    return figures["cpu"] / workers


if __name__ == "__main__":
    main()
