"""Every registered game's speed in one table: readable engine, batch kernel and simulate, bot decision, analysis.

    make bench                                # this table (make bench-all: every benchmark)
    python benchmarks/bench_games.py          # taskset -c 1 python ... pins it to one core

For every game and edition of the registry, on one core with fixed seeds (CPU seconds, so
other work on a shared machine disturbs the figures less; best of ``RUNS``, each run at
least ``MIN_SECONDS`` long). The machine's load (1-minute average) and cores are printed
before and after: figures taken while other work runs are slower than the machine's best.

* **readable engine**: complete 4-player games (3 where 4 is not allowed) of uniformly random
  play per second, ``state.apply(rng.choice(state.legal_actions()))``;
* **batch kernel**: random games per second of the game's batch engine dealing and playing
  in its compiled code (``engine.deal_and_play``), or "-" where the game has none for that
  edition: the engine at its own speed;
* **simulate**: the same games as a student gets them, ``simulate(edition, ["random"],
  players=..., tables=["games"])`` on one core: seeds, chunks, the engine, the games table
  as a pandas frame (the figure the kit promises: at least 20,000 for every game, 150,000
  for classic);
* **bot decision**: the game's ``"mc"`` bot at its default settings, mean and 90th
  percentile milliseconds per decision, at ``DECISIONS`` states with two options or more
  spread evenly over two games that the game's second bot plays (early, middle and late
  decisions alike: in Rio Grande the late ones, with many branches, cost most);
* **analysis**: ``analyse_position`` (the spec face) at its defaults on the first decision
  with several options after a few random turns, milliseconds.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import mogul  # noqa: F401 - registers the games
from mogul.kit import spec as registry
from mogul.kit.batch import engine_for
from mogul.kit.simulate import simulate

RUNS = 3
MIN_SECONDS = 0.5
DECISIONS = 12
SIMULATE = {"tables": ["games"], "engine": "fast", "progress": False, "seed": 1}
C_GAMES = 200_000
HEADER = (
    "game",
    "edition",
    "players",
    "readable engine games/s",
    "batch kernel games/s",
    "simulate games/s",
    "bot decision ms mean / p90",
    "analysis ms",
)


def cpu(run: Callable[..., Any], *args: Any) -> float:
    """CPU seconds of ``run(*args)``."""
    start = time.process_time()
    run(*args)
    return time.process_time() - start


def games_per_second(timed: Callable[[int], float], start: int) -> str:
    """Games per CPU second, ``timed(n)`` giving the CPU seconds of ``n`` games: ``n`` grows
    from ``start`` until a run takes at least ``MIN_SECONDS``, then the best of ``RUNS`` runs."""
    n = start
    while (took := timed(n)) < MIN_SECONDS:
        n *= max(2, min(10, int(MIN_SECONDS / max(took, 1e-3)) + 1))
    best = min([took, *(timed(n) for _ in range(RUNS - 1))])
    return f"{n / best:,.0f}"


def random_games(spec: Any, edition: str, players: int, games: int) -> None:
    for seed in range(games):
        rng = random.Random(seed)
        state = spec.new_game(edition, players, seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))


def readable_rate(spec: Any, edition: str, players: int) -> str:
    return games_per_second(lambda n: cpu(random_games, spec, edition, players, n), 10)


def simulate_rate(spec: Any, edition: str, players: int) -> str:
    try:
        engine_for(spec, edition, ["random"] * players, ["random"] * players)
    except ValueError:
        return "-"

    def timed(games: int) -> float:
        return cpu(lambda: simulate(edition, ["random"], games=games, players=players, **SIMULATE))

    timed(10)  # compile or load the cache
    return games_per_second(timed, 1000)


def kernel_rate(spec: Any, edition: str, players: int) -> str:
    try:
        engine = engine_for(spec, edition, ["random"] * players, ["random"] * players)
    except ValueError:
        return "-"
    if not hasattr(engine, "deal_and_play"):
        return "-"
    engine.deal_and_play(10, 0)  # compile or load the cache
    return games_per_second(lambda n: cpu(engine.deal_and_play, n, 1), 1000)


def machine() -> str:
    """The machine's load (1-minute average) and cores, as the figures are taken."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"load {load:.2f} on {os.cpu_count()} cores"


def bot_latency(spec: Any, edition: str, players: int) -> str:
    if "mc" not in spec.bots:
        return "-"
    others = [name for name in spec.bots if name not in ("mc", "random")][:1] or ["random"]
    bot = spec.bots["mc"](seed=1)
    times: list[float] = []
    for seed in (2, 3):
        # a whole game by the other bot; the mc bot decides at states spread over it
        rival = [spec.bots[others[0]]() for _ in range(players)]
        state, asked = spec.new_game(edition, players, seed), []
        while not state.is_over:
            legal = state.legal_actions()
            seat = state.current_player
            if len(legal) > 1:
                asked.append(state)
            state = state.apply(rival[seat].choose(state.view(seat), legal))
        step = max(1, len(asked) // (DECISIONS // 2))
        for state in asked[::step][: DECISIONS // 2]:
            seat = state.current_player
            times.append(cpu(bot.choose, state.view(seat), state.legal_actions()))
    times = sorted(times[1:])  # the first decision may compile or fill caches
    return f"{statistics.mean(times) * 1000:.0f} / {times[int(0.9 * len(times))] * 1000:.0f}"


def analysis_latency(spec: Any, edition: str, players: int) -> str:
    analyse = spec.face("analyse_position")
    if analyse is None:
        return "-"
    state = spec.new_game(edition, players, 5)
    rng = random.Random(5)
    for _ in range(40):
        state = state.apply(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state = state.apply(rng.choice(state.legal_actions()))
    analyse(state)  # warm up (compile, caches)
    return f"{min(cpu(lambda: analyse(state)) for _ in range(RUNS)) * 1000:.0f}"


def main() -> None:
    print(f"machine before: {machine()}", flush=True)
    rows = []
    for name in registry.games():
        spec = registry.get_game(name)
        for edition in spec.editions:
            low, high = spec.player_range(edition)
            players = min(max(4, low), high)
            rows.append(
                (
                    name,
                    edition,
                    str(players),
                    readable_rate(spec, edition, players),
                    kernel_rate(spec, edition, players),
                    simulate_rate(spec, edition, players),
                    bot_latency(spec, edition, players),
                    analysis_latency(spec, edition, players),
                )
            )
            print(" | ".join(rows[-1]), flush=True)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADER)]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(HEADER, widths, strict=True)))
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    print(f"machine after: {machine()}")
    print(c_ratio())


def c_ratio() -> str:
    """The classic batch kernel against the C reference (``benchmarks/bench_fast.py``), runs
    taking turns so that both see the machine's load alike; best runs compared."""
    from bench_fast import RUNS, c_reference

    spec, edition = registry.resolve("classic")
    engine = engine_for(spec, edition, ["random"] * 4, ["random"] * 4)
    kernel: list[float] = []

    def kernel_run() -> None:
        kernel.append(C_GAMES / cpu(engine.deal_and_play, C_GAMES, 1))

    engine.deal_and_play(10, 0)  # compile or load the cache
    reference = c_reference(C_GAMES, RUNS, between=kernel_run)
    if reference is None:
        return "classic batch kernel / C reference: skipped (no C compiler: cc or gcc)"
    rates, _ = reference
    return (
        f"classic batch kernel / C reference: {max(kernel) / max(rates):.2f} "
        f"({max(kernel):,.0f} and {max(rates):,.0f} random 4-player games/s, best of {RUNS} "
        f"runs taking turns; {machine()})"
    )


if __name__ == "__main__":
    main()
