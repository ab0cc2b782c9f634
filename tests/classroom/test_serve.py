"""``mogul classroom``: the class's server started from Python (``mogul/classroom/serve.py``).

The links and the server's command line from the arguments; the error without the classroom
extra; and the real server, started as a lecturer starts it (in a folder of their own, with no
Jupyter settings in the environment) on a free port, answering the students' page, the
projector and the dashboard (the last two only with the token), then stopped by its pid.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import free_port

from mogul import cli
from mogul.classroom import serve

ROOT = Path(__file__).resolve().parents[2]


def test_the_links_and_the_servers_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    room = serve.classroom("127.0.0.1", 8900, "class.sqlite", "tok", environ={})
    assert room.db == str(tmp_path / "class.sqlite")  # absolute: the links print it whole
    assert room.export == tmp_path / "classroom-export"
    assert room.message().splitlines() == [
        f"Student page:   http://127.0.0.1:8900/mogul/hall/  (store: {tmp_path / 'class.sqlite'})",
        "Your dashboard: http://127.0.0.1:8900/mogul/hall/dashboard?token=tok",
        "Projector page: http://127.0.0.1:8900/mogul/hall/projector?token=tok",
        "(Ctrl-C stops the server)",
    ]
    assert room.environment() == {  # what the hall reads; no Jupyter settings
        "MOGUL_CLASSROOM": str(tmp_path / "class.sqlite"),
        "MOGUL_CLASSROOM_EXPORT": str(tmp_path / "classroom-export"),
        "MOGUL_HALL_URL": "http://127.0.0.1:8900/mogul/hall/",
    }
    args = room.arguments(["--ServerApp.log_level=WARN"])
    assert args[:6] == [
        "--no-browser",
        "--ip=127.0.0.1",
        "--port=8900",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=tok",
        "--ServerApp.jpserver_extensions={'mogul.classroom.server': True}",  # the hall alone
    ]
    assert args[-1] == "--ServerApp.log_level=WARN"
    assert ("--allow-root" in args) == (os.geteuid() == 0)


def test_a_room_of_students_and_a_shared_store(tmp_path, monkeypatch):
    environ = {"MOGUL_HALL_URL": "http://10.1.2.3:8866/mogul/hall/", "MOGUL_CLASSROOM_EXPORT": "x"}
    monkeypatch.chdir(tmp_path)
    url = "postgresql+psycopg://kit@db.local/class"
    room = serve.classroom("0.0.0.0", 8866, url, None, environ)
    assert room.db == url and room.export == tmp_path / "x"
    assert room.hall_url() is None and "MOGUL_HALL_URL" not in room.environment()
    monkeypatch.delenv("MOGUL_HALL_URL", raising=False)
    # this machine's own address on the network it reaches (no packet is sent to find it)
    assert re.fullmatch(r"http://[0-9.]+:8866/mogul/hall/", room.student_page())
    monkeypatch.setenv("MOGUL_HALL_URL", environ["MOGUL_HALL_URL"])
    student, dashboard, projector, _ = room.message().splitlines()
    assert student == f"Student page:   http://10.1.2.3:8866/mogul/hall/  (store: {url})"
    assert dashboard.startswith("Your dashboard: http://127.0.0.1:8866/mogul/hall/dashboard?token=")
    assert projector.startswith("Projector page: http://127.0.0.1:8866/mogul/hall/projector")
    tokens = {serve.classroom(environ={}).token for _ in range(3)}
    assert len(tokens) == 3 and all(len(t) == 16 for t in tokens)  # drawn afresh each time
    assert room.token in projector and room.token not in tokens
    assert serve.classroom(db=None, environ={"MOGUL_CLASSROOM": "a.sqlite"}).db == str(
        tmp_path / "a.sqlite"
    )
    with pytest.raises(ValueError, match="--port 70000: choose a port from 1 to 65535"):
        serve.classroom(port=70000)


def test_the_command_line_prints_the_links_and_passes_options_on(tmp_path, monkeypatch, capsys):
    started = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MOGUL_CLASSROOM", raising=False)
    monkeypatch.setattr(serve, "serve", lambda room, more: started.append((room, more)))
    argv = ["classroom", "--port", "9001", "--token", "abc", "--ServerApp.log_level=WARN"]
    assert cli.main(argv) == 0
    ((room, more),) = started
    assert (room.ip, room.port, room.token, more) == (
        "127.0.0.1",
        9001,
        "abc",
        ["--ServerApp.log_level=WARN"],
    )
    assert room.db == str(tmp_path / "classroom.sqlite")
    assert capsys.readouterr().out == room.message() + "\n"


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
def test_the_server_serves_the_hall_projector_and_dashboard(kind, tmp_path, request):
    db = "c.sqlite" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    home, port = tmp_path / "lecturer", free_port()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "MOGUL_"))}
    env.update(
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        PYDEVD_DISABLE_FILE_VALIDATION="1",
    )
    argv = [sys.executable, "-m", "mogul", "classroom", "--port", str(port), "--db", db]
    argv += ["--token", "lecturer-token"]
    log = (home / "server.log").open("w")
    server = subprocess.Popen(
        argv, cwd=home, env=env, stdout=subprocess.PIPE, stderr=log, text=True
    )
    try:
        lines = [server.stdout.readline() for _ in range(4)]
        store = home / db if kind == "sqlite" else db  # a file made absolute, a URL as it is
        assert (
            lines[0] == f"Student page:   http://127.0.0.1:{port}/mogul/hall/  (store: {store})\n"
        )
        dashboard = lines[1].removeprefix("Your dashboard: ").strip()
        projector = lines[2].removeprefix("Projector page: ").strip()
        base = f"http://127.0.0.1:{port}"
        anyone = urllib.request.build_opener()
        for _ in range(300):  # the server answers within seconds; give up after 30 s
            try:
                status, _, page = get(anyone, f"{base}/mogul/hall/")
                break
            except urllib.error.URLError:
                assert server.poll() is None, (home / "server.log").read_text()
                time.sleep(0.1)
        assert status == 200 and "<title>" in page
        for page_url in (dashboard, projector):  # without the token: Jupyter's login page
            status, url, _ = get(anyone, page_url.split("?")[0])
            assert (status, url.split("?")[0]) == (200, f"{base}/login"), page_url
        lecturer = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        status, _, page = get(lecturer, projector)
        assert status == 200 and "projector" in page.lower()
        status, url, page = get(lecturer, dashboard)  # the hall's page: no kernel
        assert status == 200 and 'src="static/dashboard.js"' in page
        assert url == f"{base}/mogul/hall/dashboard"  # the token is off the address bar
        status, _, _ = get(lecturer, f"{base}/voila/render/lecturer.ipynb")  # the old dashboard
        assert status == 404  # is gone: the server carries no Voila
        assert (home / "c.sqlite").is_file() == (kind == "sqlite")
        _, _, answer = get(lecturer, f"{base}/api/kernels?token=lecturer-token")
        assert json.loads(answer) == []  # every page served, and not one kernel
    finally:
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
    text = (home / "server.log").read_text()
    assert server.returncode == 0, text
    assert "Traceback" not in text and "[E " not in text, text
