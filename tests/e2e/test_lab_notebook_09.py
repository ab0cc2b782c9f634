"""Notebook 09 (the auction lab's debrief) in JupyterLab: run all cells, and every chart is
drawn whole, its data in view, on a laptop and on a phone; a screenshot of each."""

from __future__ import annotations

from pathlib import Path

from conftest import SCREENSHOTS
from playwright.sync_api import Page, expect
from screens import SIZES, Screens
from test_lab import NOTEBOOK_VIEW, run_whole_notebook, toggle_file_browser

NOTEBOOK = "09-auction-lab.ipynb"
CHARTS = ("bids", "overbidding", "revenue", "learning")


def test_lab_runs_notebook_09_and_draws_every_chart_whole(
    lab, notebook_dir: Path, page: Page, local_only: None
) -> None:
    page.set_viewport_size(SIZES["laptop"])
    run_whole_notebook(page, lab, notebook_dir / NOTEBOOK)
    charts = page.locator(f"{NOTEBOOK_VIEW} .js-plotly-plot")
    expect(charts).to_have_count(len(CHARTS), timeout=60_000)
    screens = Screens(page, NOTEBOOK_VIEW)
    SCREENSHOTS.mkdir(exist_ok=True)
    toggle_file_browser(page)  # the lecturer projects the notebook, not the file browser
    for n, name in enumerate(CHARTS):  # each chart's output, to check it alone on a phone
        charts.nth(n).evaluate(f"c => c.closest('.jp-OutputArea-output').dataset.chart = '{name}'")
    for size in ("laptop", "phone"):
        page.set_viewport_size(SIZES[size])
        for n, name in enumerate(CHARTS):
            chart = charts.nth(n)
            chart.evaluate("c => c.scrollIntoView({block: 'start'})")
            expect(chart.locator(".main-svg").first).to_be_visible(timeout=30_000)
            # the whole notebook on a laptop; on a phone each chart (tables scroll sideways)
            root = None if size == "laptop" else f"[data-chart={name}]"
            screens.check(f"lab-09 {name}, {size}", root)
            # Lab lays the cells out again after a resize: scroll once more, then take the shot
            chart.evaluate("c => c.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            page.screenshot(path=SCREENSHOTS / f"lab-09-{name}-{size}.png")
    screens.assert_clean()
