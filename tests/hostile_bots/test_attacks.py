"""The audit's attacks (issue 27), one hostile bot each, in a small tournament.

Each run seats the attacker with three honest bots (3 seats, 24 games, time limit 1 s). Every
test checks that the attack is refused or contained, that the failures table names the
attacker and nobody else, that the games it did not spoil are exactly those of a clean run
(its calm twin in its place), and that no process is left behind.
"""

import functools
import os
import random
import socket
import time
import warnings
from pathlib import Path

import psutil
import pytest

import hostile_bots as hb
import mogul
from hostile_bots import attacks, snoop
from mogul import tournament
from mogul.kit import guard, runner
from mogul.kit.guard import bwrap

LIMIT = 1.0
OTHERS = [hb.Honest, "value", "random"]  # with the attacker: 24 games, 6 of them without it
namespaces = pytest.mark.skipif(
    bwrap() is None, reason="needs bubblewrap namespaces (make bubblewrap)"
)


def calm(name: str) -> type:
    """An honest bot of that name: the attacker's moves when its attack does nothing."""
    return type("Calm", (hb.Honest,), {"name": name})


def attack(bot, name: str, others=OTHERS, **options):
    """The attacker's tournament, the clean one beside it, and the processes left after it
    (``others``: two of ``OTHERS`` make a shorter run, 6 games, each with the attacker)."""
    started = time.time()
    t = tournament(
        "classic",
        [bot, *others],
        players=3,
        repetitions=1,
        seed=5,
        time_limit=LIMIT,
        progress=False,
        **options,
    )
    clean = tournament(
        "classic",
        [calm(name), *others],
        players=3,
        repetitions=1,
        seed=5,
        secret=t.secret,  # the attacker's run drew a secret: the clean run plays the same games
        sandbox=False,
        progress=False,
    )
    assert not t.partial, "the run was stopped"
    assert set(t.failures["bot"]) <= {name}, f"an innocent bot was blamed:\n{t.failures}"
    kept = sorted(set(t.games["game"]))
    expected = clean.games[clean.games["game"].isin(kept)].reset_index(drop=True)
    assert t.games.reset_index(drop=True).equals(expected) or (t.games.empty and not kept), (
        "an honest game differs from a clean run"
    )
    assert not set(kept) & set(t.failures["game"])
    return t, left_behind(started, {"forker": "sleep 601", "fork-bomb": "sleep 602"}.get(name))


def left_behind(since: float, marker: str | None = None) -> list[str]:
    """Processes still running that this run started: this process's descendants, and the
    attacker's ``sleep 60x`` wherever it ended up (other tests' sandboxes are not ours)."""
    time.sleep(0.2)  # the kernel tears a PID namespace down as its first process dies
    found = [  # started by this run: an earlier test's helper (a spawn pool's tracker) is not
        p
        for p in psutil.Process().children(recursive=True)
        if p.status() != psutil.STATUS_ZOMBIE and p.create_time() >= since - 1
    ]
    for p in psutil.process_iter(["cmdline", "create_time", "status"]) if marker else ():
        line = " ".join(p.info["cmdline"] or [])
        if (
            p.info["create_time"] >= since - 1
            and p.info["status"] != psutil.STATUS_ZOMBIE
            and marker in line
        ):
            found.append(p)
    return [" ".join(p.cmdline())[:80] for p in found if p.is_running()]


def test_a_pickled_answer_is_never_unpickled(tmp_path: Path):
    marker = tmp_path / "the-bot-ran-here"
    bot = functools.partial(attacks.PickleAnswer, marker=str(marker))
    t, left = attack(bot, "pickle-answer")
    assert not marker.exists(), "the bot's pickle ran in the referee"
    assert (
        list(t.failures["reason"]) == ["illegal"] * 18
    )  # every game it plays, at its first decision
    assert set(t.failures["detail"]) == {"sent something that is not the sandbox's reply"}
    assert left == []


