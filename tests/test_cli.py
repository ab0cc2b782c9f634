"""The command line: both commands work, and bad arguments give usage, never a traceback."""

import json
import subprocess
import sys
import time

import pandas as pd
import psutil
import pytest
from running import Watched

from mogul.cli import main


def test_simulate_writes_tables_and_prints_a_summary(tmp_path, capsys):
    out = tmp_path / "runs"
    code = main(
        [
            "simulate",
            "--players",
            "4",
            "--games",
            "6",
            "--bots",
            "random,value,threshold",
            "--seed",
            "1",
            "--out",
            str(out),
            "--no-progress",
            "--format",
            "csv",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "6 games, 4 players, seed 1" in printed and "win_rate" in printed
    games = pd.read_csv(out / "games.csv")
    assert len(games) == 24 and set(games["bot"]) == {"random", "value", "threshold-3"}
    assert (out / "rounds.csv").exists() and (out / "auctions.csv").exists()


def test_simulate_only_some_tables(tmp_path):
    assert (
        main(
            [
                "simulate",
                "--bots",
                "random,random,value",
                "--games",
                "2",
                "--tables",
                "auctions",
                "--out",
                str(tmp_path),
                "--no-progress",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "auctions.csv",
        "games.csv",
        "manifest.json",
    ]


def test_tournament_prints_results_and_head_to_head(tmp_path, capsys):
    code = main(
        [
            "tournament",
            "--bots",
            "random,threshold,value",
            "--repetitions",
            "1",
            "--seed",
            "2",
            "--no-progress",
            "--out",
            str(tmp_path),
        ]
    )
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


@pytest.mark.parametrize("format", ["parquet", "feather", "csv"])
def test_every_format_writes_tables_pandas_reads(tmp_path, format):
    argv = ["simulate", "--bots", "random,value", "--players", "3", "--games", "5"]
    assert main([*argv, "--format", format, "--out", str(tmp_path), "--no-progress"]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["tables"] == {t: f"{t}.{format}" for t in ("games", "rounds", "auctions")}
    games = getattr(pd, f"read_{format}")(tmp_path / f"games.{format}")
    assert games["game"].tolist() == [g for g in range(5) for _ in range(3)]
    assert games["bot"].astype(str).tolist()[:3] == ["random", "value", "random"]


def test_out_path_that_is_a_file_is_a_usage_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SystemExit) as info:
        main(
            [
                "simulate",
                "--bots",
                "random",
                "--players",
                "3",
                "--games",
                "1",
                "--out",
                str(blocker),
                "--no-progress",
                "--format",
                "csv",
            ]
        )
    assert info.value.code == 2


def test_python_dash_m_mogul():
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "mogul",
            "simulate",
            "--bots",
            "value,random,random",
            "--games",
            "2",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert "value" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "mogul", "simulate", "--bots", "nobody"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2
    assert "unknown bot 'nobody'" in bad.stderr and "Traceback" not in bad.stderr


# --- output safety: nothing computed for nothing, nothing half-written, nothing stale ---------


def run_cli(*args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "mogul", *args], capture_output=True, text=True, **kwargs
    )


def test_out_is_checked_before_any_game_runs(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    started = time.perf_counter()
    result = run_cli(
        "simulate", "--bots", "random", "--players", "3", "--games", "100000", "--out", str(blocker)
    )
    assert result.returncode == 2 and "this is a file, not a folder" in result.stderr
    assert time.perf_counter() - started < 40  # refused at once, not after 100,000 games (minutes)


def test_an_earlier_run_is_refused_unless_overwritten(tmp_path, capsys):
    first = [
        "simulate",
        "--bots",
        "random,random,value",
        "--games",
        "2",
        "--out",
        str(tmp_path),
        "--no-progress",
        "--format",
        "csv",
    ]
    assert main(first) == 0
    with pytest.raises(SystemExit):
        main(
            [
                "simulate",
                "--bots",
                "random,random,value",
                "--games",
                "2",
                "--tables",
                "games",
                "--out",
                str(tmp_path),
                "--no-progress",
                "--format",
                "csv",
            ]
        )
    assert "already holds an earlier run's results" in capsys.readouterr().err
    (tmp_path / "notes.txt").write_text("mine")
    assert (
        main(
            [
                "simulate",
                "--bots",
                "random,random,value",
                "--games",
                "2",
                "--tables",
                "games",
                "--out",
                str(tmp_path),
                "--no-progress",
                "--format",
                "csv",
                "--overwrite",
            ]
        )
        == 0
    )
    # The stale rounds and auctions tables of the first run are gone; the user's file stays.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "manifest.json", "notes.txt"]


def test_the_manifest_says_what_was_run(tmp_path):
    assert (
        main(
            [
                "tournament",
                "--bots",
                "random,threshold,value",
                "--repetitions",
                "1",
                "--seed",
                "4",
                "--no-progress",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["command"].startswith(
        "python -m mogul tournament --bots random,threshold,value"
    )
    assert (manifest["seed"], manifest["games_finished"], manifest["partial"]) == (4, 6, False)
    assert manifest["tables"] == {
        "games": "games.csv",
        "summary": "summary.csv",
        "head_to_head": "head_to_head.csv",
    }
    assert {"python", "mogul-kit", "pandas", "numpy"} <= set(manifest["versions"])
    assert not list(tmp_path.glob(".*partial"))


def test_a_broken_pipe_keeps_the_files(tmp_path):
    shell = (
        f"{sys.executable} -m mogul simulate --bots random,value,threshold --games 30 --no-progress "
        f"--format csv --out {tmp_path} | head -1"
    )
    result = subprocess.run(shell, shell=True, capture_output=True, text=True)
    assert result.stdout.startswith("30 games") and "Traceback" not in result.stderr
    assert len(pd.read_csv(tmp_path / "games.csv")) == 90 and (tmp_path / "manifest.json").exists()


def test_interrupting_the_cli_saves_the_games_so_far_marked_partial(tmp_path):
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
    run.wait_for_games(1)  # planned lazily: no 100-million-game plan before the first game
    assert psutil.Process(run.proc.pid).memory_info().rss < 1_000_000_000
    out, err = run.interrupt(timeout=60)
    proc = run.proc
    assert proc.returncode == 130, err
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["partial"] is True and manifest["games_planned"] == 100_000_000
    games = pd.read_csv(tmp_path / "games.csv")
    assert manifest["games_finished"] == games["game"].nunique() > 0
    assert "interrupted: partial results" in out


def test_simulate_says_which_engine_ran_and_both_write_the_same_tables(tmp_path, capsys):
    argv = ["simulate", "--bots", "random,value,threshold", "--players", "4", "--games", "9"]
    argv += ["--seed", "2", "--no-progress", "--format", "csv"]
    for engine in ("readable", "fast"):
        assert main([*argv, "--engine", engine, "--out", str(tmp_path / engine)]) == 0
        assert f"9 games, 4 players, seed 2, {engine} engine" in capsys.readouterr().out
        manifest = json.loads((tmp_path / engine / "manifest.json").read_text())
        assert (manifest["engine"], manifest["games_finished"], manifest["partial"]) == (
            engine,
            9,
            False,
        )
    for name in ("games.csv", "rounds.csv", "auctions.csv"):  # other games, the same columns
        fast, readable = (pd.read_csv(tmp_path / engine / name) for engine in ("fast", "readable"))
        assert list(fast.columns) == list(readable.columns)
        assert fast["game"].nunique() == readable["game"].nunique() == 9


def test_simulate_engine_fast_refuses_what_it_cannot_play(tmp_path, capsys):
    argv = ["simulate", "--bots", "random,mc:rollouts=1", "--players", "3", "--games", "1"]
    with pytest.raises(SystemExit) as exit:
        main([*argv, "--engine", "fast", "--out", str(tmp_path)])
    assert exit.value.code == 2
    assert "engine='fast' cannot play this" in capsys.readouterr().err
    assert not (tmp_path / "manifest.json").exists()


def test_a_streamed_run_stopped_while_it_is_swapped_in_keeps_the_earlier_run_whole(
    tmp_path, monkeypatch
):
    import mogul.cli

    command = ["simulate", "--bots", "random,value", "--players", "3", "--games", "3"]
    command += ["--out", str(tmp_path), "--no-progress", "--format", "csv"]
    assert main(command) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real = mogul.cli.write_manifest

    def ctrl_c_at_the_end(folder, args, facts, paths):
        if not facts["partial"]:  # the last manifest: the games are all written
            raise KeyboardInterrupt
        real(folder, args, facts, paths)

    monkeypatch.setattr(mogul.cli, "write_manifest", ctrl_c_at_the_end)
    assert main([*command, "--overwrite", "--seed", "5"]) == 130
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_warm_up_plays_every_edition_once_and_analyses_its_first_position(monkeypatch, capsys):
    # make lab runs it: each edition's batch engine and rollouts compiled into numba's cache
    import mogul.cli
    from mogul.kit.spec import GameSpec, games, get_game

    played, analysed = [], []
    monkeypatch.setattr(mogul.cli, "simulate", lambda edition, *a, **k: played.append(edition))
    face = GameSpec.face

    def recorded(spec, name, default=None):
        if name != "analyse_position" or face(spec, name) is None:
            return face(spec, name, default)
        return lambda state, **k: analysed.append((spec.name, k["rollouts"]))

    monkeypatch.setattr(GameSpec, "face", recorded)
    assert main(["warm-up", "--no-progress"]) == 0
    editions = [e for name in games() for e in get_game(name).editions]
    assert played == editions and len(editions) >= 3
    assert {name for name, _ in analysed} == {
        name for name in games() if face(get_game(name), "analyse_position") is not None
    }
    assert {rollouts for _, rollouts in analysed} == {2}
    assert "done in" in capsys.readouterr().out
