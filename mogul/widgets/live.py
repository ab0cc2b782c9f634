"""Keeping live plotly figures right in every view of a widget.

Why the kit does not use a plain ``go.FigureWidget`` for its live charts
-------------------------------------------------------------------------
Plotly 7.1's ``FigureWidget`` is an anywidget whose front-end code (``_esm``) is plotly's whole
widget bundle, about 4.9 MB of JavaScript with plotly.js inside, sent in every figure's widget
state. anywidget 0.11 imports each figure's ``_esm`` from a blob URL of its own, so the browser
compiles and runs plotly.js once per figure (about 0.8 s each in Chromium on two busy cores), and
it gives every model 2 s from its creation to get through that import (``Runtime`` in anywidget's
front end: ``AbortSignal.timeout(2e3)`` rejects the model's ``ready`` promise with "Failed to
initialize model."). ``AnyModel._handle_comm_msg`` awaits ``ready`` before it handles any message
from the kernel; once ``ready`` has been rejected it stays rejected, so every later state update
of that figure is dropped without a trace (the kernel connection's message chain in
@jupyterlab/services only logs "Canceled future" errors), while the view still draws whatever
state the model was created with. The chain is serial, too: while a model waits to start, every
kernel message of the page waits with it. A page with ten figures under load
misses the budget for some of them: the chart shows an empty plot, or the round the page was
loaded at, and never follows the game.

``LiveFigureWidget`` (what ``live_figure`` returns) removes that work from the budget: its
``_esm`` is a small loader that starts at once, and plotly's bundle travels as ordinary state
(``_plotly_esm``) that the loader imports once per page, shared by all live figures, without
making the model wait for it (a view waits instead). Nothing slow is left between the model's
creation and its ``ready``.
"""

from __future__ import annotations

import hashlib
from copy import deepcopy
from functools import cache
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import traitlets

__all__ = [
    "LIVE_CONFIG",
    "LiveFigureWidget",
    "live_figure",
]

LOADER_ESM = (Path(__file__).parent / "live.js").read_text()
"""The front end of a ``LiveFigureWidget`` (``live.js``): a small loader of plotly's bundle."""


@cache
def _plotly_bundle() -> tuple[str, str]:
    """Plotly's widget bundle (what ``go.FigureWidget`` sends as ``_esm``) and a short hash."""
    text = str(go.FigureWidget._esm)
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]


class LiveFigureWidget(go.FigureWidget):
    """A ``go.FigureWidget`` whose front end starts within anywidget's budget on a busy page.

    Same Python API and widget state as plotly's class, with two differences: the browser loads
    plotly's code once per page (see the module docstring), and every update is also stored as
    the widget's state, so that a view drawn later shows the figure as it is now.
    """

    _esm = LOADER_ESM
    _plotly_esm = traitlets.Unicode().tag(sync=True)
    _plotly_esm_id = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_plotly_esm")
    def _default_plotly_esm(self) -> str:
        return _plotly_bundle()[0]

    @traitlets.default("_plotly_esm_id")
    def _default_plotly_esm_id(self) -> str:
        return _plotly_bundle()[1]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._live = True  # from now on every update is also stored as state

    # Plotly sends each update as a one-off message (a ``_py2js_*`` trait, set and reset to None
    # at once) that only views existing at that moment apply, and keeps the widget state from
    # when the figure was built. Storing the whole figure as state after each message makes
    # every update something the front end can re-read: a view drawn later (a Voila page, a
    # reloaded notebook, the model while plotly's code still loads) gets the current figure.
    # It relies on plotly's state names (plotly 7.1, pinned in pyproject.toml).
    @traitlets.observe(
        "_py2js_relayout",
        "_py2js_restyle",
        "_py2js_update",
        "_py2js_addTraces",
        "_py2js_deleteTraces",
        "_py2js_moveTraces",
        "_py2js_animate",
    )
    def _store_views_state(self, change: dict) -> None:
        if change["new"] is None and getattr(self, "_live", False):
            self._widget_data = deepcopy(self._data)
            self._widget_layout = deepcopy(self._layout_obj._props)


LIVE_CONFIG = {"displayModeBar": False, "responsive": True}
"""Plotly's options for live charts: no toolbar, redrawn at its box's size when that changes."""


def live_figure(fig: go.Figure, height: int | None = None) -> LiveFigureWidget:
    """``fig`` as a live figure widget for an app, as wide as its box and following it.

    No toolbar (it would cover the title on a phone and offers nothing a class needs);
    ``height`` in pixels if given. Any width of ``fig`` is dropped: the chart takes the width
    of its column (``autosize``) and is redrawn when the column changes (``LIVE_CONFIG``, and
    the loader's resize observer), so nothing is cut on a phone or beside an open sidebar.
    """
    live = LiveFigureWidget(fig)
    live.layout.width = None
    live.layout.autosize = True
    if height is not None:
        live.layout.height = height
    live._config = dict(LIVE_CONFIG)
    return live
