"""Stores for the classroom tests: SQLite files, and a real PostgreSQL server of our own.

The PostgreSQL server is started by the tests themselves: ``initdb`` in a temporary folder,
``pg_ctl start`` on a free localhost port (no Unix socket outside that folder, trust
authentication for this one user), stopped by ``pg_ctl stop`` at the end. Its binaries come
from Debian's ``postgresql`` package (``make postgres`` installs it, as root); elsewhere put
PostgreSQL's ``bin`` folder on PATH or name it in ``MOGUL_PG_BIN``. Running as root, the
server runs as the ``postgres`` user (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mogul.classroom.store import TableStore

INSTALL = (
    "PostgreSQL's server programs (initdb, pg_ctl) were not found, so the PostgreSQL store "
    "tests cannot run. On Debian/Ubuntu, as root: apt-get install -y postgresql (or `make "
    "postgres`). Elsewhere install PostgreSQL 13 or newer and put its bin folder on PATH, or "
    "set MOGUL_PG_BIN=/path/to/postgresql/bin."
)


def pg_bin() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    candidates = [os.environ.get("MOGUL_PG_BIN", "")]
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).resolve().parent))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in filter(None, candidates):
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server in a temporary folder on a free localhost port; its URL."""
    folder = pg_bin()
    if folder is None:
        pytest.skip(INSTALL)
    user = None
    if os.geteuid() == 0:  # PostgreSQL will not run as root: run it as its own system user
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip(
                "running as root and there is no 'postgres' user to run the server as; " + INSTALL
            )
    home = Path(tempfile.mkdtemp(prefix="mogul-pg-"))
    data = home / "data"
    if user is not None:
        os.chown(home, user.pw_uid, user.pw_gid)
    port = free_port()
    run_as = {"user": user.pw_uid, "group": user.pw_gid} if user is not None else {}
    db_user = user.pw_name if user is not None else pwd.getpwuid(os.geteuid()).pw_name

    def run(*argv: str) -> None:
        done = subprocess.run(argv, cwd=home, capture_output=True, text=True, timeout=120, **run_as)
        if done.returncode:
            raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")

    options = f"-p {port} -c listen_addresses=127.0.0.1 -k {home} -c fsync=off"
    try:
        run(
            str(folder / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            db_user,
            "--no-sync",
            "-E",
            "UTF8",
        )
        run(
            str(folder / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(home / "server.log"),
            "-o",
            options,
            "-w",
            "start",
        )
        yield f"postgresql+psycopg://{db_user}@127.0.0.1:{port}/postgres"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(
                [str(folder / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                cwd=home,
                capture_output=True,
                timeout=60,
                **run_as,
            )
        shutil.rmtree(home, ignore_errors=True)


def _empty(store: TableStore) -> TableStore:
    """Drop whatever an earlier test left in a shared database."""
    from mogul.classroom.database import META

    META.drop_all(store.engine)
    META.create_all(store.engine)
    return store


@pytest.fixture
def empty_postgres_url(postgres_url: str) -> str:
    """The test's PostgreSQL server, emptied of what an earlier test left there."""
    _empty(TableStore(postgres_url)).close()
    return postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty store: a SQLite file, then the test's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'class.sqlite'}"
    found = request.getfixturevalue("postgres_url")
    _empty(TableStore(found)).close()
    return found


@pytest.fixture
def store(url: str) -> Iterator[TableStore]:
    s = TableStore(url)
    yield s
    s.close()
