"""Notebook 08 in JupyterLab: run all cells, step through a table's decisions in the browser,
each chart a bar per option with the student's move marked, on a laptop and a phone."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SCREENSHOTS, version_clashes
from playwright.sync_api import Page, expect
from screens import SIZES, Screens
from test_lab import NOTEBOOK_VIEW, run_whole_notebook, toggle_file_browser

NOTEBOOK = "08-class-debrief.ipynb"

# The decision chart's title, its options (bars) and how many of them are marked "chosen".
CHART = """gd => ({title: (gd.layout.title || {}).text || '',
             bars: gd.data[0].y.length,
             chosen: gd.data.flatMap(t => t.text || []).filter(t => t === 'chosen').length})"""


def test_lab_runs_notebook_08_and_the_decision_browser_follows_the_slider(
    lab, notebook_dir: Path, page: Page, console: list[str], local_only: None
) -> None:
    run_whole_notebook(page, lab, notebook_dir / NOTEBOOK)

    browser = page.locator(f"{NOTEBOOK_VIEW} .mogul-decision-browser").first
    browser.evaluate("box => box.scrollIntoView({block: 'start'})")
    chart = browser.locator(".js-plotly-plot").first
    expect(chart.locator(".main-svg").first).to_be_visible(timeout=30_000)
    screens = Screens(page, NOTEBOOK_VIEW)

    def shown() -> tuple[str, dict]:
        caption = browser.locator(".widget-html-content").last.inner_text()
        return caption, chart.evaluate(CHART)

    caption, first = shown()
    options = int(re.search(r"had (\d+) options", caption).group(1))
    assert first["bars"] == options and first["chosen"] == 1, (caption, first)
    assert " chose " in first["title"], first

    # The next decision: the slider's handle takes the arrow key, as a lecturer's would.
    browser.locator(".ui-slider-handle, .noUi-handle").first.focus()
    page.keyboard.press("ArrowRight")
    expect(browser.locator(".widget-html-content").last).not_to_have_text(caption, timeout=60_000)
    caption, second = shown()
    assert "move " in caption and "move 0 of" not in caption, caption
    options = int(re.search(r"had (\d+) options", caption).group(1))
    page.wait_for_function(
        "([gd, n]) => gd.data[0].y.length === n", arg=[chart.element_handle(), options]
    )
    second = chart.evaluate(CHART)
    assert second["chosen"] == 1, (caption, second)

    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "lab-08-decision-browser-laptop.png")
    screens.check("lab-08 decision browser, laptop, file browser open")
    toggle_file_browser(page)  # a phone has no room for Lab's sidebar
    screens.check("lab-08 decision browser, laptop, file browser closed")
    page.set_viewport_size(SIZES["phone"])
    browser.evaluate("box => box.scrollIntoView({block: 'start'})")
    screens.check("lab-08 decision browser, phone", f"{NOTEBOOK_VIEW} .mogul-decision-browser")
    page.screenshot(path=SCREENSHOTS / "lab-08-decision-browser-phone.png")
    assert version_clashes(console) == [], "the widget packages' versions clash"
    screens.assert_clean()
