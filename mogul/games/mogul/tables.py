"""Mogul's tidy tables: one row per round and player, one row per auction, one per seat at the end.

The generic layer (records, the runner, simulations) asks the game spec for these; each
function reads a game's states, first decision to last, and never replays anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mogul.games.mogul.events import (
    AuctionWon,
    BranchFounded,
    CardRevealed,
    CardTaken,
    ChipBid,
    CrashRevealed,
    CreditTaken,
    Dropped,
    SharesSold,
)
from mogul.games.mogul.rules import GameState

if TYPE_CHECKING:
    import pandas as pd


RESULT_COLUMNS = ("points", "chips", "shares", "credits", "rounds")
"""Mogul's own columns of the games table (after the generic game, seat, bot, score, rank, won)."""


def result_row(final: GameState, seat: int) -> dict[str, Any]:
    """The seat's end of game: points, chips, shares held, credits taken, cards revealed."""
    p = final.players[seat]
    return {
        "points": p.points,
        "chips": p.chips,
        "shares": p.shares.total,
        "credits": p.credits,
        "rounds": final.round,
    }


def rounds_table(states: Iterable[GameState]) -> pd.DataFrame:
    """One row per round per player, read as the auction opens (after the premiums).

    Columns: round, card, seat, player, points, chips, score (points + 1 per 5 chips; 2013:
    plus the end bonuses, as if the crash came now), one ``shares_<company>`` and one
    ``market_<company>`` column per company; 2013 games add houses (on the map) and branches
    (their end bonus). A last row per player (card "crash") holds the final table when the
    game is over.
    """
    return _frame(round_rows(states))


def auctions_table(states: Iterable[GameState]) -> pd.DataFrame:
    """One row per auction, closed when its round ends (or at the last state given).

    Columns: round, card, company, border, start_player, bids (chips bid per seat), credits
    (seats), drop_order (seats), pot_path (the pot before each bid or drop), steps, winner,
    runner_up, sold, sale_price, seller (of whoever used the sell right), winner_choice
    ("take"/"sell", 2013 also "branch"), taker, chips_paid (all bids). 2013 games add branch
    (the station) and brancher (the seat) in rounds where a branch was founded. A round still in its auction is left out;
    one whose action phase has begun is included with what is known so far.
    """
    return _frame(auction_rows(states))


def round_rows(states: Iterable[GameState]) -> list[dict[str, Any]]:
    """The rows of ``rounds_table`` as plain dicts (the runner builds one table of many games)."""
    rows = []
    last = None
    for state in states:
        last = state
        if any(type(e) is CardRevealed for e in state.events):
            rows.extend(_table_rows(state, str(state.revealed)))
    if last is not None and last.is_over:
        rows.extend(_table_rows(last, "crash"))
    return rows


def _table_rows(state: GameState, card: str) -> list[dict[str, Any]]:
    market = state.market_values()
    scores = state.final_scores()
    parts = state.score_breakdown() if state.edition.houses_per_player else None
    share_keys = [f"shares_{c}" for c in market]
    market_keys = [f"market_{c}" for c in market]
    out = []
    for seat, p in enumerate(state.players):
        row: dict[str, Any] = {
            "round": state.round,
            "card": card,
            "seat": seat,
            "player": p.name,
            "points": p.points,
            "chips": p.chips,
            "score": scores[seat],
        }
        row.update(zip(share_keys, p.shares.counts, strict=True))
        row.update(zip(market_keys, market.values(), strict=True))
        if parts is not None:
            row.update(houses=len(p.houses), branches=parts[seat].branches)
        out.append(row)
    return out


def auction_rows(states: Iterable[GameState]) -> list[dict[str, Any]]:
    """The rows of ``auctions_table`` as plain dicts."""
    rows = []
    row: dict[str, Any] | None = None
    for state in states:
        for event in state.events:
            kind = type(event)
            if kind is CardRevealed or kind is CrashRevealed:
                if row is not None:
                    rows.append(_closed(row))
                    row = None
                if kind is CardRevealed:
                    row = _opened(state, event)
            elif row is None:
                continue
            elif kind is ChipBid:
                row["bids"][event.seat] += 1
                row["pot_path"].append(event.pot - 1)
                row["steps"] += 1
            elif kind is Dropped:
                row["drop_order"].append(event.seat)
                row["pot_path"].append(event.chips)
                row["steps"] += 1
            elif kind is CreditTaken:
                row["credits"].append(event.seat)
            elif kind is AuctionWon:
                row.update(winner=event.winner, runner_up=event.runner_up)
            elif kind is SharesSold:
                row.update(sold=event.count, sale_price=event.price, seller=event.seat)
                _note_choice(row, event.seat, "sell")
            elif kind is CardTaken:
                row["taker"] = event.seat
                _note_choice(row, event.seat, "take")
            elif kind is BranchFounded:
                row.update(branch=event.station, brancher=event.seat)
                _note_choice(row, event.seat, "branch")
    if row is not None and "winner_choice" in row:
        rows.append(_closed(row))
    return rows


def _opened(state: GameState, event: CardRevealed) -> dict[str, Any]:
    row = {
        "round": event.round,
        "card": event.card,
        "company": state.revealed.company,
        "border": state.revealed.border,
        "start_player": state.start_player,
        "bids": [0] * len(state.players),
        "credits": [],
        "drop_order": [],
        "pot_path": [],
        "steps": 0,
    }
    if state.edition.houses_per_player:  # 2013: the columns exist even before the first branch
        row.update(branch=None, brancher=None)
    return row


def _note_choice(row: dict[str, Any], seat: int, action: str) -> None:
    """The first action after the auction is the winner's: it fixes the winner's choice."""
    if "winner_choice" not in row:
        other = "sell" if action == "take" else "take"
        row["winner_choice"] = action if seat == row["winner"] else other


_COLUMNS = (
    "round",
    "card",
    "company",
    "border",
    "start_player",
    "bids",
    "credits",
    "drop_order",
    "pot_path",
    "steps",
    "winner",
    "runner_up",
    "sold",
    "sale_price",
    "seller",
    "winner_choice",
    "taker",
    "chips_paid",
    "branch",
    "brancher",
)


def _closed(row: dict[str, Any]) -> dict[str, Any]:
    row["chips_paid"] = sum(row["bids"])
    if "taker" not in row and "winner" in row:  # the sell right was used; the other takes
        row["taker"] = row["winner"] if row["winner_choice"] == "take" else row["runner_up"]
    row.update({k: tuple(row[k]) for k in ("bids", "credits", "drop_order", "pot_path")})
    return {k: row[k] for k in _COLUMNS if k in row}


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as a DataFrame; pandas is imported here, so importing the game loads no pandas."""
    import pandas as pd

    return pd.DataFrame(rows)
