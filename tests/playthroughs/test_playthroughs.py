"""Golden playthroughs: a fresh seeded game of every registered game and edition (and the toy
game) must match its file in ``tests/playthroughs`` line for line.

Any change in the rules' behaviour (a dealt card, a chip, a legal action, an event) shows as
a diff. When the change is intended, regenerate the files and commit them with the change:
``python tests/playthroughs/generate.py`` (or ``make playthroughs``).
"""

from __future__ import annotations

import difflib

import pytest
from generate import COMMAND, HERE, playthroughs, text

CASES = playthroughs()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.path.stem)
def test_a_fresh_playthrough_matches_its_file(case, toy):
    if not case.path.exists():
        pytest.fail(
            f"no playthrough file {case.path.name}; create it with `{COMMAND}` and commit it"
        )
    golden = case.path.read_text(encoding="utf-8")
    fresh = text(case)
    if fresh != golden:
        diff = difflib.unified_diff(
            golden.splitlines(),
            fresh.splitlines(),
            "golden " + case.path.name,
            "fresh",
            lineterm="",
            n=2,
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(
            f"{case.path.name} no longer matches a fresh playthrough (the rules behave "
            f"differently). If the change is intended, run `{COMMAND}` and commit the files. "
            f"First lines of the diff:\n{shown}"
        )


def test_every_file_belongs_to_a_playthrough():
    expected = {case.path.name for case in CASES}
    stray = sorted(p.name for p in HERE.glob("*.txt") if p.name not in expected)
    assert not stray, (
        f"playthrough files of no current game or edition: {stray}; "
        "delete them or add them to CHOSEN in generate.py"
    )


def test_the_files_cover_the_chosen_games():
    names = {case.path.name for case in CASES}
    assert {"mogul-classic-4p-seed7.txt", "mogul-classic-3p-seed1.txt"} <= names
    assert any(name.startswith("toy-toy-race-") for name in names)


def test_a_playthrough_ends_with_the_result(toy):
    case = next(c for c in CASES if c.game == "toy")
    lines = text(case).splitlines()
    assert lines[-2].startswith("final_scores: (") and lines[-1].startswith("winners: (")
    decisions = int(next(line for line in lines if line.startswith("decisions: ")).split()[1])
    assert sum(line.startswith("action: ") for line in lines) == decisions > 0
    assert sum(line.startswith("## state ") for line in lines) == decisions + 1
    assert not any(line.startswith(("setup: RaceSetup", "edition: Edition")) for line in lines)
