"""The moves of the auction lab, named as the auctions name them, and reading them from text.

* Mogul's auction: ``Pay()`` ("pay": one chip into the pot) or ``Drop()`` ("drop": take the
  pot and leave the auction);
* English auction: ``Raise()`` ("raise": the price goes up one chip and the seat stays in) or
  ``Drop()``;
* sealed bids (first-price, second-price, all-pay): ``Bid(amount)`` ("bid 7"), one whole
  number of chips from 0 to the budget.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pay:
    """Mogul's auction: put one chip into the pot and stay in."""

    def __str__(self) -> str:
        return "pay"


@dataclass(frozen=True)
class Raise:
    """English auction: raise the price by one chip and stay in."""

    def __str__(self) -> str:
        return "raise"


@dataclass(frozen=True)
class Drop:
    """Leave the auction (in Mogul's, taking the pot)."""

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True)
class Bid:
    """A sealed bid of ``amount`` whole chips."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


Action = Pay | Raise | Drop | Bid


def parse_action(text: str) -> Action:
    """``"pay"``, ``"raise"``, ``"drop"`` or ``"bid N"`` as an action.

    >>> parse_action("bid 7"), parse_action("drop")
    (Bid(amount=7), Drop())
    """
    words = text.split() if isinstance(text, str) else []
    simple = {"pay": Pay(), "raise": Raise(), "drop": Drop()}
    if len(words) == 1 and words[0] in simple:
        return simple[words[0]]
    if len(words) == 2 and words[0] == "bid" and words[1].isdigit() and words[1].isascii():
        return Bid(int(words[1]))
    raise ValueError(
        f"an auction-lab move is written 'pay', 'raise', 'drop' or 'bid N' (N whole chips), "
        f"got {text!r}"
    )
