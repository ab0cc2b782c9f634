"""The auction lab's debrief figures: a class's bids beside the theory.

Each takes what ``mogul.analysis.auction_lab`` computes (tested there) and returns a
``plotly.graph_objects.Figure``: bids (or drop points) against values with the equilibrium
line per mechanism; revenue and efficiency per mechanism with their intervals across
students and the theory's markers; bid / value over the rounds; each student's overbidding.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from mogul.games.auction_lab.rules import SEALED, TITLES
from mogul.plots.template import SEAT_COLOURS, laid_out, rounded

__all__ = ["bids_figure", "learning_figure", "overbidding_figure", "revenue_figure"]

CLASS, THEORY, TEXTBOOK, PLAIN = SEAT_COLOURS[0], SEAT_COLOURS[1], SEAT_COLOURS[3], "#8c8c8c"


SHORT = {"mogul": "Mogul's", "english": "English"}
"""Panel titles that fit a phone's third of a chart (the others are the mechanism's name)."""


def _numbers(*columns: object) -> list[float]:
    """Every number of ``columns`` (series or single numbers), gaps (NaN) left out: an
    interval of one student is a gap, and an axis's range is drawn around the rest."""
    out = []
    for column in columns:
        values = column if isinstance(column, pd.Series) else pd.Series([column], dtype=float)
        out += [float(v) for v in values.dropna()]
    return out


def _title(mechanism: str) -> str:
    return TITLES.get(mechanism, mechanism)


def _axis_title(mechanism: str) -> str:
    if mechanism in SEALED:
        return "bid (chips)"
    return "drop point (pot)" if mechanism == "mogul" else "drop point (price)"


def bids_figure(
    frame: pd.DataFrame,
    curves: Mapping[str, pd.DataFrame],
    title: str = "Bids against values",
) -> go.Figure:
    """One panel per mechanism: each student's bid (sealed bids) or drop point (English and
    Mogul's auction; winners never dropped and are not shown) against their value, a bigger
    marker for more rounds on the same spot; the kit's equilibrium (whole chips, solid: in
    Mogul's auction one line per place after the start seat), the textbook bid (dashed) and
    the value itself (dotted). ``frame``: ``with_theory``; ``curves``: mechanism ->
    ``equilibrium_curve``."""
    mechanisms = [m for m in TITLES if m in set(frame["mechanism"])]
    fig = make_subplots(
        rows=1,
        cols=len(mechanisms),
        subplot_titles=[SHORT.get(m, m) for m in mechanisms],
        horizontal_spacing=0.07,
    )
    shown: set[str] = set()

    def once(group: str) -> bool:
        """Show a legend entry the first time its group is drawn."""
        first = group not in shown
        shown.add(group)
        return first

    for col, mechanism in enumerate(mechanisms, start=1):
        rows = frame[(frame["mechanism"] == mechanism) & frame["observed"].notna()]
        spots = (
            rows.groupby(["value", "observed"])["student"]
            .agg(lambda s: ", ".join(sorted(set(s))))
            .to_frame("students")
            .join(rows.groupby(["value", "observed"]).size().rename("count"))
            .reset_index()
        )
        fig.add_scatter(
            x=rounded(spots["value"]),
            y=rounded(spots["observed"]),
            mode="markers",
            name="the class",
            legendgroup="class",
            showlegend=once("class"),
            marker={"color": CLASS, "opacity": 0.7, "size": [6 + 4 * c for c in spots["count"]]},
            customdata=list(zip(spots["count"], spots["students"], strict=True)),
            hovertemplate="value %{x}, " + _axis_title(mechanism).split(" (")[0] + " %{y}"
            "<br>%{customdata[0]} round(s): %{customdata[1]}<extra></extra>",
            row=1,
            col=col,
        )
        curve = curves[mechanism]
        low, high = float(curve["value"].min()), float(curve["value"].max())
        fig.add_scatter(
            x=[low, high],
            y=[low, high],
            mode="lines",
            name="the value",
            legendgroup="value",
            showlegend=once("value"),
            line={"color": PLAIN, "dash": "dot", "width": 1},
            hoverinfo="skip",
            row=1,
            col=col,
        )
        if curve["textbook"].notna().any():
            fig.add_scatter(
                x=rounded(curve["value"]),
                y=rounded(curve["textbook"]),
                mode="lines",
                name="textbook equilibrium",
                legendgroup="textbook",
                showlegend=once("textbook"),
                line={"color": TEXTBOOK, "dash": "dash", "width": 1.5},
                row=1,
                col=col,
            )
        for position, line in curve.groupby(curve["position"].fillna(-1), sort=True):
            fig.add_scatter(
                x=rounded(line["value"]),
                y=rounded(line["equilibrium"]),
                mode="lines",
                name="equilibrium (whole chips)",
                legendgroup="equilibrium",
                showlegend=once("equilibrium"),
                line={"color": THEORY, "width": 2 if position < 0 else 1.2, "shape": "hv"},
                hovertemplate=(
                    "value %{x}: %{y}"
                    + ("" if position < 0 else f" (place {int(position) + 1} in the order)")
                    + "<extra>equilibrium</extra>"
                ),
                row=1,
                col=col,
            )
        # one axis title each way, so that three panels side by side fit a phone
        middle = col == (len(mechanisms) + 1) // 2
        fig.update_xaxes(
            title_text="value (chips)" if middle else None,
            range=[low - 0.5, high + 0.5],
            row=1,
            col=col,
        )
        most = float(rows["observed"].max()) if len(rows) else high
        top = max(_numbers(high, curve["equilibrium"], most))
        fig.update_yaxes(
            title_text="bid or drop point (chips)" if col == 1 else None,
            range=[-0.5, top + 0.5],
            row=1,
            col=col,
        )
    fig.update_yaxes(automargin=True)
    fig.update_xaxes(automargin=True)
    fig.update_traces(cliponaxis=False)
    return laid_out(fig, title, height=400, margin={"t": 80})


