"""The command line when it is stopped (issue 27, item 5): SIGTERM, an interrupted save, huge numbers."""

import json
import signal
import sys

import pandas as pd
import psutil
import pytest
from running import Watched

import mogul.cli
import mogul.kit.simulate
from mogul.cli import main


def test_sigterm_saves_the_games_so_far_and_exits_143(tmp_path):
    run = Watched(
        [
            sys.executable,
            "-m",
            "mogul",
            "simulate",
            "--bots",
            "random,value,threshold",
            "--games",
            "100000000",
            "--workers",
            "2",
            "--format",
            "csv",
            "--tables",
            "games",
            "--out",
            str(tmp_path),
        ]
    )
    run.wait_for_games(1)
    workers = psutil.Process(run.proc.pid).children(recursive=True)
    run.proc.send_signal(signal.SIGTERM)
    run.proc.wait(timeout=60)
    assert run.proc.returncode == 143, run.err
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["partial"] is True
    assert manifest["games_finished"] == pd.read_csv(tmp_path / "games.csv")["game"].nunique() > 0
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert [p for p in alive if p.status() != psutil.STATUS_ZOMBIE] == []


def test_an_interrupted_save_keeps_the_earlier_run_whole(tmp_path, monkeypatch):
    command = [
        "simulate",
        "--bots",
        "random,random,value",
        "--games",
        "3",
        "--out",
        str(tmp_path),
        "--no-progress",
        "--format",
        "csv",
        "--engine",
        "readable",  # it writes the tables once the games are over (the batch engine streams)
    ]
    assert main(command) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real = mogul.kit.simulate.write_tables

    def second_ctrl_c(folder, tables, format):
        real(folder, dict(list(tables.items())[:1]), format)  # one table written, then Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(mogul.kit.simulate, "write_tables", second_ctrl_c)
    assert main([*command[:4], "5", *command[5:], "--overwrite"]) == 130
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing half-replaced
    monkeypatch.setattr(mogul.kit.simulate, "write_tables", real)
    assert main([*command[:4], "5", *command[5:], "--overwrite"]) == 0
    assert json.loads((tmp_path / "manifest.json").read_text())["games_finished"] == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "9" * 40], "from 1 to 1,000,000,000, got 9999999999...9999 (40 digits)"),
        (["--games", "0"], "from 1 to 1,000,000,000, got 0"),
        (["--workers", "10000000000"], "from 1 to"),
        (["--seed", "-" + "9" * 30], "expected a seed from -2**63"),
    ],
)
def test_numbers_out_of_range_are_refused_with_a_message(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--bots", "random,value,value", "--no-progress", *args])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and message in err and "Traceback" not in err
