"""``mogul lab``: the kit's notebooks copied into a student's folder, opened in JupyterLab.

The wheel ships the notebooks and the kit's Jupyter files (the Lab settings, the Voila
template) inside the package, ``mogul/notebooks`` and ``mogul/share/jupyter``; a checkout
keeps them at its root (``notebooks/``, ``share/jupyter/``). ``shipped`` finds either. The
notebooks read nothing beside themselves (their data comes from the package), so copying the
``.ipynb`` files is all a student's folder needs.
"""

from __future__ import annotations

import filecmp
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

FOLDER = "mogul-notebooks"
"""Where ``mogul lab`` copies the notebooks when no folder is named."""


def shipped(*parts: str) -> Path:
    """A file or folder the kit ships: inside the installed package, else at a checkout's root."""
    packaged = Path(str(resources.files("mogul"))).joinpath(*parts)
    return packaged if packaged.exists() else Path(__file__).resolve().parents[2].joinpath(*parts)


def lab_settings() -> Path:
    """The kit's JupyterLab settings folder (``overrides.json``: no news or update pop-ups)."""
    return shipped("share", "jupyter", "lab", "settings")


@dataclass
class Copied:
    """What ``copy_notebooks`` did with each notebook: copied, found the same, or kept."""

    folder: Path
    copied: list[Path] = field(default_factory=list)
    same: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)

    def message(self) -> str:
        """What happened, in a few lines for the student."""
        lines = []
        if self.copied:
            lines.append(f"copied {_count(self.copied)} into {self.folder}")
        if self.same:
            lines.append(f"{_count(self.same)} in {self.folder} already the kit's own")
        for path in self.kept:
            lines.append(
                f"kept your copy of {path.name} (it differs from the kit's; "
                "rename it to get the kit's again)"
            )
        return "\n".join(lines) or f"no notebooks to copy into {self.folder}"


def _count(paths: list[Path]) -> str:
    return "1 notebook" if len(paths) == 1 else f"{len(paths)} notebooks"


def copy_notebooks(folder: Path, source: Path | None = None) -> Copied:
    """Copy the kit's notebooks (``source``, default the shipped ones) into ``folder``.

    A notebook already in ``folder`` is never overwritten: one that differs from the kit's is
    a student's edited copy and is kept (``Copied.kept``). Each copy is written beside its
    place and renamed into it, so an interrupted copy leaves no half notebook."""
    source = shipped("notebooks") if source is None else source
    notebooks = sorted(source.glob("*.ipynb"))
    if not notebooks:
        raise OSError(f"no notebooks in {source}: the kit's installation is incomplete")
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file; name a folder for the notebooks")
    folder.mkdir(parents=True, exist_ok=True)
    done = Copied(folder)
    for notebook in notebooks:
        target = folder / notebook.name
        if target.exists():
            same = filecmp.cmp(notebook, target, shallow=False)
            (done.same if same else done.kept).append(target)
            continue
        partial = target.with_name(f".{target.name}.partial")
        try:
            shutil.copyfile(notebook, partial)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        done.copied.append(target)
    return done


def trust(paths: Sequence[Path], notary: Any = None) -> None:
    """Sign ``paths`` as trusted (``jupyter trust``): Lab then draws the widget state saved in
    the kit's notebooks before Run All, where an untrusted notebook shows text."""
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = notary or NotebookNotary()
    # A new account has no Jupyter data folder before Lab's first start: the notary's key and
    # its signatures go there.
    Path(notary.data_dir).mkdir(parents=True, exist_ok=True)
    for path in paths:
        notary.sign(nbformat.read(path, as_version=nbformat.NO_CONVERT))


def lab_arguments(folder: Path, no_browser: bool, more: Sequence[str] = ()) -> list[str]:
    """JupyterLab's command line for ``folder`` with the kit's settings; ``more`` passes through."""
    args = [f"--ServerApp.root_dir={folder}", f"--LabApp.app_settings_dir={lab_settings()}"]
    if getattr(os, "geteuid", lambda: 1)() == 0:
        args.append("--allow-root")  # Jupyter refuses root without it (containers run as root)
    if no_browser:
        args.append("--no-browser")
    return [*args, *more]


def start_lab(arguments: Sequence[str]) -> None:
    """Run JupyterLab in this process until it stops (Ctrl-C twice, or its Shut Down menu);
    Jupyter's own signal handling shuts the notebooks' kernels down with it."""
    from jupyterlab.labapp import LabApp

    LabApp.launch_instance(argv=list(arguments))
