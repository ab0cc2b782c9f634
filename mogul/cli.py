"""Command line: ``mogul simulate ...``, ``mogul tournament ...``, ``mogul lab``,
``mogul classroom``, ``mogul player``, ``mogul doctor`` (``python -m mogul ...`` alike).

    python -m mogul simulate --players 4 --games 10000 --bots random,value,threshold --seed 1 --out runs/
    python -m mogul tournament --bots random,threshold,value,mc:rollouts=8 --repetitions 5 --workers 2
    mogul lab                # the notebooks copied into ./mogul-notebooks, opened in JupyterLab
    mogul classroom          # the class's server: students' page, lecturer's dashboard, projector
    mogul player             # notebook 03 as an app (Voila): alone against bots, a game per tab
    mogul doctor             # what is installed and what is missing for each part of the kit

``--game`` picks any registered game or edition (default: the registry's default game). Bots are the game's
bot names, optionally with keyword arguments after colons (``threshold:drop_at=2``,
``mc:rollouts=50``), separated by commas.

The output folder (``--out``) is checked before any game runs; a run is written beside an
earlier one and swapped in whole, with a manifest saying what was run.

A run is written into a hidden folder inside ``--out`` (``incoming_folder``); only when it is
complete, or stopped with what it finished, are the earlier run's files replaced by it
(``swap_in``), with Ctrl-C and SIGTERM held back for that instant.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mogul.classroom import serve
from mogul.kit import doctor, lab
from mogul.kit.bots import bot_factory
from mogul.kit.simulate import simulate, write_tables
from mogul.kit.spec import GameSpec, default_game, games, get_game, names, resolve
from mogul.kit.tournament import tournament

if TYPE_CHECKING:
    import pandas as pd


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


LARGEST = 10**9
"""The largest count the command line takes (games, players, repetitions, workers)."""


def positive(text: str) -> int:
    """A whole number from 1 to ``LARGEST``."""
    return _whole_number(text, 1, LARGEST, f"a number from 1 to {LARGEST:,}")


def integer(text: str) -> int:
    """A whole number that fits in 64 bits (a seed)."""
    return _whole_number(text, -(2**63), 2**64 - 1, "a seed from -2**63 to 2**64 - 1")


def _whole_number(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected {what}, got {_short(text)}")
    return value


def _short(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:10]}...{text[-4:]} ({len(text)} digits)"


def build_parser() -> argparse.ArgumentParser:
    """The ``mogul`` argument parser with its commands."""
    parser = argparse.ArgumentParser(
        prog="mogul",
        description="Simulate games between bots, run strategy tournaments, open the notebooks.",
    )
    commands = parser.add_subparsers(
        dest="command",
        required=True,
        metavar="{simulate,tournament,warm-up,lab,classroom,player,doctor}",
    )
    bots_help = (
        "comma-separated bots of the game, e.g. random,value,threshold (options as name:key=value)"
    )

    def common(p: argparse.ArgumentParser) -> None:
        first = default_game()
        p.add_argument(
            "--game",
            "--edition",
            dest="game",
            default=first,
            choices=names(),
            help=f"game or edition (default {first})",
        )
        p.add_argument("--seed", type=integer, default=0, help="master seed (default 0)")
        p.add_argument("--workers", type=positive, default=None, help="run on a local process pool")
        p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
        p.add_argument(
            "--overwrite", action="store_true", help="replace an earlier run's files in --out"
        )

    sim = commands.add_parser("simulate", help="play many games and write tidy tables")
    sim.add_argument(
        "--bots", type=comma_list, required=True, help=bots_help + "; repeated to fill the seats"
    )
    sim.add_argument("--players", type=positive, default=None, help="seats (default: one per bot)")
    sim.add_argument("--games", type=positive, default=1000, help="number of games (default 1000)")
    sim.add_argument(
        "--out", default=None, help="folder for games/rounds/auctions tables and a manifest"
    )
    sim.add_argument(
        "--format",
        choices=["csv", "parquet", "feather"],
        default=None,
        help="file format (default: csv; feather is the fastest to write)",
    )
    sim.add_argument(
        "--tables",
        type=comma_list,
        default=None,
        help="tables to build, e.g. games,auctions (default: all of the game's)",
    )
    sim.add_argument(
        "--setup",
        type=setting,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setup keyword of the game for every game, e.g. --setup rounds=3 --setup "
        "'values=uniform 0..20' (the auction lab); with a setup the readable engine plays",
    )
    sim.add_argument(
        "--engine",
        choices=["readable", "fast"],
        default=None,
        help="the game's batch engine (fast) or the readable one (default: fast where it can play)",
    )
    common(sim)
    sim.set_defaults(run=_simulate, command_parser=sim)

    tour = commands.add_parser(
        "tournament", help="every seating, many repetitions; win rates with intervals"
    )
    tour.add_argument("--bots", type=comma_list, required=True, help=bots_help)
    tour.add_argument(
        "--players", type=positive, default=None, help="seats per game (default: one per bot)"
    )
    tour.add_argument(
        "--repetitions", type=positive, default=10, help="rounds of all seatings (default 10)"
    )
    tour.add_argument(
        "--out",
        default=None,
        help="folder for games, summary and head-to-head CSV files and a manifest",
    )
    common(tour)
    tour.set_defaults(run=_tournament, command_parser=tour)

    warm = commands.add_parser(
        "warm-up", help="compile the batch engines once, so a notebook's first run is quick"
    )
    warm.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    warm.set_defaults(run=lambda args: warm_up(not args.no_progress), command_parser=warm)

    notebooks = commands.add_parser(
        "lab",
        help="copy the notebooks into a folder (keeping your edited copies) and open JupyterLab",
        description="Copy the kit's notebooks into FOLDER where they are not yet (a notebook "
        "you changed is kept as it is), then open JupyterLab on them. Other options pass "
        "through to JupyterLab, e.g. --port=8899.",
    )
    notebooks.add_argument(
        "folder",
        nargs="?",
        default=lab.FOLDER,
        help=f"where the notebooks go (default {lab.FOLDER})",
    )
    notebooks.add_argument("--no-browser", action="store_true", help="do not open a browser")
    notebooks.add_argument(
        "--copy-only", action="store_true", help="copy the notebooks, do not start JupyterLab"
    )
    notebooks.set_defaults(run=_lab, command_parser=notebooks, passes_on=True, timed=False)

    room = commands.add_parser(
        "classroom",
        help="the class's server: the students' page, the lecturer's dashboard and projector",
        add_help=False,  # its options and --help are the hall server's (serve.serve)
    )
    room.set_defaults(run=_classroom, command_parser=room, passes_on=True, timed=False)

    player = commands.add_parser(
        "player",
        help="notebook 03 as an app (Voila): a student alone against bots, a game per tab",
        description="Serve notebook 03 (playing against bots) as a Voila app without its code: "
        "each browser tab plays its own game in a kernel of its own. Other options pass "
        'through to Voila. Needs the classroom extra: pip install "mogul-kit[classroom]".',
    )
    player.add_argument("--ip", default="127.0.0.1", help="the address (default %(default)s)")
    player.add_argument("--port", type=int, default=8866, help="default %(default)s")
    player.set_defaults(run=_player, command_parser=player, passes_on=True, timed=False)

    check = commands.add_parser(
        "doctor", help="what is installed and what is missing for each part of the kit"
    )
    check.set_defaults(
        run=lambda args: print(doctor.report(doctor.checks())), command_parser=check, timed=False
    )
    return parser


def warm_up(progress: bool = True) -> bool:
    """Compile every game's batch engine and its "analyse this position" rollouts now, with a
    progress bar: numba keeps the machine code in its cache (``cache=True``) beside the
    modules, so a notebook's first run loads it instead of compiling for minutes. One short
    simulation and one small analysis of a new game per edition; returns False (nothing is
    partial). ``make lab`` runs it before starting JupyterLab; later runs take seconds."""
    from tqdm.auto import tqdm

    jobs = [(spec, edition) for spec in map(get_game, games()) for edition in spec.editions]
    with tqdm(total=2 * len(jobs), unit="step", disable=not progress) as bar:
        for spec, edition in jobs:
            bar.set_description(f"compiling {edition}")
            bots = list(spec.bots)[:1]
            players = (
                spec.player_range(edition) if callable(spec.player_range) else spec.player_range
            )
            simulate(edition, bots, games=2, players=players[0], seed=0, progress=False)
            bar.update()
            analyse = spec.face("analyse_position")
            if analyse is not None:
                analyse(spec.new_game(edition, players[0], 0), rollouts=2)
            bar.update()
    return False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (130 when interrupted, 143 when terminated
    by SIGTERM: both save the games finished so far, marked partial)."""
    parser = build_parser()
    args, more = parser.parse_known_args(argv)
    if more and not getattr(args, "passes_on", False):
        parser.error(f"unrecognized arguments: {' '.join(more)}")
    args.more = more
    args.argv = list(sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    stopped = {"by": 130}
    with _sigterm_as_interrupt(stopped):
        try:
            partial = args.run(args)
            if getattr(args, "timed", True):
                print(
                    f"done in {time.perf_counter() - started:.1f} s"
                    + (" (interrupted: partial results)" if partial else "")
                )
        except (ValueError, TypeError, OSError, OverflowError) as err:
            if isinstance(err, BrokenPipeError):
                return _quiet_broken_pipe()
            args.command_parser.error(str(err))
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return stopped["by"]
    return stopped["by"] if partial else 0


@contextmanager
def _sigterm_as_interrupt(stopped: dict[str, int]) -> Iterator[None]:
    """SIGTERM (``kill``, a scheduler's time-out) stops the run as Ctrl-C does; the status becomes 143."""

    def terminate(signum: int, frame: Any) -> None:
        stopped["by"] = 128 + signum
        raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, terminate)
    except ValueError:  # not the main thread: leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _quiet_broken_pipe() -> int:
    """The reader of our output went away (``| head``): the files are written; stop quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


# --- the commands ---------------------------------------------------------------------------


def setting(text: str) -> tuple[str, Any]:
    """``"rounds=3"`` as ``("rounds", 3)``: the value read as JSON (a number, true, a list),
    else kept as text (``values=uniform 0..10``)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(
            f"write a setup keyword as KEY=VALUE, like rounds=3; got {text!r}"
        )
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