def revenue_figure(table: pd.DataFrame, title: str = "Revenue and efficiency") -> go.Figure:
    """Two panels of bars, one bar per mechanism: the class's revenue per round (chips to the
    bank) and efficiency (share of rounds won by a highest value), each with its 95% interval
    across students, and markers for the equilibrium played on the same values (diamond) and
    the textbook (cross). ``table``: ``revenue_and_efficiency``."""
    names = [SHORT.get(m, m) for m in table["mechanism"]]
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=["revenue (chips)", "efficiency"],
        horizontal_spacing=0.12,
    )
    for col, measure in enumerate(("revenue", "efficiency"), start=1):
        value, low, high = (table[measure], table[f"{measure} low"], table[f"{measure} high"])
        fig.add_bar(
            x=names,
            y=rounded(value),
            name="the class (95% interval)",
            legendgroup="class",
            showlegend=col == 1,
            marker={"color": CLASS, "opacity": 0.75},
            error_y={
                "type": "data",
                "symmetric": False,
                "array": rounded(high - value),
                "arrayminus": rounded(value - low),
                "color": "#222",
            },
            row=1,
            col=col,
        )
        for column, label, symbol, colour in (
            (f"equilibrium {measure}", "equilibrium on the same values", "diamond", THEORY),
            (f"textbook {measure}", "textbook", "x", TEXTBOOK),
        ):
            fig.add_scatter(
                x=names,
                y=rounded(table[column]),
                mode="markers",
                name=label,
                legendgroup=label,
                showlegend=col == 1,
                marker={"symbol": symbol, "size": 13, "color": colour},
                row=1,
                col=col,
            )
    top = max(
        _numbers(
            table["revenue high"],
            table["textbook revenue"],
            table["equilibrium revenue"],
            table["revenue"],
        )
    )
    fig.update_yaxes(range=[min(_numbers(0.0, table["revenue low"])) - 0.5, top + 1], col=1)
    fig.update_yaxes(range=[0, 1.05], col=2)
    fig.update_yaxes(automargin=True)
    fig.update_xaxes(automargin=True)
    fig.update_traces(cliponaxis=False, selector={"type": "scatter"})
    return laid_out(fig, title, height=400, margin={"t": 80})


