"""The charts a notebook was saved with, as JupyterLab draws them before Run All: every one
drawn, each point inside the axes it shows (02's payoff curve once drew a point at k = 9 on an
axis that ended at 8.5, cut off at the chart's edge)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from screens import data_out_of_view, wait_for_charts
from test_lab import NOTEBOOK_VIEW

PLOTLY = "application/vnd.plotly.v1+json"

# The titles of the charts drawn in the open notebook now (Lab draws only the cells near the
# screen, so the notebook is read a screen at a time).
TITLES = """(root) => [...root.querySelectorAll('.js-plotly-plot')]
  .filter(gd => gd._fullLayout)
  .map(gd => ((gd._fullLayout.title || {}).text || ''))"""

SCROLL = """(root) => {
  const box = root.closest('.jp-WindowedPanel-outer') || root.parentElement;
  const before = box.scrollTop;
  box.scrollTop = before + box.clientHeight * 0.8;
  return box.scrollTop > before;
}"""


def saved_titles(notebook: Path) -> set[str]:
    """The titles of the plotly charts saved in the notebook's outputs."""
    titles = set()
    for cell in json.loads(notebook.read_text())["cells"]:
        for output in cell.get("outputs", []):
            figure = output.get("data", {}).get(PLOTLY)
            if figure:
                title = figure["layout"].get("title", {})
                titles.add(title.get("text", "") if isinstance(title, dict) else title)
    return titles


@pytest.mark.parametrize("name", ["02-auction-theory.ipynb", "06-rio-grande-edition.ipynb"])
def test_saved_charts_are_drawn_with_their_data_inside_their_axes(
    lab, notebook_dir: Path, page: Page, name: str
) -> None:
    expected = saved_titles(notebook_dir / name)
    assert expected, f"{name} was saved without a chart"
    page.goto(f"{lab.url}lab/tree/{name}?reset")
    view = page.locator(NOTEBOOK_VIEW)
    expect(view.locator(".jp-MarkdownOutput").first).to_be_visible(timeout=90_000)
    seen: set[str] = set()
    problems: list[str] = []
    # At the bottom, Lab may still be drawing the last cells (their heights were estimates,
    # and a drawn chart makes the notebook longer): the end is three looks that find no more.
    looks = 0
    while looks < 3:
        wait_for_charts(page, NOTEBOOK_VIEW)
        seen.update(view.evaluate(TITLES))
        problems += data_out_of_view(page, NOTEBOOK_VIEW)
        looks = 0 if view.evaluate(SCROLL) else looks + 1
        page.wait_for_timeout(200)  # Lab draws the cells that came into view
    assert expected <= seen, f"charts saved but not drawn: {sorted(expected - seen)}"
    assert not problems, "\n".join(sorted(set(problems)))
