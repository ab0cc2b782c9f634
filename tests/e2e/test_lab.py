"""Notebooks in JupyterLab: run all cells, press the game's buttons, see the live chart follow.

Notebook 03 plays a round of Mogul; notebook 07 a Credit Mobilier unit action on the board.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import SCREENSHOTS, version_clashes
from playwright.sync_api import Locator, Page, expect
from screens import SIZES, Screens, wait_for_charts

# The open notebook (Lab may keep another notebook's tab, hidden, from an earlier test).
NOTEBOOK_VIEW = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"

# True once the open notebook shows `n` code cells, each with an execution count ("[3]:"), none
# queued or running ("[*]:").
ALL_CELLS_RUN = """(n) => {
  const prompts = [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
  return prompts.length === n && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
}"""


def code_cells(notebook: Path) -> int:
    """Code cells that show their input (a folded worked solution shows no prompt)."""
    return sum(
        cell["cell_type"] == "code" and not cell["metadata"].get("jupyter", {}).get("source_hidden")
        for cell in json.loads(notebook.read_text())["cells"]
    )


def run_all_cells(page: Page) -> None:
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def open_notebook(page: Page, url: str) -> Locator:
    """Open ``url`` (a notebook alone: ``?reset``) and wait for its kernel; the status bar's
    "Idle", to wait on again after a click."""
    page.goto(url)
    kernel_idle = page.locator("#jp-main-statusbar").get_by_text("Idle")
    expect(kernel_idle, "the notebook's kernel did not start").to_be_visible(timeout=90_000)
    return kernel_idle


def run_whole_notebook(page: Page, lab: Any, notebook: Path) -> Locator:
    """Open ``notebook`` (the served copy) in ``lab`` alone, Run All, and wait until every code
    cell has run with nothing written to stderr; the status bar's "Idle" (``open_notebook``)."""
    kernel_idle = open_notebook(page, f"{lab.url}lab/tree/{notebook.name}?reset")
    run_all_cells(page)
    page.wait_for_function(ALL_CELLS_RUN, arg=code_cells(notebook), timeout=150_000)
    stderr = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert stderr.count() == 0, f"a cell wrote an error or a warning: {stderr.all_inner_texts()}"
    return kernel_idle


def expect_no_popup(page: Page) -> None:
    """No news or update toast over the notebook (the kit's Lab settings turn them off)."""
    toasts = page.locator(".jp-toast-message, .Toastify__toast")
    assert toasts.count() == 0, f"a pop-up covers the page: {toasts.all_inner_texts()}"


def expect_solution_folded(page: Page, answer: str) -> None:
    """After Run All the worked solution's answer is not on screen until the reader opens it:
    Lab shows outputs again when it runs a cell, so the solution sits under a collapsed
    "Worked solution" heading (one per exercise)."""
    heading = page.locator(f"{NOTEBOOK_VIEW} h4", has_text="Worked solution")
    expect(heading.first).to_be_attached()
    assert (
        page.locator(f"{NOTEBOOK_VIEW} .jp-OutputArea-output")
        .filter(has_text=answer)
        .filter(visible=True)
        .count()
        == 0
    ), f"the worked solution's answer ({answer!r}) is on screen after Run All"


def toggle_file_browser(page: Page) -> None:
    """Open or close Lab's left sidebar (the file browser), as a reader does with Ctrl+B."""
    page.locator(NOTEBOOK_VIEW).first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+b")


def check_player_at_every_size(page: Page, screens: Screens, name: str) -> None:
    """The open notebook's player after an interaction: laptop with the file browser open and
    closed, then a phone; geometry and data checks each time, a screenshot against its baseline
    at laptop and phone size. The viewport is left at laptop size."""
    player = page.locator(f"{NOTEBOOK_VIEW} .mogul-game-player").first
    screens.check(f"{name}, laptop, file browser open")
    screens.match(f"{name}-laptop", player)
    toggle_file_browser(page)
    screens.check(f"{name}, laptop, file browser closed")
    page.set_viewport_size(SIZES["phone"])
    # On a phone people use the Voila pages (tests/e2e/test_layout.py checks them whole); in
    # Lab the player must still fit (static figures keep titles a phone cannot hold).
    screens.check(f"{name}, phone", f"{NOTEBOOK_VIEW} .mogul-game-player")
    screens.check_touch(f"{name}, phone", f"{NOTEBOOK_VIEW} .mogul-game-player")
    screens.match(f"{name}-phone", player)
    page.set_viewport_size(SIZES["laptop"])
    toggle_file_browser(page)


# The panel's first chart (the decision being analysed): its title once a decision is analysed.
ANALYSED = "gd => ((gd.layout.title || {}).text || '').endsWith(' to move')"


# Each bar of the analysis chart: its value, its interval's two arms and the hover's numbers
# (mean score with its interval, win chance).
ALIKE_BARS = """gd => gd.data[0].x.map((x, i) =>
  [x, gd.data[0].error_x.array[i], gd.data[0].error_x.arrayminus[i], ...gd.data[0].customdata[i]])"""

# The player's payoff curve: the k axis's top, where the curve stops changing, the pot now.
CURVE_AXIS = """() => {
  const gd = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .js-plotly-plot')]
    .find(g => ((g.layout.title || {}).text || '').includes('payoff of dropping'));
  if (!gd) return null;
  const ys = gd.data[0].y, xs = gd.data[0].x;
  let moved = 0;
  ys.forEach((y, i) => { if (y !== ys[ys.length - 1]) moved = i + 1; });
  return {top: gd._fullLayout.xaxis.range[1], reach: xs[Math.min(moved, xs.length - 1)],
          pot: gd.data[3].x[0], title: gd.layout.title.text};
}"""


def check_analysis_at_every_size(page: Page, screens: Screens, name: str) -> None:
    """The open notebook's "analyse this position" panel (``app.position_analysis()``): shown,
    one bar per action, its caption, nothing cut at laptop size and on a phone (the file
    browser closed); screenshots ``<name>-laptop.png`` and ``<name>-phone.png``. The viewport
    is left at laptop size, the file browser as it was."""
    root = f"{NOTEBOOK_VIEW} .mogul-position-analysis"
    panel = page.locator(root).first
    expect(panel, "the analysis panel is not shown").to_be_visible(timeout=30_000)
    chart = panel.locator(".js-plotly-plot").first
    page.wait_for_function(ANALYSED, arg=chart.element_handle(), timeout=60_000)
    bars = chart.evaluate("gd => gd.data.map(t => (t.y || []).length)")
    assert len(bars) == 1 and bars[0] >= 2, f"bars per trace: {bars}"  # one bar per action
    # moves whose rollouts came out alike share a bar (07's first turn drew 21 equal ones),
    # and the bars are not all empty (every win chance 0: the mean score instead)
    values = chart.evaluate(ALIKE_BARS)
    assert len(set(map(tuple, values))) == len(values), f"bars alike: {values}"
    assert any(abs(bar[0]) > 0 for bar in values), f"every bar is empty: {values}"
    expect(panel).to_contain_text("with its 95% interval")
    SCREENSHOTS.mkdir(exist_ok=True)
    for size, browser_open in (("laptop", True), ("phone", False)):
        if not browser_open:
            toggle_file_browser(page)
        page.set_viewport_size(SIZES[size])
        panel.evaluate("box => box.scrollIntoView({block: 'start'})")
        screens.check(f"{name}, {size}", root)
        # Lab lays out the cells above again as they come into view (their heights were
        # estimates), which moves the panel: bring it back for the picture
        panel.evaluate("box => box.scrollIntoView({block: 'start'})")
        wait_for_charts(page, root)
        page.screenshot(path=SCREENSHOTS / f"{name}-{size}.png")
    page.set_viewport_size(SIZES["laptop"])
    toggle_file_browser(page)


def test_lab_runs_notebook_and_plays_a_round(lab, notebook_path: Path, page: Page, game) -> None:
    open_notebook(page, f"{lab.app_url}?reset")  # this notebook alone: one Lab serves every test
    # Before Run All: the players drawn from the saved widget state, not a line of Python
    # (`GamePlayer(children=(HTML(value=...`), and the first cell says to run the notebook
    view = page.locator(NOTEBOOK_VIEW)
    expect(view.locator(".jp-MarkdownOutput").get_by_text("First run the notebook")).to_be_visible()
    first = view.locator(".jp-CodeCell").first  # the bots' game
    first.scroll_into_view_if_needed()
    output = first.locator(".jp-OutputArea-output").first
    expect(output).to_be_visible(timeout=30_000)
    assert not re.search(r"\w+\(children=", output.inner_text()), output.inner_text()[:100]
    expect(output.locator(".mogul-game-player")).to_be_visible(timeout=30_000)
    run_all_cells(page)
    page.wait_for_function(ALL_CELLS_RUN, arg=code_cells(notebook_path), timeout=150_000)

    stderr = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert stderr.count() == 0, f"a cell wrote an error or a warning: {stderr.all_inner_texts()}"
    expect_no_popup(page)
    expect_solution_folded(page, "drop at once:")

    game.expect_rendered("JupyterLab")
    screens = Screens(page, NOTEBOOK_VIEW)
    screens.check("lab-03 after Run All")
    # Ann's payoff curve (she holds 6 chips): the k axis ends where the curve stops changing,
    # so her decision fills the chart (it ran to k = 24, the decision in its first third)
    curve = page.wait_for_function(CURVE_AXIS, timeout=30_000).json_value()
    assert curve["top"] <= max(curve["reach"], curve["pot"] + 1) + 1, curve
    game.play_next_round()
    game.play_next_steps(4)  # the pot climbs: the auction chart's axes must follow it
    game.player.evaluate("box => box.scrollIntoView({block: 'start'})")
    game.screenshot("lab-03-after-next-round.png")
    check_player_at_every_size(page, screens, "lab-03-next-round")
    check_analysis_at_every_size(page, screens, "lab-03-analysis")
    assert version_clashes(game.console) == [], "the widget packages' versions clash"
    screens.assert_clean()


CREDIT_MOBILIER = "07-credit-mobilier.ipynb"
BOARD_TITLE = "gd => (gd.layout.title || {}).text || ''"


def test_lab_runs_credit_mobilier_and_a_button_moves_the_board(
    lab, notebook_dir: Path, page: Page, console: list[str], local_only: None
) -> None:
    run_whole_notebook(page, lab, notebook_dir / CREDIT_MOBILIER)
    screens = Screens(page, NOTEBOOK_VIEW)
    expect_solution_folded(page, "the worked solution agrees with the engine")
    # Amounts in dollars are text, not LaTeX: the rules table keeps its rows.
    rules = page.locator(f"{NOTEBOOK_VIEW} .jp-MarkdownOutput table").first
    expect(rules).to_contain_text("bank → Credit Mobilier treasury, $2")
    expect(rules.locator("tbody tr")).to_have_count(4)  # build, move, buy, dividends
    # LaTeX draws letters as math identifiers, in italics, run together
    math = page.locator(f"{NOTEBOOK_VIEW} .jp-MarkdownOutput mjx-container mjx-mi")
    assert math.count() == 0, f"notebook 07 typesets {math.count()} letters as LaTeX"

    # the open notebook's player (Lab may keep notebook 03's tab, hidden, from another test)
    player = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .mogul-game-player").first
    expect(player.get_by_role("button", name="Next turn")).to_be_visible(timeout=30_000)
    expect(player.locator(".mogul-die")).to_have_count(5)
    # Ann's 25 legal actions: a row at a time, picked by name, not a wall of buttons
    actions = player.locator("button.mod-primary").filter(visible=True)
    assert 0 < actions.count() <= 16, f"{actions.count()} action buttons at once"
    expect(player.locator(".widget-toggle-buttons").get_by_text("Buy (4)")).to_be_visible()
    board = player.locator(".mogul-charts .js-plotly-plot").first
    expect(board.locator(".main-svg").first).to_be_visible(timeout=30_000)
    page.wait_for_function(
        f"gd => ({BOARD_TITLE})(gd).includes('Ann, to choose')",
        arg=board.element_handle(),
        timeout=30_000,
    )
    screens.check("lab-07 after Run All")
    action = player.locator("button.mod-primary").first  # Ann's first legal unit action
    expect(action).to_be_visible()
    action.click()
    try:  # the live board follows: its title names the colour and kind Ann chose
        page.wait_for_function(
            f"gd => /Ann, (build|move|buy|dividends) /.test(({BOARD_TITLE})(gd))",
            arg=board.element_handle(),
            timeout=30_000,
        )
    except Exception:
        raise AssertionError(
            f"The board did not follow the click.\nBrowser errors: {console[:5]}"
        ) from None
    expect(player.locator(".mogul-die[style*='line-through']").first).to_be_visible(timeout=10_000)
    player.evaluate("box => box.scrollIntoView({block: 'start'})")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "lab-07-after-a-unit-action.png")
    check_player_at_every_size(page, screens, "lab-07-unit-action")
    check_analysis_at_every_size(page, screens, "lab-07-analysis")
    screens.assert_clean()
