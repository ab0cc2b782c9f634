"""``mogul classroom``: the class's server, started from Python on any system.

It is the lecture hall's own server (``python -m mogul.classroom.server``, its options and
``--db`` for ``--store``): the students' page, and behind the lecturer's token the projector
page and the lecturer's dashboard; no page of the class starts a kernel, and there is no
Jupyter server to browse files or start kernels through. All use one table store: a SQLite
file for one process, or a ``postgresql+psycopg://`` URL shared by several (``--workers N``).
``make classroom`` wraps ``mogul classroom``.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
from collections.abc import Sequence

from mogul.kit import doctor

EXTRA_MODULES = ("sqlalchemy", "segno")
"""What the classroom extra adds that the server needs (the store, QR codes)."""
HALL_URL_ENV = "MOGUL_HALL_URL"
"""The environment variable giving the student page's address (else this machine's)."""


def missing_extra() -> list[str]:
    """The classroom extra's modules this Python cannot import."""
    return [name for name in EXTRA_MODULES if importlib.util.find_spec(name) is None]


def check_extra() -> None:
    """Raise ``ModuleNotFoundError`` naming the pip command when the classroom extra is missing."""
    missing = missing_extra()
    if missing:
        raise ModuleNotFoundError(
            f"the classroom needs {', '.join(missing)} (the kit's classroom extra): "
            + doctor.pip(f"{doctor.KIT}[{doctor.CLASSROOM}]"),
            name=missing[0],
        )


def student_address(port: int = 8866, path: str = "mogul/hall/") -> str:
    """The student page's address: ``$MOGUL_HALL_URL``, else this machine's address on the
    local network (no packet is sent to find it), port ``port``, path ``path``."""
    if os.environ.get(HALL_URL_ENV):
        return os.environ[HALL_URL_ENV]
    ip = "127.0.0.1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # UDP: picks the outgoing interface, sends nothing
            ip = s.getsockname()[0]
        except OSError:
            pass
    return f"http://{ip}:{port}/{path}"


def serve(argv: Sequence[str]) -> int:
    """Run the class's server, ``python -m mogul.classroom.server`` with ``argv``
    (``mogul classroom``'s arguments), until it stops (Ctrl-C, or SIGTERM): on POSIX this
    process becomes the server (same pid); elsewhere it waits for it. The server is a program
    of its own, not a library: the command line imports none of the classroom's pages."""
    command = [sys.executable, "-m", "mogul.classroom.server", *argv]
    if os.name == "posix":
        os.execv(sys.executable, command)
    with subprocess.Popen(command) as server:
        try:
            return server.wait()
        except KeyboardInterrupt:  # the console's Ctrl-C reached the server too
            return server.wait()
