"""The moves no person makes at a table: the bots' (``move_bots``, after every change that may
bring a bot's turn) and the turn timer's (``time_out``: a person idle too long gets the
table's fill bot's move). ``TableStore`` takes these calls from ``BotMoves``; a bot's move is
seeded by the table, step and seat (``bot_action``), so a resumed table plays on exactly.
"""

from __future__ import annotations

import time
from typing import Any

from mogul.classroom.database import TIMEOUTS, _row, sa, seat_rows, timer_seconds
from mogul.classroom.sealed import HELD, legal_move
from mogul.classroom.table import PLAYING, bot_seed
from mogul.kit.bots import bot_factory, decide
from mogul.kit.session import HUMAN
from mogul.kit.spec import resolve


class BotMoves:
    """The bots' and the turn timer's moves, for ``TableStore`` (whose ``info``, ``history``,
    ``_write``, ``_game``, ``_held``, ``_store_action`` and ``_remember`` they use)."""

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
            if state.is_over:
                break
            spec = resolve(info.edition)[0]
            person = info.seats[seat].kind == HUMAN
            if person and not (spec.simultaneous and seat in spec.simultaneous(state)):
                break
            action = (
                None
                if person
                else bot_action(info.seats[seat].kind, spec, info.seed, seat, step, state)
            )
            with self._write(code) as (conn, row):
                if row.step != step or row.status != PLAYING:
                    continue  # another page moved first
                if person:  # a sealed bid held for this turn, if its seat made one
                    action = self._held(conn, row.id).get(seat)
                    if action is None:
                        break
                    conn.execute(
                        sa.delete(HELD).where(HELD.c.table_id == row.id, HELD.c.seat == seat)
                    )
                new, stored = self._apply(conn, row, seat, state, str(action))
            self._remember(row, new, stored)
            moves += 1
        return moves

    def time_out(self, code: str, step: int) -> bool:
        """If the person to move at ``step`` has run out of time, play the fill bot's move for
        them (noted in ``timeouts``); True if it did. Any server may call it: one wins."""
        states = self.history(code)
        with self._write(code) as (conn, row):
            seconds = timer_seconds(conn, row.id)
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
            kinds = [s.kind for s in seat_rows(conn, row.id)]
            if state.is_over or kinds[state.current_player] != HUMAN:
                return False
            spec = resolve(row.edition)[0]
            held = self._held(conn, row.id) if spec.simultaneous else {}
            stage, played = spec.stage(state), []
            # Sealed bids: every person of the round who has not bid gets the fill bot's bid
            # now (held bids are played in their turn), not one seat per timer.
            while not state.is_over and kinds[state.current_player] == HUMAN:
                seat = state.current_player
                if seat in held:
                    text = held.pop(seat)
                    conn.execute(
                        sa.delete(HELD).where(HELD.c.table_id == row.id, HELD.c.seat == seat)
                    )
                else:
                    text = str(bot_action(row.fill, spec, row.seed, seat, row.step, state))
                    conn.execute(sa.insert(TIMEOUTS).values(table_id=row.id, step=row.step))
                new, stored = self._apply(conn, row, seat, state, text)
                played.append((row, new, stored))
                state = new
                if not spec.simultaneous or not spec.simultaneous(state):
                    break
                if spec.stage(state) != stage:
                    break
                row = _row(conn, code, lock=True)
        for row, new, stored in played:
            self._remember(row, new, stored)
        self.move_bots(code)
        return True

    def _apply(
        self, conn: sa.Connection, row: Any, seat: int, state: Any, text: str
    ) -> tuple[Any, str]:
        """Check ``text`` against ``state`` and store it as the table's next action.

        Returns the new state and the action as stored (its canonical text).
        """
        action, new = legal_move(row, state, text)
        return new, self._store_action(conn, row, seat, action, new)


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
