"""Reading the classroom store: tables, sessions, versions, and each table's game replayed
from its stored actions (kept, so a later read replays only what is new).

``StoreReads`` is the part of ``mogul.classroom.store.TableStore`` that changes nothing: the
connection, its transactions, and every question a page or an export asks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from mogul.classroom.schema import (
    ACTIONS,
    META,
    PLAYING,
    SEATS,
    TABLES,
    TIMEOUTS,
    TIMERS,
    ClassroomError,
    TableInfo,
    database_url,
    default_url,
    make_engine,
    normal_code,
    pretty_code,
    table_info,
)
from mogul.kit.record import GameRecord
from mogul.kit.spec import GameSpec, resolve


class StoreReads:
    """The store's connection and its reads (``TableStore`` adds the moves).

    ``where``: a SQLAlchemy URL (``sqlite:///class.sqlite``, ``postgresql+psycopg://...``), a
    SQLite file path, or None for ``default_url()``. The tables are created if missing.
    """

    def __init__(self, where: str | Path | None = None) -> None:
        self.url = database_url(default_url() if where is None else where)
        self.engine = make_engine(self.url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        META.create_all(self.engine)
        self._games: dict[
            int, tuple[str, list[Any], list[str]]
        ] = {}  # id -> (setup, states, actions)

    def __repr__(self) -> str:
        return f"TableStore({self.engine.url.render_as_string(hide_password=True)!r})"

    def close(self) -> None:
        """Close the database connections."""
        self.engine.dispose()

    # --- transactions --------------------------------------------------------------------------
    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def _write(self, code: str | None = None) -> Iterator[tuple[sa.Connection, Any]]:
        """A transaction holding the write lock of table ``code`` (its row is yielded)."""
        with self.engine.connect() as conn:
            conn = conn.execution_options(write=True)
            with conn.begin():
                yield conn, None if code is None else _row(conn, code, lock=True)

    # --- reading -----------------------------------------------------------------------------------
    def info(self, code: str) -> TableInfo:
        """The table ``code`` (``ClassroomError`` for an unknown code)."""
        with self._read() as conn:
            row = _row(conn, code)
            seats = conn.execute(
                sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)
            ).all()
        return table_info(row, seats)

    def tables(self, session: str | None = None) -> list[TableInfo]:
        """Every table (of ``session``, if given), oldest first."""
        query = sa.select(TABLES).order_by(TABLES.c.id)
        if session is not None:
            query = query.where(TABLES.c.session == session)
        with self._read() as conn:
            rows = conn.execute(query).all()
            seats = conn.execute(sa.select(SEATS).order_by(SEATS.c.table_id, SEATS.c.seat)).all()
        by_table: dict[int, list[Any]] = {}
        for s in seats:
            by_table.setdefault(s.table_id, []).append(s)
        return [table_info(row, by_table.get(row.id, [])) for row in rows]

    def sessions(self) -> list[str]:
        """The session names in the store, oldest first."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(TABLES.c.session, sa.func.min(TABLES.c.id).label("first"))
                .group_by(TABLES.c.session)
                .order_by("first")
            ).all()
        return [r.session for r in rows]

    def version(self, code: str) -> int:
        """The table's version: it changes with every join, move, pause and end (cheap: pages poll it)."""
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(TABLES.c.version).where(TABLES.c.code == code)).scalar()
        if found is None:
            raise ClassroomError(f"there is no table {code!r}")
        return int(found)

    def versions(self, session: str | None = None) -> dict[str, int]:
        """Every table's version (of ``session``, if given), by code."""
        query = sa.select(TABLES.c.code, TABLES.c.version)
        if session is not None:
            query = query.where(TABLES.c.session == session)
        with self.engine.connect() as conn:
            return dict(conn.execute(query).all())

    def clock(self, code: str) -> tuple[float | None, float, frozenset[int]]:
        """Table ``code``'s turn timer: its seconds (None: no timer), when the table last changed
        (the turn's start, as a Unix time), and the steps a bot played because time ran out."""
        with self._read() as conn:
            row = _row(conn, code)
            seconds = conn.execute(
                sa.select(TIMERS.c.seconds).where(TIMERS.c.table_id == row.id)
            ).scalar()
            steps = conn.execute(
                sa.select(TIMEOUTS.c.step).where(TIMEOUTS.c.table_id == row.id)
            ).scalars()
            return seconds, row.updated, frozenset(steps)

    def snapshot(
        self, code: str
    ) -> tuple[TableInfo, list[Any], tuple[float | None, float, frozenset[int]]]:
        """``info``, ``history`` and ``clock`` of table ``code``, read in one transaction (a page's
        redraw: one round trip to the database instead of three)."""
        with self._read() as conn:
            row = _row(conn, code)
            seats = conn.execute(
                sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)
            ).all()
            states = list(self._game(conn, row)[0])
            seconds = conn.execute(
                sa.select(TIMERS.c.seconds).where(TIMERS.c.table_id == row.id)
            ).scalar()
            steps = frozenset(
                conn.execute(
                    sa.select(TIMEOUTS.c.step).where(TIMEOUTS.c.table_id == row.id)
                ).scalars()
            )
        return table_info(row, seats), states, (seconds, row.updated, steps)

    def due(self, now: float) -> list[tuple[str, int]]:
        """(code, step) of each playing table whose turn timer has run out by ``now`` (maybe on a
        bot's turn: ``time_out`` checks)."""
        query = (
            sa.select(TABLES.c.code, TABLES.c.step)
            .join(TIMERS, TIMERS.c.table_id == TABLES.c.id)
            .where(TABLES.c.status == PLAYING, TABLES.c.updated + TIMERS.c.seconds <= now)
        )
        with self.engine.connect() as conn:
            return [(code, step) for code, step in conn.execute(query).all()]

    def history(self, code: str) -> list[Any]:
        """Every state of the table's game, its first decision first ([] before the deal).

        Replayed from the stored actions, and kept: a later call replays only what is new.
        """
        with self._read() as conn:
            row = _row(conn, code)
            return list(self._game(conn, row)[0])

    def actions(self, code: str) -> list[str]:
        """The table's actions so far, as text."""
        with self._read() as conn:
            row = _row(conn, code)
            return list(self._game(conn, row)[1])

    def record(self, code: str) -> GameRecord | None:
        """The table's game as a ``GameRecord`` (None before the deal)."""
        states = self.history(code)
        if not states:
            return None
        info = self.info(code)
        title = f"Table {pretty_code(info.code)}" + (f", {info.session}" if info.session else "")
        return GameRecord.of(states[0], self.actions(code), title=title)

    def _game(self, conn: sa.Connection, row: Any) -> tuple[list[Any], list[str]]:
        """The states and actions of table ``row``: the kept ones plus whatever is new."""
        if row.setup is None:
            return [], []
        spec = resolve(row.edition)[0]
        kept = self._games.get(row.id)
        if kept is None or kept[0] != row.setup or len(kept[2]) > row.step:
            first = spec.deal(spec.setup_from_json(json.loads(row.setup)))
            kept = (row.setup, [first], [])
        setup, states, actions = kept
        if len(actions) < row.step:
            new = conn.execute(
                sa.select(ACTIONS.c.step, ACTIONS.c.action)
                .where(
                    ACTIONS.c.table_id == row.id,
                    ACTIONS.c.step >= len(actions),
                    ACTIONS.c.step < row.step,
                )
                .order_by(ACTIONS.c.step)
            ).all()
            states, actions = list(states), list(actions)
            for number, text in new:
                if number != len(actions):
                    raise RuntimeError(
                        f"table {row.code}: action {len(actions)} is missing from the store"
                    )
                states.append(states[-1].apply(spec.parse_action(text)))
                actions.append(text)
            kept = (setup, states, actions)
        self._games[row.id] = kept
        return kept[1], kept[2]

    def _remember(self, row: Any, new: Any, action: str) -> None:
        """Keep the state a committed move made (the next read needs no replay)."""
        kept = self._games.get(row.id)
        if kept is not None and len(kept[2]) == row.step:
            self._games[row.id] = (kept[0], [*kept[1], new], [*kept[2], action])

    def spec(self, code: str) -> GameSpec:
        """The game played at table ``code``."""
        return resolve(self.info(code).edition)[0]


def _row(conn: sa.Connection, code: str, lock: bool = False) -> Any:
    """Table ``code``'s row (``lock``: held until the transaction ends); ``ClassroomError`` if none."""
    query = sa.select(TABLES).where(TABLES.c.code == normal_code(code))
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise ClassroomError(f"there is no table {code!r}: check the code on the board")
    return row
