"""How long each bot takes to decide, and how fast whole games run with it.

    .venv/bin/python benchmarks/bench_bots.py            # MonteCarloBot at 200 rollouts
    .venv/bin/python benchmarks/bench_bots.py --rollouts 50 --states 10

Decision points are sampled (fixed seeds) from 4-player ValueBot games: states where the
seat to act has a real choice (MonteCarloBot's candidates hold two or more actions): half
of them auction turns, a quarter each winner's and runner-up's choices. Each bot decides at the same states; times are wall-clock on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time

import mogul
from mogul.games.mogul.bots import MonteCarloBot, RandomBot, ThresholdBot, ValueBot
from mogul.kit.bots import play_out


def decision_states(count: int, players: int = 4) -> list[mogul.GameState]:
    """``count`` states with a real choice from several games: half auction turns, a quarter
    each for the auction winner and the runner-up."""
    probe = MonteCarloBot(rollouts=1)
    quota = {"auction": count - 2 * (count // 4), "winner": count // 4, "runner-up": count // 4}
    found: dict[str, list[mogul.GameState]] = {phase: [] for phase in quota}
    seed = 0
    while any(len(found[p]) < quota[p] for p in quota):
        state = mogul.new_game("classic", players=players, seed=seed)
        bots = [ValueBot() for _ in range(players)]
        step = 0
        while not state.is_over:
            seat = state.current
            legal = state.legal_actions()
            phase_found = found[state.phase]
            real_choice = len(probe.candidates(state.view(seat), legal)) > 1
            if real_choice and len(phase_found) < quota[state.phase] and step % 11 == 0:
                phase_found.append(state)
            state = state.apply(bots[seat].choose(state.view(seat), legal))
            step += 1
        seed += 1
    return [s for phase in quota for s in found[phase]]


def time_decisions(bot: object, states: list[mogul.GameState]) -> list[float]:
    """Seconds per ``choose`` call at each state."""
    times = []
    for state in states:
        view, legal = state.view(state.current), state.legal_actions()
        start = time.perf_counter()
        bot.choose(view, legal)
        times.append(time.perf_counter() - start)
    return times


def games_per_second(make, players: int = 4, games: int = 200) -> float:
    """Complete games per second with ``make(seed)`` in every seat (no record kept)."""
    start = time.perf_counter()
    for g in range(games):
        play_out(
            mogul.new_game("classic", players=players, seed=g),
            [make(g * 10 + i) for i in range(players)],
        )
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rollouts", type=int, default=200, help="MonteCarloBot rollouts (default 200)"
    )
    parser.add_argument(
        "--states", type=int, default=20, help="decision points to time (default 20)"
    )
    args = parser.parse_args()

    states = decision_states(args.states)
    phases = {p: sum(s.phase == p for s in states) for p in ("auction", "winner", "runner-up")}
    print(f"{len(states)} decision points from 4-player ValueBot games: {phases}")
    print(f"{'bot':<16}{'mean ms':>12}{'median ms':>12}{'max ms':>12}")
    bots = [RandomBot(1), ThresholdBot(), ValueBot(), MonteCarloBot(rollouts=args.rollouts, seed=1)]
    for bot in bots:
        ms = [t * 1000 for t in time_decisions(bot, states)]
        print(
            f"{bot.name:<16}{statistics.mean(ms):>12.3f}{statistics.median(ms):>12.3f}{max(ms):>12.3f}"
        )

    print("\ncomplete 4-player games per second, one core, the same bot in every seat:")
    for name, make in [
        ("random", RandomBot),
        ("threshold-3", lambda s: ThresholdBot(seed=s)),
        ("value", lambda s: ValueBot(seed=s)),
    ]:
        print(f"{name:<16}{games_per_second(make):>12.1f}")


if __name__ == "__main__":
    main()