def _simulate(args: argparse.Namespace) -> bool:
    spec, edition = resolve(args.game)
    check_bots(spec, args.bots)
    tables = None if args.tables is None else check_tables(spec, args.tables)
    out = prepare_out(args.out, args.overwrite)
    if out is None:  # only the summary is printed: the games table is all it needs
        tables = ["games"]
    facts = _facts(args, spec, edition) | {"setup": dict(args.setup), "games_planned": args.games}
    with incoming_folder(out) as incoming:
        sim = _run_simulation(args, tables, incoming, facts)
        finished = sim.games_finished
        if out is not None and incoming is not None:  # the files first: stdout may be closed
            facts |= {"engine": sim.engine, "games_finished": finished, "partial": sim.partial}
            written = publish(out, incoming, args, facts, list(sim.files.values()), sim.failures)
    summary = sim.summary()
    players = args.players or len(args.bots)
    print(
        f"{finished} games, {players} players, seed {args.seed}, {sim.engine} engine"
        + (" (partial)" if sim.partial else "")
    )
    print(_fmt(summary))
    if out is not None:
        print("wrote " + ", ".join(str(p) for p in written))
    return sim.partial


def _run_simulation(
    args: argparse.Namespace,
    tables: list[str] | None,
    incoming: Path | None,
    facts: dict[str, Any],
) -> Any:
    """The simulation; with ``--out`` its tables go to ``incoming`` as the games finish, the
    manifest there saying after every chunk how many games the files hold."""

    def progress(writer: Any) -> None:
        done = {"games_finished": writer.games, "partial": True, "rows": dict(writer.rows)}
        write_manifest(writer.folder, args, facts | done, list(writer.paths.values()))

    return simulate(
        args.game,
        args.bots,
        args.seed,
        games=args.games,
        players=args.players,
        setup=dict(args.setup),
        tables=tables,
        engine=args.engine,
        out=incoming,
        format=args.format or "csv",
        on_chunk=progress,
        workers=args.workers,
        progress=False if args.no_progress else None,
    )


