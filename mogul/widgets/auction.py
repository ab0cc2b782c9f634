"""``AuctionExplorer``: sliders in, equilibrium path and payoff curves out, live.

The app holds no rules: each change calls ``mogul.auction.solve`` and ``payoff_curves`` (one
solve shared) and writes the results into widget values (an ``HTML`` summary and two
live figures), never into an ``Output`` widget, so nbval can compare the app's state
and tests need no browser.

No queue of solves: sliders report only when released (``continuous_update=False``), and
changes are coalesced. A change only marks the app "stale" and asks for an update; while an
update runs, further changes just keep it stale, and when the update ends one more runs, on
the sliders' values of that moment. However fast the changes come (a drag, arrow keys, a
script), at most one update runs and at most one waits, and the last one always shows the
latest values. In a kernel (``background=True``, the default there) the updates run in a
worker thread, so the kernel takes the next slider message while the previous one is solved.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import ipywidgets as w

from mogul.auction import payoff_curves, solve
from mogul.plots.auction import (
    flat_from,
    payoff_curve_figure,
    pot_ladder_data,
    pot_ladder_figure,
    pot_ladder_ranges,
)
from mogul.plots.template import SEAT_COLOURS, rounded
from mogul.widgets.live import live_figure
from mogul.widgets.touch import touch_style

__all__ = ["AuctionExplorer"]

MAX_EXPLORER_SEATS = 6
MAX_EXPLORER_CHIPS = 20
_DEFAULT_VALUES = ((10, 3, 0), (8, 2, 0), (6, 1, 0), (9, 4, 0), (7, 0, 0), (5, 2, 0))


class AuctionExplorer(w.VBox):
    """An interactive complete-information auction: seats, chips, values, chip value, start.

    Every change re-solves the auction: ``status`` (HTML) tells the equilibrium outcome,
    ``ladder`` shows the pot move by move and ``curves`` shows each seat's payoff from
    "drop when the pot reaches k" against the others' equilibrium strategies (the "naive"
    payoff curve of ``mogul.auction.payoff_curve``). Display the explorer itself in a cell.
    ``background`` runs the updates after the first in a worker thread (default: only inside
    a Jupyter kernel); ``wait()`` returns when the figures show the latest values, and
    ``updates`` counts the updates run so far.
    """

    def __init__(
        self,
        seats: int = 4,
        chips: int = 6,
        values: Sequence[Sequence[float]] | None = None,
        chip_value: float = 1.0,
        start: int = 0,
        background: bool | None = None,
    ) -> None:
        self.background = _in_kernel() if background is None else bool(background)
        self.updates = 0
        self._lock = threading.Lock()
        self._stale = False
        self._busy = False
        self._worker: threading.Thread | None = None
        self.error: BaseException | None = None  # the last update's failure, if it failed
        values = list(values or _DEFAULT_VALUES)
        values += _DEFAULT_VALUES[len(values) :]
        style = {"description_width": "70px"}
        calm = {"style": style, "continuous_update": False}
        self.seats = w.IntSlider(seats, min=2, max=MAX_EXPLORER_SEATS, description="seats", **calm)
        self.chips = w.IntSlider(chips, min=0, max=MAX_EXPLORER_CHIPS, description="chips", **calm)
        self.chip_value = w.FloatSlider(
            chip_value, min=0.0, max=3.0, step=0.25, description="chip value", **calm
        )
        self.start = w.Dropdown(
            options=list(range(seats)), value=start, description="start", style=style
        )
        self.value_sliders = [
            [
                w.FloatSlider(
                    float(values[i][j]),
                    min=0.0,
                    max=20.0,
                    step=0.5,
                    description=f"{label} {i}",
                    layout=w.Layout(width="260px"),
                    **calm,
                )
                for j, label in enumerate(("win", "2nd", "out"))
            ]
            for i in range(MAX_EXPLORER_SEATS)
        ]
        self.value_rows = [w.HBox(row) for row in self.value_sliders]
        self.status = w.HTML()
        # live figures: as wide as the column (a FigureWidget keeps the figure's 700 px) and
        # started within anywidget's budget (see mogul.widgets.live: drawn empty otherwise)
        self.ladder = live_figure(pot_ladder_figure([]))
        self.curves = live_figure(
            payoff_curve_figure({f"seat {i}": _empty() for i in range(MAX_EXPLORER_SEATS)})
        )
        self.solution = None
        controls = w.HBox([w.VBox([self.seats, self.chips]), w.VBox([self.chip_value, self.start])])
        super().__init__([controls, *self.value_rows, self.status, self.ladder, self.curves])
        self.children = (*self.children, touch_style(self))
        for control in [
            self.seats,
            self.chips,
            self.chip_value,
            self.start,
            *sum(self.value_sliders, []),
        ]:
            control.observe(self._changed, names="value")
        self.update()

    def values(self) -> list[tuple[float, float, float]]:
        """The (win, second, out) values of the seats in play, read from the sliders."""
        return [tuple(s.value for s in row) for row in self.value_sliders[: self.seats.value]]  # type: ignore[misc]

    def _changed(self, change: dict) -> None:
        if change["owner"] is self.seats:
            n = self.seats.value
            self.start.options = list(range(n))  # resets the value if it is out of range
        self.request()

    def request(self) -> None:
        """Ask for an update on the current values, coalesced with any already running."""
        with self._lock:
            self._stale = True
            if self._busy:
                return  # the running loop picks the newest values up when it is done
            self._busy = True
        if self.background:
            self._worker = threading.Thread(target=self._drain, daemon=True)
            self._worker.start()
        else:
            self._drain()

    def _drain(self) -> None:
        """Update until no change came in during the last update."""
        try:
            while True:
                with self._lock:
                    if not self._stale:
                        self._busy = False
                        return
                    self._stale = False
                self.update()
                self.error = None
        except Exception as err:  # a worker thread has nobody to raise to: show it, keep it
            with self._lock:
                self._busy = False
            self.error = err
            self.status.value = f"<b style='color:#b00'>Could not solve: {err}</b>"
            if not self.background:
                raise

    def wait(self, timeout: float | None = None) -> None:
        """Return when the running updates are done (at once without a worker thread)."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)

    def update(self) -> None:
        """Re-solve the auction and refresh the summary and both figures."""
        n = self.seats.value
        if self.start.value is None or self.start.value >= n:
            return  # the start dropdown is being rebuilt; its own change event follows
        for i, row in enumerate(self.value_rows):
            row.layout.display = None if i < n else "none"
        values, chips = self.values(), [self.chips.value] * n
        sol = solve(values, chips, self.start.value, self.chip_value.value)
        self.updates += 1
        before, self.solution = self.solution, sol
        line, bids, drops = pot_ladder_data(sol.path)
        x_range, y_range = pot_ladder_ranges(sol.path)
        with self.ladder.batch_update():
            pot, bid, drop = self.ladder.data
            pot.x, pot.y = line["x"], line["y"]
            for trace, data in ((bid, bids), (drop, drops)):
                trace.x, trace.y, trace.text = data["x"], data["y"], data["text"]
                trace.marker.color = data["marker_color"]
            self.ladder.layout.xaxis.range = x_range
            self.ladder.layout.yaxis.range = y_range
        curves = payoff_curves(values, chips, self.start.value, self.chip_value.value, solution=sol)
        self.k_max = k_max = curve_reach(curves.values(), sol)
        with self.curves.batch_update():
            for i in range(MAX_EXPLORER_SEATS):
                line, eq, best = self.curves.data[3 * i : 3 * i + 3]
                visible = i < n
                for trace in (line, eq, best):
                    trace.visible = visible
                if not visible:
                    continue
                df = curves[i].iloc[: k_max + 1]
                line.x, line.y = rounded(df["k"]), rounded(df["payoff"])
                eq.x, eq.y = [0, k_max], rounded([sol.payoffs[i]] * 2)
                k = int(df["payoff"].idxmax())
                best.x, best.y = [k], rounded([df["payoff"][k]])
            self.curves.layout.xaxis.range = [-0.5, k_max + 0.5]
        self.status.value = unchanged_note(before, sol) + summary_html(sol) + chips_note(sol, k_max)


