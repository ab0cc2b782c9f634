"""Checks of scripted setup input that every game shares: lists, numbers, player names, seats
and the setup object of a game record.

A game's ``new_game`` takes plain Python values from a teacher's cell or a JSON record; these
turn them into tuples or raise a ``ValueError`` that says what was wrong and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any


def as_list(value: object, what: str) -> list:
    """``value`` as a list; a string, bytes, a mapping or a non-sequence is refused."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise ValueError(f"{what} must be a list, got {value!r}")
    return list(value)


def player_names(
    players: int | Sequence[str], fewest: int, most: int, defaults: Sequence[str], game: str
) -> tuple[str, ...]:
    """The seats' names: ``players`` names, or a count that takes the first ``defaults``.

    ``game`` names the rule system in the error (the game's or the edition's title):

    >>> player_names(2, 2, 5, ("Ann", "Ben", "Cai"), "This game")
    ('Ann', 'Ben')
    >>> player_names(6, 2, 5, ("Ann", "Ben", "Cai"), "This game")
    Traceback (most recent call last):
    ValueError: This game is for 2 to 5 players; got 6
    >>> player_names(["Ann", "Ann"], 2, 5, (), "This game")
    Traceback (most recent call last):
    ValueError: player names must differ from each other, got ['Ann', 'Ann']
    """
    span = f"{fewest} to {most}"
    if isinstance(players, bool):
        raise ValueError(f"players must be a count ({span}) or a list of names, got {players!r}")
    if isinstance(players, int):
        if not fewest <= players <= most:
            raise ValueError(f"{game} is for {span} players; got {players}")
        return tuple(defaults[:players])
    names = tuple(as_list(players, "players"))
    if not fewest <= len(names) <= most:
        raise ValueError(f"{game} is for {span} players; got {len(names)} names")
    if not all(isinstance(x, str) and x.strip() for x in names):
        raise ValueError(f"player names must be non-empty text, got {list(names)!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"player names must differ from each other, got {list(names)!r}")
    return names


def is_whole(x: object) -> bool:
    """True for an ``int`` that is not a ``bool`` (JSON's true is no number of anything)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_count(x: object) -> bool:
    """True for a whole number >= 0 (chips, dollars, shares)."""
    return is_whole(x) and x >= 0


def is_text_list(x: object) -> bool:
    """True for a list of strings (names, cards, station ids)."""
    return isinstance(x, list) and all(isinstance(v, str) for v in x)


def seat_number(value: object, players: int) -> int:
    """``value`` if it is a seat number of a ``players``-seat table (the start player), else a ``ValueError``.

    >>> seat_number(3, 3)
    Traceback (most recent call last):
    ValueError: start_player must be a seat number from 0 to 2, got 3
    """
    if not is_whole(value) or not 0 <= value < players:
        raise ValueError(
            f"start_player must be a seat number from 0 to {players - 1}, got {value!r}"
        )
    return value


Rule = tuple[Callable[[Any], bool], str]
"""A field's check and what it must be, for the error: ``(is_whole, "a whole number")``."""


def setup_fields(
    raw: object, fields: Sequence[str], required: Mapping[str, Rule], optional: Mapping[str, Rule]
) -> None:
    """Check a game record's setup object before the game deals it; ``ValueError`` names the bad field.

    ``fields`` are all the game's setup fields; ``required`` must be present and pass their
    check; ``optional`` pass theirs unless missing or null. Fields are checked in the order given.

    >>> setup_fields({"seed": 1.5}, ("seed",), {"seed": (is_whole, "a whole number")}, {})
    Traceback (most recent call last):
    ValueError: setup field "seed" must be a whole number, got 1.5
    """
    if not isinstance(raw, Mapping):
        raise ValueError("the setup must be an object")
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise ValueError(f"unknown setup fields {unknown}; allowed: {list(fields)}")
    missing = [k for k in required if k not in raw]
    if missing:
        quoted = [f'"{k}"' for k in required]
        needed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
        raise ValueError(f"game record setup needs {needed}; missing: {missing}")
    for key, (ok, what) in (*required.items(), *optional.items()):
        if (key in required or raw.get(key) is not None) and not ok(raw[key]):
            raise ValueError(f'setup field "{key}" must be {what}, got {raw[key]!r}')
