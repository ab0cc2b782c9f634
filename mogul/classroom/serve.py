"""``mogul classroom``: the whole class on one Jupyter server, started from Python on any system.

The server carries the lecture hall (``mogul.classroom.server``: the students' page, no kernel
per student, the projector page and the lecturer's dashboard, the last two behind the server's
token) and nothing else: no page of the class starts a kernel. All use one table store: a
SQLite file for one server, or a ``postgresql+psycopg://`` URL shared by several. ``make
classroom`` wraps ``mogul classroom``.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mogul.kit import doctor

EXTENSIONS = "{'mogul.classroom.server': True}"
"""The server's extension: the lecture hall."""
EXTRA_MODULES = ("sqlalchemy", "segno")
"""What the classroom extra adds that the server needs (the store, QR codes)."""
EVERYWHERE = ("0.0.0.0", "::")
"""Addresses that listen on every network: the students' devices reach the server."""
STORE_ENV, EXPORT_ENV, HALL_URL_ENV = "MOGUL_CLASSROOM", "MOGUL_CLASSROOM_EXPORT", "MOGUL_HALL_URL"


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


def store_path(db: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The table store: ``db``, else ``$MOGUL_CLASSROOM``, else ``classroom.sqlite`` here; a file
    path made absolute (the links print it whole), a URL as it is."""
    where = db or environ.get(STORE_ENV) or "classroom.sqlite"
    return where if "://" in where else str(Path(where).expanduser().resolve())


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


@dataclass(frozen=True)
class Classroom:
    """One class's server: where it listens, its store, its token, where exports go."""

    ip: str
    port: int
    db: str
    token: str
    export: Path

    @property
    def everywhere(self) -> bool:
        """Whether the server listens on every network (students' devices)."""
        return self.ip in EVERYWHERE

    def hall_url(self) -> str | None:
        """The students' page the dashboard projects; None on every network (the dashboard then
        finds this machine's own address)."""
        return None if self.everywhere else f"http://{self._host(self.ip)}:{self.port}/mogul/hall/"

    def student_page(self) -> str:
        """The address students open. On every network it is this machine's address there,
        which the projector page shows with its QR code (``$MOGUL_HALL_URL`` names it)."""
        if self.everywhere:
            return student_address(self.port)
        return f"http://{self._host(self.ip)}:{self.port}/mogul/hall/"

    def _local(self) -> str:
        """The lecturer's own address of the server (this machine)."""
        host = "127.0.0.1" if self.everywhere else self._host(self.ip)
        return f"http://{host}:{self.port}"

    @staticmethod
    def _host(ip: str) -> str:
        return f"[{ip}]" if ":" in ip else ip

    def dashboard(self) -> str:
        """The lecturer's dashboard (the hall's page, no kernel), with the token."""
        return f"{self._local()}/mogul/hall/dashboard?token={self.token}"

    def projector(self) -> str:
        """The projector page (the room's screen), with the token."""
        return f"{self._local()}/mogul/hall/projector?token={self.token}"

    def message(self) -> str:
        """What the command prints before the server starts."""
        return "\n".join(
            [
                f"Student page:   {self.student_page()}  (store: {self.db})",
                f"Your dashboard: {self.dashboard()}",
                f"Projector page: {self.projector()}",
                "(Ctrl-C stops the server)",
            ]
        )

    def environment(self) -> dict[str, str]:
        """The variables the hall reads (the store, where "Export" writes, the students' page)."""
        env = {STORE_ENV: self.db, EXPORT_ENV: str(self.export)}
        hall = self.hall_url()
        if hall is not None:
            env[HALL_URL_ENV] = hall
        return env

    def arguments(self, more: Sequence[str] = ()) -> list[str]:
        """The Jupyter server's command line; ``more`` passes through."""
        args = [
            "--no-browser",
            f"--ip={self.ip}",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",  # the printed links name this port
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.jpserver_extensions={EXTENSIONS}",
        ]
        if getattr(os, "geteuid", lambda: 1)() == 0:
            args.append("--allow-root")  # Jupyter refuses root without it (containers run as root)
        return [*args, *more]


def classroom(
    ip: str = "127.0.0.1",
    port: int = 8866,
    db: str | None = None,
    token: str | None = None,
    environ: Mapping[str, str] = os.environ,
) -> Classroom:
    """The class's server: ``token`` drawn afresh unless given, exports into
    ``$MOGUL_CLASSROOM_EXPORT`` (else ``classroom-export`` here)."""
    if not 1 <= port <= 65535:
        raise ValueError(f"--port {port}: choose a port from 1 to 65535")
    export = Path(environ.get(EXPORT_ENV) or "classroom-export").expanduser().resolve()
    return Classroom(ip, port, store_path(db, environ), token or secrets.token_urlsafe(12), export)


def serve(room: Classroom, more: Sequence[str] = ()) -> None:
    """Run the class's server in this process until it stops (Ctrl-C, or SIGTERM)."""
    check_extra()
    os.environ.update(room.environment())
    from jupyter_server.serverapp import ServerApp

    ServerApp.launch_instance(argv=room.arguments(more))
