"""A classroom table in words: its states, its join code, its seats and their keys, what a page
is told about it, and an exported table's checks.

No database here: ``mogul.classroom.store`` keeps the tables (SQLAlchemy, an install extra),
and ``mogul.classroom.export`` reads an exported session back without it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mogul.kit.bots import bot_factory, bot_name
from mogul.kit.record import GameRecord
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
MAX_MARKS = 3
"""Combining marks (accents) one letter of a name may carry after NFC: none of the world's
spellings needs more, and a name of stacked marks draws over its neighbours' lines."""
MAX_ACTION_TEXT = 40
TIMER_RANGE = (5.0, 600.0)
"""The turn timer's shortest and longest setting, in seconds."""


class ClassroomError(ValueError):
    """Input from a page that the store refuses; the message says why, and nothing changed."""


@dataclass(frozen=True)
class SeatInfo:
    """One seat: ``kind`` is ``"human"`` or a bot spec; ``name`` once taken (bots: from the start).

    ``joined`` stamps the person's claim (when they sat down or got a new key): a page that
    holds an older claim lost the seat (the lecturer freed it or gave it a new key)."""

    seat: int
    kind: str
    name: str | None
    joined: float | None = field(default=None, compare=False)

    @property
    def is_human(self) -> bool:
        """True for a person's seat."""
        return self.kind == HUMAN


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


@dataclass(frozen=True)
class Ticket:
    """What a student's page holds: the table, the seat, and the seat's secret key."""

    code: str
    seat: int
    key: str

    def __repr__(self) -> str:  # the key never shows in logs or reprs
        return f"Ticket({self.code!r}, seat={self.seat})"


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
    categories = [unicodedata.category(c) for c in name]
    if any(c.startswith("C") for c in categories):
        raise ClassroomError("a name may hold letters, digits, spaces and punctuation only")
    marks = "".join("m" if c.startswith("M") else "." for c in categories)
    if not any(c[0] in "LN" for c in categories) or "m" * (MAX_MARKS + 1) in marks:
        raise ClassroomError(
            "a name needs a letter or digit, with at most "
            f"{MAX_MARKS} accents on any one of them: type your name as people read it"
        )
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


def not_playing(status: str) -> str:
    """Why nobody may move at a table in ``status``, for the page."""
    return {
        WAITING: "the game has not started: it waits for the other players",
        PAUSED: "your lecturer paused this table; wait a moment",
        ENDED: "your lecturer ended this table",
        OVER: "the game is over",
    }.get(status, f"the table is {status}")


def recorded_table(
    code: str,
    session: str,
    record: GameRecord,
    kinds: Sequence[str],
    status: str | None = None,
    fill: str | None = None,
) -> tuple[TableInfo, list[Any]]:
    """A recorded game as the table it was played at (an exported session read back): the
    table and its game's states, the record checked whole first.

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
    seats = tuple(
        SeatInfo(i, k, n) for i, (k, n) in enumerate(zip(kinds, first.names, strict=True))
    )
    info = TableInfo(
        code,
        str(session)[:80],
        spec.name,
        first.setup.edition,
        first.setup.seed,
        fill or next(iter(spec.bots)),
        seats,
        status,
        len(record.actions),
        1,
    )
    return info, states


def seat_labels(info: TableInfo) -> list[str]:
    """A note per seat for the table drawing: "human" or the bot's name."""
    spec = resolve(info.edition)[0]
    return [
        "" if s.is_human else f"{bot_name(bot_factory(s.kind, spec.bots)(0))} bot"
        for s in info.seats
    ]
