"""``AuctionExplorer``: sliders in, equilibrium path and payoff curves out, live.

The app holds no rules: each change calls ``mogul.auction.solve`` and ``payoff_curves`` (one
solve shared) and writes the results into widget values (an ``HTML`` summary and two
``go.FigureWidget`` s), never into an ``Output`` widget, so nbval can compare the app's state
and tests need no browser. Sliders report only when released (``continuous_update=False``),
so dragging does not queue one solve per pixel.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as w
import plotly.graph_objects as go

from mogul.auction import payoff_curves, solve
from mogul.plots.auction import payoff_curve_figure, pot_ladder_figure
from mogul.plots.template import SEAT_COLOURS, rounded
from mogul.widgets.live import keep_views_current

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
    """

    def __init__(
        self,
        seats: int = 4,
        chips: int = 6,
        values: Sequence[Sequence[float]] | None = None,
        chip_value: float = 1.0,
        start: int = 0,
    ) -> None:
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
                w.FloatSlider(float(values[i][j]), min=0.0, max=20.0, step=0.5, description=f"{label} {i}",
                              layout=w.Layout(width="260px"), **calm)
                for j, label in enumerate(("win", "2nd", "out"))
            ]
            for i in range(MAX_EXPLORER_SEATS)
        ]  # fmt: skip
        self.value_rows = [w.HBox(row) for row in self.value_sliders]
        self.status = w.HTML()
        self.ladder = go.FigureWidget(pot_ladder_figure([]))
        self.curves = go.FigureWidget(
            payoff_curve_figure({f"seat {i}": _empty() for i in range(MAX_EXPLORER_SEATS)})
        )
        controls = w.HBox([w.VBox([self.seats, self.chips]), w.VBox([self.chip_value, self.start])])
        super().__init__([controls, *self.value_rows, self.status, self.ladder, self.curves])
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
        self.update()

    def update(self) -> None:
        """Re-solve the auction and refresh the summary and both figures."""
        n = self.seats.value
        if self.start.value is None or self.start.value >= n:
            return  # the start dropdown is being rebuilt; its own change event follows
        for i, row in enumerate(self.value_rows):
            row.layout.display = None if i < n else "none"
        values, chips = self.values(), [self.chips.value] * n
        sol = solve(values, chips, self.start.value, self.chip_value.value)
        self.solution = sol
        ladder = pot_ladder_figure(sol.path)
        with self.ladder.batch_update():
            for target, source in zip(self.ladder.data, ladder.data, strict=True):
                target.update(x=source.x, y=source.y, text=source.text, marker=source.marker)
            self.ladder.layout.xaxis.range = ladder.layout.xaxis.range
            self.ladder.layout.yaxis.range = ladder.layout.yaxis.range
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
        self.status.value = summary_html(sol) + chips_note(sol, k_max)
        keep_views_current(self.ladder)
        keep_views_current(self.curves)


def curve_reach(curves, sol) -> int:
    """The k beyond which no payoff curve changes (at least the top pot of the equilibrium).

    Past it every seat's curve is flat: a larger k only means "bid while you can" in a game
    that is already over, so the k axis stops there instead of at seats x chips.
    """
    reach = max((st.pot for st in sol.path), default=0) + 1
    for df in curves:
        pay = df["payoff"].to_numpy()
        moved = (pay != pay[-1]).nonzero()[0]
        if moved.size:
            reach = max(reach, int(moved[-1]) + 1)
    return reach


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
