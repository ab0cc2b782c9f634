"""Acceptance tournaments: ValueBot beats RandomBot and ThresholdBot; MonteCarloBot beats ValueBot.

    .venv/bin/python benchmarks/tournament_acceptance.py                 # about 45 min on 2 cores
    .venv/bin/python benchmarks/tournament_acceptance.py --repetitions 10 --rollouts 4   # a quick look
    .venv/bin/python benchmarks/tournament_acceptance.py --tables 3 --repetitions 20     # mixed table

Each table is a 4-player tournament: every seating of the four entrants (24) times
``--repetitions`` (default 84: 2,016 games). "Beats" means the 95% Wilson intervals of the
win rates do not overlap. Not a test: it prints the tables and a verdict per claim.

1. random, threshold-2, threshold-3, value
2. MonteCarloBot (``--rollouts`` determinised rollouts per candidate action, ValueBot as
   rollout policy) against three ValueBots
3. with ``--tables 3``: all four kinds at one table (random, threshold-3, value, mc), which
   shows how a Monte-Carlo bot fares when its model of the opponents (ValueBots) is wrong
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from mogul.kit.tournament import Tournament, tournament


def show(title: str, result: Tournament, seconds: float) -> None:
    """Print a tournament's results and head-to-head tables."""
    games = len(result.games) // result.players
    print(
        f"\n## {title}\n{games} games, {result.players} players, seed {result.seed}, {seconds / 60:.1f} min"
    )
    with pd.option_context("display.width", 200):
        print(result.summary().to_string(float_format=lambda x: f"{x:.3f}"))
        print("\nhead to head (share of games the row bot finished ahead of the column bot):")
        print(result.head_to_head().to_string(float_format=lambda x: f"{x:.3f}"))


def beats(result: Tournament, bot: str, others: list[str]) -> bool:
    """True when ``bot``'s win-rate interval lies above every one of ``others``'."""
    table = result.summary()
    return all(table.loc[bot, "win_low"] > table.loc[o, "win_high"] for o in others)


def run(title: str, bots: list[str], args: argparse.Namespace) -> Tournament:
    """Play one tournament on a local process pool and print it."""
    start = time.perf_counter()
    result = tournament(
        "classic", bots, args.seed, players=4, repetitions=args.repetitions, workers=args.workers
    )
    show(title, result, time.perf_counter() - start)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repetitions", type=int, default=84, help="rounds of 24 seatings (default 84)"
    )
    parser.add_argument(
        "--rollouts", type=int, default=8, help="MonteCarloBot rollouts (default 8)"
    )
    parser.add_argument("--workers", type=int, default=2, help="process pool size (default 2)")
    parser.add_argument("--seed", type=int, default=2026, help="master seed (default 2026)")
    parser.add_argument(
        "--tables", default="1,2", help="which tables to play, e.g. 1,2,3 (default 1,2)"
    )
    args = parser.parse_args()
    tables = {t.strip() for t in args.tables.split(",")}
    mc = f"mc:rollouts={args.rollouts}"
    mc_name = f"mc-{args.rollouts}"

    verdicts = []
    if "1" in tables:
        first = run(
            "1. ValueBot against RandomBot and ThresholdBot",
            ["random", "threshold:drop_at=2", "threshold", "value"],
            args,
        )
        others = ["random", "threshold-2", "threshold-3"]
        verdicts.append((f"value beats {', '.join(others)}", beats(first, "value", others)))
    if "2" in tables:
        second = run(
            f"2. MonteCarloBot ({args.rollouts} rollouts) against ValueBot",
            [mc, "value", "value", "value"],
            args,
        )
        others = ["value", "value 2", "value 3"]
        verdicts.append((f"{mc_name} beats {', '.join(others)}", beats(second, mc_name, others)))
    if "3" in tables:
        run("3. All four kinds at one table", ["random", "threshold", "value", mc], args)
    print()
    for claim, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}: {claim} (non-overlapping 95% intervals)")


if __name__ == "__main__":
    main()
