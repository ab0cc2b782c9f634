"""Where the kit's data files are: ``data/`` in a checkout, ``mogul/data`` in an installed wheel."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def data_path(*parts: str) -> Path:
    """Path of a file under the kit's ``data/`` folder, from a checkout or an installed wheel."""
    packaged = resources.files("mogul") / "data"
    base = (
        Path(str(packaged)) if packaged.is_dir() else Path(__file__).resolve().parents[2] / "data"
    )
    return base.joinpath(*parts)
