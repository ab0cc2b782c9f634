"""What the notebooks say and show, checked on their stored outputs and sources.

A notebook served by Voila never acts on the student's widget behind their back, tables
print dashes rather than ``NaN``, and worked solutions stay folded until opened.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
# The notebook `make voila-player` serves with Voila, where students see widgets but no code.
CLASSROOM = "03-play-against-bots.ipynb"


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


def text(cell: dict) -> str:
    return "".join(cell["source"])


def printed(cell: dict) -> str:
    out = []
    for o in cell.get("outputs", []):
        out.append("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")))
    return "".join(out)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_tables_print_dashes_not_nan(path):
    for cell in cells(path):
        assert not re.search(r"\bNaN\b", printed(cell)), f"NaN printed by: {text(cell)[:80]!r}"


# Notebooks whose worked solutions run code under a folded heading; 04 and 08 solve their
# exercises in prose, each in a closed <details> box (their numbers pinned by their claims tests).
SOLVED = [
    "01-rules-walkthrough",
    "03-play-against-bots",
    "06-rio-grande-edition",
    "07-credit-mobilier",
]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_worked_solutions_are_folded(path):
    """Folded in Lab and in Voila, and still run (and checked by nbval).

    JupyterLab shows a cell's output again whenever it runs the cell (``outputs_hidden`` only
    holds until Run All), so the solution's cells sit under a "Worked solution" heading stored
    collapsed; its reasoning is in a ``<details>`` box. The kit's Voila template folds cells
    tagged ``solution`` in a box of their own (Voila shows no code and ignores Lab's folds).
    """
    all_cells = cells(path)
    headings = [
        i
        for i, c in enumerate(all_cells)
        if c["cell_type"] == "markdown" and text(c).startswith("#### Worked solution")
    ]
    assert bool(headings) == (path.stem in SOLVED)  # a lecturer can set several exercises
    for cell in all_cells:  # a solution in prose opens closed
        if cell["cell_type"] == "markdown":
            closed = re.findall(r"<details>\s*<summary>Solution", text(cell))
            assert len(closed) == text(cell).count("<summary>Solution"), text(cell)[:80]
    for i in headings:
        heading = all_cells[i]
        assert heading["metadata"].get("jp-MarkdownHeadingCollapsed") is True
        body = text(heading).split("\n", 2)[2]
        assert body.startswith("<details>") and body.rstrip().endswith("</details>")
        folded = []
        for cell in all_cells[i + 1 :]:
            if cell["cell_type"] == "markdown" and text(cell).startswith("#"):
                break
            folded.append(cell)
            assert "solution" in cell["metadata"].get("tags", []), text(cell)[:80]
            if cell["cell_type"] == "code":
                assert cell["metadata"].get("jupyter") == {
                    "source_hidden": True,
                    "outputs_hidden": True,
                }
                assert cell["outputs"], "nbval checks the solution's stored output"
        assert any(c["cell_type"] == "code" for c in folded)


def test_the_voila_template_folds_solutions_and_hides_lab_prose():
    template = (
        NOTEBOOKS[0].parents[1] / "share/jupyter/voila/templates/mogul/index.html.j2"
    ).read_text()
    assert '{%- if "lab-only" in tags -%}' in template and "hidden>{{ super() }}" in template
    assert '<details class="mogul-solution">' in template


def test_money_is_text_not_latex():
    # "$2 ... $1" would be typeset as LaTeX in JupyterLab, and so is "\$2 ... \$1": markdown
    # turns "\$" into "$" before MathJax reads the page. "\\$2" reaches MathJax as "\$2", a
    # dollar sign (tests/e2e/test_lab.py counts the letters typeset in notebook 07).
    for cell in cells(NOTEBOOKS[0].parent / "07-credit-mobilier.ipynb"):
        if cell["cell_type"] == "markdown":
            assert not re.search(r"(?<!\\\\)\$", text(cell)), text(cell)[:80]


def test_the_students_view_of_03_shows_the_games_not_the_code():
    shown = [
        c
        for c in cells(NOTEBOOKS[0].parent / CLASSROOM)
        if "lab-only" not in c["metadata"].get("tags", [])
    ]
    prose = " ".join(text(c) for c in shown if c["cell_type"] == "markdown")
    for word in ("GameSession", "values_from_state", "mogul/"):
        assert word not in prose, word
    games = [text(c) for c in shown if c["cell_type"] == "code" and "player(" in text(c)]
    assert len(games) >= 2  # watch a round, your seat


def test_the_classroom_notebook_never_plays_the_students_game():
    widgets = set()
    for cell in cells(Path(NOTEBOOKS[0]).parent / CLASSROOM):
        source = text(cell)
        if cell["cell_type"] == "markdown":
            assert not re.search(r"\brun (these|this|the) cells?\b", source, re.I), source[:80]
            continue
        # the widgets a cell displays (its last line names them) are the students' own
        last = source.strip().splitlines()[-1]
        if re.fullmatch(r"\w+", last):
            widgets.add(last)
        for name in widgets:
            acts = re.search(
                rf"\b{name}\.(\w+_button\.click\(|action_buttons|act\(|undo\(|step\(|next_round\(|play_to_end\(|new_game\()",
                source,
            )
            assert not acts, f"a cell moves the displayed game {name!r}: {acts.group(0)}"
    assert {"watch", "app"} <= widgets
