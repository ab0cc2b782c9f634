"""``mogul doctor``: what this machine has for each part of the kit, and how to add what it lacks.

It only looks (``shutil.which``, ``importlib.metadata``, ``platform``): nothing is run or
installed, and the report is the same on Linux, macOS and Windows, with each missing part's
install command for this system (apt-get on Debian and Ubuntu, Homebrew on macOS, a sentence
elsewhere).
"""

from __future__ import annotations

import glob
import os
import platform
import re
import shutil
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

KIT = "mogul-kit"
CLASSROOM = "classroom"
"""The extra with the classroom's packages (the table store, QR codes, Voila)."""


@dataclass(frozen=True)
class Check:
    """One part of the kit: whether this machine has it, what was found, how to get it."""

    part: str
    found: bool
    detail: str
    install: str = ""


def version(package: str) -> str | None:
    """The installed version of ``package``, or None."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def extra_packages(extra: str, kit: str = KIT) -> list[str]:
    """The packages the kit's ``extra`` adds, from the installed kit's metadata."""
    requires = metadata.requires(kit) or []
    marker = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    return [re.match(r"[A-Za-z0-9._-]+", r).group() for r in requires if marker.search(r)]


def installer() -> str:
    """How this machine installs programs: "apt" (Debian, Ubuntu), "brew" (macOS) or ""."""
    if platform.system() == "Darwin":
        return "brew"
    if platform.system() == "Linux" and shutil.which("apt-get"):
        return "apt"
    return ""


def _ubuntu() -> bool:
    try:
        release = platform.freedesktop_os_release()
    except OSError:
        return False
    return "ubuntu" in (release.get("ID", "") + " " + release.get("ID_LIKE", ""))


def _as_root(command: str) -> str:
    root = getattr(os, "geteuid", lambda: 1)() == 0
    return command if root else f"sudo {command}"


def pip(*requirements: str) -> str:
    """The pip command that installs ``requirements`` into this Python."""
    quoted = " ".join(f'"{r}"' if "[" in r else r for r in requirements)
    return f"{sys.executable} -m pip install {quoted}"


def check_kit() -> Check:
    """The kit itself: its version and where Python imports it from."""
    where = Path(__file__).resolve().parents[1]
    found = version(KIT)
    if found is None:
        return Check("the kit", True, f"mogul from {where} (not installed: a checkout)")
    return Check("the kit", True, f"{KIT} {found}, Python {platform.python_version()}, {where}")


def check_packages(part: str, packages: list[str], install: str, use: str) -> Check:
    """Python packages ``part`` needs: ok when all are installed."""
    have = {p: version(p) for p in packages}
    missing = [p for p, v in have.items() if v is None]
    if missing:
        return Check(part, False, f"{', '.join(missing)} not installed ({use})", install)
    return Check(part, True, ", ".join(f"{p} {v}" for p, v in have.items()) + f" ({use})")


def check_chromium() -> Check:
    """Chromium for the browser tests (tests/e2e): MOGUL_CHROMIUM, or one on PATH."""
    named = os.environ.get("MOGUL_CHROMIUM")
    path = named if named and os.access(named, os.X_OK) else None
    path = path or shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return Check("Chromium", True, f"{path} (the browser tests)")
    kind = installer()
    if kind == "apt":
        how = _as_root(
            "apt-get install -y chromium-browser" if _ubuntu() else "apt-get install -y chromium"
        )
    elif kind == "brew":
        how = "brew install --cask chromium, then set MOGUL_CHROMIUM to its path"
    else:
        how = "install Chromium, then set MOGUL_CHROMIUM to its path"
    return Check("Chromium", False, "not found (only the browser tests need it)", how)


def check_bubblewrap() -> Check:
    """Bubblewrap (bwrap): students' bots in namespaces of their own (Linux only)."""
    fallback = "students' bots run as plain processes with the same limits"
    if platform.system() != "Linux":
        return Check(
            "bubblewrap", False, f"namespaces need Linux, this is {platform.system()}: {fallback}"
        )
    path = shutil.which("bwrap")
    if path:
        return Check("bubblewrap", True, f"{path} (students' bots in a sandbox)")
    how = (
        _as_root("apt-get install -y bubblewrap")
        if installer() == "apt"
        else "install bubblewrap with your package manager"
    )
    return Check("bubblewrap", False, f"bwrap not found: {fallback}", how)


def check_postgresql() -> Check:
    """PostgreSQL's server programs: one store for several servers, and its tests."""
    use = "one store for several classroom servers"
    named = os.environ.get("MOGUL_PG_BIN", "")
    found = shutil.which("initdb")
    folders = [named, str(Path(found).parent) if found else ""]
    folders += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)  # Debian's place
    for folder in filter(None, folders):
        if (Path(folder) / "initdb").is_file() or (Path(folder) / "initdb.exe").is_file():
            return Check("PostgreSQL", True, f"server programs in {folder} ({use})")
    kind = installer()
    if kind == "apt":
        how = _as_root("apt-get install -y postgresql")
    elif kind == "brew":
        how = "brew install postgresql@17"
    else:
        how = "install PostgreSQL and put its bin folder on PATH (or in MOGUL_PG_BIN)"
    detail = "server programs (initdb) not found: one classroom server keeps its tables in SQLite"
    return Check("PostgreSQL", False, detail, how)


def checks() -> list[Check]:
    """Every part of the kit, in the order the report lists them."""
    try:
        classroom = extra_packages(CLASSROOM)
    except metadata.PackageNotFoundError:
        classroom = []
    return [
        check_kit(),
        check_packages("JupyterLab", ["jupyterlab"], pip(KIT), "mogul lab"),
        check_packages(
            "classroom",
            classroom or ["voila"],
            pip(f"{KIT}[{CLASSROOM}]"),
            "the classroom server, the lecturer's dashboard",
        ),
        check_chromium(),
        check_bubblewrap(),
        check_postgresql(),
    ]


def report(found: list[Check]) -> str:
    """The checks as lines of text: ok or missing, the part, what was found, how to install."""
    system = platform.system() or "an unknown system"
    lines = [f"mogul doctor: what this {system} machine has for each part of the kit", ""]
    width = max(len(c.part) for c in found)
    for check in found:
        lines.append(
            f"  {'ok' if check.found else 'missing':8}{check.part:{width}}  {check.detail}"
        )
        if check.install:
            lines.append(f"  {'':8}{'':{width}}  install: {check.install}")
    missing = sum(not c.found for c in found)
    lines += ["", f"{missing} missing of {len(found)}" if missing else "everything is here"]
    return "\n".join(lines)