def learning_figure(table: pd.DataFrame, title: str = "Bids over the rounds") -> go.Figure:
    """Bid / value (drop point / value in English and Mogul's auction) per round: one line per
    mechanism with its 95% interval across students, and the equilibrium's ratio on the same
    rows, dashed in the same colour. ``table``: ``learning``."""
    fig = go.Figure()
    for i, (mechanism, rows) in enumerate(table.groupby("mechanism", sort=False)):
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        fig.add_scatter(
            x=rounded(rows["round"]),
            y=rounded(rows["ratio"]),
            mode="lines+markers",
            name=_title(mechanism),
            legendgroup=mechanism,
            line={"color": colour},
            error_y={
                "type": "data",
                "symmetric": False,
                "array": rounded(rows["high"] - rows["ratio"]),
                "arrayminus": rounded(rows["ratio"] - rows["low"]),
                "color": colour,
            },
        )
        fig.add_scatter(
            x=rounded(rows["round"]),
            y=rounded(rows["equilibrium"]),
            mode="lines",
            name="equilibrium",
            legendgroup=mechanism,
            showlegend=False,
            line={"color": colour, "dash": "dash", "width": 1.5},
        )
    fig.add_scatter(
        x=[None],
        y=[None],
        mode="lines",
        name="dashed: equilibrium",
        line={"color": PLAIN, "dash": "dash"},
    )
    low = min(_numbers(0.0, table["low"], table["equilibrium"]))
    high = max(_numbers(table["high"], table["ratio"], table["equilibrium"]))
    rounds = sorted(set(table["round"]))
    fig.update_xaxes(range=[rounds[0] - 0.3, rounds[-1] + 0.3], dtick=1)
    fig.update_yaxes(range=[low - 0.05, high + 0.1])
    fig.update_traces(cliponaxis=False)
    return laid_out(fig, title, x="round", y="bid / value", height=420)


def overbidding_figure(
    students: pd.DataFrame,
    summary: tuple[float, float, float],
    title: str = "First-price: bids over the equilibrium",
) -> go.Figure:
    """One dot per student: the mean of their bid minus the equilibrium's bid for the same
    value (chips), sorted; a line at 0 (the equilibrium) and the class mean with its 95%
    interval across students as a band. ``students``: ``overbidding``; ``summary``: the
    class mean with its interval's ends (``mean_interval(students["over"])``)."""
    rows = students.sort_values("over")
    mean, low, high = summary
    fig = go.Figure()
    if not math.isnan(low):  # one student: no interval
        fig.add_hrect(y0=low, y1=high, fillcolor=CLASS, opacity=0.12, line_width=0)
    fig.add_hline(y=0, line={"color": THEORY, "width": 2})
    fig.add_hline(y=mean, line={"color": CLASS, "dash": "dash", "width": 1.5})
    fig.add_scatter(
        x=list(rows["student"]),
        y=rounded(rows["over"]),
        mode="markers",
        name="a student (mean)",
        marker={"color": CLASS, "size": 11},
        customdata=rounded(rows["rounds"]),
        hovertemplate="%{x}: %{y:+.2f} chips over %{customdata} rounds<extra></extra>",
    )
    fig.add_scatter(
        x=[None],
        y=[None],
        mode="lines",
        name=f"class mean {mean:+.2f} "
        + ("(one student)" if math.isnan(low) else f"({low:+.2f} to {high:+.2f})"),
        line={"color": CLASS, "dash": "dash"},
    )
    fig.add_scatter(
        x=[None], y=[None], mode="lines", name="the equilibrium", line={"color": THEORY}
    )
    spread = _numbers(0.0, rows["over"], low, high)
    fig.update_yaxes(range=[min(spread) - 0.5, max(spread) + 0.5])
    fig.update_traces(cliponaxis=False)
    return laid_out(fig, title, x="student", y="bid - equilibrium (chips)", height=400)
