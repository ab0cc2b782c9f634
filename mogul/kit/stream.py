"""Tables written chunk by chunk as the games finish: memory stays bounded however many games.

``Writer`` is a sink for ``mogul.kit.batch.run_chunks``: each chunk of games is appended to
one file per table, ``folder/<table>.csv`` (the rows as pandas' ``to_csv`` writes them) or
``folder/<table>.parquet`` (one row group per chunk) or ``folder/<table>.feather`` (Arrow's
file format, one LZ4-compressed record batch per chunk: the fastest to write, read with
``pandas.read_feather``); the last two need pyarrow and keep text as dictionary columns.
CSV and Feather chunks come encoded, by whichever worker played them
(``mogul.kit.batch.play_chunk``): here they are only appended. After every chunk the
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

from mogul.kit.arrow_ipc import FileAssembler, encode
from mogul.kit.columns import Columns, arrow_table, csv_bytes, rows


class Writer:
    """Appends each chunk's tables to ``folder/<name>.<format>`` ("csv", "parquet", "feather")."""

    def __init__(
        self,
        folder: str | Path,
        format: str = "csv",
        progress: Callable[[Writer], None] | None = None,
    ):
        if format not in ("csv", "parquet", "feather"):
            raise ValueError(f"format must be 'parquet', 'feather' or 'csv', got {format!r}")
        self.folder, self.format, self.progress = Path(folder), format, progress
        # run_chunks has the workers encode CSV and Feather (their compressed IPC messages);
        # Parquet is made here from the columns
        self.encode = format if format in ("csv", "feather") else None
        self.folder.mkdir(parents=True, exist_ok=True)
        self.paths: dict[str, Path] = {}
        self.rows: dict[str, int] = {}
        self.games = 0
        self._files: dict[str, Any] = {}

    def add(self, tables: dict[str, Any], games: int, counts: dict[str, int] | None = None) -> None:
        """Append one chunk (``games`` games) to every table's file: each table as columns,
        or already encoded (CSV bytes, the header in the first chunk; or Feather's
        ``arrow_ipc.Encoded``) with its rows in ``counts``."""
        for name, table in tables.items():
            first = name not in self._files
            if isinstance(table, dict):
                count = rows(table)
                table = self._encoded(table, header=first)
            else:
                count = counts[name] if counts is not None else 0
            if first:
                self.paths[name] = self.folder / f"{name}.{self.format}"
                self.rows[name] = 0
                self._files[name] = self._open(self.paths[name], table)
            self._append(name, table)
            self.rows[name] += count
        self.games += games
        if self.progress is not None:
            self.progress(self)

    def _encoded(self, columns: Columns, header: bool) -> Any:
        if self.format == "csv":
            return csv_bytes(columns, header)
        if self.format == "feather":
            return encode(arrow_table(columns))
        return arrow_table(columns)

    def _open(self, path: Path, table: Any) -> Any:
        if self.format == "csv":
            return open(path, "wb")
        if self.format == "feather":
            return FileAssembler(open(path, "wb"))
        import pyarrow.parquet as pq

        return pq.ParquetWriter(path, table.schema)

    def _append(self, name: str, table: Any) -> None:
        handle = self._files[name]
        if self.format == "csv":
            handle.write(table)
            handle.flush()
        elif self.format == "feather":
            handle.add(table)
        else:
            handle.write_table(table)

    def close(self) -> None:
        """Close the files (a Parquet or Feather file is readable only once closed)."""
        for handle in self._files.values():
            handle.close()
            if isinstance(handle, FileAssembler):
                handle.sink.close()
        self._files.clear()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
