"""Tables written chunk by chunk as the games finish: memory stays bounded however many games.

``Writer`` is a sink for ``mogul.kit.batch.run_chunks``: each chunk of games is appended to
one file per table, ``folder/<table>.csv`` (the rows as pandas' ``to_csv`` writes them) or
``folder/<table>.parquet`` (one row group per chunk; needs pyarrow). After every chunk the
files hold whole chunks only, and ``progress`` (a callback, e.g. the command line's manifest)
learns how many games and rows they hold; an interrupted run therefore keeps what it wrote.

    >>> import tempfile, numpy as np
    >>> folder = tempfile.mkdtemp()
    >>> writer = Writer(folder, "csv")
    >>> writer.add({"games": {"game": np.array([0, 1]), "score": np.array([30, 25])}}, 2)
    >>> writer.close(); writer.games, writer.rows
    (2, {'games': 2})
    >>> open(writer.paths["games"]).read()
    'game,score\\n0,30\\n1,25\\n'
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from mogul.kit.columns import Columns, arrow_table, csv_bytes, rows


class Writer:
    """Appends each chunk's tables to ``folder/<name>.<format>`` ("csv" or "parquet")."""

    def __init__(
        self,
        folder: str | Path,
        format: str = "csv",
        progress: Callable[[Writer], None] | None = None,
    ):
        if format not in ("csv", "parquet"):
            raise ValueError(f"format must be 'parquet' or 'csv', got {format!r}")
        self.folder, self.format, self.progress = Path(folder), format, progress
        self.folder.mkdir(parents=True, exist_ok=True)
        self.paths: dict[str, Path] = {}
        self.rows: dict[str, int] = {}
        self.games = 0
        self._files: dict[str, Any] = {}

    def add(self, tables: dict[str, Columns], games: int) -> None:
        """Append one chunk (``games`` games) to every table's file."""
        for name, columns in tables.items():
            if name not in self._files:
                self.paths[name] = self.folder / f"{name}.{self.format}"
                self.rows[name] = 0
                self._files[name] = self._open(self.paths[name], columns)
            self._append(name, columns)
            self.rows[name] += rows(columns)
        self.games += games
        if self.progress is not None:
            self.progress(self)

    def _open(self, path: Path, columns: Columns) -> Any:
        if self.format == "csv":
            return open(path, "wb")
        import pyarrow.parquet as pq

        return pq.ParquetWriter(path, arrow_table(columns).schema)

    def _append(self, name: str, columns: Columns) -> None:
        handle = self._files[name]
        if self.format == "csv":
            handle.write(csv_bytes(columns, header=self.rows[name] == 0))
            handle.flush()
        else:
            handle.write_table(arrow_table(columns))

    def close(self) -> None:
        """Close the files (a Parquet file is readable only once closed)."""
        for handle in self._files.values():
            handle.close()
        self._files.clear()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
