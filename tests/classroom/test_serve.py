"""``mogul classroom``: the class's server, the lecture hall's own (``mogul/classroom/serve.py``,
``mogul/classroom/server/__main__.py``).

The links it prints; the options passed on; the error without the classroom extra; and the
real server, started as a lecturer starts it (in a folder of their own) on a free port, on
SQLite and on PostgreSQL with two worker processes: the students' page for anyone, the
projector and the dashboard only with the token, no Jupyter (no API to browse files or start
kernels), then stopped by its pid.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import types
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy
from conftest import free_port

from mogul import cli
from mogul.classroom import serve
from mogul.classroom.server import __main__ as command
from mogul.classroom.store import TableStore

ROOT = Path(__file__).resolve().parents[2]


def test_the_links_it_prints(monkeypatch):
    monkeypatch.delenv("MOGUL_HALL_URL", raising=False)
    store = TableStore("sqlite://")
    try:
        assert command.addresses("127.0.0.1", 8900, "tok", store).splitlines() == [
            "Student page:   http://127.0.0.1:8900/mogul/hall/  (store: sqlite://)",
            "Your dashboard: http://127.0.0.1:8900/mogul/hall/dashboard?token=tok",
            "Projector page: http://127.0.0.1:8900/mogul/hall/projector?token=tok",
            "(Ctrl-C stops the server)",
        ]
        # a room of students: this machine's address on its network (no packet is sent to find
        # it) for the students, this machine for the lecturer
        student, dashboard, projector, _ = command.addresses("0.0.0.0", 8866, "t", store, 2).split(
            "\n"
        )
        assert re.fullmatch(
            r"Student page:   http://[0-9.]+:8866/mogul/hall/  \(2 processes, store: .*\)", student
        )
        assert dashboard == "Your dashboard: http://127.0.0.1:8866/mogul/hall/dashboard?token=t"
        assert projector == "Projector page: http://127.0.0.1:8866/mogul/hall/projector?token=t"
        shared = types.SimpleNamespace(  # a PostgreSQL store: its URL, without the password
            engine=sqlalchemy.create_engine("postgresql+psycopg://kit:secret@db.local/class")
        )
        assert (
            command.addresses("0.0.0.0", 8866, "t", shared)
            .split("\n")[0]
            .endswith("(store: postgresql+psycopg://kit:***@db.local/class)")
        )
        monkeypatch.setenv("MOGUL_HALL_URL", "http://10.1.2.3:8866/mogul/hall/")  # named
        assert command.student_page("0.0.0.0", 8866) == "http://10.1.2.3:8866/mogul/hall/"
        assert command.student_page("::1", 8866) == "http://10.1.2.3:8866/mogul/hall/"
        monkeypatch.delenv("MOGUL_HALL_URL")
        assert command.student_page("::1", 8866) == "http://[::1]:8866/mogul/hall/"
    finally:
        store.close()


def test_the_command_line_passes_its_options_to_the_halls_server(monkeypatch, capsys):
    class Served(Exception):
        """``os.execv`` called: this process would now be the server."""

    def execv(path: str, argv: list[str]) -> None:
        raise Served(path, argv)

    monkeypatch.setattr(serve.os, "execv", execv)
    argv = ["--port", "9001", "--db", "c.sqlite", "--token", "abc", "--workers", "2"]
    with pytest.raises(Served) as served:
        cli.main(["classroom", *argv])
    # this process becomes the hall's server (its pid stays the lecturer's to stop)
    command_line = [sys.executable, "-m", "mogul.classroom.server", *argv]
    assert served.value.args == (sys.executable, command_line)
    with pytest.raises(SystemExit) as stop:
        command.main(["--port", "70000"])
    assert stop.value.code == 2
    assert "mogul classroom: error: --port 70000: choose a port from 1 to 65535" in (
        capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as stop:  # the hall's --workers checks, said at once
        command.main(["--db", "c.sqlite", "--workers", "2"])
    assert stop.value.code == 2 and "needs a PostgreSQL store" in capsys.readouterr().err


def test_without_the_classroom_extra_it_says_the_pip_command(monkeypatch, capsys):
    real = serve.importlib.util.find_spec
    monkeypatch.setattr(
        serve.importlib.util,
        "find_spec",
        lambda name: None if name in ("sqlalchemy", "segno") else real(name),
    )
    with pytest.raises(SystemExit) as stop:
        cli.main(["classroom"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "the classroom needs sqlalchemy, segno (the kit's classroom extra): " in err
    assert err.rstrip().endswith(f'{sys.executable} -m pip install "mogul-kit[classroom]"')


def get(opener: urllib.request.OpenerDirector, url: str) -> tuple[int, str, str]:
    """Status, final address and text of ``url`` (redirects followed)."""
    try:
        with opener.open(url, timeout=60) as answer:
            return answer.status, answer.url, answer.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, url, ""


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_server_serves_the_hall_projector_and_dashboard_and_no_jupyter(kind, tmp_path, request):
    db = "c.sqlite" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    workers = 1 if kind == "sqlite" else 2  # one port, two processes
    home, port = tmp_path / "lecturer", free_port()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "MOGUL_"))}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    argv = [sys.executable, "-m", "mogul", "classroom", "--port", str(port), "--db", db]
    argv += ["--token", "lecturer-token", "--workers", str(workers)]
    log = (home / "server.log").open("w")
    server = subprocess.Popen(
        argv, cwd=home, env=env, stdout=subprocess.PIPE, stderr=log, text=True
    )
    try:
        lines = [server.stdout.readline() for _ in range(4)]  # printed once it listens
        store = home / db if kind == "sqlite" else db
        processes = "2 processes, " if workers == 2 else ""
        base = f"http://127.0.0.1:{port}"
        assert lines == [
            f"Student page:   {base}/mogul/hall/  ({processes}store: {store})\n",
            f"Your dashboard: {base}/mogul/hall/dashboard?token=lecturer-token\n",
            f"Projector page: {base}/mogul/hall/projector?token=lecturer-token\n",
            "(Ctrl-C stops the server)\n",
        ], (home / "server.log").read_text()
        dashboard, projector = (line.split(": ", 1)[1].strip() for line in lines[1:3])
        anyone = urllib.request.build_opener()
        status, _, page = get(anyone, f"{base}/mogul/hall/")
        assert status == 200 and "<title>" in page
        for page_url in (dashboard, projector):  # without the token, or with another: refused
            assert get(anyone, page_url.split("?")[0])[0] == 403, page_url
            assert get(anyone, page_url.replace("lecturer-token", "guess"))[0] == 403, page_url
        lecturer = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        status, url, page = get(lecturer, projector)
        assert status == 200 and "projector" in page.lower()
        assert url == f"{base}/mogul/hall/projector"  # the token is off the address bar
        status, url, page = get(lecturer, dashboard)  # the hall's page: no kernel
        assert status == 200 and 'src="static/dashboard.js"' in page
        assert url == f"{base}/mogul/hall/dashboard"
        assert (home / "c.sqlite").is_file() == (kind == "sqlite")
        for jupyter in ("api/kernels", "api/contents", "api/status", "lab", "tree", "login"):
            assert get(lecturer, f"{base}/{jupyter}?token=lecturer-token")[0] == 404, jupyter
    finally:
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
    text = (home / "server.log").read_text()
    assert server.returncode == 0, text
    assert "Traceback" not in text, text
    # the lecturer's terminal keeps the links in view: refusals are logged, page loads are not
    assert "403 GET /mogul/hall/dashboard" in text and " 200 GET " not in text, text
