"""The command line: both commands work, and bad arguments give usage, never a traceback."""

import subprocess
import sys

import pandas as pd
import pytest

from mogul.cli import main
from mogul.kit.simulate import has_pyarrow


def test_simulate_writes_tables_and_prints_a_summary(tmp_path, capsys):
    out = tmp_path / "runs"
    code = main(["simulate", "--players", "4", "--games", "6", "--bots", "random,value,threshold",
                 "--seed", "1", "--out", str(out), "--no-progress", "--format", "csv"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "6 games, 4 players, seed 1" in printed and "win_rate" in printed
    games = pd.read_csv(out / "games.csv")
    assert len(games) == 24 and set(games["bot"]) == {"random", "value", "threshold-3"}
    assert (out / "rounds.csv").exists() and (out / "auctions.csv").exists()


def test_simulate_only_some_tables(tmp_path):
    assert main(["simulate", "--bots", "random,random,value", "--games", "2", "--tables", "auctions",
                 "--out", str(tmp_path), "--no-progress", "--format", "csv"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["auctions.csv", "games.csv"]


def test_tournament_prints_results_and_head_to_head(tmp_path, capsys):
    code = main(["tournament", "--bots", "random,threshold,value", "--repetitions", "1", "--seed", "2",
                 "--no-progress", "--out", str(tmp_path)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "6 games, 3 players, seed 2" in printed
    assert "win_low" in printed and "head to head" in printed
    assert (tmp_path / "summary.csv").exists()


BAD = [
    [],
    ["frobnicate"],
    ["simulate"],
    ["simulate", "--bots", "nobody"],
    ["simulate", "--bots", "threshold:3"],
    ["simulate", "--bots", "random", "--games", "0"],
    ["simulate", "--bots", "random", "--games", "many"],
    ["simulate", "--bots", "random", "--players", "9"],
    ["simulate", "--bots", "random,value,mc,threshold,random,value,mc", "--games", "1"],
    ["simulate", "--bots", "random", "--players", "3", "--tables", "hands"],
    ["simulate", "--bots", "random", "--players", "3", "--edition", "deluxe"],
    ["simulate", "--bots", "random", "--players", "3", "--seed", "x"],
    ["tournament", "--bots", "random,value", "--players", "5"],
    ["tournament", "--bots", "random,value,threshold", "--repetitions", "-1"],
    ["tournament", "--bots", "random,value,threshold", "--workers", "0"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) or "nothing" for a in BAD])
def test_bad_arguments_give_usage_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: mogul" in err and "Traceback" not in err


def test_parquet_without_pyarrow_is_a_usage_error(tmp_path, capsys):
    argv = ["simulate", "--bots", "random", "--players", "3", "--games", "1", "--format", "parquet",
            "--out", str(tmp_path), "--no-progress"]
    if has_pyarrow():
        assert main(argv) == 0
        return
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2 and "pyarrow" in capsys.readouterr().err


def test_out_path_that_is_a_file_is_a_usage_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--bots", "random", "--players", "3", "--games", "1", "--out", str(blocker),
              "--no-progress", "--format", "csv"])
    assert info.value.code == 2


def test_python_dash_m_mogul():
    ok = subprocess.run(
        [sys.executable, "-m", "mogul", "simulate", "--bots", "value,random,random", "--games", "2", "--no-progress"],
        capture_output=True, text=True, timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert "value" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "mogul", "simulate", "--bots", "nobody"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert "unknown bot 'nobody'" in bad.stderr and "Traceback" not in bad.stderr
