"""The widget state a notebook saves, kept small: ``python -m mogul.widgets.saved_state
notebooks/*.ipynb`` (``make notebooks`` runs it after executing them)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

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
    number = {old: f"{rank:032x}" for rank, old in enumerate(_in_order(notebook, models), 1)}
    text = json.dumps(notebook, indent=1, ensure_ascii=False)
    text = re.sub(_ID, lambda m: number.get(m.group(), m.group()), text)
    # as nbformat writes it (keys sorted), so the models come in their new numbers' order
    text = json.dumps(json.loads(text), indent=1, ensure_ascii=False, sort_keys=True)
    traces = dict.fromkeys(re.findall(_UID, text))  # plotly's random trace ids, in order
    trace = {uid: f"00000000-0000-4000-8000-{rank:012x}" for rank, uid in enumerate(traces, 1)}
    text = re.sub(_UID, lambda m: trace[m.group()], text)
    path.write_text(text + "\n")
    return removed


_ID = "(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])"  # a kernel's widget model id
_UID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"  # a random UUID


def _in_order(notebook: dict[str, Any], models: dict[str, Any]) -> list[str]:
    """The saved models in an order that does not depend on their ids: each output's widget,
    then the models it refers to, depth first; then the models no output shows (a kernel keeps
    old ones), from those nothing refers to, by what they hold.

    A kernel draws fresh random ids every run; numbered in this order, a re-run of a notebook
    rewrites only what really changed (it used to rewrite thousands of lines of saved state)."""
    refers = {
        i: re.findall("IPY_MODEL_(" + _ID + ")", json.dumps(m, sort_keys=True))
        for i, m in models.items()
    }
    order: dict[str, None] = {}

    def visit(model_id: str) -> None:
        if model_id in models and model_id not in order:
            order[model_id] = None
            for ref in refers[model_id]:
                visit(ref)

    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json", {})
            if "model_id" in view:
                visit(view["model_id"])
    held: dict[str, str] = {}

    def holds(model_id: str, path: tuple[str, ...] = ()) -> str:
        """What a model holds, with the models it refers to in place of their ids."""
        if model_id not in held:
            if model_id in path or model_id not in models:
                return ""
            text = json.dumps(models[model_id], sort_keys=True)
            for ref in refers[model_id]:
                text = text.replace(ref, holds(ref, (*path, model_id)))
            held[model_id] = hashlib.sha1(text.encode()).hexdigest()
        return held[model_id]

    referred = {ref for refs in refers.values() for ref in refs}
    for model_id in sorted(set(models) - referred - set(order), key=holds):
        visit(model_id)
    for model_id in sorted(set(models) - set(order), key=holds):  # only in a cycle
        visit(model_id)
    return list(order)


if __name__ == "__main__":  # python -m mogul.widgets.saved_state notebooks/*.ipynb (make notebooks)
    import sys

    for name in sys.argv[1:]:
        print(f"{name}: {slim_saved_widgets(name):,} characters of saved plotly bundles left out")
