"""Engine throughput: complete 4-player games of uniformly random play per second, for the
classic edition and, next to it, the 2013 Rio Grande edition.

Random play means: at every decision, uniformly at random over ``legal_actions()``. One core,
seeds fixed. Prints the best of several runs (the least disturbed by other work on the machine)
and the median, for the bare engine loop and for ``bots.play`` with ``RandomBot`` (which also
builds each seat's view and the game record).

    python benchmarks/bench_engine.py
"""

import random
import statistics
import time
from functools import partial

import mogul
from mogul.kit.bots import RandomBot, play

GAMES = 1_000
RUNS = 5


EDITIONS = ("classic", "rio-grande")


def engine_loop(games: int, edition: str = "classic") -> int:
    steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        s = mogul.new_game(edition, players=4, seed=seed)
        while not s.is_over:
            s = s.apply(rng.choice(s.legal_actions()))
            steps += 1
    return steps


def bot_games(games: int, edition: str = "classic") -> int:
    steps = 0
    for seed in range(games):
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        steps += len(play(mogul.new_game(edition, players=4, seed=seed), bots).actions)
    return steps


def measure(name: str, run) -> None:
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        steps = run(GAMES)
        rates.append(GAMES / (time.perf_counter() - start))
    print(
        f"{name:<45} best {max(rates):7.0f} games/s   median {statistics.median(rates):7.0f} games/s"
        f"   ({steps / GAMES:.0f} decisions per game, {GAMES} games x {RUNS} runs)"
    )


if __name__ == "__main__":
    for edition in EDITIONS:
        measure(f"{edition}: engine loop (apply + legal)", partial(engine_loop, edition=edition))
        measure(f"{edition}: bots.play with 4 RandomBots", partial(bot_games, edition=edition))
