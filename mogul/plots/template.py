"""The kit's own small plotly template: a few fonts, colours and margins.

Figures pass ``template=KIT_TEMPLATE`` instead of plotly's built-in templates, so a figure
stored in a notebook carries about a hundred bytes of styling that does not change with the
plotly version.
"""

from collections.abc import Iterable
from typing import Any

import numpy as np
import plotly.graph_objects as go

from mogul.kit.colours import SEAT_COLOURS

__all__ = ["KIT_TEMPLATE", "SEAT_COLOURS", "error_bars", "laid_out", "rounded"]

KIT_TEMPLATE = go.layout.Template(
    layout={
        "font": {"family": "Helvetica, Arial, sans-serif", "size": 13, "color": "#222"},
        "colorway": list(SEAT_COLOURS),
        # Small margins that tick labels, axis titles, the title and the legend push out as
        # far as they need (automargin): nothing is clipped on a narrow screen.
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        # The title sits at the left, below a band kept free for plotly's toolbar (top right).
        "title": {
            "x": 0,
            "y": 1,
            "yanchor": "top",
            "yref": "container",
            "pad": {"t": 30, "l": 8},
            "automargin": True,
        },
        # Legends run along the bottom, so they never take the plot's width.
        "legend": {"orientation": "h", "x": 0, "y": 0, "yref": "container"},
        "xaxis": {"gridcolor": "#e5e5e5", "zeroline": False, "automargin": True},
        "yaxis": {"gridcolor": "#e5e5e5", "zeroline": False, "automargin": True},
    }
)
"""The kit template: pass ``template=KIT_TEMPLATE`` to every figure."""


def laid_out(
    fig: go.Figure, title: Any, x: str | None = None, y: str | None = None, **layout: Any
) -> go.Figure:
    """``fig`` in the kit template with its ``title``, its axes' titles ``x`` and ``y`` (when
    given) and any other ``layout`` (``height=320``, ``barmode="stack"`` ...)."""
    axes = {k: v for k, v in (("xaxis_title", x), ("yaxis_title", y)) if v is not None}
    return fig.update_layout(template=KIT_TEMPLATE, title=title, **axes, **layout)


def rounded(values: Iterable, digits: int = 4) -> list:
    """Plain Python numbers, floats rounded to ``digits`` (small, stable stored outputs)."""
    out: list = []
    for v in values:
        if isinstance(v, str | None):
            out.append(v)
        elif isinstance(v, int | np.integer):
            out.append(int(v))
        else:
            out.append(round(float(v), digits))
    return out


def error_bars(value: Any, low: Any, high: Any, digits: int = 4, **style: Any) -> dict:
    """Plotly's error bars from ``low`` to ``high`` around ``value`` (columns of one frame),
    rounded to ``digits``, with any ``style`` (``color``, ``thickness``)."""
    return {
        "type": "data",
        "symmetric": False,
        "array": rounded(high - value, digits),
        "arrayminus": rounded(value - low, digits),
        **style,
    }
