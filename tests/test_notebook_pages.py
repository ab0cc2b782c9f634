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
# The notebook `make classroom` serves with Voila, where students see widgets but no code.
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_worked_solutions_are_folded(path):
    all_cells = cells(path)
    for i, cell in enumerate(all_cells):
        if "Worked solution" in text(cell) and cell["cell_type"] == "markdown":
            assert text(cell).startswith("<details>") and text(cell).rstrip().endswith("</details>")
            following = all_cells[i + 1]
            if following["cell_type"] == "code":
                assert following["metadata"].get("jupyter") == {"source_hidden": True, "outputs_hidden": True}


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
            acts = re.search(rf"\b{name}\.(\w+_button\.click\(|action_buttons|act\(|undo\(|step\(|next_round\(|play_to_end\(|new_game\()", source)
            assert not acts, f"a cell moves the displayed game {name!r}: {acts.group(0)}"
    assert {"watch", "app"} <= widgets