def _in_kernel() -> bool:
    """True inside a running Jupyter kernel (where a worker thread keeps messages flowing)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def curve_reach(curves, sol) -> int:
    """The k beyond which no payoff curve changes (at least the top pot of the equilibrium).

    Past it every seat's curve is flat: a larger k only means "bid while you can" in a game
    that is already over, so the k axis stops there instead of at seats x chips.
    """
    top_pot = max((st.pot for st in sol.path), default=0)
    return max([top_pot + 1, *(flat_from(df["payoff"]) for df in curves)])


def unchanged_note(before, sol) -> str:
    """A line saying the last change left the equilibrium as it was (the same moves, places
    and payoffs), so a reader who moved a slider knows the charts did not fail to follow; ''
    for the first solve or when it changed."""
    if before is None or (before.path, before.payoffs) != (sol.path, sol.payoffs):
        return ""
    return (
        "<div style='color:#555'><i>This change leaves the equilibrium as it was: "
        "the same moves and payoffs.</i></div>"
    )


def chips_note(sol, k_max: int) -> str:
    """Why the chips slider may stop mattering: how many chips the seats really use."""
    most = max(sol.paid)
    held = min(sol.chips)
    return (
        f"<div style='color:#555'>The most any seat bids is {most} chip"
        f"{'' if most == 1 else 's'} (each holds at least {held}); the curves are flat beyond "
        f"k = {k_max}, so the k axis stops there.</div>"
    )


def summary_html(sol) -> str:
    """A short HTML account of an equilibrium: who wins, who is paid, each seat's payoff."""
    cells = "".join(
        f"<td style='padding:0 8px;color:{SEAT_COLOURS[i]}'>seat {i}: {p:g} ({place}, {net:+d} chips)</td>"
        for i, (p, place, net) in enumerate(
            zip(sol.payoffs, sol.places, sol.net_chips, strict=True)
        )
    )
    paid = -sol.net_chips[sol.winner]
    return (
        f"<b>Seat {sol.winner} wins</b> after {len(sol.path)} moves, paying {paid} chip"
        f"{'' if paid == 1 else 's'}; seat {sol.runner_up} is runner-up."
        f"<table><tr>{cells}</tr></table>"
    )


def _empty():
    import pandas as pd

    return pd.DataFrame({"k": [0], "payoff": [0.0], "equilibrium": [0.0]})