def test_a_pickled_answer_is_refused_on_two_workers(tmp_path: Path):
    marker = tmp_path / "the-bot-ran-here"
    bot = functools.partial(attacks.PickleAnswer, marker=str(marker))
    t, left = attack(bot, "pickle-answer", workers=2)
    assert not marker.exists() and len(t.failures) == 18 and left == []


def test_a_bot_cannot_work_out_the_deal_from_its_seed(monkeypatch):
    t, left = attack(attacks.SeedSpy, "seed-spy")
    assert t.failures.empty and left == []

    # The same attack against the seeds as they were drawn before: it finds every deal.
    def old_plans(seed, seatings, secret=None):
        seatings = list(seatings)
        for game, (seating, (deal, bots)) in enumerate(
            zip(seatings, attacks.old_plan(seed, len(seatings), 3), strict=True)
        ):
            yield runner.GamePlan(game, deal, tuple(seating), tuple(bots))

    monkeypatch.setattr(mogul.kit.tournament, "plan_games", old_plans)
    exposed = tournament(
        "classic",
        [attacks.SeedSpy, *OTHERS],
        players=3,
        repetitions=1,
        seed=5,
        sandbox=False,
        progress=False,
    )
    assert (
        len(exposed.failures) == 18
        and "predicted the pile from my seed" in exposed.failures["detail"].iloc[0]
    )


def cards(seed: int) -> list:
    """A three-player game's cards in the order they come up."""
    state = mogul.new_game(players=3, seed=seed)
    return [state.revealed, *state.deck]


def guessing(deals: list[tuple[int, list[int]]]) -> tuple[int, float, float]:
    """The audit's attack on each bot seed of ``deals`` (deal seed, bot seeds): how many deals
    it recovers, how often its guessed pile matches the real one card for card, and how often
    an unrelated deal does (chance)."""
    hits = control = compared = recovered = 0
    other = iter(runner.plan_games(999, [(0, 1, 2)] * len(deals) * 3))
    for deal_seed, bot_seeds in deals:
        pile = cards(deal_seed)
        for bot_seed in bot_seeds:
            deal = attacks.recover_deal(bot_seed, run_seeds=range(10), games=6)
            recovered += deal is not None
            guess = cards(bot_seed if deal is None else deal)
            unrelated = cards(next(other).seed)
            hits += sum(a == b for a, b in zip(guess, pile, strict=False))
            control += sum(a == b for a, b in zip(unrelated, pile, strict=False))
            compared += min(len(guess), len(pile))
    return recovered, hits / compared, control / compared


def test_a_bots_seed_predicts_the_pile_no_better_than_chance():
    now = [
        (p.seed, p.bot_seeds) for seed in range(8) for p in runner.plan_games(seed, [(0, 1, 2)] * 6)
    ]
    recovered, rate, chance = guessing(now)
    # 144 guesses of ~30 cards each; chance agreement is about 10 %: 4 standard deviations
    # of the difference of two such rates would be a leak.
    assert recovered == 0
    assert abs(rate - chance) < 4 * (2 * chance * (1 - chance) / (144 * 25)) ** 0.5, (rate, chance)
    # The seeds as they were drawn before: the same attack recovers every deal.
    before = [plan for seed in range(8) for plan in attacks.old_plan(seed, 6, 3)]
    assert guessing(before)[:2] == (144, 1.0)


def seed_book(run_seeds, games: int) -> tuple[dict[int, int], set[int]]:
    """The audit's attack on small run seeds (issue 36): for every run seed it tries, the bot
    seeds of its first ``games`` three-seat games, each to its game's deal seed; and every
    deal seed (a bot that sees a few cards can match those too)."""
    book: dict[int, int] = {}
    for run_seed in run_seeds:
        for plan in runner.plan_games(run_seed, [(0, 1, 2)] * games):
            book.update(dict.fromkeys(plan.bot_seeds, plan.seed))
    return book, set(book.values())


