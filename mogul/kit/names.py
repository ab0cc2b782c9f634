"""Names a student may not take: the kit's bots' names and anything that looks like one.

In a class tournament or at a classroom table everybody reads the names, so a student's bot
called "value" (the kit's bot) or a person joining as "Βot 3" (a Greek capital beta) would
pass for one of the kit's bots. Two names look alike when their skeletons are equal:

    >>> skeleton("Βot 3") == skeleton("bot3") == skeleton("BOT-3")
    True
    >>> skeleton("vаlue") == skeleton("value")   # a Cyrillic a
    True
    >>> lookalike("Βot 3"), lookalike("VALUE"), lookalike("Ada")
    ('Bot 3', 'value', None)

A skeleton is the name after Unicode NFKC (compatibility forms: full-width letters,
ligatures), a small map of Greek and Cyrillic letters drawn like Latin ones, case folding,
without accents, spaces or punctuation, and with 0, 1 and i read as o, l and l.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_LOOK_ALIKES = {
    # Greek capitals and small letters drawn like Latin ones
    "Α": "A",
    "Β": "B",
    "Ε": "E",
    "Ζ": "Z",
    "Η": "H",
    "Ι": "I",
    "Κ": "K",
    "Μ": "M",
    "Ν": "N",
    "Ο": "O",
    "Ρ": "P",
    "Τ": "T",
    "Υ": "Y",
    "Χ": "X",
    "Ϲ": "C",
    "α": "a",
    "γ": "y",
    "ε": "e",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ω": "w",
    "ϲ": "c",
    # Cyrillic
    "А": "A",
    "В": "B",
    "Е": "E",
    "Ѕ": "S",
    "І": "I",
    "Ј": "J",
    "К": "K",
    "М": "M",
    "Н": "H",
    "О": "O",
    "Р": "P",
    "С": "C",
    "Т": "T",
    "У": "Y",
    "Х": "X",
    "Ү": "Y",
    "Һ": "H",
    "Ԛ": "Q",
    "Ԝ": "W",
    "а": "a",
    "в": "b",
    "е": "e",
    "ѕ": "s",
    "і": "i",
    "ј": "j",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "ү": "y",
    "һ": "h",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "ɡ": "g",
}
_LATIN = str.maketrans(_LOOK_ALIKES)
_DIGITS = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l"})
_BOT_SEAT = re.compile(r"bot[0-9lo]+")  # "Bot 3", the classroom's bots (0, 1 read as o, l)


def skeleton(name: str) -> str:
    """What ``name`` looks like, reduced so that look-alikes are equal (see the module)."""
    text = unicodedata.normalize("NFKC", str(name)).translate(_LATIN)
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if c.isalnum() or c == "|")  # no accents, spaces, punctuation
    return text.replace("rn", "m").translate(_DIGITS)


def kit_names() -> set[str]:
    """Every name the kit's own bots play under, in every registered game."""
    from mogul.kit.spec import games, get_game

    found: set[str] = set()
    for game in games():
        for key, bot in get_game(game).bots.items():
            found |= {key, str(getattr(bot, "name", key))}
    return found


def lookalike(name: str, reserved: Iterable[str] | None = None) -> str | None:
    """The kit's name that ``name`` passes for (``reserved``: the kit's bots), or None."""
    shape = skeleton(name)
    if _BOT_SEAT.fullmatch(shape):
        digits = shape[3:].replace("o", "0").replace("l", "1")
        return f"Bot {int(digits)}"
    for kept in sorted(kit_names() if reserved is None else reserved):
        if skeleton(kept) == shape:
            return kept
    return None


def tidy(name: str, longest: int = 40) -> str:
    """A bot's name fit to print: one line, no control characters, at most ``longest`` long."""
    text = " ".join(
        "".join(
            c
            for c in unicodedata.normalize("NFC", str(name))
            if not unicodedata.category(c).startswith("C")
        ).split()
    )
    return (text[: longest - 3] + "...") if len(text) > longest else text or "bot"


def student_name(name: str, reserved: Iterable[str] | None = None) -> str:
    """A student's bot's name as a run shows it: tidied, and marked when it passes for the kit's.

    >>> student_name("value"), student_name("My bot")
    ('value (student)', 'My bot')
    """
    name = tidy(name)
    return f"{name} (student)" if lookalike(name, reserved) is not None else name
