"""Helpers for the claims tests: the prose of a notebook, and numbers looked up in it.

A claims test computes a number with the kit's tested code and asserts that the notebook's
markdown states exactly that number (formatted as the prose writes it), so changing either
the code's result or the prose fails the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def prose(name: str) -> str:
    """The markdown of notebook ``name`` (a file in ``notebooks/``), cells joined, the
    Unicode minus written as "-", a dollar escaped from Lab's LaTeX (``\\$``) as a plain "$"
    and line breaks as spaces (prose wraps anywhere)."""
    cells = json.loads((NOTEBOOKS / name).read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return re.sub(r"\s+", " ", re.sub(r"\\+\$", "$", text).replace("\u2212", "-"))


def states(text: str, *phrases: str) -> None:
    """Assert that ``text`` holds every phrase (whitespace-normalised), naming the missing one."""
    for phrase in phrases:
        wanted = re.sub(r"\s+", " ", phrase.replace("\u2212", "-"))
        assert wanted in text, f"the notebook does not state {wanted!r}"


def money(value: float) -> str:
    """A dollar amount as the prose writes it: "$6.73", "-$1.90"."""
    return f"-${-value:.2f}" if value < 0 else f"${value:.2f}"


def interval(low: float, high: float) -> str:
    """An interval as the prose writes it: "6.56 to 6.89"."""
    return f"{low:.2f} to {high:.2f}"


def solution_cells(name: str) -> list[dict]:
    """The code cells of notebook ``name`` tagged ``solution`` (the checks of the worked
    solutions), as stored: source, metadata and outputs."""
    cells = json.loads((NOTEBOOKS / name).read_text())["cells"]
    return [c for c in cells if "solution" in c.get("metadata", {}).get("tags", [])]


def check_the_exercises(name: str, count: int) -> None:
    """Assert that notebook ``name`` sets ``count`` exercises ("### Exercise 1" ...), each with
    a worked solution folded in ``<details>``, and that every solution check is hidden (source
    and output) and prints no answer: only "Exercise N: the worked solution agrees ..."."""
    cells = json.loads((NOTEBOOKS / name).read_text())["cells"]
    text = ["".join(c["source"]) for c in cells]
    for n in range(1, count + 1):
        at = next((i for i, t in enumerate(text) if f"### Exercise {n}\n" in t), None)
        assert at is not None, f"the notebook sets no exercise {n}"
        assert "<details>" in text[at + 1], f"exercise {n} has no folded worked solution"
    checks = solution_cells(name)
    assert len(checks) == count, f"{len(checks)} solution checks for {count} exercises"
    for n, cell in enumerate(checks, start=1):
        hidden = cell["metadata"].get("jupyter", {})
        assert hidden.get("source_hidden") and hidden.get("outputs_hidden"), f"check {n} shows"
        printed = "".join("".join(o.get("text", "")) for o in cell["outputs"])
        assert re.fullmatch(rf"Exercise {n}: the worked solution agrees with [^\d]*\n", printed), (
            f"the check of exercise {n} prints more than that it agrees: {printed!r}"
        )
