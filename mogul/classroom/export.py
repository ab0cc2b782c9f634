"""A class session on disk: its records (JSON), its tidy tables (CSV), and loading it back.

``export_session`` writes one folder per session::

    session.json      which tables, which seats (person or bot), which record file
    <CODE>.json       each table's game as a ``GameRecord`` (format v2: load it anywhere)
    seats.csv         one row per table and seat: name, kind, score, rank, won
    <table>.csv       the game's tidy tables (its GameSpec.tables: one file each), every table's
                      rows with its code in front

Every table names its game twice: ``code`` as the store keeps it (``HDKPDM82``: the key to
join tables on and the name of the record file) and ``table`` as the lecturer's dashboard
and the student page show it (``HDKP-DM82``, ``pretty_code``).

CSV only: parquet would need pyarrow, which is not a dependency of the kit (pandas writes
parquet from these frames in one line where pyarrow is installed). ``load_session`` reads a
folder back, checking every record whole: into an ``ExportedSession`` (no database: the kit
without its classroom extra reads it, as notebook 08 reads the shipped sample) or into a
``TableStore``. Both answer the reads the tables below and the debrief ask.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from mogul.classroom.table import ClassroomError, TableInfo, pretty_code, recorded_table
from mogul.kit.record import MAX_BYTES, GameRecord, strict_json
from mogul.kit.spec import GameSpec

if TYPE_CHECKING:
    from mogul.classroom.store import TableStore

FORMAT = "mogul-classroom-session"
VERSION = 1
MAX_TABLES = 500


class ExportedSession:
    """An exported session read back without a database: its tables and their games, to read.

    It answers what the debrief asks a ``TableStore`` (``tables``, ``info``, ``history``,
    ``actions``, ``record``, ``spec``); nobody can join or move here.
    """

    def __init__(self, session: str, tables: list[tuple[TableInfo, list[Any], GameRecord]]):
        self.session = session
        self._tables = {info.code: (info, states, record) for info, states, record in tables}

    def __repr__(self) -> str:
        return f"ExportedSession({self.session!r}, {len(self._tables)} tables)"

    def _table(self, code: str) -> tuple[TableInfo, list[Any], GameRecord]:
        found = self._tables.get(code)
        if found is None:
            raise ClassroomError(f"there is no table {code!r} in session {self.session!r}")
        return found

    def tables(self, session: str | None = None) -> list[TableInfo]:
        """Every table (of ``session``, if given), as exported."""
        if session not in (None, self.session):
            return []
        return [info for info, _, _ in self._tables.values()]

    def info(self, code: str) -> TableInfo:
        """The table ``code``."""
        return self._table(code)[0]

    def history(self, code: str) -> list[Any]:
        """Every state of the table's game, its first decision first."""
        return list(self._table(code)[1])

    def actions(self, code: str) -> list[str]:
        """The table's actions, as text."""
        return list(self._table(code)[2].actions)

    def record(self, code: str) -> GameRecord:
        """The table's game as exported."""
        return self._table(code)[2]

    def spec(self, code: str) -> GameSpec:
        """The game played at table ``code``."""
        return self._table(code)[2].spec


def _signature(key: bytes, manifest: dict[str, Any]) -> str:
    body = {k: v for k, v in manifest.items() if k != "signature"}
    return hmac.new(key, json.dumps(body, sort_keys=True).encode(), hashlib.sha256).hexdigest()