def _tournament(args: argparse.Namespace) -> bool:
    spec, edition = resolve(args.game)
    check_bots(spec, args.bots)
    out = prepare_out(args.out, args.overwrite)
    result = tournament(
        args.game,
        args.bots,
        args.seed,
        players=args.players,
        repetitions=args.repetitions,
        workers=args.workers,
        progress=False if args.no_progress else None,
    )
    finished = len(result.games) // result.players
    if out is not None:
        facts = _facts(args, spec, edition) | {
            "players": result.players,
            "repetitions": args.repetitions,
            "games_finished": finished,
            "partial": result.partial,
        }
        tables = {
            "games": result.games,
            "summary": result.summary(),
            "head_to_head": result.head_to_head(),
        }
        with incoming_folder(out) as incoming:
            paths = write_tables(incoming, tables, "csv")
            written = publish(out, incoming, args, facts, paths, result.failures)
    print(
        f"{finished} games, {result.players} players, seed {args.seed}"
        + (" (partial)" if result.partial else "")
    )
    print(_fmt(result.summary()))
    print("\nhead to head (row finished ahead of column):")
    print(_fmt(result.head_to_head()))
    if out is not None:
        print("wrote " + ", ".join(str(p) for p in written))
    return result.partial


def _lab(args: argparse.Namespace) -> bool:
    """Copy the notebooks, then (unless ``--copy-only``) compile the batch engines, trust the
    kit's notebooks and run JupyterLab on the folder until it stops."""
    folder = Path(args.folder).resolve()
    done = lab.copy_notebooks(folder)
    print(done.message())
    if args.copy_only:
        return False
    warm_up()
    lab.trust(done.copied + done.same)  # the kit's own; a student's kept copy is left as it is
    lab.start_lab(lab.lab_arguments(folder, args.no_browser, args.more))
    return False


