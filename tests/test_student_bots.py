"""A class tournament survives its students' bots (see ``mogul.kit.guard``).

Every misbehaving bot in ``tests/hostile_bots`` is named in the failures table with its
reason and position, every game it did not spoil is kept exactly as an honest run plays it,
and nothing it does reaches the game's state or the next game.
"""

import os
import sys
import textwrap
import time
from pathlib import Path

import hostile_bots as hb
import psutil
import pytest
from running import Watched

import mogul
from mogul import simulate, tournament
from mogul.kit.guard import BotFailure, Sandbox, checked
from mogul.kit.runner import Referee

LIMIT = 0.5  # seconds per decision: long enough for an honest bot on a loaded machine


def busy_children() -> list[psutil.Process]:
    """This process's live children that still use the CPU (a looping bot left behind)."""
    out = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and child.cpu_percent(interval=0.2) > 50:
                out.append(child)
        except psutil.NoSuchProcess:
            pass
    return out


def test_acceptance_raising_looping_and_honest_on_two_workers():
    start = time.perf_counter()
    t = tournament(
        "classic",
        [hb.Raising, hb.Looping, hb.Honest],
        repetitions=1,
        seed=3,
        workers=2,
        time_limit=LIMIT,
        progress=False,
    )
    took = time.perf_counter() - start
    failures = t.failures.sort_values("game")
    # Raising raises in seat 0 (2 seatings), Looping loops in seat 1 (2 seatings), and one
    # seating has both: Raising fails first there (round 2 before round 3).
    assert sorted(zip(failures["bot"], failures["reason"], failures["seat"], strict=True)) == [
        (
            "looping",
            "timeout",
            1,
        ),
        ("raising", "raised", 0),
        ("raising", "raised", 0),
    ]
    assert set(failures["outcome"]) == {"forfeit"}
    assert (
        "ValueError: my strategy divides by zero"
        in failures[failures.bot == "raising"]["detail"].iloc[0]
    )
    assert f"no answer within {LIMIT:g} s" in failures[failures.bot == "looping"]["detail"].iloc[0]
    assert (failures["step"] > 0).all()  # the position: decisions made before the failure
    # The three other games are kept, exactly as honest bots of those names play them.
    reference = tournament(
        "classic",
        [hb.CalmRaising, hb.CalmLooping, hb.Honest],
        repetitions=1,
        seed=3,
        secret=t.secret,
        progress=False,
    )
    kept = sorted(set(t.games["game"]))
    assert len(kept) == 3 and not set(kept) & set(failures["game"])
    expected = reference.games[reference.games["game"].isin(kept)].reset_index(drop=True)
    assert t.games.reset_index(drop=True).equals(expected)
    # A hang would never end; the bound is loose because CI machines may be busy (a clean run
    # of these games takes 6-9 s on a loaded machine, the looping bot costs one time limit).
    assert took < 120, f"the run took {took:.1f} s"
    assert (
        t.summary().loc["raising", "failures"] == 2 and t.summary().loc["honest", "failures"] == 0
    )
    assert busy_children() == []


def test_replacing_failing_bots_keeps_every_game():
    t = tournament(
        "classic",
        [hb.Raising, hb.Looping, hb.Honest],
        repetitions=1,
        seed=3,
        time_limit=LIMIT,
        on_failure="replace",
        progress=False,
    )
    assert len(t.games) == 6 * 3 and set(t.failures["outcome"]) == {"replaced"}
    assert len(t.failures) == 4  # in the seating with both, the looping bot fails later too


@pytest.mark.parametrize(
    ("bot", "reason", "detail"),
    [
        (hb.AnswersNone, "illegal", "answered None; legal: "),
        (hb.AnswersText, "illegal", "answered 'bid'; legal: "),
        (hb.BrokenInit, "start", "RuntimeError: forgot to set up my table"),
        (hb.Exits, "raised", "SystemExit: 3"),
    ],
)
@pytest.mark.parametrize("sandbox", [True, False])
def test_each_bad_answer_is_named_and_the_others_games_go_on(bot, reason, detail, sandbox):
    sim = simulate(
        "classic",
        [bot, "value", "random"],
        games=3,
        seed=1,
        time_limit=LIMIT,
        sandbox=sandbox,
        progress=False,
    )
    assert list(sim.failures["reason"]) == [reason] * 3 and list(sim.failures["seat"]) == [0] * 3
    assert all(detail in d for d in sim.failures["detail"])
    assert sim.games.empty  # every game had the bad bot: all forfeit, none half-counted
    # The same run with a fallback keeps all three games.
    again = simulate(
        "classic",
        [bot, "value", "random"],
        games=3,
        seed=1,
        time_limit=LIMIT,
        sandbox=sandbox,
        on_failure="replace",
        progress=False,
    )
    assert len(again.games) == 9 and len(again.failures) == 3