def test_a_bot_that_searches_the_run_seeds_predicts_the_pile_no_better_than_chance():
    """Run seeds 0-1999 and 1,000 large random ones: no bot seed of a run with a student's
    sandboxed bot is among theirs, nor any deal; a guess from the seed is chance; the run's
    ``secret`` plays it again. Without the secret the same search finds every deal."""
    started = time.perf_counter()
    rng = random.Random(36)
    book, deals = seed_book([*range(2000), *(rng.getrandbits(64) for _ in range(1000))], 12)
    t = tournament(
        "classic", [hb.Honest, "value", "random"], players=3, repetitions=2, seed=1, progress=False
    )
    assert isinstance(t.secret, int) and t.secret.bit_length() > 32
    assert not set(t.games["bot_seed"]) & set(book) and not set(t.games["seed"]) & deals
    pile_by_game = {
        g: cards(seed) for g, seed in zip(t.games["game"], t.games["seed"], strict=True)
    }
    others = iter(runner.plan_games(999, [(0, 1, 2)] * len(t.games)))
    hits = control = compared = 0
    for game, bot_seed in zip(t.games["game"], t.games["bot_seed"], strict=True):
        pile = pile_by_game[game]
        guess, unrelated = cards(book.get(bot_seed, bot_seed)), cards(next(others).seed)
        hits += sum(a == b for a, b in zip(guess, pile, strict=False))
        control += sum(a == b for a, b in zip(unrelated, pile, strict=False))
        compared += min(len(guess), len(pile))
    rate, chance = hits / compared, control / compared
    # 36 guesses of ~30 cards; chance agreement is about 10 %: 4 standard deviations of the
    # difference of two such rates would be a leak.
    assert abs(rate - chance) < 4 * (2 * chance * (1 - chance) / compared) ** 0.5, (rate, chance)
    again = tournament(
        "classic",
        [hb.Honest, "value", "random"],
        players=3,
        repetitions=2,
        seed=1,
        secret=t.secret,
        sandbox=False,
        progress=False,
    )
    assert again.games.equals(t.games) and again.secret == t.secret
    # The kit's own bots alone: no secret, the seed alone gives the games.
    assert (
        tournament("classic", ["value", "random", "random"], repetitions=1, progress=False).secret
        is None
    )
    # The same search against the run's plans without its secret: every deal found.
    plain = list(runner.plan_games(1, [(0, 1, 2)] * len(pile_by_game)))
    assert all(book[s] == p.seed for p in plain for s in p.bot_seeds)
    assert time.perf_counter() - started < 60


@namespaces
def test_a_saboteur_cannot_kill_other_bots_or_stop_the_run():
    t, left = attack(attacks.Saboteur, "saboteur")
    assert t.failures.empty and len(t.games) == 24 * 3 and left == []


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_starts_a_process_is_named_and_ended(workers):
    """One process per bot, so its memory cap is the whole bot's: the first process it
    starts ends it, named "forbidden", whatever the number of workers (issue 36)."""
    t, left = attack(attacks.Forker, "forker", OTHERS[:2], workers=workers)
    assert len(t.failures) == 6 and set(t.failures["reason"]) == {"forbidden"}
    assert set(t.failures["detail"]) == {guard.STARTED_A_PROCESS}
    assert left == []


def test_a_fork_bomb_gets_no_process():
    t, left = attack(attacks.ForkBomb, "fork-bomb", OTHERS[:2])
    # Its first Popen ends it, before it can catch the error and say how many it got.
    assert len(t.failures) == 6 and set(t.failures["reason"]) == {"forbidden"}
    assert left == []


# --- what a sandbox shows (issue 36): the bot's own code, not the referee's folders -----------

PROJECT = Path(mogul.__file__).resolve().parents[1]  # the kit's checkout: on sys.path here