def _classroom(args: argparse.Namespace) -> bool:
    """Run the class's server (the lecture hall's own) until it stops; it prints the links."""
    try:
        serve.check_extra()
    except ModuleNotFoundError as err:
        args.command_parser.error(str(err))
    status = serve.serve(args.more)  # on POSIX it does not return: the process serves
    if status:
        raise SystemExit(status)
    return False


VOILA_APP = ("--template=mogul", "--progressive_rendering=True")
"""How the kit's pages run in Voila: its template (nothing fetched from the internet) and
progressive rendering (plotly's charts get real output models)."""


def _player(args: argparse.Namespace) -> bool:
    """Serve notebook 03 as a Voila app until it stops."""
    notebook = lab.shipped("notebooks", "03-play-against-bots.ipynb")
    _voila_app(args, notebook, f"Player: http://{args.ip}:{args.port}/  (Ctrl-C stops it)")
    return False


def _voila_app(args: argparse.Namespace, notebook: Path, message: str) -> None:
    """Print ``message`` (the page's address), then serve ``notebook`` in Voila with the kit's
    template."""
    try:
        serve.check_extra()
    except ModuleNotFoundError as err:
        args.command_parser.error(str(err))
    jupyter = [str(lab.shipped("share", "jupyter")), os.environ.get("JUPYTER_PATH", "")]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, jupyter))
    print(message, flush=True)
    argv = [str(notebook), "--no-browser", f"--Voila.ip={args.ip}", f"--port={args.port}"]
    start_voila([*argv, "--Voila.port_retries=0", *VOILA_APP, *args.more])


def start_voila(arguments: Sequence[str]) -> None:
    """Run Voila in this process until it stops (Ctrl-C)."""
    from voila.app import Voila

    Voila.launch_instance(argv=list(arguments))


def _facts(args: argparse.Namespace, spec: GameSpec, edition: str) -> dict[str, Any]:
    """What every manifest says first: the game, the seed and the bots."""
    return {"game": spec.name, "edition": edition, "seed": args.seed, "bots": args.bots}


