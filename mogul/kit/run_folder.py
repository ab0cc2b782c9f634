"""The command line's output folder: checked before any game runs, written beside an earlier
run and swapped in whole, with a manifest saying what was run.

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
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mogul.kit.simulate import write_tables
from mogul.kit.spec import games, get_game

if TYPE_CHECKING:
    import pandas as pd

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


def save_run(
    folder: Path, tables: dict[str, pd.DataFrame], args: argparse.Namespace, facts: dict[str, Any]
) -> list[Path]:
    """Write the tables and the manifest beside an earlier run, then swap the new run in.

    Everything is first written to a hidden folder inside ``folder``; only when it is complete
    are the earlier run's files removed (its manifest first) and the new ones moved in (the
    manifest last), with Ctrl-C and SIGTERM held back for that instant. An interrupted save
    therefore leaves the earlier run complete.
    """
    incoming = incoming_folder(folder)
    try:
        paths = write_tables(incoming, tables, getattr(args, "format", None) or "csv")
        write_manifest(incoming, args, facts, paths)
        return swap_in(folder, incoming, paths)
    finally:
        shutil.rmtree(incoming, ignore_errors=True)


def incoming_folder(folder: Path) -> Path:
    """An empty hidden folder inside ``folder`` where a run is written before ``swap_in``."""
    incoming = folder / f".incoming-{os.getpid()}"
    shutil.rmtree(incoming, ignore_errors=True)
    incoming.mkdir(parents=True)
    return incoming


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
