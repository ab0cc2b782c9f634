"""The classroom store's database: its schema, its engine (SQLite or PostgreSQL), and every read.
A table's setup keywords are checked here (``check_settings``) before the store keeps them.

``StoreReads`` is the part of ``mogul.classroom.store.TableStore`` that changes nothing: the
connection, its transactions, and every question a page or an export asks, with each table's
game replayed from its stored actions (kept, so a later read replays only what is new).
SQLAlchemy and psycopg come with the classroom's install extra, ``mogul-kit[classroom]``: this
is the one module that imports SQLAlchemy (the store and the hall take ``sa`` from here), so
the kit without the extra says what to install.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mogul.classroom.table import (
    MAX_ACTION_TEXT,
    MAX_NAME,
    PLAYING,
    ClassroomError,
    SeatInfo,
    TableInfo,
    normal_code,
    pretty_code,
)
from mogul.kit.record import GameRecord, strict_json
from mogul.kit.spec import GameSpec, check_setup, resolve

try:
    import sqlalchemy as sa
except ModuleNotFoundError as err:  # the kit without its classroom extra
    raise ModuleNotFoundError(
        'the classroom\'s table store needs SQLAlchemy: pip install "mogul-kit[classroom]"',
        name=err.name,
    ) from err

ENV = "MOGUL_CLASSROOM"
"""The environment variable naming the store (a database URL or a SQLite file path)."""
DEFAULT_FILE = "classroom.sqlite"

# --- the schema ----------------------------------------------------------------------------------
META = sa.MetaData()
TABLES = sa.Table(
    "tables",
    META,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("session", sa.String(80), nullable=False, index=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("edition", sa.String(40), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("fill", sa.String(80), nullable=False),  # the bot that takes seats left free
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("step", sa.Integer, nullable=False),  # actions played so far
    sa.Column("version", sa.Integer, nullable=False),  # bumped by every change: pages poll it
    sa.Column("setup", sa.Text, nullable=True),  # the game's setup as JSON, once dealt
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
SEATS = sa.Table(
    "seats",
    META,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(80), nullable=False),
    sa.Column("name", sa.String(MAX_NAME * 4), nullable=True),
    sa.Column("key_hash", sa.String(64), nullable=True),
    sa.Column("joined", sa.Float, nullable=True),
)
ACTIONS = sa.Table(
    "actions",
    META,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("step", sa.Integer, primary_key=True),  # one action per step, ever
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(MAX_ACTION_TEXT), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
TIMERS = sa.Table(
    "timers",
    META,  # a table's turn timer: a person idle this long gets the fill bot's move
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seconds", sa.Float, nullable=False),
)
TIMEOUTS = sa.Table(
    "timeouts",
    META,  # the steps a bot played because the timer ran out
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("step", sa.Integer, primary_key=True),
)
KEYS = sa.Table(
    "mogul_keys",
    sa.MetaData(),  # made at the first export, not with the tables
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("secret", sa.String(128), nullable=False),
)
"""Secrets kept in the store: "export" signs the sessions it exports (HMAC-SHA256)."""
SETTINGS = sa.Table(
    "table_settings",
    META,  # the lecturer's setup keywords of a table (JSON), dealt with its game
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("setup", sa.Text, nullable=False),
)
NOTIFY_CHANNEL = "mogul_tables"
"""PostgreSQL: every change of a table sends ``CODE:VERSION`` on this channel (its code and new
version; a deleted table: its code alone). LISTEN to follow them."""


MAX_SETTINGS = 2000
"""The most characters of a table's setup keywords as JSON."""


def check_settings(spec: Any, edition: str, seats: int, setup: Any) -> str | None:
    """A lecturer's setup keywords (``{"rounds": 3, "values": "uniform 0..10"}``) as the JSON
    the store keeps, checked by dealing a game with them (``mogul.kit.spec.check_setup``);
    None for none. ``ValueError`` says what was wrong (an unknown keyword, a bad value)."""
    if not setup:
        return None
    try:
        text = json.dumps(setup, sort_keys=True)
    except (TypeError, ValueError):
        raise ValueError(
            f"a table's setup is named fields of numbers, text and lists; got {setup!r}"
        ) from None
    if len(text) > MAX_SETTINGS:
        raise ValueError(f"a table's setup is at most {MAX_SETTINGS} characters of JSON")
    check_setup(spec, edition, seats, json.loads(text))  # dealt as the store will deal it
    return text


def default_url() -> str:
    """The store named by ``$MOGUL_CLASSROOM``, else ``classroom.sqlite`` in the current folder."""
    return os.environ.get(ENV) or DEFAULT_FILE


def database_url(where: str | Path) -> str:
    """A SQLAlchemy URL for a URL or a SQLite file path."""
    text = str(where)
    return text if "://" in text else f"sqlite:///{Path(text).expanduser().resolve()}"


