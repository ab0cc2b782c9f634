"""Exact-solve times of the auction equilibrium, and the AuctionExplorer update time.

Run: .venv/bin/python benchmarks/bench_auction.py   (one core; the median of several runs).
Targets: 6 seats x 10 chips < 0.05 s; 6 seats x 20 chips < 0.5 s; explorer < 0.1 s.
Each solve is fresh (nothing cached between runs). Several value profiles are timed,
because the work depends on them; the slowest profile is the figure that counts.
"""

import statistics
import time

from mogul.auction import solve
from mogul.widgets import AuctionExplorer

PROFILES = {
    "mixed": [(10, 3, 0), (8, 2, 0), (6, 1, 0), (9, 4, 0), (7, 0, 0), (5, 2, 0)],
    "equal": [(12, 4, 0)] * 6,
    "worthless": [(0, 0, 0)] * 6,
    "big second": [(10, 9, 0)] * 6,
    "fractional": [
        (11.3, 2.7, 0.4),
        (9.1, 5.5, 1.2),
        (13.9, 0.6, 0.0),
        (7.7, 3.3, 2.2),
        (10.4, 4.4, 0.9),
        (8.8, 1.1, 0.3),
    ],
}


def timed(fn, repeat: int) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    """Print the solve times per profile and the explorer update time."""
    for chips, target, repeat in ((10, 0.05, 15), (20, 0.5, 5)):
        worst = 0.0
        for name, values in PROFILES.items():
            for cv in (1.0, 0.5):
                t = timed(lambda v=values, c=cv, k=chips: solve(v, [k] * 6, chip_value=c), repeat)
                worst = max(worst, t)
                print(
                    f"solve 6 seats x {chips:2d} chips  {name:11s} chip value {cv}: {t * 1000:7.1f} ms"
                )
        verdict = "ok" if worst < target else "OVER TARGET"
        print(
            f"solve 6 seats x {chips:2d} chips  slowest: {worst * 1000:.1f} ms (target {target * 1000:.0f} ms) {verdict}\n"
        )

    app = AuctionExplorer(seats=5, chips=10)
    slider = app.value_sliders[1][0]
    steps = iter([12.0, 4.0, 9.5, 15.0, 7.0, 11.0, 3.5, 14.0, 6.0, 10.0, 13.0, 5.0] * 3)
    t = timed(lambda: setattr(slider, "value", next(steps)), 30)
    verdict = "ok" if t < 0.1 else "OVER TARGET"
    print(
        f"AuctionExplorer update, 5 seats x 10 chips: {t * 1000:.1f} ms (target 100 ms) {verdict}"
    )


if __name__ == "__main__":
    main()
