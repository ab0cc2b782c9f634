"""The widget state a notebook saves, kept small: ``python -m mogul.widgets.saved_state
notebooks/*.ipynb`` (``make notebooks`` runs it after executing them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

__all__ = ["slim_saved_widgets"]


def slim_saved_widgets(path: str | Path) -> int:
    """Leave plotly's bundle (``_plotly_esm``, 5 MB) out of the widget state saved in the
    notebook at ``path``; returns the characters removed.

    A notebook executed with its widget state (``jupyter execute`` stores it in
    ``metadata.widgets``) lets JupyterLab draw the players, tables and buttons before the
    reader runs it; a live chart there says to run the notebook instead (the loader of ``mogul.widgets.live``), so
    the notebook need not carry the bundle once per chart (61 MB for notebook 03).
    """
    path = Path(path)
    notebook = json.loads(path.read_text())
    saved = notebook.get("metadata", {}).get("widgets", {})
    models = saved.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    removed = 0
    for model in models.values():
        state = model.get("state", {})
        if state.get("_plotly_esm"):
            removed += len(state["_plotly_esm"])
            state["_plotly_esm"] = ""
    text = _numbered(json.dumps(notebook, indent=1, ensure_ascii=False), list(models))
    path.write_text(text + "\n")
    return removed


def _numbered(text: str, ids: list[str]) -> str:
    """``text`` with each widget model id replaced by its rank of first appearance: a kernel
    draws fresh random ids every run, which made each re-run of a notebook rewrite thousands
    of lines of its saved state; numbered, a re-run changes only what really changed."""
    order = sorted((i for i in ids if re.fullmatch("[0-9a-f]{32}", i)), key=text.find)
    number = {old: f"{rank:032x}" for rank, old in enumerate(order, 1)}
    return re.sub(
        "(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])", lambda m: number.get(m.group(), m.group()), text
    )


if __name__ == "__main__":  # python -m mogul.widgets.saved_state notebooks/*.ipynb (make notebooks)
    import sys

    for name in sys.argv[1:]:
        print(f"{name}: {slim_saved_widgets(name):,} characters of saved plotly bundles left out")
