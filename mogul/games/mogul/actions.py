"""Actions: what a player can do, named as the rulebook names them.

Each action is a small frozen value. Its text form (``str(action)``) is what game records
store: ``bid``, ``drop``, ``credit``, ``take``, ``sell 2``, ``branch BL3`` and
``branch BL3 from BR2`` (2013 edition).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Bid:
    """Auction turn: pay one chip into the pot to stay in the auction."""

    def __str__(self) -> str:
        return "bid"


@dataclass(frozen=True, slots=True)
class Drop:
    """Auction turn: leave the auction and take every chip in the pot."""

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True, slots=True)
class Credit:
    """Auction turn, before bidding or dropping: take chips from the bank for points."""

    def __str__(self) -> str:
        return "credit"


@dataclass(frozen=True, slots=True)
class Take:
    """Action right: take the revealed share and place it in front of you."""

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Sell:
    """Action right: sell ``count`` own shares of the revealed card's border colour.

    ``Sell(0)`` is legal: it uses the sell action without selling, to block the runner-up.
    """

    count: int

    def __post_init__(self) -> None:
        # Whole numbers only: Sell(1.0) or Sell(True) would leave float points or a bool count.
        # Integer types of other libraries (numpy's int64) become plain ints.
        count = self.count
        if type(count) is not int:
            if isinstance(count, bool) or not hasattr(count, "__index__"):
                raise ValueError(
                    f"Sell needs a whole number of shares, such as Sell(2); got {count!r}"
                )
            object.__setattr__(self, "count", count.__index__())
        if self.count < 0:
            raise ValueError(f"Sell needs a number of shares >= 0; got {self.count}")

    def __str__(self) -> str:
        return f"sell {self.count}"


@dataclass(frozen=True, slots=True)
class Branch:
    """2013 edition, sell right: found a branch (place a house) on a station of the border's line.

    With all six houses out, ``move_from`` names the station the house is moved from.
    """

    station: str
    move_from: str | None = None

    def __post_init__(self) -> None:
        for name in ("station", "move_from"):
            value = getattr(self, name)
            if not (isinstance(value, str) and value.strip()) and not (
                name == "move_from" and value is None
            ):
                raise ValueError(
                    f"Branch needs a station id as text for {name}, such as Branch('s7'); got {value!r}"
                )

    def __str__(self) -> str:
        return f"branch {self.station}" + (f" from {self.move_from}" if self.move_from else "")


Action = Bid | Drop | Credit | Take | Sell | Branch

# One instance of each field-less action: the engine offers these, and code writes BID for Bid().
BID, DROP, CREDIT, TAKE = Bid(), Drop(), Credit(), Take()


def parse_action(text: str) -> Action:
    """Read an action from its text form (``"bid"``, ``"sell 2"``, ...)."""
    if not isinstance(text, str):
        raise ValueError(f"an action is written as text such as 'bid' or 'sell 2', got {text!r}")
    given = text.strip().split()  # station ids keep their case ("BL3")
    words = [w.lower() for w in given]
    simple = {"bid": BID, "drop": DROP, "credit": CREDIT, "take": TAKE}
    if len(words) == 1 and words[0] in simple:
        return simple[words[0]]
    if len(words) == 2 and words[0] == "sell" and words[1].isdigit():
        return Sell(int(words[1]))
    if words[:1] == ["branch"] and len(words) in (2, 4) and (len(words) == 2 or words[2] == "from"):
        return Branch(given[1], given[3] if len(words) == 4 else None)
    raise ValueError(
        f"unknown action {text!r}; write one of: bid, drop, credit, take, sell N, branch STATION"
    )
