"""The classroom's table store: tables, seats and every action of every game, in one database.

Students at several devices play one game; the store is what they share. It keeps, per table,
the game (any registered game, through ``mogul.kit.spec.resolve``), the seats (a person or a
bot), the secret key of each claimed seat (only its hash), and every action in order. The game
itself is never stored: it is the setup plus the actions, replayed (states are values), so a
table resumes exactly where it was after a kernel or the whole server restarts.

    >>> store = TableStore("sqlite://")                       # in memory; a file in class
    >>> table = store.create_table(seed=1)                    # the default game, three people
    >>> ann = store.join(table.code, "Ann")
    >>> ben = store.join(table.code, "Ben")
    >>> store.info(table.code).status
    'waiting'
    >>> cy = store.join(table.code, "Cy")                     # the last free seat: the game starts
    >>> store.info(table.code).status
    'playing'

SQLite (one file, WAL mode, the standard library's driver) is the default; a PostgreSQL URL
(``postgresql+psycopg://user@host/db``) puts the same tables on a server. Every write is one
transaction that first locks the table (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: ``SELECT ...
FOR UPDATE``) and is checked against the table's step number, and the actions' primary key is
(table, step): two devices acting at once cannot both move. Bad input (an unknown code, a taken
seat, a stale or illegal move) raises ``ClassroomError`` with a sentence for the page, and
changes nothing. The store's vocabulary (states, codes, keys, the schema) is in
``mogul.classroom.schema``; its reads in ``mogul.classroom.reading``; the students' seats and
moves in ``mogul.classroom.moves``.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from mogul.classroom.moves import StoreMoves, bot_action
from mogul.classroom.schema import (
    ACTIONS,
    CODE_ALPHABET,
    CODE_LENGTH,
    ENDED,
    KEY_LENGTH,
    META,
    OVER,
    PAUSED,
    PLAYING,
    SEATS,
    STATUSES,
    TABLES,
    TIMEOUTS,
    TIMER_RANGE,
    TIMERS,
    WAITING,
    ClassroomError,
    SeatInfo,
    TableInfo,
    Ticket,
    bot_seat_name,
    bot_seed,
    check_name,
    database_url,
    default_url,
    key_hash,
    normal_code,
    pretty_code,
    random_code,
    seat_labels,
)
from mogul.kit.bots import bot_factory
from mogul.kit.record import GameRecord
from mogul.kit.session import HUMAN
from mogul.kit.spec import default_game, resolve


def _insert_table(
    conn: sa.Connection, row: dict[str, Any], seats: Sequence[tuple[str, str | None]]
) -> int:
    """Insert a table's row and its seats (kind, name) in seat order; the new table's id."""
    table_id = conn.execute(sa.insert(TABLES).values(**row)).inserted_primary_key[0]
    conn.execute(
        sa.insert(SEATS),
        [
            {"table_id": table_id, "seat": i, "kind": kind, "name": name}
            for i, (kind, name) in enumerate(seats)
        ],
    )
    return table_id


__all__ = [  # the store's vocabulary lives in mogul.classroom.schema; pages import it from here
    "ACTIONS",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "ENDED",
    "KEY_LENGTH",
    "META",
    "OVER",
    "PAUSED",
    "PLAYING",
    "SEATS",
    "STATUSES",
    "TABLES",
    "WAITING",
    "ClassroomError",
    "SeatInfo",
    "TableInfo",
    "TableStore",
    "Ticket",
    "bot_action",
    "bot_seat_name",
    "bot_seed",
    "check_name",
    "database_url",
    "default_url",
    "normal_code",
    "pretty_code",
    "seat_labels",
]


class TableStore(StoreMoves):
    """Tables, seats and actions in a database; the games replayed from them.

    ``where``: a SQLAlchemy URL (``sqlite:///class.sqlite``, ``postgresql+psycopg://...``), a
    SQLite file path, or None for ``default_url()``. The tables are created if missing. The
    reads (``info``, ``history``, ``record`` ...) come from ``StoreReads``, the students' seats
    and moves (``join``, ``act``, ``move_bots``, ``time_out``) from ``StoreMoves``; here is
    what the lecturer does with tables.
    """

    # --- the lecturer: tables -------------------------------------------------------------------
    def create_table(
        self,
        game: Any = None,
        seats: Sequence[str] = (HUMAN, HUMAN, HUMAN),
        session: str = "",
        seed: int | None = None,
        fill: str | None = None,
    ) -> TableInfo:
        """A new table of ``game`` (a game or edition name; None: the registry's default game)
        with one spec per seat.

        A seat is ``"human"`` or one of the game's bots (``"value"``, ``"threshold:drop_at=3"``).
        ``fill`` is the bot that takes the people's seats still free when the lecturer starts
        the table early (default: the game's first bot). ``seed`` deals the game (default:
        random). The table waits for its people; the last one to sit down starts the game.
        """
        spec, edition = resolve(default_game() if game is None else game)
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
            code = random_code(CODE_LENGTH)
            try:
                with self._write() as (conn, _):
                    _insert_table(
                        conn,
                        dict(
                            code=code,
                            session=session,
                            game=spec.name,
                            edition=edition,
                            seed=seed,
                            fill=fill,
                            status=WAITING,
                            step=0,
                            version=0,
                            setup=None,
                            created=now,
                            updated=now,
                        ),
                        [
                            (kind, None if kind == HUMAN else bot_seat_name(i))
                            for i, kind in enumerate(seats)
                        ],
                    )
            except sa.exc.IntegrityError:
                continue
            if HUMAN not in seats:
                self.start(code)
            return self.info(code)
        raise RuntimeError("could not draw a fresh table code")  # pragma: no cover

    def create_tables(
        self,
        count: int,
        game: Any = None,
        seats: Sequence[str] = (HUMAN,) * 3,
        session: str = "",
        seed: int | None = None,
        fill: str | None = None,
    ) -> list[TableInfo]:
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

    def delete_table(self, code: str) -> None:
        """Remove a table nobody has joined yet (a table made by mistake); else ``ClassroomError``."""
        with self._write(code) as (conn, row):
            taken = conn.execute(
                sa.select(sa.func.count())
                .select_from(SEATS)
                .where(SEATS.c.table_id == row.id, SEATS.c.kind == HUMAN, SEATS.c.name.is_not(None))
            ).scalar()
            if taken or row.step or row.status not in (WAITING, ENDED):
                raise ClassroomError(
                    f"table {pretty_code(row.code)} has players or moves: end it instead"
                )
            for part in (TIMEOUTS, TIMERS, ACTIONS, SEATS):
                conn.execute(sa.delete(part).where(part.c.table_id == row.id))
            conn.execute(sa.delete(TABLES).where(TABLES.c.id == row.id))
            self._notify(conn, row.code)
        self._games.pop(row.id, None)

    def reissue_key(self, code: str, seat: int) -> Ticket:
        """A new seat key for a person's taken seat (the student lost theirs); the old one stops working."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ClassroomError("name the seat by its number")
        with self._write(code) as (conn, row):
            found = conn.execute(
                sa.select(SEATS).where(SEATS.c.table_id == row.id, SEATS.c.seat == seat)
            ).first()
            if found is None or found.key_hash is None:
                raise ClassroomError(
                    f"seat {seat + 1} of table {pretty_code(row.code)} has no student to give a key to"
                )
            key = random_code(KEY_LENGTH)
            conn.execute(
                sa.update(SEATS)
                .where(SEATS.c.table_id == row.id, SEATS.c.seat == seat)
                .values(key_hash=key_hash(key))
            )
        return Ticket(row.code, seat, key)

    def set_timer(self, code: str, seconds: float | None) -> TableInfo:
        """Give table ``code`` a turn timer (a person who has not moved in ``seconds`` gets the
        fill bot's move), or take it away with None."""
        if seconds is not None:
            low, high = TIMER_RANGE
            if (
                isinstance(seconds, bool)
                or not isinstance(seconds, int | float)
                or not low <= seconds <= high
            ):
                raise ClassroomError(
                    f"a turn timer is from {low:g} to {high:g} seconds, got {seconds!r}"
                )
        with self._write(code) as (conn, row):
            conn.execute(sa.delete(TIMERS).where(TIMERS.c.table_id == row.id))
            if seconds is not None:
                conn.execute(sa.insert(TIMERS).values(table_id=row.id, seconds=float(seconds)))
            self._bump(conn, row)  # the clock of the seat to move starts again
        return self.info(code)

    def restore_table(
        self,
        code: str,
        session: str,
        record: GameRecord,
        kinds: Sequence[str],
        status: str | None = None,
        fill: str | None = None,
    ) -> TableInfo:
        """Put a recorded game back at a table (loading an exported session).

        ``kinds`` gives each seat's kind (``"human"`` or a bot spec); the names come from the
        record. ``status`` defaults to "over" for a finished game, else "ended".
        """
        code = normal_code(code)
        if not re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", code):
            raise ValueError(
                f"a table code has {CODE_LENGTH} letters and digits from {CODE_ALPHABET}; got {code!r}"
            )
        spec = record.spec
        states = list(record.states())  # a record that does not replay is refused here, whole
        first, final = states[0], states[-1]
        if len(kinds) != len(first.names):
            raise ValueError(
                f"give one seat kind per player: {len(first.names)} players, {len(kinds)} kinds"
            )
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
                table_id = _insert_table(
                    conn,
                    dict(
                        code=code,
                        session=str(session)[:80],
                        game=spec.name,
                        edition=first.setup.edition,
                        seed=first.setup.seed,
                        fill=fill or next(iter(spec.bots)),
                        status=status,
                        step=len(record.actions),
                        version=1,
                        setup=setup,
                        created=now,
                        updated=now,
                    ),
                    list(zip(kinds, first.names, strict=True)),
                )
                if record.actions:
                    conn.execute(
                        sa.insert(ACTIONS),
                        [
                            {
                                "table_id": table_id,
                                "step": i,
                                "seat": states[i].current_player,
                                "action": text,
                                "at": now,
                            }
                            for i, text in enumerate(record.actions)
                        ],
                    )
        except sa.exc.IntegrityError:
            raise ValueError(f"the store already has a table {pretty_code(code)}") from None
        return self.info(code)
