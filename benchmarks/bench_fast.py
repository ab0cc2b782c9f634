"""The batch simulator against the readable engine, and the latency of the analyses built on it.

    python benchmarks/bench_fast.py          # taskset -c 1 python ... pins it to one core

Prints (best and median of several runs, one process, seeds fixed):

* complete classic 4-player games of uniformly random play per second: the batch simulator
  (``fast.play_fresh``, batches of 20,000) and the readable engine (``rules.py``), and their ratio;
* the same from the C reference (``benchmarks/mogul_ref.c``, compiled with ``cc -O2`` when a
  C compiler is present, skipped with a message otherwise) and the batch simulator's speed as
  a fraction of it, measured in this run with the two programs' runs taking turns (a shared
  machine's load varies from second to second; target >= 0.5, stretch 0.8), with both mean
  scores as a check: the C program seeds and draws as the batch simulator does, so it plays
  the very same games and the two means are equal;
* a live payoff curve with 10,000 Monte-Carlo rollouts (``chain_payoff_curve(method="montecarlo")``);
* "analyse this position" for a mid-game auction turn, 2,000 rollouts per legal action;
* one MonteCarloBot decision at 200 rollouts.

The first line says how long the first call took (numba compiles, or loads its cache).
"""

from __future__ import annotations

import random
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import mogul
from mogul.analysis.mogul import analyse_position
from mogul.auction.mogul import chain_payoff_curve
from mogul.games.mogul import fast
from mogul.games.mogul.bots import MonteCarloBot

RUNS = 5


def timed(run, runs: int = RUNS) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        out.append(time.perf_counter() - start)
    return out


def readable_random_games(games: int) -> None:
    for seed in range(games):
        rng = random.Random(seed)
        s = mogul.new_game("classic", players=4, seed=seed)
        while not s.is_over:
            s = s.apply(rng.choice(s.legal_actions()))


def c_reference(games: int, runs: int = RUNS, between=None) -> tuple[list[float], float] | None:
    """Games per second of the C reference (several runs) and its mean score; None without
    a C compiler. ``between()``, if given, runs before each run of the C program, so that
    the two programs share the machine's load alike (a shared machine's load varies)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    ed = mogul.edition("classic")
    companies = ed.company_ids
    cards = [
        f"{companies.index(c.company)}{companies.index(c.border)}{int(c.starting)}"
        for c in ed.cards
    ]
    numbers = [ed.chips_total, ed.chips_per_player, ed.credit_chips, ed.credit_points]
    numbers += [ed.chips_per_point, ed.crash_shuffled_into_last]
    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder) / "mogul_ref"
        source = Path(__file__).with_name("mogul_ref.c")
        subprocess.run([compiler, "-O2", "-o", str(program), str(source)], check=True)
        rates, mean = [], 0.0
        for _ in range(runs):
            if between is not None:
                between()
            argv = [str(program), str(games), "4", "1", *map(str, numbers), *cards]
            played, seconds, mean = subprocess.run(
                argv, check=True, capture_output=True, text=True
            ).stdout.split()
            rates.append(int(played) / float(seconds))
    return rates, float(mean)


def mid_game():
    """Round 10 of a seeded 4-player game, an auction turn with the pot at 1 or more."""
    state = mogul.new_game("classic", 4, 5)
    history, rng = [state], random.Random(2)
    while state.round < 10 or state.phase != "auction" or state.pot < 1:
        state = state.apply(rng.choice(state.legal_actions()))
        history.append(state)
    return state, history


def main() -> None:
    start = time.perf_counter()
    fast.play_fresh(10, 4, "random", seed=0)
    print(
        f"first call of the batch simulator (compile or load the cache): {time.perf_counter() - start:.2f} s"
    )

    batch = 20_000
    fast_rates = [batch / t for t in timed(lambda: fast.play_fresh(batch, 4, "random", seed=1))]
    games = 300
    slow_rates = [games / t for t in timed(lambda: readable_random_games(games), runs=3)]
    print(f"{'random 4-player games/s':<44}{'best':>10}{'median':>10}")
    print(
        f"{'  batch simulator (batches of 20,000)':<44}{max(fast_rates):>10.0f}{statistics.median(fast_rates):>10.0f}"
    )
    print(
        f"{'  readable engine':<44}{max(slow_rates):>10.0f}{statistics.median(slow_rates):>10.0f}"
    )
    print(
        f"{'  ratio':<44}{max(fast_rates) / max(slow_rates):>10.0f}"
        f"{statistics.median(fast_rates) / statistics.median(slow_rates):>10.0f}"
    )
    paired: list[float] = []  # the batch simulator again, run by run beside the C program
    reference = c_reference(
        200_000,
        between=lambda: paired.extend(
            batch / t for t in timed(lambda: fast.play_fresh(batch, 4, "random", seed=1), 1)
        ),
    )
    if reference is None:
        print("  C reference: skipped (no C compiler: cc or gcc)")
    else:
        c_rates, c_mean = reference
        fast_mean = fast.play_fresh(200_000, 4, "random", seed=1).scores.mean()
        print(
            f"{'  C reference (cc -O2)':<44}{max(c_rates):>10.0f}{statistics.median(c_rates):>10.0f}"
        )
        print(
            f"{'  batch simulator, runs between the C runs':<44}{max(paired):>10.0f}"
            f"{statistics.median(paired):>10.0f}"
        )
        print(
            f"{'  batch simulator / C reference (those runs)':<44}{max(paired) / max(c_rates):>10.2f}"
            f"{statistics.median(paired) / statistics.median(c_rates):>10.2f}"
        )
        same = "the same games" if abs(fast_mean - c_mean) < 1e-4 else "NOT the same games"
        print(
            f"  mean score per seat, 200,000 games: batch simulator {fast_mean:.4f}, "
            f"C reference {c_mean:.4f} ({same})"
        )

    state, history = mid_game()
    print(f"\nlatency from {state!r} (ms){'best':>6}{'median':>10}")
    rows = [
        (
            "payoff curve, 10,000 rollouts",
            lambda: chain_payoff_curve(
                history, state.current, method="montecarlo", rollouts=10_000
            ),
        ),
        (
            f"analyse position, 2,000 x {len(state.legal_actions())} actions (random)",
            lambda: analyse_position(state, rollouts=2000, policy="random"),
        ),
        (
            "analyse position, 2,000 per action (value)",
            lambda: analyse_position(state, rollouts=2000, policy="value"),
        ),
        (
            "MonteCarloBot decision, 200 rollouts",
            lambda: MonteCarloBot(rollouts=200, seed=1).choose(
                state.view(state.current), state.legal_actions()
            ),
        ),
    ]
    for name, run in rows:
        run()  # first call: loads the compiled code for this path
        ms = [t * 1000 for t in timed(run)]
        print(f"  {name:<54}{min(ms):>8.1f}{statistics.median(ms):>10.1f}")


if __name__ == "__main__":
    main()
