"""Credit Mobilier throughput: complete games of uniformly random play per second.

Random play means: at every decision, uniformly at random over ``legal_actions()``. One core,
seeds fixed. Prints the best of several runs (the least disturbed by other work on the
machine) and the median, per player count for the bare engine loop, and at 4 players for
``bots.play`` with ``RandomBot`` (which also builds each seat's view and the game record).

    python benchmarks/bench_credit_mobilier.py
"""

import random
import statistics
import time

from mogul import credit_mobilier as cm
from mogul.kit.bots import RandomBot, play

GAMES = 200
RUNS = 3


def engine_loop(players: int, games: int) -> int:
    steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        s = cm.new_game(players=players, seed=seed)
        while not s.is_over:
            s = s.apply(rng.choice(s.legal_actions()))
            steps += 1
    return steps


def bot_games(players: int, games: int) -> int:
    steps = 0
    for seed in range(games):
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        steps += len(play(cm.new_game(players=players, seed=seed), bots).actions)
    return steps


def measure(name: str, run, players: int) -> None:
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        steps = run(players, GAMES)
        rates.append(GAMES / (time.perf_counter() - start))
    print(
        f"{name:<36} best {max(rates):6.0f} games/s   median {statistics.median(rates):6.0f} games/s"
        f"   ({steps / GAMES:.0f} decisions per game, {GAMES} games x {RUNS} runs)"
    )


if __name__ == "__main__":
    for players in (2, 3, 4, 5):
        measure(f"engine loop, {players} players", engine_loop, players)
    measure("bots.play with 4 RandomBots", bot_games, 4)