@pytest.fixture
def classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A class's folder as a referee runs in it: the store, exports, a git checkout, a grading
    script with its seed file, a 0777 unix socket. It is the current folder and on
    ``sys.path`` (as an editable install's root is), and so is the script's folder."""
    root = tmp_path / "class"
    (root / "classroom-export").mkdir(parents=True)
    (root / "classroom-export" / "manifest.json").write_text("{}")
    (root / "classroom.sqlite").write_bytes(b"SQLite format 3\0 the export key")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    (root / "grading").mkdir()
    (root / "grading" / "seed.txt").write_text("1\n")
    monkeypatch.chdir(root)
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.syspath_prepend(str(root / "grading"))  # the folder of the referee's script
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(root / "s"))
        os.chmod(root / "s", 0o777)
        server.listen()
        yield root


SNOOPING = {
    "another bot's source": lambda root: {"paths": [attacks.__file__]},
    "the store, in the current folder and the project root": lambda root: {
        "paths": [
            str(root / "classroom.sqlite"),
            "classroom.sqlite",
            str(PROJECT / "pyproject.toml"),
        ]
    },
    "the exports and .git": lambda root: {
        "paths": [
            str(root / "classroom-export"),
            str(root / ".git" / "config"),
            str(PROJECT / ".git"),
        ]
    },
    "a seed file beside the referee's script": lambda root: {
        "paths": [str(root / "grading" / "seed.txt")]
    },
    "a 0777 unix socket in a folder on sys.path": lambda root: {"sockets": [str(root / "s")]},
}


@namespaces
@pytest.mark.parametrize("case", SNOOPING)
def test_a_bot_sees_its_own_code_and_not_the_referees_folders(classroom: Path, case: str):
    targets = SNOOPING[case](classroom)
    assert snoop.found(**targets), "the referee itself cannot reach them: the test shows nothing"
    t, left = attack(functools.partial(snoop.Snoop, **targets), "snoop", OTHERS[:2])
    assert t.failures.empty, t.failures["detail"].tolist()
    assert len(t.games) == 6 * 3 and left == []


def test_the_sandbox_shows_the_kit_and_the_bots_own_modules_only(classroom: Path):
    import cloudpickle

    shown, path = guard.bot_views(cloudpickle.dumps(functools.partial(snoop.Snoop, paths=["x"])))
    here = Path(hb.__file__).parent
    assert shown[:2] == [str(PROJECT / "mogul"), str(PROJECT / "data")]
    assert [p for p in shown if p.startswith(str(PROJECT))][2:] == [
        str(here / "__init__.py"),
        str(here / "snoop.py"),
    ]
    assert str(classroom) not in path and str(classroom / "grading") not in path
    assert str(PROJECT) in path  # it holds the kit, and nothing else the sandbox shows


def test_memory_taken_while_loading_is_capped():
    t, left = attack(attacks.LoadHog(), "LoadHog")
    assert set(t.failures["reason"]) == {"start"} and len(t.failures) == 18
    assert "MemoryError" in t.failures["detail"].iloc[0] and left == []


def test_a_slow_load_is_held_to_the_time_limit():
    start = time.perf_counter()
    t, left = attack(attacks.SlowLoad(), "SlowLoad", OTHERS[:2])  # 6 games: each start waits
    took = time.perf_counter() - start
    assert set(t.failures["reason"]) == {"start"} and len(t.failures) == 6
    assert f"did not load within {LIMIT:g} s" in t.failures["detail"].iloc[0]
    # 6 starts + the naming one, each cut at the time limit (plus the interpreter's start): not 7 x 20 s.
    assert took < 60 and left == []


def test_output_is_captured_and_capped(capfd):
    t, left = attack(attacks.Shouter, "shouter")
    out, err = capfd.readouterr()
    assert len(out) + len(err) < 10_000, "the bot's output reached the referee's terminal"
    assert set(t.failures["reason"]) == {"crashed"}
    assert (
        f"printed more than {guard.OUTPUT_LIMIT} bytes" in t.failures["detail"].iloc[0]
        and left == []
    )


@namespaces
def test_a_bot_sees_no_secret_no_process_and_no_network(monkeypatch):
    monkeypatch.setenv("MOGUL_CLASSROOM", "postgresql+psycopg://teacher:secret@db/class")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        bot = functools.partial(attacks.Spy, port=server.getsockname()[1])
        t, left = attack(bot, "spy")
    assert t.failures.empty, t.failures["detail"].tolist()
    assert left == []


@namespaces
def test_a_bot_cannot_write_the_kit_or_the_referees_folder(tmp_path: Path):
    target = Path(guard.__file__)
    before = target.read_bytes()
    bot = functools.partial(attacks.Vandal, target=str(target), folder=str(Path.cwd()))
    t, left = attack(bot, "vandal")
    assert t.failures.empty, t.failures["detail"].tolist()
    assert target.read_bytes() == before and not (Path.cwd() / "vandal.txt").exists() and left == []


@pytest.mark.parametrize(
    ("bot", "reason", "detail"),
    [
        (attacks.HugeAnswer, "illegal", "answered 'bidbidbid"),
        (
            attacks.RawHugeReply,
            "illegal",
            f"sent a reply of {100 << 20} bytes (at most {guard.ANSWER_BYTES})",
        ),
        (attacks.StubbornSleeper, "timeout", f"no answer within {LIMIT:g} s"),
        (attacks.HardExit, "crashed", "the bot's process ended (exit code 0)"),
        (attacks.ClosesFiles, "crashed", "the bot's process ended"),
        (attacks.BigAllocation, "raised", "MemoryError"),
        (attacks.KitPatcher, "illegal", "answered 'sell everything', not an action"),
    ],
)
def test_what_held_before_still_holds(bot, reason, detail):
    """Raising, sleeping, exiting, huge and garbage answers: each named, one game each."""
    sim = mogul.simulate(
        "classic", [bot, hb.Honest, "value"], games=2, seed=1, time_limit=LIMIT, progress=False
    )
    assert list(sim.failures["reason"]) == [reason] * 2, sim.failures["detail"].tolist()
    assert detail in sim.failures["detail"].iloc[0] and sim.games.empty
    assert left_behind(time.time() - 60) == []


def test_a_bot_finds_no_game_state_in_its_process():
    sim = mogul.simulate(
        "classic",
        [attacks.GcSpy, hb.Honest, "value"],
        games=2,
        seed=1,
        time_limit=LIMIT,
        progress=False,
    )
    assert sim.failures.empty and len(sim.games) == 6


def test_without_bubblewrap_the_kit_says_so_once(monkeypatch):

    monkeypatch.setattr(guard.shutil, "which", lambda name: None)
    monkeypatch.delenv("MOGUL_SANDBOX", raising=False)
    guard.bwrap.cache_clear()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert guard.bwrap() is None and guard.bwrap() is None
        assert len(
            caught
        ) == 1 and "without namespaces: bubblewrap (bwrap) is not installed" in str(
            caught[0].message
        )
    finally:
        guard.bwrap.cache_clear()


def test_the_fallback_keeps_the_limits(monkeypatch):
    """Without namespaces (MOGUL_SANDBOX=process) a bot still cannot answer with a pickle."""

    monkeypatch.setenv("MOGUL_SANDBOX", "process")
    guard.bwrap.cache_clear()
    try:
        box = guard.Sandbox(attacks.Shouter, time_limit=5, parse=mogul.parse_action)
        box.new_game(1)
        state = mogul.new_game(players=3, seed=1)
        with pytest.raises(guard.BotFailure, match="printed more than"):
            box.choose(state.view(state.current_player), state.legal_actions())
        box.close()
    finally:
        guard.bwrap.cache_clear()


def test_the_fallback_also_ends_a_bot_that_starts_a_process(monkeypatch):

    monkeypatch.setenv("MOGUL_SANDBOX", "process")
    guard.bwrap.cache_clear()
    started = time.time()
    box = guard.Sandbox(attacks.Forker, time_limit=5, parse=mogul.parse_action)
    try:
        box.new_game(1)
        state = mogul.new_game(players=3, seed=1)
        with pytest.raises(guard.BotFailure, match="tried to start a process") as failed:
            box.choose(state.view(state.current_player), state.legal_actions())
        assert failed.value.reason == "forbidden"
    finally:
        box.close()
        guard.bwrap.cache_clear()
    assert left_behind(started, "sleep 601") == []
