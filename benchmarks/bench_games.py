"""Every registered game's speed in one table: readable engine, batch engine, bot decision, analysis.

    python benchmarks/bench_games.py          # taskset -c 1 python ... pins it to one core

For every game and edition of the registry, on one core with fixed seeds (CPU seconds, so
other work on a shared machine disturbs the figures less; best of ``RUNS``):

* **readable engine**: complete 4-player games (3 where 4 is not allowed) of uniformly random
  play per second, ``state.apply(rng.choice(state.legal_actions()))``;
* **batch engine**: the same through the game's batch simulator (``spec.batch``), or "-";
* **bot decision**: the game's ``"mc"`` bot at its default settings against the game's
  other bots, mean and 90th percentile milliseconds per decision with two options or more;
* **analysis**: ``analyse_position`` (the spec face) at its defaults on the first decision
  with several options after a few random turns, milliseconds.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import mogul  # noqa: F401 - registers the games
from mogul.kit import spec as registry

RUNS = 3
GAMES = 30
DECISIONS = 12


def cpu(run: Any) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def random_games(spec: Any, edition: str, players: int, games: int) -> None:
    for seed in range(games):
        rng = random.Random(seed)
        state = spec.new_game(edition, players, seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))


def readable_rate(spec: Any, edition: str, players: int) -> str:
    return f"{GAMES / min(cpu(lambda: random_games(spec, edition, players, GAMES)) for _ in range(RUNS)):,.0f}"


def batch_rate(spec: Any, edition: str, players: int) -> str:
    if spec.name == "mogul" and edition == "classic":
        from mogul.games.mogul import fast
    elif spec.name == "credit-mobilier":
        from mogul.games.credit_mobilier import fast
    else:
        return "-"

    fast.play_fresh(10, players, "random", seed=0)  # compile or load the cache
    games = 20_000
    return f"{games / min(cpu(lambda: fast.play_fresh(games, players, 'random', seed=1)) for _ in range(RUNS)):,.0f}"


def bot_latency(spec: Any, edition: str, players: int) -> str:
    if "mc" not in spec.bots:
        return "-"
    others = [name for name in spec.bots if name not in ("mc", "random")][:1] or ["random"]
    bot = spec.bots["mc"](seed=1)
    rival = spec.bots[others[0]]()
    times: list[float] = []
    for seed in (2, 3):
        state = spec.new_game(edition, players, seed)
        count = 0
        while count < DECISIONS // 2 and not state.is_over:
            legal = state.legal_actions()
            seat = state.current_player
            chooser = bot if seat == 0 else rival
            if seat == 0 and len(legal) > 1:
                start = time.process_time()
                action = chooser.choose(state.view(seat), legal)
                times.append(time.process_time() - start)
                count += 1
            else:
                action = chooser.choose(state.view(seat), legal)
            state = state.apply(action)
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
    header = (
        "game",
        "edition",
        "players",
        "readable games/s",
        "batch games/s",
        "mc decision ms mean / p90",
        "analysis ms",
    )
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
                    batch_rate(spec, edition, players),
                    bot_latency(spec, edition, players),
                    analysis_latency(spec, edition, players),
                )
            )
            print(" | ".join(rows[-1]), flush=True)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
