"""Process pools started with "spawn", as on macOS and Windows (``RunOptions.start_method``).

A spawned worker is a fresh Python that imports what it runs: nothing of this process is
inherited, so what a forked worker would see by accident (a monkeypatch, a module's state) is
not there. Each run below on two spawned workers gives what the same run gives in this
process: the readable engine's simulation, a tournament, the batch engine's chunks written to
files (through the pool's spill folder), and students' bots in the sandbox's fallback (a plain
process, where bubblewrap is missing). Each spawned pool costs a few seconds (two fresh
interpreters importing the kit).
"""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import ThreadPoolExecutor

import hostile_bots as hb
import pandas as pd
import pytest

from mogul import simulate, tournament
from mogul.kit import guard, runner
from mogul.kit.runner import RunOptions, pool_start_method


@pytest.fixture
def started(monkeypatch) -> list[str]:
    """The start method of every local pool the test makes."""
    methods: list[str] = []
    real = runner.ProcessPoolExecutor

    def pool(*args, mp_context=None, **kwargs):
        methods.append(mp_context.get_start_method())
        return real(*args, mp_context=mp_context, **kwargs)

    monkeypatch.setattr(runner, "ProcessPoolExecutor", pool)
    return methods


def test_the_readable_engine_on_spawned_workers(started):
    run = dict(games=8, seed=5, players=3, engine="readable", chunk_size=2, progress=False)
    here = simulate("classic", ["random", "value"], **run)
    spawned = simulate("classic", ["random", "value"], workers=2, start_method="spawn", **run)
    assert started == ["spawn"]
    assert list(spawned.tables) == ["games", "rounds", "auctions"]
    for name, table in here.tables.items():
        pd.testing.assert_frame_equal(spawned.tables[name], table)


def test_a_tournament_on_spawned_workers(started):
    lineup = ["value", "threshold", "random"]
    here = tournament("classic", lineup, repetitions=1, seed=3, progress=False)
    spawned = tournament(
        "classic", lineup, repetitions=1, seed=3, workers=2, start_method="spawn", progress=False
    )
    assert started == ["spawn"] and len(here.games) == 6 * 3
    pd.testing.assert_frame_equal(spawned.games, here.games)
    pd.testing.assert_frame_equal(spawned.summary(), here.summary())


def test_the_batch_engines_chunks_on_spawned_workers(started, tmp_path):
    run = dict(games=60, seed=2, players=4, chunk_size=10, format="csv", progress=False)
    bots = ["random", "value", "threshold"]
    here = simulate("classic", bots, out=tmp_path / "here", **run)
    spawned = simulate(
        "classic", bots, out=tmp_path / "spawned", workers=2, start_method="spawn", **run
    )
    assert started == ["spawn"] and here.engine == spawned.engine == "fast"
    assert sorted(p.name for p in spawned.files.values()) == [
        "auctions.csv",
        "games.csv",
        "rounds.csv",
    ]
    for name, path in here.files.items():
        assert spawned.files[name].read_bytes() == path.read_bytes(), name
    assert not list((tmp_path / "spawned").glob(".chunks-*"))  # the spill folder is gone


def test_students_bots_in_the_sandboxs_fallback_on_spawned_workers(started, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bubblewrap here; spawned workers inherit it
    monkeypatch.delenv("MOGUL_SANDBOX", raising=False)
    guard.bwrap.cache_clear()
    lineup = [hb.Honest, "value", "random"]
    run = dict(repetitions=1, seed=4, time_limit=5.0, progress=False)
    with pytest.warns(RuntimeWarning, match="Students' bots run without namespaces"):
        here = tournament("classic", lineup, **run)
    assert here.secret is not None  # a student's bot: the deals are keyed by a secret
    spawned = tournament(
        "classic", lineup, workers=2, start_method="spawn", secret=here.secret, **run
    )
    guard.bwrap.cache_clear()
    assert started == ["spawn"]
    assert here.failures.empty and spawned.failures.empty
    assert "honest" in set(here.games["bot"])
    pd.testing.assert_frame_equal(spawned.games, here.games)


def test_the_start_method_is_checked():
    methods = multiprocessing.get_all_start_methods()
    assert pool_start_method() == ("fork" if sys.platform == "linux" else methods[0])
    assert RunOptions(workers=2, start_method="spawn").start_method == "spawn"
    with pytest.raises(ValueError) as err:
        RunOptions(workers=2, start_method="vfork")
    assert str(err.value) == (
        f"start_method must be one of {', '.join(methods)} on this system (or None: the "
        "default), got 'vfork'"
    )
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="for a local pool"):
        RunOptions(executor=pool, start_method="spawn")
