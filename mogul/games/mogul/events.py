"""Events: past-tense records of what happened, for logs, widgets and tables.

Every state carries the events of the step that made it (``state.events``); each event's
``text(names)`` tells it as a sentence with the players' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class GameStarted(NamedTuple):
    """The table is set: starting shares dealt, chips handed out, a start player chosen."""

    starting_shares: tuple[tuple[str, ...], ...]
    chips: tuple[int, ...]
    start_player: int
    cards_in_pile: int

    def text(self, names: Sequence[str]) -> str:
        shares = "; ".join(
            f"{n}: {', '.join(s) or 'no shares'}"
            for n, s in zip(names, self.starting_shares, strict=True)
        )
        return (
            f"Game set up with {self.cards_in_pile} cards in the draw pile. Starting shares: "
            f"{shares}. {names[self.start_player]} is the start player."
        )


class HousesPlaced(NamedTuple):
    """2013 teaching scenarios: branches already on the map when the game starts."""

    houses: tuple[tuple[str, ...], ...]  # station ids per seat

    def text(self, names: Sequence[str]) -> str:
        placed = "; ".join(
            f"{n}: {', '.join(h)}" for n, h in zip(names, self.houses, strict=True) if h
        )
        return f"Houses already on the map: {placed}."


class CardRevealed(NamedTuple):
    """Phase 1: the top card of the draw pile is turned face up."""

    round: int
    card: str

    def text(self, names: Sequence[str]) -> str:
        return f"Round {self.round}: {self.card} is revealed."


class PremiumsPaid(NamedTuple):
    """Phase 2: one point per owned share of the revealed card's company."""

    company: str
    points: tuple[int, ...]  # per seat

    def text(self, names: Sequence[str]) -> str:
        paid = [f"{n} +{p}" for n, p in zip(names, self.points, strict=True) if p]
        if not paid:
            return f"No one holds {self.company}: no premiums."
        return f"Premiums for {self.company}: " + ", ".join(paid) + "."


class ChipBid(NamedTuple):
    """Phase 3: a player paid one chip into the pot to stay in the auction."""

    seat: int
    pot: int  # after the bid

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} bids: the pot holds {self.pot}."


class Dropped(NamedTuple):
    """Phase 3: a player left the auction and took the pot."""

    seat: int
    chips: int  # taken from the pot

    def text(self, names: Sequence[str]) -> str:
        if self.chips == 0:
            return f"{names[self.seat]} drops out and the pot is empty."
        return f"{names[self.seat]} drops and collects {self.chips} chip{'s' * (self.chips != 1)}."


class CreditTaken(NamedTuple):
    """Phase 3: a player took a credit from the bank (chips now, points lost)."""

    seat: int
    chips: int
    points: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} takes a credit: +{self.chips} chips, -{self.points} points."


class AuctionWon(NamedTuple):
    """Phase 3 ends: one player is left; the last to drop is the runner-up."""

    winner: int
    runner_up: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.winner]} wins the auction; {names[self.runner_up]} is runner-up."


class CardTaken(NamedTuple):
    """Phase 4: a player took the revealed share and becomes the next start player."""

    seat: int
    card: str

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} takes {self.card} and will start the next auction."


class SharesSold(NamedTuple):
    """Phase 4: a player sold shares of the border colour at the market value each."""

    seat: int
    company: str
    count: int
    price: int  # points per share: shares of that company held by all players before the sale

    def text(self, names: Sequence[str]) -> str:
        if self.count == 0:
            return f"{names[self.seat]} sells no {self.company} shares."
        return (
            f"{names[self.seat]} sells {self.count} {self.company} share{'s' * (self.count != 1)} "
            f"at {self.price} each: +{self.count * self.price} points."
        )


class BranchFounded(NamedTuple):
    """Phase 4 (2013): instead of selling, a player put a house on a station of the border's line."""

    seat: int
    station: str
    line: str  # the border colour of the revealed card
    moved_from: str | None = None  # with all houses out, the station the house came from

    def text(self, names: Sequence[str]) -> str:
        if self.moved_from:
            return f"{names[self.seat]} moves a house from {self.moved_from} to {self.station} ({self.line} line)."
        return f"{names[self.seat]} founds a branch at {self.station} ({self.line} line)."


class CrashRevealed(NamedTuple):
    """The crash card is revealed: the game ends at once, all shares become worthless."""

    round: int
    shares_score: bool = False  # 2013: shares still held score a point each at the end

    def text(self, names: Sequence[str]) -> str:
        if self.shares_score:
            return f"Round {self.round}: CRASH! The game ends at once; no more shares can be sold."
        return f"Round {self.round}: CRASH! The game ends at once; all shares are worthless."

    def __repr__(self) -> str:
        # The default is left out, so classic logs and golden files read as they always did.
        extra = ", shares_score=True" if self.shares_score else ""
        return f"CrashRevealed(round={self.round}{extra})"


class BonusesScored(NamedTuple):
    """2013 end bonuses per seat: branches on the map, 1 per share held, 1 per 5 chips."""

    branches: tuple[int, ...]
    shares: tuple[int, ...]
    chips: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        parts = ", ".join(
            f"{n} +{b + s + c} ({b} branches, {s} shares, {c} chips)"
            for n, b, s, c in zip(names, self.branches, self.shares, self.chips, strict=True)
        )
        return f"End bonuses: {parts}."


class GameEnded(NamedTuple):
    """Final scores (points + 1 per 5 chips) and the winners after the tie-break."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        table = ", ".join(f"{n} {s}" for n, s in zip(names, self.scores, strict=True))
        who = " and ".join(names[w] for w in self.winners)
        verb = "wins" if len(self.winners) == 1 else "share the win"
        return f"Final scores: {table}. {who} {verb}."


Event = (
    GameStarted
    | HousesPlaced
    | CardRevealed
    | PremiumsPaid
    | ChipBid
    | Dropped
    | CreditTaken
    | AuctionWon
    | CardTaken
    | SharesSold
    | BranchFounded
    | CrashRevealed
    | BonusesScored
    | GameEnded
)