def test_a_bot_that_never_finishes_starting_is_stopped():
    start = time.perf_counter()
    sim = simulate(
        "classic",
        [hb.SlowInit, "value", "random"],
        games=2,
        seed=1,
        time_limit=LIMIT,
        progress=False,
    )
    assert set(sim.failures["reason"]) == {"start"}
    assert (
        time.perf_counter() - start < 50
    )  # SlowInit sleeps 60 s in each of 3 starts: it was cut off
    assert busy_children() == []


def test_a_memory_hog_is_stopped_by_its_cap():
    box = Sandbox(hb.MemoryHog, time_limit=20, memory_limit=300_000_000)
    try:
        box.new_game(1)
        view = mogul.new_game(players=3, seed=1).view(0)
        with pytest.raises(BotFailure) as caught:
            box.choose(view, [mogul.BID, mogul.DROP])
        assert caught.value.reason == "raised" and "MemoryError" in caught.value.detail
    finally:
        box.close()


def test_mutation_reaches_neither_the_states_nor_the_next_game():
    clean = simulate("classic", ["value", "value", "value"], games=5, seed=9, progress=False)
    for sandbox in (True, False):
        dirty = simulate(
            "classic",
            [hb.Mutator, "value", "value"],
            games=5,
            seed=9,
            sandbox=sandbox,
            progress=False,
        )
        assert dirty.failures.empty
    assert simulate(
        "classic", ["value", "value", "value"], games=5, seed=9, progress=False
    ).games.equals(clean.games)
    assert mogul.edition("classic").options["quick_start"]["max_players"] == 5


def test_a_sandboxed_bot_cannot_reach_the_hidden_pile():
    sandboxed = simulate("classic", [hb.Peeker, "value", "value"], games=2, seed=2, progress=False)
    assert sandboxed.failures.empty
    # In the game's own process the call stack leads to the state: the docs say so.
    exposed = simulate(
        "classic", [hb.Peeker, "value", "value"], games=2, seed=2, sandbox=False, progress=False
    )
    assert set(exposed.failures["reason"]) == {"raised"}
    assert "found the hidden pile" in exposed.failures["detail"].iloc[0]


def test_checked_refuses_lookalikes_and_answers_that_break_equality():
    class Weird:
        def __eq__(self, other):
            raise RuntimeError("no")

    for answer in ("bid", None, Weird(), 1):
        with pytest.raises(BotFailure, match="illegal"):
            checked(answer, [mogul.BID, mogul.DROP])
    assert checked(mogul.Sell(2), [mogul.Sell(0), mogul.Sell(2)]) == mogul.Sell(2)


def test_referee_settings_are_checked():
    for bad, message in (
        ({"time_limit": 0}, "time_limit"),
        ({"on_failure": "ignore"}, "on_failure"),
        ({"sandbox": "yes"}, "sandbox"),
    ):
        with pytest.raises(ValueError, match=message):
            Referee(**bad)


INTERRUPTED = """
import sys
sys.path.insert(0, {tests!r})
import hostile_bots as hb
from mogul import tournament
t = tournament("classic", ["value", hb.Honest, "random", "threshold"], players=4, repetitions=500, seed=1,
               workers=2, chunk_size=2, progress=True)
print("partial", t.partial, "games", t.games["game"].nunique(), flush=True)
"""


def test_interrupting_a_pool_run_returns_at_once_with_the_games_so_far(tmp_path: Path):
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(INTERRUPTED.format(tests=str(Path(__file__).parent))))
    run = Watched([sys.executable, str(script)], env={**os.environ, "PYTHONUNBUFFERED": "1"})
    run.wait_for_games(4)  # the pool runs and chunks come back: interrupt now
    children = psutil.Process(run.proc.pid).children(recursive=True)
    sent = time.perf_counter()
    out, err = run.interrupt(timeout=60)
    took = time.perf_counter() - sent
    assert run.proc.returncode == 0, err
    partial, games = out.split()[1], int(out.split()[3])
    assert partial == "True" and 0 < games < 12_000, out
    assert "Interrupted: kept the" in err
    assert took < 20, f"took {took:.1f} s to stop"  # the queue holds ~thousands of games: minutes
    time.sleep(0.5)
    assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]


def test_pool_workers_and_sandboxes_end_when_the_run_is_killed(tmp_path: Path):
    """SIGKILL gives the run no chance to clean up: its workers and their sandboxes end anyway."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(INTERRUPTED.format(tests=str(Path(__file__).parent))))
    run = Watched([sys.executable, str(script)], env={**os.environ, "PYTHONUNBUFFERED": "1"})
    run.wait_for_games(4)
    children = psutil.Process(run.proc.pid).children(recursive=True)
    assert len(children) >= 2  # two workers, and the honest bot's sandboxes below them
    run.proc.kill()
    run.proc.wait()
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert [c for c in alive if c.status() != psutil.STATUS_ZOMBIE] == []
