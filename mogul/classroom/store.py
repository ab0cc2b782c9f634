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
transaction that first locks the table (SQLite: ``BEGIN IMMEDIATE``, the whole database;
PostgreSQL: ``SELECT ... FOR UPDATE``) and is checked against the table's step number, and the
actions' primary key is (table, step): two devices acting at once cannot both move. Bad input
(an unknown code, a taken seat, a stale or illegal move) raises ``ClassroomError`` with a
sentence for the page, and changes nothing. A student's move or join is first checked by a read
that locks nothing, so a refused one (most clicks of a room clicking at once) never waits for
or holds the write lock; one that passes is checked again under the lock. A move's write is the
shortest: it stores the move only if the table's version is still the one its read checked
(every change bumps it), and checks again under the lock only if it is not. On SQLite, one
process's writers queue on a lock of its own before SQLite's.

Here are the lecturer's side (creating, starting, pausing, ending, restoring tables) and the
students' (``join`` a seat or get it back with its key, ``act``). The bots' answers
(``move_bots``) and the turn timer (``time_out``) are ``mogul.classroom.bot_moves``, sealed
bids held for their turn ``mogul.classroom.sealed``, students moved on to new groups
``mogul.classroom.new_groups``; the schema and the reads are
``mogul.classroom.database``; the words (states, codes, keys) ``mogul.classroom.table``.
SQLAlchemy and psycopg come with the install extra ``mogul-kit[classroom]``.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import time
from collections.abc import Sequence
from typing import Any

from mogul.classroom.bot_moves import BotMoves
from mogul.classroom.database import (
    ACTIONS,
    KEYS,
    NOTIFY_CHANNEL,
    SEATS,
    SETTINGS,
    TABLES,
    TIMEOUTS,
    TIMERS,
    StoreReads,
    _row,
    check_settings,
    sa,
    seat_rows,
)
from mogul.classroom.new_groups import NewGroups
from mogul.classroom.sealed import HELD, SealedBids, legal_move
from mogul.classroom.table import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ENDED,
    KEY_LENGTH,
    MAX_ACTION_TEXT,
    OVER,
    PAUSED,
    PLAYING,
    TIMER_RANGE,
    WAITING,
    ClassroomError,
    TableInfo,
    Ticket,
    bot_seat_name,
    check_name,
    key_hash,
    normal_code,
    not_playing,
    pretty_code,
    random_code,
)
from mogul.kit.bots import bot_factory
from mogul.kit.names import lookalike
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