def slug(text: str) -> str:
    """A file-name-safe form of a session name ("Week 3, Monday" -> "week-3-monday")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "session"


def seats_table(store: TableStore | ExportedSession, session: str | None = None) -> pd.DataFrame:
    """One row per table and seat: code, table, session, status, seat, name, kind, score,
    rank, won (``code`` as stored, ``table`` as the dashboard shows it).

    ``score`` is the game's final score (or what the table shows now, if not over); ``rank``
    1 is best at the table, by the game's own standings; ``won`` says the seat is among the
    winners of a finished game.
    """
    rows = []
    for info in store.tables(session):
        states = store.history(info.code)
        state = states[-1] if states else None
        scores = state.final_scores() if state is not None else [None] * len(info.seats)
        ranks = _ranks(store, info.code, state) if state is not None else [None] * len(info.seats)
        winners = state.winners() if state is not None and state.is_over else ()
        for s in info.seats:
            rows.append(
                {
                    "code": info.code,
                    "table": pretty_code(info.code),
                    "session": info.session,
                    "status": info.status,
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "score": scores[s.seat],
                    "rank": ranks[s.seat],
                    "won": s.seat in winners,
                }
            )
    columns = ["code", "table", "session", "status", "seat", "name", "kind", "score", "rank", "won"]
    return pd.DataFrame(rows, columns=columns)


def _ranks(store: TableStore | ExportedSession, code: str, state: Any) -> list[int]:
    keys = store.spec(code).standings(state)
    return [1 + sum(other > mine for other in keys) for mine in keys]


def game_tables(
    store: TableStore | ExportedSession, session: str | None = None
) -> dict[str, pd.DataFrame]:
    """The games' tidy tables (by the game's table names), every table's rows with its code
    (as stored) and its table (as the dashboard shows it) in front."""
    out: dict[str, list[pd.DataFrame]] = {}
    for info in store.tables(session):
        record = store.record(info.code)
        if record is None:
            continue
        for name in record.spec.tables:
            frame = record.table(name)
            frame.insert(0, "code", info.code)
            frame.insert(1, "table", pretty_code(info.code))
            out.setdefault(name, []).append(frame)
    return {
        name: whole_numbers(pd.concat(frames, ignore_index=True)) for name, frames in out.items()
    }


def whole_numbers(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with float columns that hold only whole numbers (and gaps) as integers.

    A round, a seat or a price is a whole number, but a column with a gap (no winner yet in an
    auction still running) becomes float in pandas, and the CSV would say ``1.0``. The nullable
    ``Int64`` writes ``1``, and nothing for a gap.

    >>> frame = pd.DataFrame({"round": [1.0, 2.0], "winner": [3.0, None], "mean": [0.5, 1.0]})
    >>> print(whole_numbers(frame).to_csv(index=False).strip())
    round,winner,mean
    1,3,0.5
    2,,1.0
    """
    out = frame.copy()
    for column in out.columns:
        values = out[column]
        if pd.api.types.is_float_dtype(values) and (values.dropna() % 1 == 0).all():
            out[column] = values.astype("Int64")
    return out


