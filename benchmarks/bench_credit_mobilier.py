"""Credit Mobilier throughput: complete games of uniformly random play per second.

Random play means: at every decision, uniformly at random over ``legal_actions()``. One core,
seeds fixed. Prints the best of several runs (the least disturbed by other work on the
machine) and the median, per player count for the bare engine loop, and at 4 players for
``bots.play`` with ``RandomBot`` (which also builds each seat's view and the game record),
and the batch simulator (``fast.play_fresh``, 20,000 games a run, CPU time); then the batch
engine as the kit drives it: ``engine.play`` on 50,000 seeded games (CPU time) and
``simulate("credit-mobilier", ["random"] * 4, games=50_000, tables=["games"])`` on one core
(wall clock and CPU time: the issue's figure is the wall clock on an idle core).
Last, the latency of one ``MonteCarloBot`` decision with its default settings (mean, 90th
percentile and most, CPU time), its rollouts played in the readable engine
(``engine="readable"``, the bot as it was) and in the batch simulator (``engine="auto"``, the
default), on the same decisions; ``analyse_position`` at its defaults on a fresh 4-player
table, both ways; and with ``--win-rate N`` its win rate against ``DividendBot`` in N deals of
2-player games, both seatings, with its shortlist (the default) and without it
(``shortlist=None``: every action on every future), in either engine: the same seeds give
the same games, so the two engines' rates must be equal.

    python benchmarks/bench_credit_mobilier.py [--win-rate 20]
"""

import random
import statistics
import sys
import time

from mogul import credit_mobilier as cm
from mogul.kit.bots import RandomBot, play, play_out

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


def batch_rate(players: int = 4, games: int = 20_000) -> None:
    """Random games a second (CPU time) in the batch simulator, best of RUNS."""
    from mogul.games.credit_mobilier import fast

    fast.play_fresh(10, players, "random", seed=0)  # compile or load the cache
    rates = []
    for run in range(RUNS):
        start = time.process_time()
        result = fast.play_fresh(games, players, "random", seed=run + 1)
        rates.append(games / (time.process_time() - start))
    print(
        f"{'batch simulator, ' + str(players) + ' players':<36} best {max(rates):6.0f} games/s"
        f"   median {statistics.median(rates):6.0f} games/s"
        f"   ({result.decisions.mean():.0f} decisions per game, {games} games x {RUNS} runs)"
    )


def engine_rate(games: int = 50_000) -> None:
    """Random 4-player games a second through ``engine.play`` and through ``simulate`` (one core)."""
    from mogul.games.credit_mobilier import fast
    from mogul.kit.batch import seed_stream
    from mogul.kit.simulate import simulate

    engine = fast.batch_engine("credit-mobilier", ["random"] * 4, ["random"] * 4)
    seeds = seed_stream(1, games * 5).reshape(games, 5)
    engine.play(0, seeds[:10, 0], seeds[:10, 1:], ["games"])  # compile or load the cache
    rates = []
    for _ in range(RUNS):
        start = time.process_time()
        engine.play(0, seeds[:, 0], seeds[:, 1:], ["games"])
        rates.append(games / (time.process_time() - start))
    print(f"{'engine.play, 4 players':<36} best {max(rates):6.0f} games/s   (CPU time)")
    walls, cpus = [], []
    for run in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        simulate(
            "credit-mobilier",
            ["random"] * 4,
            games=games,
            seed=run,
            tables=["games"],
            progress=False,
        )
        walls.append(games / (time.perf_counter() - wall))
        cpus.append(games / (time.process_time() - cpu))
    print(
        f"{'simulate, 4 players, games table':<36} best {max(walls):6.0f} games/s wall clock,"
        f" {max(cpus):6.0f} CPU time   ({games} games x {RUNS} runs, one core)"
    )


def mc_latency(engine: str, decisions: int = 12) -> None:
    """CPU milliseconds per MonteCarloBot decision (defaults), over seeded 3-player games' first choices."""
    warm = cm.new_game(players=3, seed=1)  # compile or load the cache first
    cm.MonteCarloBot(engine=engine).choose(warm.view(warm.current), warm.legal_actions())
    bot = cm.MonteCarloBot(seed=1, engine=engine)
    others = cm.DividendBot()
    times = []
    for seed in (2, 3, 4):
        state = cm.new_game(players=3, seed=seed)
        mine = 0
        while mine < decisions and not state.is_over:
            legal = state.legal_actions()
            seat = state.current_player
            if seat == 0 and len(legal) > 1:
                start = time.process_time()
                action = bot.choose(state.view(seat), legal)
                times.append(time.process_time() - start)
                mine += 1
            else:
                action = others.choose(state.view(seat), legal)
            state = state.apply(action)
    times.sort()
    print(
        f"{bot.name} decision, {engine + ' engine':<15} mean {statistics.mean(times) * 1000:6.1f} ms"
        f"   p90 {times[int(0.9 * len(times))] * 1000:6.1f} ms   max {max(times) * 1000:6.1f} ms"
        f"   ({len(times)} decisions, CPU time)"
    )


def analysis_latency(engine: str) -> None:
    """CPU milliseconds of analyse_position at its defaults (24 rollouts, 6 turns) on a fresh table."""
    from mogul.analysis.credit_mobilier import analyse_position

    state = cm.new_game(players=4, seed=3)
    analyse_position(state, engine=engine)  # warm up (compile or load the cache)
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        analyse_position(state, engine=engine)
        times.append(time.process_time() - start)
    print(
        f"analyse_position, {engine + ' engine':<18} best {min(times) * 1000:6.1f} ms"
        f"   ({len(state.legal_actions())} actions x 24 rollouts, 6 turns deep, CPU time)"
    )


def win_rate(deals: int, **settings) -> float:
    """MonteCarloBot's share of wins (ties shared) against DividendBot: 2 players, both seatings."""
    score = 0.0
    for seed in range(deals):
        for seat in (0, 1):
            bots = [cm.DividendBot()]
            bots.insert(seat, cm.MonteCarloBot(seed=seed, **settings))
            winners = play_out(cm.new_game(players=2, seed=seed), bots).winners()
            score += 1 / len(winners) if seat in winners else 0.0
    return score / (2 * deals)


if __name__ == "__main__":
    for players in (2, 3, 4, 5):
        measure(f"engine loop, {players} players", engine_loop, players)
    measure("bots.play with 4 RandomBots", bot_games, 4)
    batch_rate()
    engine_rate()
    for engine in ("readable", "auto"):
        mc_latency(engine)
    for engine in ("readable", "auto"):
        analysis_latency(engine)
    if "--win-rate" in sys.argv:
        deals = int(sys.argv[sys.argv.index("--win-rate") + 1])
        for label, settings in (
            ("with the shortlist (default)", {}),
            ("every action, every future", {"shortlist": None}),
        ):
            for engine in ("readable", "auto"):
                start = time.process_time()
                rate = win_rate(deals, engine=engine, **settings)
                print(
                    f"mc-8 against dividend, {label}, {engine} engine: {rate:.3f} of {2 * deals}"
                    f" games ({time.process_time() - start:.0f} s CPU)"
                )
