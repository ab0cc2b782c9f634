"""Sealed bids held in the store: in a round where seats bid in any order (a game whose spec
names its ``simultaneous`` seats, as the auction lab's sealed bids), a seat may bid before its
turn. Its bid waits in ``held_moves`` and is played, in seat order, inside the transaction of
the move that brings its seat's turn; so a table's record stays one move at a time and replays,
and a restarted server keeps every bid. ``TableStore`` takes these calls from ``SealedBids``.
"""

from __future__ import annotations

import time
from typing import Any

from mogul.classroom.database import META, _clock, _row, sa, seat_rows, table_info
from mogul.classroom.table import (
    ENDED,
    MAX_ACTION_TEXT,
    OVER,
    PLAYING,
    ClassroomError,
    TableInfo,
    Ticket,
    not_playing,
)
from mogul.kit.contract import IllegalActionError
from mogul.kit.spec import resolve

HELD = sa.Table(
    "held_moves",
    META,  # sealed bids made before their seat's turn, played in seat order as it comes
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("action", sa.String(MAX_ACTION_TEXT), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

SeatSnapshot = tuple[
    TableInfo, list[Any], tuple[float | None, float, frozenset[int]], dict[int, str], dict[int, str]
]
"""What a seat's page is drawn from: the table, its states, its clock, the sealed bids held
(by seat) and the seats whose student moved on (by seat, the table they went to)."""


class SealedBids:
    """The store's sealed-bid calls, for ``TableStore`` (whose ``_read``, ``_write``, ``_game``,
    ``_store_action``, ``_remember``, ``_moved`` and ``move_bots`` they use)."""

    def _sealed(self, conn: sa.Connection, row: Any, seat: int, step: int) -> tuple[int, bool]:
        """A sealed bid's step: in a round where seats bid in any order (``simultaneous``), a
        seat that has not bid may bid from any step of the same round (other bids moved the
        table on, not the round): the table's step, and True if it is not yet the seat's turn
        (the bid is held). Else ``step`` and False: the usual checks judge the move."""
        spec = resolve(row.edition)[0]
        if spec.simultaneous is None or row.status != PLAYING or not 0 <= step <= row.step:
            return step, False
        states = self._game(conn, row)[0]
        state = states[-1]
        bidders = () if state.is_over else spec.simultaneous(state)
        if not bidders or spec.stage(states[step]) != spec.stage(state):
            return step, False  # one seat at a time; or refused below: too late
        if seat not in bidders or seat in self._held(conn, row.id):
            raise ClassroomError("your bid for this round is in: wait for the others")
        return row.step, seat != state.current_player

    def _hold(self, ticket: Ticket, step: int, text: str) -> int:
        """Keep ``ticket``'s sealed bid until its seat's turn (played then, with the move before
        it), or play it now if the turn came meanwhile; the table's step."""
        played = None
        with self._write(ticket.code) as (conn, row):
            if row.status != PLAYING:
                raise ClassroomError(not_playing(row.status))
            now, hold = self._sealed(conn, row, ticket.seat, step)
            if now != row.step:
                raise ClassroomError(
                    "too late: the round you bid in is over; look at the table and bid again"
                )
            state = self._game(conn, row)[0][-1]
            action, new = legal_move(row, state, text)  # every bidder has the same choices
            if hold:
                conn.execute(
                    sa.insert(HELD).values(
                        table_id=row.id, seat=ticket.seat, action=str(action), at=time.time()
                    )
                )
                self._bump(conn, row)  # the pages see one more bid in (not whose, not what)
            else:
                played = [
                    (row, new, self._store_action(conn, row, ticket.seat, action, new)),
                    *self._play_held(conn, row.code, new, self._held(conn, row.id)),
                ]
        for done, state, text in played or ():
            self._remember(done, state, text)
        if played:  # a bot may be next
            self.move_bots(ticket.code)
        return row.step + bool(played)

    def _play_held(
        self, conn: sa.Connection, code: str, state: Any, held: dict[int, str]
    ) -> list[tuple[Any, Any, str]]:
        """Play the sealed bids ``held`` (by seat) whose seat's turn has come after ``state``,
        in the transaction of ``conn`` (which holds the write lock); each (row it was played
        at, the state it made, its text)."""
        played = []
        while not state.is_over and state.current_player in held:
            seat = state.current_player
            row = _row(conn, code, lock=True)
            conn.execute(sa.delete(HELD).where(HELD.c.table_id == row.id, HELD.c.seat == seat))
            action, new = legal_move(row, state, held.pop(seat))  # checked when it was held
            played.append((row, new, self._store_action(conn, row, seat, action, new)))
            state = new
        return played

    def _held(self, conn: sa.Connection, table_id: int) -> dict[int, str]:
        """The bids held at table ``table_id``, by seat."""
        found = conn.execute(
            sa.select(HELD.c.seat, HELD.c.action).where(HELD.c.table_id == table_id)
        ).all()
        return dict(found)

    def held_seats(self, code: str) -> frozenset[int]:
        """The seats of table ``code`` whose sealed bid is held for their turn (not the bids)."""
        with self._read() as conn:
            return frozenset(self._held(conn, _row(conn, code).id))

    def seat_snapshot(self, code: str) -> SeatSnapshot:
        """``snapshot``, the sealed bids held for their seats' turn (by seat: for the hall
        to tell each seat its own, and nobody else's) and, at a table whose game is over, the
        seats whose student moved on to a new group (``NewGroups``: by seat, the table they
        went to), in one read."""
        with self._read() as conn:
            row = _row(conn, code)
            info = table_info(row, seat_rows(conn, row.id))
            states = list(self._game(conn, row)[0])
            simultaneous = resolve(row.edition)[0].simultaneous is not None
            held = self._held(conn, row.id) if simultaneous else {}
            moved = self._moved(conn, row.id) if row.status in (OVER, ENDED) else {}
            return info, states, _clock(conn, row), held, moved


def legal_move(row: Any, state: Any, text: str) -> tuple[Any, Any]:
    """The action ``text`` names in table ``row``'s game and the state it makes from ``state``;
    ``ClassroomError`` if it is no move of the game or not allowed now."""
    try:
        action = resolve(row.edition)[0].parse_action(text)
        return action, state.apply(action)
    except IllegalActionError as err:
        legal = ", ".join(str(a) for a in state.legal_actions())
        raise ClassroomError(f"{text!r} is not allowed now; you may: {legal}") from err
    except (ValueError, TypeError) as err:
        raise ClassroomError(f"{text!r} is not a move of this game: {err}") from err
