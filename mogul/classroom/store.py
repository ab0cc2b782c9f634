"""The classroom's table store: tables, seats and every action of every game, in one database.

Students at several devices play one game; the store is what they share. It keeps, per table,
the game (any registered game, through ``mogul.kit.spec.resolve``), the seats (a person or a
bot), the secret key of each claimed seat (only its hash), and every action in order. The game
itself is never stored: it is the setup plus the actions, replayed (states are values), so a
table resumes exactly where it was after a kernel or the whole server restarts.

    >>> store = TableStore("sqlite://")                       # in memory; a file in class
    >>> table = store.create_table("classic", ["human", "human", "value"], seed=1)
    >>> ann = store.join(table.code, "Ann")
    >>> ben = store.join(table.code, "Ben")                   # the last free seat: the game starts
    >>> store.info(table.code).status
    'playing'

SQLite (one file, WAL mode, the standard library's driver) is the default; a PostgreSQL URL
(``postgresql+psycopg://user@host/db``) puts the same tables on a server. Every write is one
transaction that first locks the table (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: ``SELECT ...
FOR UPDATE``) and is checked against the table's step number, and the actions' primary key is
(table, step): two devices acting at once cannot both move. Bad input (an unknown code, a taken
seat, a stale or illegal move) raises ``ClassroomError`` with a sentence for the page, and
changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import time
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from mogul.kit.bots import bot_factory, bot_name, decide
from mogul.kit.contract import IllegalActionError
from mogul.kit.names import lookalike
from mogul.kit.record import GameRecord
from mogul.kit.session import HUMAN
from mogul.kit.spec import GameSpec, resolve

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
    "tables", META,
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
)  # fmt: skip
SEATS = sa.Table(
    "seats", META,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(80), nullable=False),
    sa.Column("name", sa.String(MAX_NAME * 4), nullable=True),
    sa.Column("key_hash", sa.String(64), nullable=True),
    sa.Column("joined", sa.Float, nullable=True),
)  # fmt: skip
ACTIONS = sa.Table(
    "actions", META,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("step", sa.Integer, primary_key=True),  # one action per step, ever
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(MAX_ACTION_TEXT), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)  # fmt: skip


def default_url() -> str:
    """The store named by ``$MOGUL_CLASSROOM``, else ``classroom.sqlite`` in the current folder."""
    return os.environ.get(ENV) or DEFAULT_FILE


def database_url(where: str | Path) -> str:
    """A SQLAlchemy URL for a URL or a SQLite file path."""
    text = str(where)
    return text if "://" in text else f"sqlite:///{Path(text).expanduser().resolve()}"


def _engine(url: str) -> sa.Engine:
    if not url.startswith("sqlite"):
        return sa.create_engine(url, pool_pre_ping=True)
    if url in ("sqlite://", "sqlite:///:memory:"):  # one shared in-memory database (tests, docs)
        engine = sa.create_engine(url, poolclass=sa.pool.StaticPool, connect_args={"check_same_thread": False})
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
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN")

    return engine


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _random_text(length: int) -> str:
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


class TableStore:
    """Tables, seats and actions in a database; the games replayed from them.

    ``where``: a SQLAlchemy URL (``sqlite:///class.sqlite``, ``postgresql+psycopg://...``), a
    SQLite file path, or None for ``default_url()``. The tables are created if missing.
    """

    def __init__(self, where: str | Path | None = None) -> None:
        self.url = database_url(default_url() if where is None else where)
        self.engine = _engine(self.url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        META.create_all(self.engine)
        self._games: dict[int, tuple[str, list[Any], list[str]]] = {}  # id -> (setup, states, actions)

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
                row = None
                if code is not None:
                    row = conn.execute(
                        sa.select(TABLES).where(TABLES.c.code == normal_code(code)).with_for_update()
                    ).first()
                    if row is None:
                        raise ClassroomError(f"there is no table {code!r}: check the code on the board")
                yield conn, row

    # --- the lecturer: tables -------------------------------------------------------------------
    def create_table(
        self,
        game: Any = "classic",
        seats: Sequence[str] = (HUMAN, HUMAN, HUMAN),
        session: str = "",
        seed: int | None = None,
        fill: str | None = None,
    ) -> TableInfo:
        """A new table of ``game`` (a game or edition name) with one spec per seat.

        A seat is ``"human"`` or one of the game's bots (``"value"``, ``"threshold:drop_at=3"``).
        ``fill`` is the bot that takes the people's seats still free when the lecturer starts
        the table early (default: the game's first bot). ``seed`` deals the game (default:
        random). The table waits for its people; the last one to sit down starts the game.
        """
        spec, edition = resolve(game)
        seats = [str(s).strip() for s in seats]
        spec.check_players(edition, len(seats))
        fill = fill or next(iter(spec.bots))
        for kind in {*[s for s in seats if s != HUMAN], fill}:
            bot_factory(kind, spec.bots)  # ValueError now for an unknown bot, not mid-game
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
            raise ValueError(f"seed must be a whole number from 0 to 2**62, got {seed!r}")
        session = str(session).strip()[:80]
        now = time.time()
        for _ in range(5):  # a repeated code (about one chance in 10^12) just draws again
            code = _random_text(CODE_LENGTH)
            try:
                with self._write() as (conn, _):
                    table_id = conn.execute(sa.insert(TABLES).values(
                        code=code, session=session, game=spec.name, edition=edition, seed=seed, fill=fill,
                        status=WAITING, step=0, version=0, setup=None, created=now, updated=now,
                    )).inserted_primary_key[0]  # fmt: skip
                    conn.execute(sa.insert(SEATS), [
                        {"table_id": table_id, "seat": i, "kind": kind,
                         "name": None if kind == HUMAN else bot_seat_name(i)}
                        for i, kind in enumerate(seats)
                    ])  # fmt: skip
            except sa.exc.IntegrityError:
                continue
            if HUMAN not in seats:
                self.start(code)
            return self.info(code)
        raise RuntimeError("could not draw a fresh table code")  # pragma: no cover

    def create_tables(self, count: int, game: Any = "classic", seats: Sequence[str] = (HUMAN,) * 3,
                      session: str = "", seed: int | None = None, fill: str | None = None) -> list[TableInfo]:  # fmt: skip
        """``count`` tables alike (seeds ``seed``, ``seed + 1``, ... when a seed is given)."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 200:
            raise ValueError(f"count must be a whole number of tables from 1 to 200, got {count!r}")
        return [
            self.create_table(game, seats, session, None if seed is None else seed + i, fill)
            for i in range(count)
        ]

    def start(self, code: str) -> TableInfo:
        """Deal the game now: free people's seats get the table's ``fill`` bot. Idempotent."""
        with self._write(code) as (conn, row):
            if row.status == WAITING:
                self._deal(conn, row, fill_free=True)
        self.move_bots(code)
        return self.info(code)

    def _deal(self, conn: sa.Connection, row: Any, fill_free: bool) -> None:
        seats = conn.execute(sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)).all()
        if fill_free:
            for s in seats:
                if s.kind == HUMAN and s.name is None:
                    conn.execute(
                        sa.update(SEATS).where(SEATS.c.table_id == row.id, SEATS.c.seat == s.seat)
                        .values(kind=row.fill, name=bot_seat_name(s.seat))
                    )  # fmt: skip
            seats = conn.execute(sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)).all()
        spec, edition = resolve(row.edition)
        first = spec.new_game(edition, [s.name for s in seats], row.seed)
        setup = json.dumps(spec.setup_to_json(first.setup), sort_keys=True)
        self._bump(conn, row, status=OVER if first.is_over else PLAYING, setup=setup)

    def _bump(self, conn: sa.Connection, row: Any, **values: Any) -> None:
        """Change table ``row`` (still at its step) and bump its version."""
        done = conn.execute(
            sa.update(TABLES).where(TABLES.c.id == row.id, TABLES.c.step == row.step)
            .values(version=TABLES.c.version + 1, updated=time.time(), **values)
        ).rowcount  # fmt: skip
        if done != 1:  # the row lock makes this impossible; the check keeps it so
            raise ClassroomError("the table changed meanwhile; try again")

    def pause(self, code: str) -> TableInfo:
        """Stop a playing table for a while: nobody can move until ``resume``."""
        return self._set_status(code, {PLAYING: PAUSED})

    def resume(self, code: str) -> TableInfo:
        """Let a paused table play on."""
        info = self._set_status(code, {PAUSED: PLAYING})
        self.move_bots(code)
        return info

    def end(self, code: str) -> TableInfo:
        """End a table for good (its game so far stays in the store and in exports)."""
        return self._set_status(code, {WAITING: ENDED, PLAYING: ENDED, PAUSED: ENDED})

    def _set_status(self, code: str, moves: dict[str, str]) -> TableInfo:
        with self._write(code) as (conn, row):
            if row.status not in moves:
                raise ClassroomError(f"table {pretty_code(row.code)} is {row.status}")
            self._bump(conn, row, status=moves[row.status])
        return self.info(code)

    def restore_table(self, code: str, session: str, record: GameRecord, kinds: Sequence[str],
                      status: str | None = None, fill: str | None = None) -> TableInfo:  # fmt: skip
        """Put a recorded game back at a table (loading an exported session).

        ``kinds`` gives each seat's kind (``"human"`` or a bot spec); the names come from the
        record. ``status`` defaults to "over" for a finished game, else "ended".
        """
        code = normal_code(code)
        if not re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", code):
            raise ValueError(f"a table code has {CODE_LENGTH} letters and digits from {CODE_ALPHABET}; got {code!r}")
        spec = record.spec
        states = list(record.states())  # a record that does not replay is refused here, whole
        first, final = states[0], states[-1]
        if len(kinds) != len(first.names):
            raise ValueError(f"give one seat kind per player: {len(first.names)} players, {len(kinds)} kinds")
        for kind in set(kinds) - {HUMAN}:
            bot_factory(kind, spec.bots)
        status = status or (OVER if final.is_over else ENDED)
        if status not in STATUSES or status == WAITING:
            raise ValueError(f"a restored table is playing, paused, ended or over; got {status!r}")
        if status == OVER and not final.is_over:
            raise ValueError("the record stops before the game ends, so the table cannot be over")
        setup = json.dumps(spec.setup_to_json(first.setup), sort_keys=True)
        now = time.time()
        try:
            with self._write() as (conn, _):
                table_id = conn.execute(sa.insert(TABLES).values(
                    code=code, session=str(session)[:80], game=spec.name, edition=first.setup.edition,
                    seed=first.setup.seed, fill=fill or next(iter(spec.bots)), status=status,
                    step=len(record.actions), version=1, setup=setup, created=now, updated=now,
                )).inserted_primary_key[0]  # fmt: skip
                conn.execute(sa.insert(SEATS), [
                    {"table_id": table_id, "seat": i, "kind": kind, "name": name}
                    for i, (kind, name) in enumerate(zip(kinds, first.names, strict=True))
                ])  # fmt: skip
                if record.actions:
                    conn.execute(sa.insert(ACTIONS), [
                        {"table_id": table_id, "step": i, "seat": states[i].current_player, "action": text, "at": now}
                        for i, text in enumerate(record.actions)
                    ])  # fmt: skip
        except sa.exc.IntegrityError:
            raise ValueError(f"the store already has a table {pretty_code(code)}") from None
        return self.info(code)

    # --- students: seats and moves ---------------------------------------------------------------
    def join(self, code: str, name: str, key: str | None = None) -> Ticket:
        """Take the first free seat at table ``code`` under ``name``; returns the seat's ticket.

        With ``key`` (a seat key given out earlier), the student gets that seat back instead
        (after a reload or on another device); ``name`` is then not checked. The last person to
        sit down starts the game.
        """
        code = normal_code(code)
        if not re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", code):
            raise ClassroomError(f"a table code has {CODE_LENGTH} letters and digits, like {pretty_code('ABCD2345')}")
        if key:
            return self._rejoin(code, normal_code(key))
        name = check_name(name)
        if (kept := lookalike(name)) is not None:  # issue 27: nobody passes for the kit's bots
            raise ClassroomError(f"{name!r} looks like {kept!r}, a name kept for the bots; choose another")
        with self._write(code) as (conn, row):
            if row.status != WAITING:
                raise ClassroomError(f"table {pretty_code(code)} is full ({row.status}); "
                                     "to get your own seat back, type its seat key")  # fmt: skip
            seats = conn.execute(sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)).all()
            taken = {s.name.casefold() for s in seats if s.name}
            if name.casefold() in taken:
                raise ClassroomError(f"someone at this table is already called {name!r}: add your initial")
            free = [s.seat for s in seats if s.kind == HUMAN and s.name is None]
            if not free:  # pragma: no cover - a full table is dealt at once
                raise ClassroomError(f"table {pretty_code(code)} is full")
            key = _random_text(KEY_LENGTH)
            conn.execute(
                sa.update(SEATS).where(SEATS.c.table_id == row.id, SEATS.c.seat == free[0])
                .values(name=name, key_hash=_hash(key), joined=time.time())
            )  # fmt: skip
            if len(free) == 1:
                self._deal(conn, row, fill_free=False)
            else:
                self._bump(conn, row)
        self.move_bots(code)
        return Ticket(code, free[0], key)

    def _rejoin(self, code: str, key: str) -> Ticket:
        with self._read() as conn:
            seats = conn.execute(
                sa.select(SEATS.c.seat, SEATS.c.key_hash).join(TABLES).where(TABLES.c.code == code)
            ).all()  # fmt: skip
        if not seats:
            raise ClassroomError(f"there is no table {pretty_code(code)}: check the code on the board")
        digest = _hash(key)
        for seat, stored in seats:
            if stored and hmac.compare_digest(stored, digest):
                return Ticket(code, seat, key)
        raise ClassroomError("that seat key does not belong to a seat at this table")

    def check_ticket(self, ticket: Ticket) -> None:
        """Raise ``ClassroomError`` unless ``ticket``'s key is the key of its seat."""
        with self._read() as conn:
            self._check_key(conn, ticket)

    def _check_key(self, conn: sa.Connection, ticket: Ticket) -> None:
        stored = conn.execute(
            sa.select(SEATS.c.key_hash).join(TABLES)
            .where(TABLES.c.code == normal_code(ticket.code), SEATS.c.seat == ticket.seat)
        ).scalar()  # fmt: skip
        if not stored or not isinstance(ticket.key, str) or not hmac.compare_digest(stored, _hash(normal_code(ticket.key))):
            raise ClassroomError("this page does not hold the key of that seat")

    def act(self, ticket: Ticket, step: int, action: str) -> int:
        """Play ``action`` (its text, as ``str(action)`` writes it) for the ticket's seat.

        ``step`` is the number of actions the page had seen: if the table has moved on, the
        move is stale and refused. Returns the new step. Bots then move until a person must.
        """
        if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION_TEXT:
            raise ClassroomError("that is not a move")
        if isinstance(step, bool) or not isinstance(step, int):
            raise ClassroomError("that move names no step of the game")
        with self._write(ticket.code) as (conn, row):
            self._check_key(conn, ticket)
            if row.status != PLAYING:
                raise ClassroomError(_not_playing(row.status))
            if step != row.step:
                raise ClassroomError(
                    f"too late: the table moved on since your page showed it (step {step}, now {row.step}); "
                    "look at the table and choose again"
                )
            states, _ = self._game(conn, row)
            state = states[-1]
            if state.current_player != ticket.seat:
                raise ClassroomError(f"it is {state.names[state.current_player]}'s turn, not yours")
            new, stored = self._apply(conn, row, ticket.seat, state, action)
        self._remember(row, new, stored)
        self.move_bots(ticket.code)
        return step + 1

    def _apply(self, conn: sa.Connection, row: Any, seat: int, state: Any, text: str) -> tuple[Any, str]:
        """Check ``text`` against ``state`` and store it as the table's next action.

        Returns the new state and the action as stored (its canonical text).
        """
        spec = resolve(row.edition)[0]
        try:
            action = spec.parse_action(text)
            new = state.apply(action)
        except IllegalActionError as err:
            legal = ", ".join(str(a) for a in state.legal_actions())
            raise ClassroomError(f"{text!r} is not allowed now; you may: {legal}") from err
        except (ValueError, TypeError) as err:
            raise ClassroomError(f"{text!r} is not a move of this game: {err}") from err
        conn.execute(sa.insert(ACTIONS).values(table_id=row.id, step=row.step, seat=seat,
                                               action=str(action), at=time.time()))  # fmt: skip
        self._bump(conn, row, step=row.step + 1, **({"status": OVER} if new.is_over else {}))
        return new, str(action)

    def move_bots(self, code: str, limit: int = 10_000) -> int:
        """Let bots play until a person must move (or the table stops); returns the moves made.

        Each move is thought out from a snapshot, outside any lock, then stored only if the
        table is still at that step: several pages may call this at once, and one of them wins.
        """
        moves = 0
        for _ in range(limit):
            info = self.info(code)
            if info.status != PLAYING:
                break
            states = self.history(code)
            state, step = states[-1], len(states) - 1
            seat = state.current_player
            # info and history are two reads: another device may have ended the game between them
            if state.is_over or info.seats[seat].kind == HUMAN:
                break
            kind = info.seats[seat].kind
            spec = resolve(info.edition)[0]
            legal = state.legal_actions()
            bot = bot_factory(kind, spec.bots)(bot_seed(info.seed, seat, step))
            try:
                action = decide(bot, state.view(seat), legal) if len(legal) > 1 else legal[0]
            except Exception:  # a broken bot must not stop a class: it plays the first option
                action = legal[0]
            if action not in legal:
                action = legal[0]
            with self._write(code) as (conn, row):
                if row.step != step or row.status != PLAYING:
                    continue  # another page moved first
                new, stored = self._apply(conn, row, seat, state, str(action))
            self._remember(row, new, stored)
            moves += 1
        return moves

    # --- reading -----------------------------------------------------------------------------------
    def info(self, code: str) -> TableInfo:
        """The table ``code`` (``ClassroomError`` for an unknown code)."""
        with self._read() as conn:
            row = conn.execute(sa.select(TABLES).where(TABLES.c.code == normal_code(code))).first()
            if row is None:
                raise ClassroomError(f"there is no table {code!r}: check the code on the board")
            seats = conn.execute(sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)).all()
        return _info(row, seats)

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
        return [_info(row, by_table.get(row.id, [])) for row in rows]

    def sessions(self) -> list[str]:
        """The session names in the store, oldest first."""
        with self._read() as conn:
            rows = conn.execute(sa.select(TABLES.c.session, sa.func.min(TABLES.c.id).label("first"))
                                .group_by(TABLES.c.session).order_by("first")).all()  # fmt: skip
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

    def history(self, code: str) -> list[Any]:
        """Every state of the table's game, its first decision first ([] before the deal).

        Replayed from the stored actions, and kept: a later call replays only what is new.
        """
        with self._read() as conn:
            row = conn.execute(sa.select(TABLES).where(TABLES.c.code == normal_code(code))).first()
            if row is None:
                raise ClassroomError(f"there is no table {code!r}")
            return list(self._game(conn, row)[0])

    def actions(self, code: str) -> list[str]:
        """The table's actions so far, as text."""
        with self._read() as conn:
            row = conn.execute(sa.select(TABLES).where(TABLES.c.code == normal_code(code))).first()
            if row is None:
                raise ClassroomError(f"there is no table {code!r}")
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
                .where(ACTIONS.c.table_id == row.id, ACTIONS.c.step >= len(actions), ACTIONS.c.step < row.step)
                .order_by(ACTIONS.c.step)
            ).all()  # fmt: skip
            states, actions = list(states), list(actions)
            for number, text in new:
                if number != len(actions):
                    raise RuntimeError(f"table {row.code}: action {len(actions)} is missing from the store")
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


def _info(row: Any, seats: Sequence[Any]) -> TableInfo:
    return TableInfo(
        row.code, row.session, row.game, row.edition, row.seed, row.fill,
        tuple(SeatInfo(s.seat, s.kind, s.name) for s in seats), row.status, row.step, row.version,
    )  # fmt: skip


def _not_playing(status: str) -> str:
    return {
        WAITING: "the game has not started: it waits for the other players",
        PAUSED: "your lecturer paused this table; wait a moment",
        ENDED: "your lecturer ended this table",
        OVER: "the game is over",
    }.get(status, f"the table is {status}")


def seat_labels(info: TableInfo) -> list[str]:
    """A note per seat for the table drawing: "human" or the bot's name."""
    spec = resolve(info.edition)[0]
    return ["" if s.is_human else f"{bot_name(bot_factory(s.kind, spec.bots)(0))} bot" for s in info.seats]
