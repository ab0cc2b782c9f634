"""Bookkeeping checks for Credit Mobilier states: money and pawns accounted for at every step.

The bank is unlimited, so money is checked against the events: between two states the
players' cash plus the treasuries change exactly by what the bank paid (track built, goods
moved west) minus what it took (shares bought); dividends only move money from a treasury to
players. Goods pawns never appear, vanish or change colour, and never move east.
"""

from __future__ import annotations

from collections import Counter

from mogul.games.credit_mobilier.board import board
from mogul.games.credit_mobilier.components import COMPANIES, RAILROADS
from mogul.games.credit_mobilier.events import DividendsPaid, GoodsMoved, StockBought, TrackBuilt
from mogul.games.credit_mobilier.rules import GameState


def pawn_counts(state: GameState) -> tuple[int, ...]:
    """Goods pawns per railroad colour, wherever they stand."""
    colours = [c for _, c in state.goods]
    return tuple(map(colours.count, RAILROADS))


def bank_paid(after: GameState) -> int:
    """Net dollars the bank paid out in the step that made ``after`` (by its events)."""
    paid = 0
    for e in after.events:
        kind = type(e)
        if kind is TrackBuilt:
            paid += e.paid
        elif kind is GoodsMoved:
            paid += e.to_pawn + e.to_track
        elif kind is StockBought:
            paid -= e.price
    return paid


def check_step_cheaply(before: GameState, after: GameState) -> None:
    """The checks every step of the 10,000 random games gets: total money and the pawns."""
    total = sum(after.money) + sum(after.treasuries) - sum(before.money) - sum(before.treasuries)
    assert total == bank_paid(after), f"money not accounted for: {after.events}"
    if after.goods is not before.goods:
        assert pawn_counts(after) == pawn_counts(before), (
            "a pawn appeared, vanished or changed colour"
        )


def check_step(before: GameState, after: GameState) -> None:
    """Every seat's cash and every treasury change exactly as the step's events say."""
    check_step_cheaply(before, after)
    money = list(before.money)
    treasury = dict(zip(COMPANIES, before.treasuries, strict=True))
    stocks = [dict(s._asdict()) for s in before.stocks]
    moved = []
    for e in after.events:
        kind = type(e)
        if kind is TrackBuilt:
            treasury["purple"] += e.paid
            assert e.paid == 2
        elif kind is GoodsMoved:
            moved.append(e)
            treasury[e.colour] += e.to_pawn
            treasury[e.track] += e.to_track
            expected = 2 if e.direction == "west" else 0
            assert (e.to_pawn, e.to_track) == (expected, expected), e
            assert e.direction != "east"
        elif kind is StockBought:
            money[e.seat] -= e.price
            stocks[e.seat][e.company] += 1
        elif kind is DividendsPaid:
            money = [m + p for m, p in zip(money, e.paid, strict=True)]
            treasury[e.company] -= sum(e.paid)
            assert treasury[e.company] == e.treasury
    assert list(after.money) == money
    assert dict(zip(COMPANIES, after.treasuries, strict=True)) == treasury
    assert [dict(s._asdict()) for s in after.stocks] == stocks
    assert min(after.money) >= 0 and min(after.treasuries) >= 0
    # Pawns: at most one moved, one space, along built track, never east.
    gone = Counter(before.goods) - Counter(after.goods)
    came = Counter(after.goods) - Counter(before.goods)
    assert sum(gone.values()) == sum(came.values()) == len(moved) <= 1
    if moved:
        e = moved[0]
        assert gone == Counter({(e.from_space, e.colour): 1}) and came == Counter(
            {(e.to_space, e.colour): 1}
        )
        b = board()
        section = b.between(e.from_space, e.to_space)
        assert section is not None and after.track_owner(section.id) == e.track
        assert b.column(e.to_space) <= b.column(e.from_space)
    # Track only grows, by the sections the events name.
    built = [e for e in after.events if type(e) is TrackBuilt]
    assert set(after.track) - set(before.track) == {(e.section, e.colour) for e in built}
    assert set(before.track) <= set(after.track)
