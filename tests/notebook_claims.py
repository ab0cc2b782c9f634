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
