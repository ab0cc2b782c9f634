"""Where a student's bot runs: a bubblewrap sandbox where the system has one, else a plain process.

Bubblewrap (``bwrap``, Debian's ``bubblewrap`` package, the tool Flatpak uses) starts the
bot's Python in namespaces of its own: its own process IDs (it sees no other process, so it
cannot signal the referee or another bot, and every process it starts dies with it), no
network, and a file system of its own holding only read-only views of what Python needs
(the interpreter, the virtual environment, the folders on ``sys.path``) and a small
writable ``/tmp``. The environment is cleared. Run as root, the bot also gives up root
and becomes a user of its own (``bot_uid()``), so that the kernel counts its processes
apart from every other bot's (it exempts root from that count).

Where bubblewrap is missing or cannot create namespaces (a locked-down container, macOS,
Windows), ``bwrap()`` warns once and the kit falls back to a plain process with the same
limits (memory, CPU time, processes, output) and a cleared environment, but no namespaces:
such a bot could still see other processes and read what the user may read. Set
``MOGUL_SANDBOX=process`` to choose the fallback on purpose.
"""

from __future__ import annotations

import functools
import os
import random
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterable

BOT_UIDS = range(1 << 30, (1 << 30) + (1 << 24))
"""The users a bot may run as when the referee runs as root: one drawn afresh per sandbox
(no account has them; a bot reads only what everyone may read)."""
TMP_BYTES = 16 << 20
"""Size of the sandbox's writable /tmp."""
ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/tmp",
    "PYTHONDONTWRITEBYTECODE": "1",
    "OPENBLAS_NUM_THREADS": "1",  # numerical libraries: one thread, no surprise processes
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
"""The whole environment a bot sees (nothing of the referee's: no passwords, no store URL)."""
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.cache")


def bot_uid() -> int:
    """A user ID of its own for a bot sandboxed by root."""
    return random.SystemRandom().choice(BOT_UIDS)


def bot_env() -> dict[str, str]:
    """The environment a bot's process starts with."""
    return dict(ENV)


@functools.cache
def bwrap() -> str | None:
    """The ``bwrap`` program if it can make a sandbox here; else None, after one warning."""
    if os.environ.get("MOGUL_SANDBOX", "").lower() == "process":
        return None
    path = shutil.which("bwrap") if sys.platform.startswith("linux") else None
    why = "" if path else "bubblewrap (bwrap) is not installed"
    if path:
        try:
            probe = subprocess.run(
                [path, *sandbox_args(path), sys.executable, "-I", "-c", "pass"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=30,
                env=bot_env(),
            )
            why = (
                ""
                if probe.returncode == 0
                else probe.stderr.decode(errors="replace").strip()[-200:]
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            why = str(err)
    if not sys.platform.startswith("linux"):
        why = f"namespaces need Linux (this is {sys.platform})"
    if why:
        warnings.warn(
            f"Students' bots run without namespaces: {why}. They keep their limits (time, memory, "
            "processes, output) but could see other processes and read your files. On Debian/Ubuntu: "
            "apt-get install bubblewrap (make test installs it).",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return path


def sandbox_args(program: str, paths: Iterable[str] = ()) -> list[str]:
    """bwrap's arguments (after the program, before the command) for a bot's sandbox."""
    root = os.getuid() == 0
    if root:  # real root: no user namespace (so the bot can become nobody), the rest unshared
        spaces = [
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
        ]
    else:
        spaces = ["--unshare-all"]
    args = [*spaces, "--die-with-parent", "--new-session", "--proc", "/proc", "--dev", "/dev"]
    # The bot's own /tmp first: the views come after it, so a kit or venv that lives under
    # /tmp (a clone there, as CI may make) is laid over it instead of hidden by it.
    args += ["--size", str(TMP_BYTES), "--perms", "1777", "--tmpfs", "/tmp"]
    args += _views([*SYSTEM, *_python_paths(), *paths])
    args += [
        "--remount-ro",
        "/",
        "--chdir",
        "/tmp",
        "--clearenv",
    ]
    for key, value in ENV.items():
        args += ["--setenv", key, value]
    return [*args, "--"]


def _python_paths() -> list[str]:
    """Where this Python lives: its prefixes and the real interpreter's folder."""
    real = os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))
    return [
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        real,
        os.path.dirname(os.path.abspath(sys.executable)),
    ]


def _views(paths: Iterable[str]) -> list[str]:
    """Read-only binds of ``paths`` (each once, outermost first) and their parent folders."""
    args: list[str] = []
    bound: list[str] = []
    made: set[str] = {"/"}
    for path in sorted({os.path.abspath(p or ".") for p in paths}, key=lambda p: (p.count("/"), p)):
        if not os.path.exists(path) or any(
            path == b or path.startswith(b.rstrip("/") + "/") for b in bound
        ):
            continue
        real = os.path.realpath(path)
        if os.path.islink(path) and os.path.dirname(path) == "/" and real.startswith("/usr/"):
            args += ["--symlink", os.path.relpath(real, "/"), path]  # /lib -> usr/lib (merged /usr)
            bound.append(path)
            continue
        parent = os.path.dirname(path)
        missing = []
        while parent not in made:
            missing.append(parent)
            parent = os.path.dirname(parent)
        for folder in reversed(missing):  # 0755 even where the real folder is private (/root)
            args += ["--perms", "0755", "--dir", folder]
            made.add(folder)
        args += ["--ro-bind", path, path]
        bound.append(path)
        made.add(path)
    return args