def export_session(store: TableStore, session: str, folder: str | Path) -> Path:
    """Write the session's records and tables into ``folder/<session slug>``; returns that path."""
    tables = store.tables(session)
    if not tables:
        raise ValueError(f"there are no tables in session {session!r}")
    target = Path(folder) / slug(session)
    target.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "session": session,
        "tables": [],
    }
    for info in tables:
        entry: dict[str, Any] = {
            "code": info.code,
            "status": info.status,
            "game": info.game,
            "edition": info.edition,
            "seats": [s.kind for s in info.seats],
        }
        record = store.record(info.code)
        if record is not None:
            saved = record.save(target / f"{info.code}.json")
            entry["record"] = saved.name
            entry["sha256"] = hashlib.sha256(saved.read_bytes()).hexdigest()
        manifest["tables"].append(entry)
    manifest["signature"] = _signature(store.signing_key(), manifest)
    (target / "session.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    seats_table(store, session).to_csv(target / "seats.csv", index=False)
    for name, frame in game_tables(store, session).items():
        frame.to_csv(target / f"{name}.csv", index=False)
    return target


def load_session(
    folder: str | Path,
    store: TableStore | None = None,
    *,
    key: TableStore | bytes | None = None,
    trust: bool = False,
) -> tuple[TableStore | ExportedSession, str]:
    """Read an exported session: into ``store``, or (by default) an ``ExportedSession``.

    Returns the store or the ``ExportedSession``, and the session's name. Tables that never
    started are skipped (they hold no game); every record is checked whole before anything is
    stored, and against the fingerprint (sha256) the export wrote beside it.

    An export is believed only if its signature checks: ``key`` is the store that exported the
    session (or its key). Anyone can write a game, replay it and recompute its fingerprints, so
    without ``key`` the session is refused, unless ``trust=True`` says on purpose that you
    believe the folder as it is (the kit's own sample, a colleague's export you have no key
    for). The files are read as strict JSON (no ``NaN``, no key twice) in every case.
    """
    folder = Path(folder)
    path = folder / "session.json"
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ValueError(f"{path}: not a readable session file ({err})") from None
    if len(raw) > MAX_BYTES:
        raise ValueError(f"{path}: {len(raw):,} bytes; a session file is at most {MAX_BYTES:,}")
    manifest = strict_json(raw, str(path))
    if (
        not isinstance(manifest, dict)
        or manifest.get("format") != FORMAT
        or manifest.get("version") != VERSION
    ):
        raise ValueError(f'{path}: expected "format": "{FORMAT}", "version": {VERSION}')
    session, entries = manifest.get("session"), manifest.get("tables")
    if not isinstance(session, str) or not isinstance(entries, list) or len(entries) > MAX_TABLES:
        raise ValueError(
            f'{path}: needs a "session" name and a list of at most {MAX_TABLES} "tables"'
        )
    # A fingerprint that differs is a certain forgery: said first, with or without a key.
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("record"), str):
            name, digest = entry["record"], entry.get("sha256")
            file = folder / Path(name).name
            if (
                digest is not None
                and file.is_file()
                and file.stat().st_size <= MAX_BYTES
                and (
                    not isinstance(digest, str)
                    or not hmac.compare_digest(
                        digest, hashlib.sha256(file.read_bytes()).hexdigest()
                    )
                )
            ):
                raise ValueError(
                    f"{path}: {name} was changed after the export (its fingerprint differs)"
                )
    if key is not None:
        secret = key if isinstance(key, bytes) else key.signing_key(create=False)
        signature = manifest.get("signature")
        if (
            not secret
            or not isinstance(signature, str)
            or not hmac.compare_digest(signature, _signature(secret, manifest))
        ):
            raise ValueError(
                f"{path}: the signature does not match: the session was changed after its export, "
                "or another store exported it"
            )
    elif not trust:
        raise ValueError(
            f"{path}: this export cannot be checked without the store that wrote it (anyone can "
            "change a game and recompute its fingerprints): pass key=TableStore(...) of that "
            "store to check its signature, or trust=True to load it anyway on purpose"
        )
    loaded = []
    for n, entry in enumerate(entries):
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("seats"), list)
            or "code" not in entry
        ):
            raise ValueError(f'{path}: table {n} needs a "code" and a list of "seats"')
        name = entry.get("record")
        if name is None:
            continue
        if not isinstance(name, str) or Path(name).name != name:
            raise ValueError(
                f'{path}: table {n}\'s "record" must be a file name in the same folder'
            )
        if key is not None and not isinstance(entry.get("sha256"), str):
            raise ValueError(f'{path}: table {n} has a "record" but no "sha256" fingerprint')
        loaded.append((entry, GameRecord.load(folder / name)))
    tables = [  # every table checked before any is stored
        (
            *recorded_table(entry["code"], session, record, entry["seats"], entry.get("status")),
            record,
        )
        for entry, record in loaded
    ]
    if len({info.code for info, _, _ in tables}) < len(tables):
        raise ValueError(f"{path}: a table code appears twice")
    if store is None:
        return ExportedSession(session, tables), session
    for info, states, record in tables:
        store.restore_table(info, record, states)
    return store, session


__all__ = [
    "ExportedSession",
    "export_session",
    "game_tables",
    "load_session",
    "pretty_code",
    "seats_table",
    "slug",
    "whole_numbers",
]
