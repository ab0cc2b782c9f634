"""The classroom store's vocabulary: table states, codes and seat keys, what a page is told
about a table, and the database schema and engine (SQLite or PostgreSQL).

``mogul.classroom.store`` holds the tables; this module holds what they are made of.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from mogul.kit.bots import bot_factory, bot_name
from mogul.kit.session import HUMAN
from mogul.kit.spec import resolve

# --- table states ------------------------------------------------------------------------------
WAITING = "waiting"  # seats are being taken; the game is not dealt yet
PLAYING = "playing"
PAUSED = "paused"  # the lecturer stopped the table for a while
ENDED = "ended"  # the lecturer ended the table before the game was over
OVER = "over"  # the game reached its end
STATUSES = (WAITING, PLAYING, PAUSED, ENDED, OVER)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be mistaken for each other on a projector (no 0/O, 1/I/L)."""
CODE_LENGTH = 8
"""A join code: 31^8, about 2^40 codes, so a table cannot be found by guessing."""
KEY_LENGTH = 12
"""A seat key: 31^12, about 2^59; only its SHA-256 is stored."""
MAX_NAME = 24
MAX_ACTION_TEXT = 40
ENV = "MOGUL_CLASSROOM"
"""The environment variable naming the store (a database URL or a SQLite file path)."""
DEFAULT_FILE = "classroom.sqlite"


class ClassroomError(ValueError):
    """Input from a page that the store refuses; the message says why, and nothing changed."""


@dataclass(frozen=True)
class SeatInfo:
    """One seat: ``kind`` is ``"human"`` or a bot spec; ``name`` once taken (bots: from the start)."""

    seat: int
    kind: str
    name: str | None

    @property
    def is_human(self) -> bool:
        """True for a person's seat."""
        return self.kind == HUMAN

    @property
    def free(self) -> bool:
        """True for a person's seat nobody has taken yet."""
        return self.is_human and self.name is None


@dataclass(frozen=True)
class TableInfo:
    """A table as the store holds it (no game state: see ``TableStore.history``)."""

    code: str
    session: str
    game: str
    edition: str
    seed: int
    fill: str
    seats: tuple[SeatInfo, ...]
    status: str
    step: int
    version: int

    @property
    def names(self) -> list[str | None]:
        """The name at each seat (None for a free seat)."""
        return [s.name for s in self.seats]

    @property
    def free_seats(self) -> list[int]:
        """People's seats nobody has taken yet."""
        return [s.seat for s in self.seats if s.free]


@dataclass(frozen=True)
class Ticket:
    """What a student's page holds: the table, the seat, and the seat's secret key."""

    code: str
    seat: int
    key: str

    def __repr__(self) -> str:  # the key never shows in logs or reprs
        return f"Ticket({self.code!r}, seat={self.seat})"


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
NOTIFY_CHANNEL = "mogul_tables"
"""PostgreSQL: every change of a table sends its code on this channel (LISTEN to follow them)."""
TIMER_RANGE = (5.0, 600.0)
"""The turn timer's shortest and longest setting, in seconds."""


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


def key_hash(key: str) -> str:
    """The SHA-256 of a seat key: all the store keeps of it."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def random_code(length: int) -> str:
    """``length`` characters drawn from ``CODE_ALPHABET`` by the system's secure generator."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normal_code(text: Any) -> str:
    """A typed join code or seat key in canonical form: capitals, no spaces or dashes."""
    if not isinstance(text, str):
        raise ClassroomError("type the table code shown by your lecturer")
    return re.sub(r"[\s-]+", "", text).upper()


def pretty_code(code: str) -> str:
    """A code in two groups, for reading aloud and projecting: ``ABCD-EFGH``."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def check_name(name: Any) -> str:
    """A player's name, tidied; ``ClassroomError`` says what a name may be."""
    if not isinstance(name, str):
        raise ClassroomError("type your name")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        raise ClassroomError("type your name")
    if len(name) > MAX_NAME:
        raise ClassroomError(f"a name has at most {MAX_NAME} characters; yours has {len(name)}")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ClassroomError("a name may hold letters, digits, spaces and punctuation only")
    if re.fullmatch(r"bot \d+", name.casefold()):
        raise ClassroomError(f"names like {name!r} are kept for the bots; choose another")
    return name


def bot_seat_name(seat: int) -> str:
    """The name a bot plays under at ``seat``: "Bot 3"."""
    return f"Bot {seat + 1}"


def bot_seed(seed: int, seat: int, step: int) -> int:
    """The seed of the bot deciding ``step`` at ``seat``: a bot is built afresh for each decision,
    so its moves depend only on the table's seed and the game so far (a resumed table goes on
    exactly as it would have)."""
    digest = hashlib.sha256(f"{seed}:{seat}:{step}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def table_info(row: Any, seats: Sequence[Any]) -> TableInfo:
    """A table row and its seat rows as the ``TableInfo`` pages see."""
    return TableInfo(
        row.code,
        row.session,
        row.game,
        row.edition,
        row.seed,
        row.fill,
        tuple(SeatInfo(s.seat, s.kind, s.name) for s in seats),
        row.status,
        row.step,
        row.version,
    )


def not_playing(status: str) -> str:
    """Why nobody may move at a table in ``status``, for the page."""
    return {
        WAITING: "the game has not started: it waits for the other players",
        PAUSED: "your lecturer paused this table; wait a moment",
        ENDED: "your lecturer ended this table",
        OVER: "the game is over",
    }.get(status, f"the table is {status}")


def seat_labels(info: TableInfo) -> list[str]:
    """A note per seat for the table drawing: "human" or the bot's name."""
    spec = resolve(info.edition)[0]
    return [
        "" if s.is_human else f"{bot_name(bot_factory(s.kind, spec.bots)(0))} bot"
        for s in info.seats
    ]
