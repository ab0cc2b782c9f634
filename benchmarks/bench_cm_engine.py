"""Credit Mobilier's readable engine: random 4-player games per second, here and in another checkout.

Random play: ``state.apply(rng.choice(state.legal_actions()))`` to the end of the game, one
``random.Random(seed)`` per game, seeds 0, 1, 2 ... Each run plays the same games in a fresh
Python process (so caches start empty and the other checkout's package is the one imported)
and times them in CPU time after a few warm-up games; the figure is the best of the runs,
the one least disturbed by other work on the machine. With ``--against PATH`` the runs of
this checkout and of the checkout at PATH alternate, so the two figures and their ratio are
measured in the same minute; each run also prints a digest of every game's final table, and
the two checkouts must agree on it (the same games, only faster or slower).

    python benchmarks/bench_cm_engine.py [--against /path/to/other/checkout] [--games 300] [--runs 5]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
WARM_UP = 5


def play_games(games: int) -> tuple[int, str]:
    """Play seeds 0 .. games-1 at random: (decisions in all, digest of the final tables)."""
    from mogul import credit_mobilier as cm

    digest = hashlib.sha256()
    steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = cm.new_game(players=4, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            steps += 1
        digest.update(repr(tuple(state[1:-1])).encode())
    return steps, digest.hexdigest()[:16]


def worker(games: int) -> None:
    """One timed run in this process: prints games/s (CPU time), decisions per game and the digest."""
    play_games(WARM_UP)
    start = time.process_time()
    steps, digest = play_games(games)
    seconds = time.process_time() - start
    print(json.dumps({"rate": games / seconds, "steps": steps / games, "digest": digest}))


def run_once(checkout: Path, games: int) -> dict:
    """One run in a fresh process importing the package from ``checkout``."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", "--games", str(games)],
        env=env,
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout to time in the same runs")
    parser.add_argument("--games", type=int, default=300, help="games per run (default 300)")
    parser.add_argument("--runs", type=int, default=5, help="runs per checkout (default 5)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.games)
        return
    checkouts = {"this checkout": HERE}
    if args.against is not None:
        checkouts = {"other checkout": args.against.resolve(), **checkouts}
    results: dict[str, list[dict]] = {name: [] for name in checkouts}
    for _ in range(args.runs):
        for name, path in checkouts.items():  # alternate, so both see the same machine load
            results[name].append(run_once(path, args.games))
    best = {}
    for name, path in checkouts.items():
        rates = sorted(r["rate"] for r in results[name])
        best[name] = rates[-1]
        digests = {r["digest"] for r in results[name]}
        print(
            f"{name:<15} {str(path):<28} best {rates[-1]:6.0f} games/s  median "
            f"{rates[len(rates) // 2]:6.0f}  ({results[name][0]['steps']:.0f} decisions a game, "
            f"{args.games} games x {args.runs} runs, digest {' '.join(sorted(digests))})"
        )
    if args.against is not None:
        same = results["other checkout"][0]["digest"] == results["this checkout"][0]["digest"]
        print(
            f"ratio this / other: {best['this checkout'] / best['other checkout']:.2f}x   "
            f"same games: {'yes' if same else 'NO'}"
        )


if __name__ == "__main__":
    main()
