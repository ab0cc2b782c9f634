""" "Analyse this position" in JupyterLab where it used to say nothing: a seat that cannot win
whatever it does (every win chance 0: the bars show the mean score instead of an empty chart),
and a game that is over (the panel says so, with no chart)."""

from __future__ import annotations

from pathlib import Path

import nbformat
from playwright.sync_api import Page, expect
from screens import Screens
from test_lab import ALL_CELLS_RUN, NOTEBOOK_VIEW, open_notebook, run_all_cells

NOTEBOOK = "scratch-analysis.ipynb"

# Ann holds 5 chips and no share, Ben and Cai 20 chips each, and the crash is the next card:
# whatever she does, she cannot win. The second table is bots only, one auction from the crash.
CELLS = [
    """import mogul.widgets
behind = mogul.widgets.player(
    "classic", ["human", "value", "value"], seed=1, names=["Ann", "Ben", "Cai"],
    deck=["pink/blue", "crash"], chips=[5, 20, 20], start_player=0,
    starting_shares=[[], ["brown/green"], ["brown/yellow"]])
behind.position_analysis()""",
    """over = mogul.widgets.player("classic", ["value", "value", "value"], seed=2,
                            deck=["pink/blue", "crash"])
display(over)
over.position_analysis()""",
]

# The panel's bars: each bar's value (the win chance, or the mean score when no move wins).
BARS = "gd => (gd.data[0] || {}).x || []"


def test_the_analysis_panel_when_no_move_can_win_and_at_game_over(
    lab, notebook_dir: Path, page: Page
) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, notebook_dir / NOTEBOOK)
    open_notebook(page, f"{lab.url}lab/tree/{NOTEBOOK}?reset")
    run_all_cells(page)
    page.wait_for_function(ALL_CELLS_RUN, arg=len(CELLS), timeout=150_000)

    panels = page.locator(f"{NOTEBOOK_VIEW} .mogul-position-analysis")
    behind = panels.nth(0)
    expect(behind).to_contain_text("Ann", timeout=60_000)
    chart = behind.locator(".js-plotly-plot").first
    expect(chart.locator(".main-svg").first).to_be_visible(timeout=30_000)
    page.wait_for_function(f"gd => ({BARS})(gd).length >= 2", arg=chart.element_handle())
    bars = chart.evaluate(BARS)
    assert any(abs(v) > 0 for v in bars), f"every bar is empty where no move can win: {bars}"
    expect(behind).to_contain_text("mean score")

    over = page.locator(f"{NOTEBOOK_VIEW} .mogul-game-player").last
    over.get_by_role("button", name="Play to end").click()
    panel = panels.nth(1)
    expect(panel).to_contain_text("Game over: no decision is left to analyse", timeout=60_000)
    # the last move's chart stays ("Cai chose ..."); no chart of a decision to come
    titles = [
        gd.evaluate("gd => ((gd._fullLayout || {}).title || {}).text || ''")
        for gd in panel.locator(".js-plotly-plot").filter(visible=True).all()
    ]
    assert not [t for t in titles if "to move" in t], f"a decision charted at game over: {titles}"
    Screens(page, NOTEBOOK_VIEW).check("analysis where no move wins, and at game over")