def _fmt(table: pd.DataFrame) -> str:
    return table.to_string(float_format=lambda x: f"{x:.3f}", na_rep="-")


# --- the output folder ---------------------------------------------------------------------------

MANIFEST = "manifest.json"
OUTPUTS = ("games", "failures", "summary", "head_to_head")
"""Table names the command line writes for every game, besides each game's own tables."""


def output_names() -> set[str]:
    """Every table name the command line may write; ``--overwrite`` replaces exactly these (and the manifest)."""
    names = set(OUTPUTS)
    for game in games():
        names.update(get_game(game).tables)
    return names


def prepare_out(folder: str | None, overwrite: bool) -> Path | None:
    """Check ``--out`` before any game is played: a writable folder without an earlier run's tables.

    Returns the folder (created if needed), or None without ``--out``.
    """
    if folder is None:
        return None
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise ValueError(f"--out {folder}: this is a file, not a folder")
    earlier = _earlier_results(path)
    if earlier and not overwrite:
        names = ", ".join(p.name for p in earlier)
        raise ValueError(
            f"--out {folder} already holds an earlier run's results ({names}); "
            "pass --overwrite to replace them, or choose another folder"
        )
    path.mkdir(parents=True, exist_ok=True)
    probe = path / ".mogul-write-check"
    probe.write_text("")  # raises OSError now, not after the games, if the folder is read-only
    probe.unlink()
    return path


def _earlier_results(path: Path) -> list[Path]:
    if not path.is_dir():
        return []
    outputs = output_names()
    return sorted(
        p
        for p in path.iterdir()
        if p.name == MANIFEST
        or (p.stem in outputs and p.suffix in (".csv", ".parquet", ".feather"))
    )


@contextmanager
def incoming_folder(folder: Path | None) -> Iterator[Path | None]:
    """An empty hidden folder inside ``folder`` where a run is written before ``publish``
    (None without a folder); it is removed afterwards, whatever happens."""
    if folder is None:
        yield None
        return
    incoming = folder / f".incoming-{os.getpid()}"
    shutil.rmtree(incoming, ignore_errors=True)
    incoming.mkdir(parents=True)
    try:
        yield incoming
    finally:
        shutil.rmtree(incoming, ignore_errors=True)


def publish(
    folder: Path,
    incoming: Path,
    args: argparse.Namespace,
    facts: dict[str, Any],
    paths: Sequence[Path],
    failures: pd.DataFrame,
) -> list[Path]:
    """Add the failures table (if a bot failed) and the manifest to the run written in
    ``incoming``, then swap it in for the earlier run's files (``swap_in``)."""
    if len(failures):
        fmt = getattr(args, "format", None) or "csv"
        paths = [*paths, *write_tables(incoming, {"failures": failures}, fmt)]
    write_manifest(incoming, args, facts | {"failures": len(failures)}, paths)
    return swap_in(folder, incoming, paths)


def write_manifest(
    folder: Path, args: argparse.Namespace, facts: dict[str, Any], paths: Sequence[Path]
) -> None:
    """``folder/manifest.json``: the command, ``facts``, the tables' files, the versions."""
    manifest = {
        "command": "python -m mogul " + " ".join(args.argv),
        **facts,
        "tables": {p.stem: p.name for p in paths},
        "versions": _versions(),
        "written": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    temporary = folder / f".{MANIFEST}.partial"
    temporary.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, folder / MANIFEST)


def swap_in(folder: Path, incoming: Path, paths: Sequence[Path]) -> list[Path]:
    """Replace the earlier run's files in ``folder`` with ``paths`` and the manifest of
    ``incoming``, Ctrl-C and SIGTERM held back meanwhile; returns the new paths."""
    held = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        earlier = _earlier_results(folder)
        for old in sorted(earlier, key=lambda p: p.name != MANIFEST):
            old.unlink()
        for path in [*paths, incoming / MANIFEST]:
            os.replace(path, folder / path.name)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
    return [*(folder / p.name for p in paths), folder / MANIFEST]


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for package in ("mogul-kit", "numpy", "pandas"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            out[package] = "not installed"
    return out