class TableStore(BotMoves, NewGroups, SealedBids, StoreReads):
    """Tables, seats and actions in a database; the games replayed from them.

    ``where``: a SQLAlchemy URL (``sqlite:///class.sqlite``, ``postgresql+psycopg://...``), a
    SQLite file path, or None for ``default_url()``. The tables are created if missing. The
    reads (``info``, ``history``, ``record`` ...) come from ``StoreReads``; here are what the
    lecturer does with tables and the students' seats and moves.
    """

    # --- the lecturer: tables -------------------------------------------------------------------
    def create_table(
        self,
        game: Any = None,
        seats: Sequence[str] = (HUMAN, HUMAN, HUMAN),
        session: str = "",
        seed: int | None = None,
        fill: str | None = None,
        setup: dict[str, Any] | None = None,
    ) -> TableInfo:
        """A new table of ``game`` (a game or edition name; None: the registry's default game)
        with one spec per seat.

        A seat is ``"human"`` or one of the game's bots (``"value"``, ``"threshold:drop_at=3"``).
        ``fill`` is the bot that takes the people's seats still free when the lecturer starts
        the table early (default: the game's first bot). ``seed`` deals the game (default:
        random). ``setup``: the game's setup keywords the lecturer chose (the auction lab's
        ``rounds``, ``values``, ``budget``), dealt with the game and kept in its record. The
        table waits for its people; the last one to sit down starts the game.
        """
        spec, edition = resolve(default_game() if game is None else game)
        seats = [str(s).strip() for s in seats]
        spec.check_players(edition, len(seats))
        settings = check_settings(spec, edition, len(seats), setup)
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
                    table_id = _insert_table(
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
                    if settings is not None:
                        conn.execute(sa.insert(SETTINGS).values(table_id=table_id, setup=settings))
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
        setup: dict[str, Any] | None = None,
    ) -> list[TableInfo]:
        """``count`` tables alike (seeds ``seed``, ``seed + 1``, ... when a seed is given)."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 200:
            raise ValueError(f"count must be a whole number of tables from 1 to 200, got {count!r}")
        return [
            self.create_table(game, seats, session, None if seed is None else seed + i, fill, setup)
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
            for part in (HELD, SETTINGS, TIMEOUTS, TIMERS, ACTIONS, SEATS):
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
                .values(key_hash=key_hash(key), joined=time.time())
            )
            self._bump(conn, row)  # the pages holding the old key see the seat is gone
        return Ticket(row.code, seat, key)

    def free_seat(self, code: str, seat: int) -> TableInfo:
        """Free a person's seat (a squatter's: someone who took seats that are not theirs), so
        the next student to join sits there; the pages holding it are told the seat is gone.

        A table whose game was dealt goes back to waiting for its people, if none of them has
        moved yet (the bots' moves are played again when it fills: same seed, same game); a
        table where a person has moved is refused: give that seat a new key, or end the table.
        """
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ClassroomError("name the seat by its number")
        with self._write(code) as (conn, row):
            seats = seat_rows(conn, row.id)
            if not 0 <= seat < len(seats) or seats[seat].kind != HUMAN or seats[seat].name is None:
                raise ClassroomError(
                    f"seat {seat + 1} of table {pretty_code(row.code)} has no student to free"
                )
            people = [s.seat for s in seats if s.kind == HUMAN]
            if row.status != WAITING:
                moved = conn.execute(
                    sa.select(sa.func.count())
                    .select_from(ACTIONS)
                    .where(ACTIONS.c.table_id == row.id, ACTIONS.c.seat.in_(people))
                ).scalar()
                if moved or row.status not in (PLAYING, PAUSED):
                    raise ClassroomError(
                        f"table {pretty_code(row.code)} is {row.status} and its players have "
                        "moved: give the seat a new key, or end the table"
                    )
                for part in (HELD, TIMEOUTS, ACTIONS):
                    conn.execute(sa.delete(part).where(part.c.table_id == row.id))
            conn.execute(
                sa.update(SEATS)
                .where(SEATS.c.table_id == row.id, SEATS.c.seat == seat)
                .values(name=None, key_hash=None, joined=None)
            )
            self._bump(conn, row, status=WAITING, step=0, setup=None)
        self._games.pop(row.id, None)
        return self.info(code)

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

    def restore_table(self, info: TableInfo, record: GameRecord, states: list[Any]) -> TableInfo:
        """Put a recorded game back at a table (an exported session loaded into a store):
        ``info`` and ``states`` as ``mogul.classroom.table.recorded_table`` checked them."""
        setup = json.dumps(record.spec.setup_to_json(states[0].setup), sort_keys=True)
        now = time.time()
        try:
            with self._write() as (conn, _):
                table_id = _insert_table(
                    conn,
                    dict(
                        code=info.code,
                        session=info.session,
                        game=info.game,
                        edition=info.edition,
                        seed=info.seed,
                        fill=info.fill,
                        status=info.status,
                        step=info.step,
                        version=info.version,
                        setup=setup,
                        created=now,
                        updated=now,
                    ),
                    [(s.kind, s.name) for s in info.seats],
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
            raise ValueError(f"the store already has a table {pretty_code(info.code)}") from None
        return self.info(info.code)

    def signing_key(self, create: bool = True) -> bytes | None:
        """The store's export key (made at the first export); None if it has none and
        ``create`` is False. ``mogul.classroom.export`` signs the sessions it writes with it."""
        KEYS.metadata.create_all(self.engine)
        for _ in range(2):
            with self.engine.begin() as conn:
                row = conn.execute(sa.select(KEYS.c.secret).where(KEYS.c.name == "export")).first()
            if row is not None:
                return bytes.fromhex(row[0])
            if not create:
                return None
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        sa.insert(KEYS).values(name="export", secret=secrets.token_hex(32))
                    )
            except sa.exc.IntegrityError:  # another process made it first: read theirs
                pass
        raise RuntimeError("the store's export key could not be read")  # pragma: no cover

    # --- dealing and bumping a table (the lecturer's side uses these too) ------------------------
    def _deal(self, conn: sa.Connection, row: Any, fill_free: bool) -> None:
        """Deal table ``row``'s game (its people's seats still free get the fill bot first, with
        ``fill_free``) and store its setup: the game starts."""
        seats = seat_rows(conn, row.id)
        if fill_free:
            for s in seats:
                if s.kind == HUMAN and s.name is None:
                    conn.execute(
                        sa.update(SEATS)
                        .where(SEATS.c.table_id == row.id, SEATS.c.seat == s.seat)
                        .values(kind=row.fill, name=bot_seat_name(s.seat))
                    )
            seats = seat_rows(conn, row.id)
        spec, edition = resolve(row.edition)
        settings = conn.execute(
            sa.select(SETTINGS.c.setup).where(SETTINGS.c.table_id == row.id)
        ).scalar()
        chosen = {} if settings is None else json.loads(settings)
        first = spec.new_game(edition, [s.name for s in seats], row.seed, **chosen)
        setup = json.dumps(spec.setup_to_json(first.setup), sort_keys=True)
        self._bump(conn, row, status=OVER if first.is_over else PLAYING, setup=setup)

    def _bump(self, conn: sa.Connection, row: Any, **values: Any) -> None:
        """Change table ``row`` (still at its step) and bump its version."""
        done = conn.execute(
            sa.update(TABLES)
            .where(TABLES.c.id == row.id, TABLES.c.step == row.step)
            .values(version=TABLES.c.version + 1, updated=time.time(), **values)
        ).rowcount
        if done != 1:  # the row lock makes this impossible; the check keeps it so
            raise ClassroomError("the table changed meanwhile; try again")
        self._notify(conn, row.code, row.id)

    def _notify(self, conn: sa.Connection, code: str, table_id: int | None = None) -> None:
        """PostgreSQL: tell every listening server that table ``code`` changed (sent at commit):
        ``CODE:VERSION``, its new version read from table ``table_id`` (a server that showed
        that version already has nothing to do), or ``CODE`` alone (the table was deleted)."""
        if self.is_sqlite:
            return
        if table_id is None:
            conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, code)))
            return
        payload = TABLES.c.code + ":" + sa.cast(TABLES.c.version, sa.String)
        conn.execute(
            sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, payload)).where(TABLES.c.id == table_id)
        )

    # --- students: seats and moves ---------------------------------------------------------------
    def join(self, code: str, name: str, key: str | None = None) -> Ticket:
        """Take the first free seat at table ``code`` under ``name``; returns the seat's ticket.

        With ``key`` (a seat key given out earlier), the student gets that seat back instead
        (after a reload or on another device); ``name`` is then not checked. The last person to
        sit down starts the game.
        """
        code = normal_code(code)
        if not re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", code):
            raise ClassroomError(
                f"a table code has {CODE_LENGTH} letters and digits, like {pretty_code('ABCD2345')}"
            )
        if key:
            return self._rejoin(code, normal_code(key))
        name = check_name(name)
        if (kept := lookalike(name)) is not None:  # issue 27: nobody passes for the kit's bots
            raise ClassroomError(
                f"{name!r} looks like {kept!r}, a name kept for the bots; choose another"
            )
        with self._read() as conn:  # a refused join takes no write lock
            self._free_seats(conn, _row(conn, code), name)
        with self._write(code) as (conn, row):
            free = self._free_seats(conn, row, name)  # again: someone may have sat down since
            key = random_code(KEY_LENGTH)
            conn.execute(
                sa.update(SEATS)
                .where(SEATS.c.table_id == row.id, SEATS.c.seat == free[0])
                .values(name=name, key_hash=key_hash(key), joined=time.time())
            )
            if len(free) == 1:
                self._deal(conn, row, fill_free=False)
            else:
                self._bump(conn, row)
        self.move_bots(code)
        return Ticket(code, free[0], key)

    def _free_seats(self, conn: sa.Connection, row: Any, name: str) -> list[int]:
        """The free seats of table ``row`` that ``name`` may take; ``ClassroomError`` if none."""
        if row.status != WAITING:
            raise ClassroomError(
                f"table {pretty_code(row.code)} is full ({row.status}); "
                "to get your own seat back, type its seat key"
            )
        seats = seat_rows(conn, row.id)
        if name.casefold() in {s.name.casefold() for s in seats if s.name}:
            raise ClassroomError(
                f"someone at this table is already called {name!r}: add your initial"
            )
        free = [s.seat for s in seats if s.kind == HUMAN and s.name is None]
        if not free:  # pragma: no cover - a full table is dealt at once
            raise ClassroomError(f"table {pretty_code(row.code)} is full")
        return free

    def _rejoin(self, code: str, key: str) -> Ticket:
        with self._read() as conn:
            seats = conn.execute(
                sa.select(SEATS.c.seat, SEATS.c.key_hash).join(TABLES).where(TABLES.c.code == code)
            ).all()
        if not seats:
            raise ClassroomError(
                f"there is no table {pretty_code(code)}: check the code on the board"
            )
        digest = key_hash(key)
        for seat, stored in seats:
            if stored and hmac.compare_digest(stored, digest):
                return Ticket(code, seat, key)
        raise ClassroomError("that seat key does not belong to a seat at this table")

    def _check_key(self, conn: sa.Connection, ticket: Ticket) -> None:
        stored = conn.execute(
            sa.select(SEATS.c.key_hash)
            .join(TABLES)
            .where(TABLES.c.code == normal_code(ticket.code), SEATS.c.seat == ticket.seat)
        ).scalar()
        if (
            not stored
            or not isinstance(ticket.key, str)
            or not hmac.compare_digest(stored, key_hash(normal_code(ticket.key)))
        ):
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
        with self._read() as conn:  # a refused move takes no write lock: most clicks are
            row = _row(conn, ticket.code)
            self._check_key(conn, ticket)
            early = self._sealed(conn, row, ticket.seat, step)[1]
            if not early:
                _, move, new = self._check_move(conn, row, ticket, step, action)
                kinds = [s.kind for s in seat_rows(conn, row.id)]
                sealed = resolve(row.edition)[0].simultaneous is not None
                held = self._held(conn, row.id) if sealed else {}
        if early:  # a sealed bid before its seat's turn
            return self._hold(ticket, step, action)
        # The write is as short as it can be: every check above holds while the table's
        # version is the one read (every change of a table bumps it), so the transaction only
        # stores the move if it is (and plays the sealed bids held for the seats after it:
        # unchanged too); else the table changed meanwhile: check again under the lock.
        played = []
        with self._write() as (conn, _):
            stored = self._store_action(conn, row, ticket.seat, move, new, unchanged=True)
            if stored is not None:
                played = [(row, new, stored), *self._play_held(conn, row.code, new, held)]
        if stored is None:
            with self._write(ticket.code) as (conn, row):
                _, move, new = self._check_move(conn, row, ticket, step, action)
                stored = self._store_action(conn, row, ticket.seat, move, new)
                held = self._held(conn, row.id) if sealed else {}
                played = [(row, new, stored), *self._play_held(conn, row.code, new, held)]
        for done, state, text in played:
            self._remember(done, state, text)
        last = played[-1][1]
        if not last.is_over and kinds[last.current_player] != HUMAN:
            self.move_bots(ticket.code)  # a person moves next: no need to read the table again
        return row.step + 1

    def _check_move(
        self, conn: sa.Connection, row: Any, ticket: Ticket, step: int, text: str
    ) -> tuple[Any, Any, Any]:
        """Refuse a move of ``ticket``'s seat at table ``row`` that cannot be played now (the
        key, the table's status, the step, the turn, the move itself); else the state it is
        played in, the action and the state it makes."""
        self._check_key(conn, ticket)
        step = self._sealed(conn, row, ticket.seat, step)[0]
        if row.status != PLAYING:
            raise ClassroomError(not_playing(row.status))
        if step != row.step:
            raise ClassroomError(
                f"too late: the table moved on since your page showed it (step {step}, now {row.step}); "
                "look at the table and choose again"
            )
        state = self._game(conn, row)[0][-1]
        if state.current_player != ticket.seat:
            raise ClassroomError(f"it is {state.names[state.current_player]}'s turn, not yours")
        action, new = legal_move(row, state, text)
        return state, action, new

    def _store_action(
        self,
        conn: sa.Connection,
        row: Any,
        seat: int,
        action: Any,
        new: Any,
        unchanged: bool = False,
    ) -> str | None:
        """Store ``action`` (checked: it makes state ``new``) as table ``row``'s next; its text.
        ``unchanged``: only if the table is still at ``row``'s version (None if it is not:
        nothing was written); else ``row`` is locked."""
        done = conn.execute(
            sa.update(TABLES)
            .where(
                TABLES.c.id == row.id,
                TABLES.c.step == row.step,
                *([TABLES.c.version == row.version] if unchanged else []),
            )
            .values(
                version=TABLES.c.version + 1,
                updated=time.time(),
                step=row.step + 1,
                **({"status": OVER} if new.is_over else {}),
            )
        ).rowcount
        if done != 1:
            if unchanged:
                return None
            raise ClassroomError("the table changed meanwhile; try again")  # pragma: no cover
        conn.execute(
            sa.insert(ACTIONS).values(
                table_id=row.id, step=row.step, seat=seat, action=str(action), at=time.time()
            )
        )
        self._notify(conn, row.code, row.id)
        return str(action)
