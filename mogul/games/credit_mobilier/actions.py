"""Actions: one unit action at a time, named as the rulebook names them.

A turn is a roll and then a short series of unit actions of one colour and one kind; each
one is its own decision, so records and logs show every step. Text forms (what records
store): ``build red B3-B4``, ``move red B4 B3``, ``buy purple``, ``pay red``, ``end``. An
action the rules do not list (a misspelt colour, a space off the board) is refused by
``state.apply`` with an ``IllegalActionError`` naming the legal ones.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Build:
    """Build Track: place a ``colour`` track marker on the track space ``section``.

    The Credit Mobilier treasury gets $2 from the bank for it.
    """

    colour: str
    section: str

    def __str__(self) -> str:
        return f"build {self.colour} {self.section}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move Goods: move one ``colour`` goods pawn one space, from ``from_space`` to ``to_space``."""

    colour: str
    from_space: str
    to_space: str

    def __str__(self) -> str:
        return f"move {self.colour} {self.from_space} {self.to_space}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy Stock: one share of ``company`` for $1, paid to the bank."""

    company: str

    def __str__(self) -> str:
        return f"buy {self.company}"


@dataclass(frozen=True, slots=True)
class PayRound:
    """Pay Dividends: one round of dividends from ``company``'s treasury to its shareholders."""

    company: str

    def __str__(self) -> str:
        return f"pay {self.company}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop using the roll: the dice pass to the left.

    Legal once the turn's first unit action is done, and before it only when the roll allows
    nothing at all.
    """

    def __str__(self) -> str:
        return "end"


Action = Build | Move | Buy | PayRound | EndTurn

END = EndTurn()


def _space(word: str) -> str:
    """A space as the board writes it: "coast" in lower case, squares in upper case ("B3")."""
    return "coast" if word.lower() == "coast" else word.upper()


def parse_action(text: str) -> Action:
    """Read an action from its text form (``"build red B3-B4"``, ``"move red B4 B3"`` ...)."""
    if not isinstance(text, str):
        raise ValueError(f"an action is written as text such as 'buy red' or 'end', got {text!r}")
    words = text.strip().split()
    head = words[0].lower() if words else ""
    if head == "end" and len(words) == 1:
        return END
    if head == "build" and len(words) == 3:
        return Build(words[1].lower(), "-".join(_space(w) for w in words[2].split("-")))
    if head == "move" and len(words) == 4:
        return Move(words[1].lower(), _space(words[2]), _space(words[3]))
    if head == "buy" and len(words) == 2:
        return Buy(words[1].lower())
    if head == "pay" and len(words) == 2:
        return PayRound(words[1].lower())
    raise ValueError(
        f"unknown action {text!r}; write one of: build COLOUR SECTION, move COLOUR FROM TO, "
        "buy COMPANY, pay COMPANY, end"
    )
