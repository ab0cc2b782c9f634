"""``mogul player`` (``make voila-player``): what it hands Voila, the variables its kernels
read, and the message without the classroom extra."""

import os
from pathlib import Path

import pytest

from mogul import cli
from mogul.classroom import serve
from mogul.kit import lab

KIT_JUPYTER = str(lab.shipped("share", "jupyter"))


@pytest.fixture
def started(monkeypatch):
    """Voila's command lines, recorded instead of run; this process's variables restored."""
    calls: list[list[str]] = []
    monkeypatch.setattr(cli, "start_voila", calls.append)
    monkeypatch.setattr(os, "environ", dict(os.environ))
    for name in ("JUPYTER_PATH", serve.STORE_ENV, serve.EXPORT_ENV):
        os.environ.pop(name, None)
    return calls


def test_player_serves_notebook_03_with_the_kits_template(started, capsys):
    os.environ["JUPYTER_PATH"] = "/elsewhere"
    assert cli.main(["player", "--port", "8899", "--Voila.show_tracebacks=True"]) == 0
    ((notebook, *options),) = started
    assert Path(notebook) == lab.shipped("notebooks", "03-play-against-bots.ipynb")
    assert Path(notebook).is_file()
    assert options == [
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        "--port=8899",
        "--Voila.port_retries=0",
        "--template=mogul",
        "--progressive_rendering=True",
        "--Voila.show_tracebacks=True",
    ]
    assert os.environ["JUPYTER_PATH"] == os.pathsep.join([KIT_JUPYTER, "/elsewhere"])
    assert Path(KIT_JUPYTER, "voila", "templates", "mogul", "index.html.j2").is_file()
    assert serve.STORE_ENV not in os.environ
    assert capsys.readouterr().out == "Player: http://127.0.0.1:8899/  (Ctrl-C stops it)\n"


def test_without_the_classroom_extra_the_player_says_the_pip_command(started, monkeypatch, capsys):
    monkeypatch.setattr(serve, "missing_extra", lambda: ["voila"])
    with pytest.raises(SystemExit) as stop:
        cli.main(["player"])
    assert stop.value.code == 2 and not started
    assert 'pip install "mogul-kit[classroom]"' in capsys.readouterr().err
