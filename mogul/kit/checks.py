"""Checks of scripted setup input that every game shares: lists and player names.

A game's ``new_game`` takes plain Python values from a teacher's cell or a JSON record; these
turn them into tuples or raise a ``ValueError`` that says what was wrong and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def as_list(value: object, what: str) -> list:
    """``value`` as a list; a string, bytes, a mapping or a non-sequence is refused."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise ValueError(f"{what} must be a list, got {value!r}")
    return list(value)


def player_names(
    players: int | Sequence[str], fewest: int, most: int, defaults: Sequence[str], game: str
) -> tuple[str, ...]:
    """The seats' names: ``players`` names, or a count that takes the first ``defaults``.

    ``game`` names the rule system in the error ("the classic edition", "Credit Mobilier"):

    >>> player_names(2, 2, 5, ("Ann", "Ben", "Cai"), "Credit Mobilier")
    ('Ann', 'Ben')
    >>> player_names(["Ann", "Ann"], 2, 5, (), "Credit Mobilier")
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
