"""Command line: ``python -m mogul simulate ...`` and ``python -m mogul tournament ...``.

    python -m mogul simulate --players 4 --games 10000 --bots random,value,threshold --seed 1 --out runs/
    python -m mogul tournament --bots random,threshold,value,mc:rollouts=8 --repetitions 5 --workers 2

``--game`` picks any registered game or edition (default ``classic``). Bots are the game's
bot names, optionally with keyword arguments after colons (``threshold:drop_at=2``,
``mc:rollouts=50``), separated by commas.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from mogul.kit.bots import bot_factory
from mogul.kit.simulate import has_pyarrow, simulate
from mogul.kit.spec import GameSpec, names, resolve
from mogul.kit.tournament import tournament


def comma_list(text: str) -> list[str]:
    """Parse ``"random,value,mc:rollouts=8"`` into its non-empty parts."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise argparse.ArgumentTypeError("give at least one name")
    return parts


def check_bots(spec: GameSpec, bots: Sequence[str]) -> None:
    """Raise ``ValueError`` unless every bot spec names one of the game's bots."""
    for bot in bots:
        bot_factory(bot, spec.bots)


def check_tables(spec: GameSpec, tables: Sequence[str]) -> list[str]:
    """The tables to build: "games" first, then the game's own tables asked for."""
    known = ["games", *spec.tables]
    unknown = [t for t in tables if t not in known]
    if unknown:
        raise ValueError(f"unknown table(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    return ["games"] + [t for t in tables if t != "games"]


def positive(text: str) -> int:
    """A whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def integer(text: str) -> int:
    """Any whole number (a seed)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The ``mogul`` argument parser with its two commands."""
    parser = argparse.ArgumentParser(
        prog="mogul", description="Simulate Mogul games between bots and run strategy tournaments."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{simulate,tournament}")
    bots_help = "comma-separated bots of the game, e.g. random,value,threshold (options as name:key=value)"

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", "--edition", dest="game", default="classic", choices=names(),
                       help="game or edition (default classic)")
        p.add_argument("--seed", type=integer, default=0, help="master seed (default 0)")
        p.add_argument("--workers", type=positive, default=None, help="run on a local process pool")
        p.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    sim = commands.add_parser("simulate", help="play many games and write tidy tables")
    sim.add_argument("--bots", type=comma_list, required=True, help=bots_help + "; repeated to fill the seats")
    sim.add_argument("--players", type=positive, default=None, help="seats (default: one per bot)")
    sim.add_argument("--games", type=positive, default=1000, help="number of games (default 1000)")
    sim.add_argument("--out", default=None, help="folder for games/rounds/auctions tables")
    sim.add_argument("--format", choices=["csv", "parquet"], default=None,
                     help="file format (default: parquet when pyarrow is installed, else csv)")
    sim.add_argument("--tables", type=comma_list, default=None,
                     help="tables to build, e.g. games,auctions (default: all of the game's)")
    common(sim)
    sim.set_defaults(run=_simulate, command_parser=sim)

    tour = commands.add_parser("tournament", help="every seating, many repetitions; win rates with intervals")
    tour.add_argument("--bots", type=comma_list, required=True, help=bots_help)
    tour.add_argument("--players", type=positive, default=None, help="seats per game (default: one per bot)")
    tour.add_argument("--repetitions", type=positive, default=10, help="rounds of all seatings (default 10)")
    tour.add_argument("--out", default=None, help="folder for games, summary and head-to-head CSV files")
    common(tour)
    tour.set_defaults(run=_tournament, command_parser=tour)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        args.run(args)
    except (ValueError, TypeError, OSError) as err:
        args.command_parser.error(str(err))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 0


def _simulate(args: argparse.Namespace) -> None:
    if args.format == "parquet" and not has_pyarrow():
        raise ValueError("--format parquet needs pyarrow: pip install pyarrow")
    spec, _ = resolve(args.game)
    check_bots(spec, args.bots)
    tables = None if args.tables is None else check_tables(spec, args.tables)
    sim = simulate(
        args.game, args.bots, args.games, args.seed, players=args.players, tables=tables,
        workers=args.workers, progress=False if args.no_progress else None,
    )
    players = sim.games["seat"].nunique()
    print(f"{args.games} games, {players} players, seed {args.seed}")
    print(_fmt(sim.summary()))
    if args.out:
        for path in sim.save(args.out, args.format):
            print(f"wrote {path}")


def _tournament(args: argparse.Namespace) -> None:
    check_bots(resolve(args.game)[0], args.bots)
    result = tournament(
        args.bots, args.players, args.repetitions, args.seed, args.game,
        workers=args.workers, progress=False if args.no_progress else None,
    )
    print(f"{len(result.games) // result.players} games, {result.players} players, seed {args.seed}")
    print(_fmt(result.summary()))
    print("\nhead to head (row finished ahead of column):")
    print(_fmt(result.head_to_head()))
    if args.out:
        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        result.games.to_csv(folder / "games.csv", index=False)
        result.summary().to_csv(folder / "summary.csv")
        result.head_to_head().to_csv(folder / "head_to_head.csv")
        print(f"wrote {folder / 'games.csv'}, summary.csv, head_to_head.csv")


def _fmt(table: pd.DataFrame) -> str:
    return table.to_string(float_format=lambda x: f"{x:.3f}")

