"""Credit Mobilier's tidy tables: turns, dividends, holdings, treasuries; a games-table row.

The generic layer (records, the runner, simulations) asks the game spec for these; each
function reads a game's states, first decision to last, and never replays anything.

``turns``       one row per turn: who rolled what, the colour and kind chosen, how many
                unit actions, track built, moves west, shares bought, dividends paid.
``dividends``   one row per dividend round and player: shares held, dollars received.
``holdings``    one row per turn and player, read as the turn begins (after the roll), and
                a last row per player at the end (``final`` true): money and shares.
``treasuries``  one row per turn and company, read likewise: treasury dollars, shares held.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mogul.games.credit_mobilier.components import COMPANIES
from mogul.games.credit_mobilier.events import (
    DiceRolled,
    DividendsPaid,
    GoodsMoved,
    StockBought,
    TrackBuilt,
)
from mogul.games.credit_mobilier.rules import GameState

if TYPE_CHECKING:
    import pandas as pd


RESULT_COLUMNS = ("money", "stock", "turns")
"""The game's own columns of the games table: cash, shares held in total, turns played."""


def result_row(final: GameState, seat: int) -> dict[str, Any]:
    """The seat's end of game: cash, shares held in total, turns played."""
    return {"money": final.money[seat], "stock": final.stocks[seat].total, "turns": final.turn}


def turn_rows(states: Iterable[GameState]) -> list[dict[str, Any]]:
    """The rows of the ``turns`` table as plain dicts."""
    rows: list[dict[str, Any]] = []
    row: dict[str, Any] | None = None
    last = None
    for state in states:
        last = state
        for event in state.events:
            kind = type(event)
            if kind is DiceRolled:
                if row is not None:
                    rows.append(row)
                row = {
                    "turn": event.turn,
                    "seat": event.seat,
                    "player": state.names[event.seat],
                    "dice": " ".join(event.dice),
                    "colour": None,
                    "kind": None,
                    "actions": 0,
                    "built": 0,
                    "moved_west": 0,
                    "bought": 0,
                    "dividends": 0,
                }
            elif row is None:
                continue
            elif kind is TrackBuilt:
                _count(row, event.colour, "build", "built", 1)
            elif kind is GoodsMoved:
                _count(row, event.colour, "move", "moved_west", event.direction == "west")
            elif kind is StockBought:
                _count(row, event.company, "buy", "bought", 1)
            elif kind is DividendsPaid:
                _count(row, event.company, "dividends", "dividends", sum(event.paid))
    if row is not None and (row["actions"] or (last is not None and last.is_over)):
        rows.append(row)
    return rows


def _count(row: dict[str, Any], colour: str, kind: str, column: str, amount: int) -> None:
    row.update(colour=colour, kind=kind, actions=row["actions"] + 1)
    row[column] += int(amount)


def dividend_rows(states: Iterable[GameState]) -> list[dict[str, Any]]:
    """The rows of the ``dividends`` table: one per round of dividends and player."""
    rows = []
    turn = 0
    for state in states:
        for event in state.events:
            if type(event) is DiceRolled:
                turn = event.turn
            elif type(event) is DividendsPaid:
                for seat, paid in enumerate(event.paid):
                    rows.append(
                        {
                            "turn": turn,
                            "round": event.round,
                            "company": event.company,
                            "seat": seat,
                            "player": state.names[seat],
                            "shares": state.stocks[seat][event.company],
                            "paid": paid,
                            "treasury": event.treasury,
                            "stopped": event.stopped,
                        }
                    )
    return rows


def _snapshots(states: Iterable[GameState]) -> list[tuple[GameState, bool]]:
    """The states read by holdings and treasuries: each turn's start, and the end (final)."""
    out = []
    last = None
    for state in states:
        last = state
        if any(type(e) is DiceRolled for e in state.events):
            out.append((state, False))
    if last is not None and last.is_over:
        out.append((last, True))
    return out


def holding_rows(states: Iterable[GameState]) -> list[dict[str, Any]]:
    """The rows of the ``holdings`` table: money and shares per player as each turn begins."""
    rows = []
    for state, final in _snapshots(states):
        for seat, name in enumerate(state.names):
            row = {
                "turn": state.turn,
                "final": final,
                "seat": seat,
                "player": name,
                "money": state.money[seat],
            }
            row.update({f"stock_{c}": state.stocks[seat][c] for c in COMPANIES})
            rows.append(row)
    return rows


def treasury_rows(states: Iterable[GameState]) -> list[dict[str, Any]]:
    """The rows of the ``treasuries`` table: each company's treasury and shares held, per turn."""
    rows = []
    for state, final in _snapshots(states):
        for company in COMPANIES:
            rows.append(
                {
                    "turn": state.turn,
                    "final": final,
                    "company": company,
                    "treasury": state.treasuries[company],
                    "shares_held": state.shares_held(company),
                }
            )
    return rows


def turns_table(states: Iterable[GameState]) -> pd.DataFrame:
    """One row per turn (see the module docstring)."""
    return _frame(turn_rows(states))


def dividends_table(states: Iterable[GameState]) -> pd.DataFrame:
    """One row per round of dividends and player (see the module docstring)."""
    return _frame(dividend_rows(states))


def holdings_table(states: Iterable[GameState]) -> pd.DataFrame:
    """One row per turn and player (see the module docstring)."""
    return _frame(holding_rows(states))


def treasuries_table(states: Iterable[GameState]) -> pd.DataFrame:
    """One row per turn and company (see the module docstring)."""
    return _frame(treasury_rows(states))


TABLES = {
    "turns": turn_rows,
    "dividends": dividend_rows,
    "holdings": holding_rows,
    "treasuries": treasury_rows,
}
"""The game's tables by name, as the game spec hands them to the generic layer."""


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as a DataFrame; pandas is imported here, so importing the game loads no pandas."""
    import pandas as pd

    return pd.DataFrame(rows)
