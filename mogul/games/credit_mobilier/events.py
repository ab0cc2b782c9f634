"""Events: past-tense records of what happened, for logs, widgets and tables.

Every state carries the events of the step that made it (``state.events``); each event's
``text(names)`` tells it as a sentence with the players' names. Money events say where the
money came from, so the bookkeeping can be checked from the events alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


def _dollars(n: int) -> str:
    return f"${n}"


class GameStarted(NamedTuple):
    """The table is set: goods on the squares, money and stock handed out, a start player chosen."""

    goods: tuple[int, ...]  # pawns per railroad colour (red, yellow, green, blue)
    money: tuple[int, ...]
    start_player: int

    def text(self, names: Sequence[str]) -> str:
        pawns = ", ".join(
            f"{n} {c}" for n, c in zip(self.goods, ("red", "yellow", "green", "blue"), strict=True)
        )
        return f"Game set up with goods pawns {pawns}. {names[self.start_player]} goes first."


class DiceRolled(NamedTuple):
    """A turn begins: the player on turn rolls the five dice."""

    turn: int
    seat: int
    dice: tuple[str, ...]

    def text(self, names: Sequence[str]) -> str:
        return f"Turn {self.turn}: {names[self.seat]} rolls {', '.join(self.dice)}."


class TrackBuilt(NamedTuple):
    """Build Track: a section of the turn's colour; the bank pays the Credit Mobilier $2."""

    seat: int
    colour: str
    section: str
    paid: int  # from the bank to the Credit Mobilier treasury

    def text(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.seat]} builds {self.colour} track on {self.section}: "
            f"the bank pays the Credit Mobilier {_dollars(self.paid)}."
        )


class GoodsMoved(NamedTuple):
    """Move Goods: one pawn one space; a move west pays its company and the track's owner."""

    seat: int
    colour: str
    from_space: str
    to_space: str
    direction: str  # "west", "north" or "south"
    track: str  # colour of the track crossed
    to_pawn: int  # from the bank to the pawn's company
    to_track: int  # from the bank to the track owner

    def text(self, names: Sequence[str]) -> str:
        said = (
            f"{names[self.seat]} moves a {self.colour} good {self.direction} from {self.from_space} "
            f"to {self.to_space} over {self.track} track"
        )
        if not (self.to_pawn or self.to_track):
            return said + ": no income."
        if self.colour == self.track:
            return said + f": {_dollars(self.to_pawn + self.to_track)} to {self.colour}."
        return (
            said
            + f": {_dollars(self.to_pawn)} to {self.colour}, {_dollars(self.to_track)} to {self.track}."
        )


class StockBought(NamedTuple):
    """Buy Stock: one share for $1, paid to the bank."""

    seat: int
    company: str
    price: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} buys a {self.company} share for {_dollars(self.price)}."


class DividendsPaid(NamedTuple):
    """Pay Dividends: one round from a treasury, $1 per share in layers from the player on turn."""

    seat: int  # the player on turn
    company: str
    round: int  # the turn's round number (1, 2 ...)
    paid: tuple[int, ...]  # dollars per seat
    treasury: int  # left in the treasury afterwards
    stopped: bool  # the treasury ran empty before every share earned $1

    def text(self, names: Sequence[str]) -> str:
        got = ", ".join(f"{n} {_dollars(p)}" for n, p in zip(names, self.paid, strict=True) if p)
        said = (
            f"Round {self.round} of {self.company} dividends: "
            + (got or "nobody holds a share")
            + "."
        )
        if self.stopped:
            return said + f" The {self.company} treasury is empty: payment stops."
        return said + f" {_dollars(self.treasury)} left in the treasury."


class TurnEnded(NamedTuple):
    """The turn is over: by choice, with every action used, or because the roll allowed nothing."""

    seat: int
    reason: str  # "ended", "used up" or "nothing possible"

    def text(self, names: Sequence[str]) -> str:
        why = {
            "ended": "ends the turn",
            "used up": "has used the roll",
            "nothing possible": "can do nothing with this roll and passes the dice",
        }[self.reason]
        return f"{names[self.seat]} {why}."


class GameEnded(NamedTuple):
    """Goods of only two colours remain outside the Pacific Coast: final cash and the winners."""

    colours_left: tuple[str, ...]
    money: tuple[int, ...]
    winners: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        left = " and ".join(self.colours_left) or "no"
        table = ", ".join(f"{n} ${m}" for n, m in zip(names, self.money, strict=True))
        who = " and ".join(names[w] for w in self.winners)
        verb = "wins" if len(self.winners) == 1 else "share the win"
        return f"Only {left} goods remain outside the Pacific Coast: the game ends. Cash: {table}. {who} {verb}."
