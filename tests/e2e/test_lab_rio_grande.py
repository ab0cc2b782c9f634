"""Notebook 06 in JupyterLab: run all cells, found a branch with the buttons, the map follows."""

from __future__ import annotations

from pathlib import Path

from conftest import SCREENSHOTS, version_clashes
from playwright.sync_api import Page, expect
from screens import Screens
from test_lab import (
    NOTEBOOK_VIEW,
    check_analysis_at_every_size,
    check_player_at_every_size,
    run_whole_notebook,
)

NOTEBOOK = "06-rio-grande-edition.ipynb"

# The title and the points per trace name of a plotly chart, read from the page (an empty
# point, null, keeps a trace's legend entry and is not counted).
CHART = """gd => ({title: (gd.layout.title || {}).text || '',
             points: Object.fromEntries(gd.data.map(t => [t.name, (t.x || []).filter(v => v !== null).length]))})"""


def test_lab_runs_notebook_06_and_a_branch_shows_on_the_map(
    lab, notebook_dir: Path, page: Page, console: list[str], local_only: None
) -> None:
    # One Lab server serves every browser test and keeps its workspace: "?reset" opens this
    # notebook alone, not beside one an earlier test left open (whose widgets come first).
    kernel_idle = run_whole_notebook(page, lab, notebook_dir / NOTEBOOK)

    screens = Screens(page, NOTEBOOK_VIEW)
    player = page.locator(f"{NOTEBOOK_VIEW} .mogul-game-player").first
    player.evaluate("box => box.scrollIntoView({block: 'start'})")
    chart = player.locator(".mogul-charts .js-plotly-plot").first  # the map comes first
    expect(chart.locator(".main-svg").first).to_be_visible(timeout=30_000)
    page.wait_for_function(
        "gd => gd.data && gd.data.length === 13", arg=chart.element_handle(), timeout=30_000
    )
    first = chart.evaluate(CHART)
    assert first["title"] == "Network: 0 of 30 stations taken", first
    assert first["points"]["interchange"] == 5 and first["points"]["station"] == 25, first
    table = player.locator(".mogul-game").first.bounding_box()
    assert chart.bounding_box()["x"] >= table["x"] + table["width"] - 1, (
        "the map is not beside the table"
    )
    screens.check("lab-06 after Run All")

    # Ann (the human) bids (or drops, without chips) until she holds the sell right; buttons for
    # new options may be drawn a moment after the table, so look for them before each click,
    # once the kernel is idle again (every update of the last click has come by then).
    branch = player.get_by_role("button", name="Branch at")
    for _ in range(40):
        expect(kernel_idle).to_be_visible(timeout=30_000)
        try:
            expect(branch.first).to_be_visible(timeout=1_000)
            break
        except AssertionError:
            pass
        bid = player.get_by_role("button", name="Bid 1 chip")
        button = bid if bid.count() else player.locator(".widget-button.mod-primary").first
        before = player.locator(".mogul-game").first.inner_text()
        button.click()
        expect(player.locator(".mogul-game").first).not_to_have_text(before, timeout=30_000)
    choices = branch.count()
    assert choices > 0, "Ann never held the sell right"
    page.wait_for_function(
        """([gd, n]) => ((gd.layout.title || {}).text || '').startsWith('Ann may branch on')
                        && gd.data.find(t => t.name === 'free now').x.filter(v => v !== null).length === n""",
        arg=[chart.element_handle(), choices],
        timeout=30_000,
    )
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "lab-06-branch-choices.png")

    station = branch.first.inner_text().strip().removeprefix("Branch at ")
    branch.first.click()
    page.wait_for_function(
        "gd => gd.data.find(t => t.name === 'Ann').x.filter(v => v !== null).length === 1",
        arg=chart.element_handle(),
        timeout=30_000,
    )
    after = chart.evaluate(CHART)
    assert after["title"].startswith(("Network: ", "Ann may branch on")), after
    assert after["points"]["last house"] == 1, after
    table_text = player.locator(".mogul-game").first.inner_text()
    assert station in table_text, f"Ann's house at {station} is not in the table"
    page.screenshot(path=SCREENSHOTS / "lab-06-after-branch.png")
    assert not [m for m in console if "blocked request" in m], console
    assert version_clashes(console) == [], "the widget packages' versions clash"
    check_player_at_every_size(page, screens, "lab-06-branch")
    check_analysis_at_every_size(page, screens, "lab-06-analysis")
    screens.assert_clean()
