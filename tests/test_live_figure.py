"""``LiveFigureWidget``: the kit's live charts start in the browser within anywidget's budget.

anywidget drops every kernel message of a model whose front end has not started within 2 s of
its creation, so a live chart whose ``_esm`` is plotly's 4.9 MB bundle can stay stale on a busy
page (see ``mogul/widgets/live.py``). These tests pin what makes the start cheap; the browser
tests in ``tests/e2e`` check that the page really loads plotly once and the charts follow.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go

from mogul.widgets.live import (
    LIVE_CONFIG,
    LOADER_ESM,
    LiveFigureWidget,
    live_figure,
)
from mogul.widgets.mogul import GamePlayer, ShareValueDashboard


def _scatter(ys=(1, 2, 3)) -> go.Figure:
    return go.Figure(
        go.Scatter(x=list(range(len(ys))), y=list(ys)), layout={"title": {"text": "t"}}
    )


def test_the_front_end_code_is_a_small_loader_and_plotly_travels_as_state():
    fig = live_figure(_scatter(), height=250)
    state = fig.get_state()
    assert isinstance(fig, go.FigureWidget)
    assert state["_esm"] == LOADER_ESM and len(state["_esm"]) < 5_000  # imported within the budget
    assert state["_plotly_esm"] == str(go.FigureWidget._esm)  # plotly's own widget bundle
    assert len(state["_plotly_esm"]) > 1_000_000
    assert re.fullmatch(r"[0-9a-f]{16}", state["_plotly_esm_id"])
    assert state["_config"] == {"displayModeBar": False, "responsive": True} == LIVE_CONFIG
    assert state["_widget_layout"]["height"] == 250


def test_a_live_figure_takes_its_boxs_width_and_follows_it():
    # A width of its own would be drawn as is in a narrower column (a phone, an open sidebar).
    fig = _scatter()
    fig.update_layout(width=700)
    layout = live_figure(fig, height=300).get_state()["_widget_layout"]
    assert "width" not in layout and layout["autosize"] is True and layout["height"] == 300
    # plotly's view draws once at the width of its box while it is made (700 px outside the
    # page): the loader redraws it whenever the box changes size.
    render = LOADER_ESM[LOADER_ESM.index("async render(") :]
    assert "new ResizeObserver(" in render and "observer.observe(el)" in render
    assert "_responsiveChartHandler" in render  # plotly's own redraw-at-box-size ("responsive")
    assert "observer.disconnect()" in render  # stopped when the view goes


def test_every_live_figure_names_the_same_bundle_so_a_page_loads_it_once():
    ids = {live_figure(_scatter()).get_state()["_plotly_esm_id"] for _ in range(3)}
    assert len(ids) == 1


def test_the_loader_awaits_nothing_before_the_model_is_ready():
    # anywidget awaits `initialize` inside the start budget: it must only start the import.
    initialize = LOADER_ESM[LOADER_ESM.index("initialize(") : LOADER_ESM.index("render(")]
    assert "await" not in initialize.split("=>", 1)[0]
    assert "plotlyWidgetModule(model)" in initialize
    assert "globalThis[PAGE_CACHE]" in LOADER_ESM  # one import per page, shared by all figures
    assert "export default" in LOADER_ESM


def test_every_update_is_stored_as_state_for_views_drawn_later():
    fig = live_figure(_scatter())
    with fig.batch_update():
        fig.data[0].y = (4, 5, 6)
        fig.layout.title.text = "batch"
    state = fig.get_state()
    assert list(state["_widget_data"][0]["y"]) == [4, 5, 6]
    assert state["_widget_layout"]["title"]["text"] == "batch"
    fig.data[0].x = (7, 8, 9)  # outside a batch: a restyle message
    fig.layout.xaxis.range = [0, 10]  # a relayout message
    fig.add_scatter(y=[1])  # addTraces
    state = fig.get_state()
    assert list(state["_widget_data"][0]["x"]) == [7, 8, 9]
    assert list(state["_widget_layout"]["xaxis"]["range"]) == [0, 10]
    assert len(state["_widget_data"]) == 2
    fig.data = fig.data[:1]  # deleteTraces
    assert len(fig.get_state()["_widget_data"]) == 1


def test_the_auction_charts_axes_follow_the_pot():
    # as in notebook 03
    player = GamePlayer("classic", ["value", "threshold:drop_at=2", "random", "value"], seed=7)
    pots = []
    for _ in range(20):
        player.step()
        chart = player.auction_chart
        lo, hi = chart.layout.yaxis.range
        ys = [y for trace in chart.data for y in (trace.y or ()) if y is not None]
        xs = [x for trace in chart.data for x in (trace.x or ()) if x is not None]
        assert all(lo <= y <= hi for y in ys), (ys, (lo, hi))
        assert all(chart.layout.xaxis.range[0] <= x <= chart.layout.xaxis.range[1] for x in xs)
        pots += ys
    assert max(pots) >= 3  # the pot climbed past the first axis (-0.8 .. 1.5)


def test_the_apps_live_charts_are_live_figure_widgets():
    player = GamePlayer(
        "classic", ["human", "value", "value", "value"], seed=3, payoff_curve=True, dashboard=True
    )
    assert isinstance(player.auction_chart, LiveFigureWidget)
    assert isinstance(player.curve, LiveFigureWidget)
    assert isinstance(player.dashboard, ShareValueDashboard)
    assert isinstance(player.dashboard.market, LiveFigureWidget)


def test_saved_widget_state_leaves_plotly_bundles_out(tmp_path):
    # make notebooks keeps a notebook's widget state (Lab draws the players before Run All)
    # without plotly's 5 MB bundle per live chart; the chart then says to run the notebook
    import json

    from mogul.widgets.live import LOADER_ESM
    from mogul.widgets.saved_state import slim_saved_widgets

    live = {"model_name": "AnyModel", "state": {"_plotly_esm": "x" * 1000, "_esm": "loader"}}
    button = {"model_name": "ButtonModel", "state": {"description": "Next round"}}
    key = "application/vnd.jupyter.widget-state+json"
    notebook = {"cells": [], "metadata": {"widgets": {key: {"state": {"a": live, "b": button}}}}}
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(notebook))
    assert slim_saved_widgets(path) == 1000
    state = json.loads(path.read_text())["metadata"]["widgets"][key]["state"]
    assert state["a"]["state"] == {"_plotly_esm": "", "_esm": "loader"}
    assert state["b"] == button
    assert slim_saved_widgets(path) == 0  # nothing left to leave out
    # a kernel's random model ids are numbered by first appearance: a re-run of a notebook
    # whose widgets are the same saves the same text
    runs, mime = [], "application/vnd.jupyter.widget"
    for first, second, uid in (
        ("9f" * 16, "0c" * 16, "7410d93f-f551-4fd6-b517-4c501aadea0e"),
        ("17" * 16, "e3" * 16, "43240827-d264-48f3-bf42-454d9da4141a"),
    ):
        view = {"model_id": second, "version_major": 2}
        box = {
            "model_name": "HBoxModel",
            "state": {"children": [f"IPY_MODEL_{first}"], "_data": [{"uid": uid}]},
        }
        path.write_text(
            json.dumps(
                {
                    "cells": [{"outputs": [{"data": {f"{mime}-view+json": view}}]}],
                    "metadata": {"widgets": {key: {"state": {first: button, second: box}}}},
                }
            )
        )
        slim_saved_widgets(path)
        runs.append(path.read_text())
    assert runs[0] == runs[1]  # the output's widget first, then what it holds
    assert '"model_id": "00000000000000000000000000000001"' in runs[0]
    assert '"IPY_MODEL_00000000000000000000000000000002"' in runs[0]
    assert '"uid": "00000000-0000-4000-8000-000000000001"' in runs[0]  # plotly's trace ids
    assert 'if (!model.get("_plotly_esm")) return null;' in LOADER_ESM
    assert "Run the notebook (Run > Run All Cells) to draw this chart." in LOADER_ESM
