"""New groups in the store: a student whose table's game is over sits down at a new table under
the same name and seat key (``move_student``, which ``mogul.classroom.desk.Desk.regroup`` calls
for each), and the store keeps where each seat's student went (``moved_seats``). The move
changes the old table like any change (its version, and on PostgreSQL a ``NOTIFY``), so every
hall process that serves a page of that seat hears of it and sends the page on to the new
table; a page that comes back later with the old table's code and key is sent on too.
``TableStore`` takes these calls from ``NewGroups``.
"""

from __future__ import annotations

import time

from mogul.classroom.database import META, SEATS, TABLES, _row, sa, seat_rows
from mogul.classroom.table import ENDED, OVER, ClassroomError, pretty_code
from mogul.kit.session import HUMAN

MOVED = sa.Table(
    "moved_seats",
    META,  # new groups: the table each seat's student went on to
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(16), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


class NewGroups:
    """The store's new-groups calls, for ``TableStore`` (whose ``_read``, ``_write``,
    ``_free_seats``, ``_deal``, ``_bump`` and ``move_bots`` they use)."""

    def move_student(self, code: str, seat: int, to: str) -> int:
        """Seat the student of ``seat`` at table ``code`` (its game over, or ended) at the first
        free person's seat of table ``to``, under the same name and seat key, and keep where
        they went (their pages follow: see the module docstring); the new seat. The last
        student to sit down at ``to`` starts its game."""
        with self._write(to) as (conn, row):
            old = _row(conn, code, lock=True)
            if old.status not in (OVER, ENDED):
                raise ClassroomError(
                    f"table {pretty_code(old.code)} is {old.status}: its students move on to "
                    "new groups once its game is over"
                )
            seats = seat_rows(conn, old.id)
            if not 0 <= seat < len(seats) or seats[seat].kind != HUMAN or not seats[seat].key_hash:
                raise ClassroomError(
                    f"seat {seat + 1} of table {pretty_code(old.code)} has no student to move"
                )
            went = self._moved(conn, old.id).get(seat)
            if went is not None:
                raise ClassroomError(
                    f"{seats[seat].name} of table {pretty_code(old.code)} moved on to table "
                    f"{pretty_code(went)} already"
                )
            free = self._free_seats(conn, row, seats[seat].name)
            conn.execute(
                sa.update(SEATS)
                .where(SEATS.c.table_id == row.id, SEATS.c.seat == free[0])
                .values(name=seats[seat].name, key_hash=seats[seat].key_hash, joined=time.time())
            )
            conn.execute(
                sa.insert(MOVED).values(table_id=old.id, seat=seat, code=row.code, at=time.time())
            )
            if len(free) == 1:
                self._deal(conn, row, fill_free=False)
            else:
                self._bump(conn, row)
            self._bump(conn, old)  # every hall hears of it, and sends that seat's pages on
        self.move_bots(to)
        return free[0]

    def _moved(self, conn: sa.Connection, table_id: int) -> dict[int, str]:
        """The seats of table ``table_id`` whose student moved on, with the table they went to."""
        found = conn.execute(
            sa.select(MOVED.c.seat, MOVED.c.code).where(MOVED.c.table_id == table_id)
        ).all()
        return dict(found)

    def moved_seats(self, session: str | None = None) -> frozenset[tuple[str, int]]:
        """(code, seat) of every seat (of ``session``, if given) whose student moved on to a
        new group: the student sits elsewhere now."""
        query = sa.select(TABLES.c.code, MOVED.c.seat).join(TABLES, TABLES.c.id == MOVED.c.table_id)
        if session is not None:
            query = query.where(TABLES.c.session == session)
        with self._read() as conn:
            return frozenset((code, seat) for code, seat in conn.execute(query).all())
