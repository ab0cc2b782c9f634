"""Widget latency: one ``GamePlayer`` step with a ``ShareValueDashboard`` following it.

A step is what the "Next step" button does: the bot to act chooses, the state is applied,
the table HTML is re-rendered and the dashboard's FigureWidget is redrawn from the game's
history when the step revealed a card or sold shares (the only steps that change what the
dashboard shows). Four ``ValueBot`` s play whole classic games from fixed seeds, in a plain
Python process (widgets run headless, with a do-nothing comm). Prints the median over all
steps (target: under 50 ms) and over the steps that redrew the dashboard.

    python benchmarks/bench_widgets.py
"""

import statistics
import time

from mogul.widgets.mogul import GamePlayer, ShareValueDashboard

GAMES = 3
TARGET = 0.050


def step_times(seed: int) -> list[tuple[float, bool]]:
    """(seconds, dashboard redrawn?) per "Next step" click over one whole game."""
    app = GamePlayer("classic", ["value"] * 4, seed=seed)
    board = ShareValueDashboard(app)
    times = []
    while not app.state.is_over:
        start = time.perf_counter()
        app.next_step_button.click()
        times.append((time.perf_counter() - start, board._drawn is app.state))
    return times


def describe(name: str, times: list[float]) -> str:
    times = sorted(times)
    return (
        f"{name}: median {statistics.median(times) * 1000:.1f} ms, "
        f"p90 {times[int(0.9 * len(times))] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms ({len(times)} steps)"
    )


if __name__ == "__main__":
    step_times(0)  # warm up: imports, plotly validators
    steps = [step for seed in range(1, GAMES + 1) for step in step_times(seed)]
    everything = [t for t, _ in steps]
    redrawn = [t for t, drawn in steps if drawn]
    verdict = "ok" if statistics.median(everything) < TARGET else "SLOW"
    print(
        describe(f"GamePlayer step, {GAMES} games", everything)
        + f"; target < {TARGET * 1000:.0f} ms: {verdict}"
    )
    print(
        describe("  steps that redrew the dashboard", redrawn)
        + f"; target: {'ok' if statistics.median(redrawn) < TARGET else 'SLOW'}"
    )
