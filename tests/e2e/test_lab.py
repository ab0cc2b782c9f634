"""Notebook 03 in JupyterLab: run all cells, play a round with the buttons, see the chart."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

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


def test_lab_runs_notebook_and_plays_a_round(lab, notebook_path: Path, page: Page, game) -> None:
    page.goto(lab.app_url)
    kernel_idle = page.locator("#jp-main-statusbar").get_by_text("Idle")
    expect(kernel_idle, "the notebook's kernel did not start").to_be_visible(timeout=90_000)
    run_all_cells(page)
    page.wait_for_function(ALL_CELLS_RUN, arg=code_cells(notebook_path), timeout=150_000)

    stderr = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert stderr.count() == 0, f"a cell wrote an error or a warning: {stderr.all_inner_texts()}"

    game.expect_rendered("JupyterLab")
    game.play_next_round()
    game.player.evaluate("box => box.scrollIntoView({block: 'start'})")
    game.screenshot("lab-03-after-next-round.png")
