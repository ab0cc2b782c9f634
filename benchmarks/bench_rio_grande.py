"""Rio Grande at interactive speed: the batch engine, MonteCarloBot's decisions and strength,
position analysis.

    python benchmarks/bench_rio_grande.py              # all figures (a few minutes)
    python benchmarks/bench_rio_grande.py --games 100  # fewer tournament games

Prints, on one core with fixed seeds (CPU seconds, best of ``RUNS``, so other work on a
shared machine disturbs the figures less):

* complete random 4-player games per second: readable engine and batch engine (``fast``);
* MonteCarloBot ("mc" at its defaults) against ValueBots: mean and 90th percentile
  milliseconds per decision with two options or more, as ``bench_games.py`` times them;
* ``analyse_position`` at its defaults, milliseconds;
* MonteCarloBot's win share against the other bots, BEFORE (the branch candidates as they
  were: the ``branches`` best by their sure gain on the map, ties in line order) and AFTER
  (``MonteCarloBot.candidates`` now). Both play their rollouts in the batch engine: the
  rollouts are the readable engine's to the point (``tests/test_fast_rio.py`` checks that a
  MonteCarloBot's action values are the same in both engines), only faster. Each line-up is
  played from the same deals with the seats rotated; a shared win counts 1/k.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

import mogul
from mogul.analysis.mogul import analyse_position
from mogul.games.mogul import fast
from mogul.games.mogul.actions import CREDIT, Action, Branch
from mogul.games.mogul.bots import MonteCarloBot, bot_factory
from mogul.games.mogul.network import branch_gain
from mogul.kit.bots import play_out

RUNS = 3
EDITION = "rio-grande"


def cpu(run: Any) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


class MonteCarloBefore(MonteCarloBot):
    """MonteCarloBot with the branch candidates it had before: the ``branches`` best by gain."""

    def candidates(self, view: Any, legal_actions: Sequence[Action]) -> list[Action]:
        options = (
            [a for a in legal_actions if a != CREDIT] if view.me.chips > 0 else list(legal_actions)
        )
        branches = [a for a in options if type(a) is Branch]
        if len(branches) > self.branches:
            ed, houses = view.edition, view.me.houses
            gains = [branch_gain(ed, houses, b.station, b.move_from) for b in branches]
            ranked = sorted(range(len(branches)), key=lambda i: -gains[i])
            kept = {branches[i] for i in ranked[: self.branches]}
            options = [a for a in options if type(a) is not Branch or a in kept]
        return options


def random_games(games: int) -> None:
    for seed in range(games):
        rng = random.Random(seed)
        state = mogul.new_game(EDITION, 4, seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))


def engine_rates() -> tuple[float, float]:
    """Random 4-player games per CPU second: readable engine, batch engine."""
    readable = 30 / min(cpu(lambda: random_games(30)) for _ in range(RUNS))
    fast.play_fresh(10, 4, "random", seed=0, edition=EDITION)  # compile or load the cache
    games = 20_000
    batch = games / min(
        cpu(lambda: fast.play_fresh(games, 4, "random", seed=1, edition=EDITION))
        for _ in range(RUNS)
    )
    return readable, batch


def decision_times(bot: Any, decisions: int = 40) -> list[float]:
    """CPU seconds per decision with two options or more, ``bot`` in seat 0 against ValueBots."""
    rival = bot_factory("value")(0)
    times: list[float] = []
    seed = 2
    while len(times) < decisions + 1:
        state = mogul.new_game(EDITION, 4, seed)
        while not state.is_over and len(times) < decisions + 1:
            legal, seat = state.legal_actions(), state.current
            if seat == 0 and len(legal) > 1:
                start = time.process_time()
                action = bot.choose(state.view(seat), legal)
                times.append(time.process_time() - start)
            else:
                action = rival.choose(state.view(seat), legal)
            state = state.apply(action)
        seed += 1
    return sorted(times[1:])  # the first may compile or fill caches


def analysis_ms() -> float:
    state = mogul.new_game(EDITION, 4, 5)
    rng = random.Random(5)
    for _ in range(40):
        state = state.apply(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state = state.apply(rng.choice(state.legal_actions()))
    analyse_position(state)  # warm up
    return min(cpu(lambda: analyse_position(state)) for _ in range(RUNS)) * 1000


def win_shares(make_mc: Any, others: Sequence[str], games: int) -> list[float]:
    """MonteCarloBot's win share in each of ``games`` deals, each played once per seat (the
    line-up rotated; a shared win counts 1/k)."""
    shares = []
    players = len(others) + 1
    for deal in range(games):
        total = 0.0
        for seat in range(players):
            line_up = list(others[:seat]) + ["mc"] + list(others[seat:])
            bots = [
                make_mc(1000 * deal + seat) if name == "mc" else bot_factory(name)(deal)
                for name in line_up
            ]
            final = play_out(mogul.new_game(EDITION, players, deal), bots)
            winners = final.winners()
            total += (seat in winners) / len(winners)
        shares.append(total / players)
    return shares


def mean_error(values: Sequence[float]) -> str:
    return f"{statistics.mean(values):+.3f} +- {statistics.stdev(values) / len(values) ** 0.5:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=120, help="deals per tournament line-up (0: none)"
    )
    parser.add_argument("--skip-speed", action="store_true", help="only the win shares")
    args = parser.parse_args()

    if not args.skip_speed:
        readable, batch = engine_rates()
        print(f"random 4-player games/s: readable {readable:,.0f}, batch {batch:,.0f}")
        for name, bot in (
            ("mc before", MonteCarloBefore(seed=1)),
            ("mc after", MonteCarloBot(seed=1)),
        ):
            ms = [t * 1000 for t in decision_times(bot)]
            p90 = ms[int(0.9 * len(ms))]
            print(f"{name}: decision ms mean {statistics.mean(ms):.1f}, p90 {p90:.1f}")
        print(f"analyse_position ms: {analysis_ms():.0f}")

    if args.games < 2:
        return
    print(f"\nMonteCarloBot's win share, {args.games} deals x seats rotated (1/k for a k-way tie):")
    for others in (["value", "threshold:drop_at=3", "random"], ["value", "value", "value"]):
        before = win_shares(lambda seed: MonteCarloBefore(seed=seed), others, args.games)
        after = win_shares(lambda seed: MonteCarloBot(seed=seed), others, args.games)
        change = [a - b for a, b in zip(after, before, strict=True)]
        print(
            f"  vs {', '.join(others)}: before {mean_error(before)}, after {mean_error(after)},"
            f" after - before (same deals) {mean_error(change)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
