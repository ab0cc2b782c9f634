"""The lab's tidy tables: one row per round and seat (bids beside values, for the debrief),
and the lab's own columns of ``simulate``'s games table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mogul.games.auction_lab.rules import LabState

RESULT_COLUMNS = ("mechanism", "rounds", "prizes", "paid", "revenue", "efficient")
"""The lab's columns of the games table (after the generic game, seat, bot, score, rank,
won): the mechanism, rounds played, prizes this seat won, chips it paid in all (Mogul: net
of the pots it took), the game's revenue (chips to the bank, all rounds) and the share of
rounds whose prize went to a seat with the highest value."""


def efficient(state: LabState, number: int) -> bool:
    """Did round ``number``'s prize go to a seat with the round's highest value?"""
    values = state.values[number - 1]
    return values[state.results[number - 1].winner] == max(values)


def result_row(final: LabState, seat: int) -> dict[str, Any]:
    """The seat's session: see ``RESULT_COLUMNS``."""
    results = final.results
    return {
        "mechanism": final.mechanism,
        "rounds": len(results),
        "prizes": sum(r.winner == seat for r in results),
        "paid": sum(r.payments[seat] for r in results),
        "revenue": sum(r.revenue for r in results),
        "efficient": sum(efficient(final, r.number) for r in results) / max(1, len(results)),
    }


def round_rows(states: Sequence[LabState]) -> list[dict[str, Any]]:
    """One row per finished round and seat: round, seat, player, mechanism, start (seat),
    position (places after the start seat), value, bid (sealed: the bid; English: the highest
    price raised to; Mogul: chips paid into the pot), dropped_at (the pot or price at the
    drop; None for the winner and in sealed bids), won, runner_up, payment, payoff, revenue
    (the round's, chips to the bank) and efficient (the round's)."""
    if not states:
        return []
    last = states[-1]
    n = len(last.names)
    rows = []
    for result, payoffs in zip(last.results, last.payoffs, strict=True):
        values = last.values[result.number - 1]
        fair = efficient(last, result.number)
        for seat in range(n):
            rows.append(
                {
                    "round": result.number,
                    "seat": seat,
                    "player": last.names[seat],
                    "mechanism": last.mechanism,
                    "start": result.start,
                    "position": (seat - result.start) % n,
                    "value": values[seat],
                    "bid": result.bids[seat],
                    "dropped_at": result.dropped_at[seat],
                    "won": seat == result.winner,
                    "runner_up": seat == result.runner_up,
                    "payment": result.payments[seat],
                    "payoff": payoffs[seat],
                    "revenue": result.revenue,
                    "efficient": fair,
                }
            )
    return rows