def make_engine(url: str) -> sa.Engine:
    """The engine of a store URL; SQLite gets WAL, and writes that take the lock at once."""
    if not url.startswith("sqlite"):
        return sa.create_engine(url, pool_pre_ping=True)
    if url in ("sqlite://", "sqlite:///:memory:"):  # one shared in-memory database (tests, docs)
        engine = sa.create_engine(
            url, poolclass=sa.pool.StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        engine = sa.create_engine(url, connect_args={"timeout": 30})

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver starts no transactions of its own; _begin below does, explicitly.
        dbapi_connection.isolation_level = None
        if url not in ("sqlite://", "sqlite:///:memory:"):
            dbapi_connection.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            # A commit survives any crash of a kernel or the server (not a power cut) without
            # waiting for the disk: a click's write stays short with a room full of pages.
            dbapi_connection.execute("PRAGMA synchronous=NORMAL")
        dbapi_connection.execute("PRAGMA foreign_keys=ON")

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        # A write takes SQLite's write lock at once, so two writers queue instead of both
        # reading the old step and one failing to upgrade its lock later.
        conn.exec_driver_sql(
            "BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN"
        )

    return engine


def table_info(row: Any, seats: Sequence[Any]) -> TableInfo:
    """A table row and its seat rows as the ``TableInfo`` pages see."""
    return TableInfo(
        row.code,
        row.session,
        row.game,
        row.edition,
        row.seed,
        row.fill,
        tuple(SeatInfo(s.seat, s.kind, s.name, s.joined) for s in seats),
        row.status,
        row.step,
        row.version,
    )


class StoreReads:
    """The store's connection and its reads (``TableStore`` adds the moves).

    ``where``: a SQLAlchemy URL (``sqlite:///class.sqlite``, ``postgresql+psycopg://...``), a
    SQLite file path, or None for ``default_url()``. The tables are created if missing.
    """

    def __init__(self, where: str | Path | None = None) -> None:
        self.url = database_url(default_url() if where is None else where)
        self.engine = make_engine(self.url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        # SQLite: this process's writers queue here, and each is woken the moment the one
        # before commits; waiting on SQLite's own lock instead means its busy handler's sleeps
        # (up to 100 ms each), several per move when a room's clicks come at once. Other
        # processes on the same file still wait on SQLite's lock.
        self._writing = threading.Lock() if self.is_sqlite else None
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
        with self._writing or contextlib.nullcontext(), self.engine.connect() as conn:
            conn = conn.execution_options(write=True)
            with conn.begin():
                yield conn, None if code is None else _row(conn, code, lock=True)

    # --- reading -----------------------------------------------------------------------------------
    def info(self, code: str) -> TableInfo:
        """The table ``code`` (``ClassroomError`` for an unknown code)."""
        with self._read() as conn:
            row = _row(conn, code)
            return table_info(row, seat_rows(conn, row.id))

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
            return _clock(conn, _row(conn, code))

    def snapshot(
        self, code: str
    ) -> tuple[TableInfo, list[Any], tuple[float | None, float, frozenset[int]]]:
        """``info``, ``history`` and ``clock`` of table ``code``, read in one transaction (a page's
        redraw: one round trip to the database instead of three)."""
        with self._read() as conn:
            row = _row(conn, code)
            info = table_info(row, seat_rows(conn, row.id))
            return info, list(self._game(conn, row)[0]), _clock(conn, row)

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
            first = spec.deal(spec.setup_from_json(strict_json(row.setup, "a stored setup")))
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

    def settings(self, code: str) -> dict[str, Any] | None:
        """The setup keywords table ``code`` was created with (None: none)."""
        with self._read() as conn:
            row = _row(conn, code)
            found = conn.execute(
                sa.select(SETTINGS.c.setup).where(SETTINGS.c.table_id == row.id)
            ).scalar()
        return None if found is None else json.loads(found)


def _row(conn: sa.Connection, code: str, lock: bool = False) -> Any:
    """Table ``code``'s row (``lock``: held until the transaction ends); ``ClassroomError`` if none."""
    query = sa.select(TABLES).where(TABLES.c.code == normal_code(code))
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise ClassroomError(f"there is no table {code!r}: check the code on the board")
    return row


def seat_rows(conn: sa.Connection, table_id: int) -> list[Any]:
    """The seat rows of table ``table_id``, in seat order."""
    return conn.execute(
        sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat)
    ).all()


def timer_seconds(conn: sa.Connection, table_id: int) -> float | None:
    """Table ``table_id``'s turn timer in seconds (None: no timer)."""
    return conn.execute(sa.select(TIMERS.c.seconds).where(TIMERS.c.table_id == table_id)).scalar()


def _clock(conn: sa.Connection, row: Any) -> tuple[float | None, float, frozenset[int]]:
    steps = conn.execute(sa.select(TIMEOUTS.c.step).where(TIMEOUTS.c.table_id == row.id)).scalars()
    return timer_seconds(conn, row.id), row.updated, frozenset(steps)
