"""Keeping live plotly figures right in every view of a widget."""

from copy import deepcopy

import plotly.graph_objects as go


def live_figure(fig: go.Figure, height: int | None = None) -> go.FigureWidget:
    """``fig`` as a ``go.FigureWidget`` for an app: no toolbar (it would cover the title on a
    phone and offers nothing a class needs), ``height`` in pixels if given."""
    live = go.FigureWidget(fig)
    if height is not None:
        live.layout.height = height
    live._config = {"displayModeBar": False}
    return live


def keep_views_current(fig: go.FigureWidget) -> None:
    """Store a FigureWidget's current data and layout as its widget state.

    Plotly sends an update (``batch_update``, ``trace.x = ...``) to the browser as a one-off
    message and keeps the widget state from when the figure was built. A view created later
    (the widget displayed after it was updated, a Voila page, a reloaded notebook) would draw
    that stale state. Storing the current figure fixes that; it relies on plotly's
    ``_widget_data`` / ``_widget_layout`` state names (plotly 7.1, pinned in pyproject.toml).
    """
    fig._widget_data = deepcopy(fig._data)
    fig._widget_layout = deepcopy(fig._layout_obj._props)
