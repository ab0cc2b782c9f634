"""The table store's moves: a student takes a seat and plays, the bots answer, the timer runs out.

``StoreMoves`` is the part of ``TableStore`` that the students' pages and the server call
while a game is on: ``join`` (a seat, or a seat back with its key), ``act`` (one move, checked
against the step the page showed), ``move_bots`` (bots play until a person must) and
``time_out`` (an idle person's move made by the table's fill bot). Every move is one locked,
checked transaction: a stale or illegal move raises ``ClassroomError`` and changes nothing.
The lecturer's side (creating, starting, pausing, ending and restoring tables) is
``mogul.classroom.store``; the reads are ``mogul.classroom.reading``.
"""

from __future__ import annotations

import hmac
import json
import re
import time
from typing import Any

import sqlalchemy as sa

from mogul.classroom.reading import StoreReads
from mogul.classroom.schema import (
    ACTIONS,
    CODE_ALPHABET,
    CODE_LENGTH,
    KEY_LENGTH,
    MAX_ACTION_TEXT,
    NOTIFY_CHANNEL,
    OVER,
    PLAYING,
    SEATS,
    TABLES,
    TIMEOUTS,
    TIMERS,
    WAITING,
    ClassroomError,
    Ticket,
    bot_seat_name,
    bot_seed,
    check_name,
    key_hash,
    normal_code,
    not_playing,
    pretty_code,
    random_code,
)
from mogul.kit.bots import bot_factory, decide
from mogul.kit.contract import IllegalActionError
from mogul.kit.names import lookalike
from mogul.kit.session import HUMAN
from mogul.kit.spec import resolve


class StoreMoves(StoreReads):
    """Seats and moves over the store's database (see the module docstring)."""

    # --- dealing and bumping a table (the lecturer's side uses these too) ------------------------
    def _deal(self, conn: sa.Connection, row: Any, fill_free: bool) -> None:
        """Deal table ``row``'s game (its people's seats still free get the fill bot first, with
        ``fill_free``) and store its setup: the game starts."""
        seats = conn.execute(
            sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)
        ).all()
        if fill_free:
            for s in seats:
                if s.kind == HUMAN and s.name is None:
                    conn.execute(
                        sa.update(SEATS)
                        .where(SEATS.c.table_id == row.id, SEATS.c.seat == s.seat)
                        .values(kind=row.fill, name=bot_seat_name(s.seat))
                    )
            seats = conn.execute(
                sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)
            ).all()
        spec, edition = resolve(row.edition)
        first = spec.new_game(edition, [s.name for s in seats], row.seed)
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
        self._notify(conn, row.code)

    def _notify(self, conn: sa.Connection, code: str) -> None:
        """PostgreSQL: tell every listening server that table ``code`` changed (sent at commit)."""
        if not self.is_sqlite:
            conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, code)))

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
        with self._write(code) as (conn, row):
            if row.status != WAITING:
                raise ClassroomError(
                    f"table {pretty_code(code)} is full ({row.status}); "
                    "to get your own seat back, type its seat key"
                )
            seats = conn.execute(
                sa.select(SEATS).where(SEATS.c.table_id == row.id).order_by(SEATS.c.seat)
            ).all()
            taken = {s.name.casefold() for s in seats if s.name}
            if name.casefold() in taken:
                raise ClassroomError(
                    f"someone at this table is already called {name!r}: add your initial"
                )
            free = [s.seat for s in seats if s.kind == HUMAN and s.name is None]
            if not free:  # pragma: no cover - a full table is dealt at once
                raise ClassroomError(f"table {pretty_code(code)} is full")
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

    def check_ticket(self, ticket: Ticket) -> None:
        """Raise ``ClassroomError`` unless ``ticket``'s key is the key of its seat."""
        with self._read() as conn:
            self._check_key(conn, ticket)

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
        with self._write(ticket.code) as (conn, row):
            self._check_key(conn, ticket)
            if row.status != PLAYING:
                raise ClassroomError(not_playing(row.status))
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
            bot_next = (
                not new.is_over
                and conn.execute(
                    sa.select(SEATS.c.kind).where(
                        SEATS.c.table_id == row.id, SEATS.c.seat == new.current_player
                    )
                ).scalar()
                != HUMAN
            )
        self._remember(row, new, stored)
        if bot_next:  # a person moves next: no need to read the table again
            self.move_bots(ticket.code)
        return step + 1

    def _apply(
        self, conn: sa.Connection, row: Any, seat: int, state: Any, text: str
    ) -> tuple[Any, str]:
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
        conn.execute(
            sa.insert(ACTIONS).values(
                table_id=row.id, step=row.step, seat=seat, action=str(action), at=time.time()
            )
        )
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
            action = bot_action(
                info.seats[seat].kind, resolve(info.edition)[0], info.seed, seat, step, state
            )
            with self._write(code) as (conn, row):
                if row.step != step or row.status != PLAYING:
                    continue  # another page moved first
                new, stored = self._apply(conn, row, seat, state, str(action))
            self._remember(row, new, stored)
            moves += 1
        return moves

    def time_out(self, code: str, step: int) -> bool:
        """If the person to move at ``step`` has run out of time, play the fill bot's move for
        them (noted in ``timeouts``); True if it did. Any server may call it: one wins."""
        states = self.history(code)
        with self._write(code) as (conn, row):
            seconds = conn.execute(
                sa.select(TIMERS.c.seconds).where(TIMERS.c.table_id == row.id)
            ).scalar()
            if (
                seconds is None
                or row.status != PLAYING
                or row.step != step
                or time.time() - row.updated < seconds
            ):
                return False
            if len(states) != step + 1:
                states, _ = self._game(conn, row)
            state = states[-1]
            seat = state.current_player
            kind = conn.execute(
                sa.select(SEATS.c.kind).where(SEATS.c.table_id == row.id, SEATS.c.seat == seat)
            ).scalar()
            if state.is_over or kind != HUMAN:
                return False
            action = bot_action(row.fill, resolve(row.edition)[0], row.seed, seat, step, state)
            conn.execute(sa.insert(TIMEOUTS).values(table_id=row.id, step=step))
            new, stored = self._apply(conn, row, seat, state, str(action))
        self._remember(row, new, stored)
        self.move_bots(code)
        return True


def bot_action(kind: str, spec: Any, seed: int, seat: int, step: int, state: Any) -> Any:
    """The move bot ``kind`` makes for ``seat`` at ``step`` (seeded by the table, so a resumed
    table plays on exactly); a bot that fails or answers an illegal move plays the first option."""
    legal = state.legal_actions()
    bot = bot_factory(kind, spec.bots)(bot_seed(seed, seat, step))
    try:
        action = decide(bot, state.view(seat), legal) if len(legal) > 1 else legal[0]
    except Exception:  # a broken bot must not stop a class: it plays the first option
        action = legal[0]
    return action if action in legal else legal[0]
