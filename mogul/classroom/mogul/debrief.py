"""The debrief: the class's real bids beside the auction's equilibrium and best responses.

For every auction of every table of a session (Mogul games), the auction as it opened (the
card revealed, the pot empty) is put into the model of ``mogul.auction``: each seat's values
for winning, second place and dropping out from ``values_from_state`` (the table heuristic),
the chips in hand, the start player, and a chip's worth at the end of the game. Then:

* the **equilibrium drop point** of each seat: the pot at which it drops on the
  subgame-perfect path of ``solve`` (none for the equilibrium winner);
* each seat's **payoff curve** (``payoff_curves``): its payoff from "drop when the pot reaches
  k" while the others play the equilibrium; its **best response** is the k with the highest
  payoff (of several, the one nearest the seat's real drop point);
* the seat's **real drop point** (the pot it took when it dropped; a winner never dropped and
  counts as "stay in"), and the **cost** of it: the best payoff minus the curve's payoff at
  the real drop point, in points, *as if the others had played the equilibrium*. A seat that
  stayed in beyond its best response **over-bid**; one that left before it **under-bid**.

The model has no credit: a seat that took one during the auction is flagged (``credit``) and
measured with the chips it had when the auction opened. Everything here is read from the
store (``TableStore``), so it works on a live session and on a loaded one alike.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from mogul.analysis.mogul import game_share_values
from mogul.auction import payoff_curves, solve
from mogul.auction.mogul import values_from_state
from mogul.classroom.export import load_session, seats_table
from mogul.classroom.store import TableStore
from mogul.kit.data import data_path

TOLERANCE = 1e-9
BID_COLUMNS = [
    "code", "round", "card", "seat", "name", "kind", "real_drop", "equilibrium_drop", "best_drop",
    "real_payoff", "best_payoff", "equilibrium_payoff", "cost", "verdict", "credit",
]  # fmt: skip
SAMPLE = "sample-class"


def load_sample() -> tuple[TableStore, str]:
    """The sample session shipped in ``data/classroom/sample-class``, in an in-memory store."""
    return load_session(data_path("classroom", SAMPLE))


def auction_openings(states: list[Any]) -> list[tuple[int, list[Any]]]:
    """(index of the opening state, states of the auction) for each finished auction of a game.

    The opening is the first state of a round's auction (card revealed, pot empty); the
    auction's states run to the one in which the auction was won.
    """
    out = []
    for i, state in enumerate(states):
        opens = state.phase == "auction" and (i == 0 or states[i - 1].round != state.round)
        if not opens:
            continue
        end = i
        while end + 1 < len(states) and states[end].phase == "auction" and states[end + 1].round == state.round:
            end += 1
        if states[end].phase != "auction":  # the auction was won (a choice is being made)
            out.append((i, states[i : end + 1]))
    return out


def auction_bids(states: list[Any], chip_value: float | None = None) -> list[dict[str, Any]]:
    """One row per auction and seat of one Mogul game (the columns of ``bids``, no code/name/kind)."""
    rows = []
    for _, auction in auction_openings(states):
        opening = auction[0]
        live = values_from_state(opening, chip_value=chip_value)
        solution = solve(live.values, live.chips, live.seat, live.chip_value)
        curves = payoff_curves(live.values, live.chips, live.seat, live.chip_value, solution=solution)
        equilibrium_drop = {step.seat: step.pot for step in solution.path if step.action == "drop"}
        real_drop: dict[int, int] = {}
        credit: set[int] = set()
        for state in auction[1:]:
            for event in state.events:
                kind = type(event).__name__
                if kind == "Dropped":
                    real_drop[event.seat] = event.chips
                elif kind == "CreditTaken":
                    credit.add(event.seat)
        for seat, curve in curves.items():
            top = float(curve["payoff"].max())
            real_k = real_drop.get(seat, int(curve["k"].iloc[-1]))  # a winner never dropped
            best = min(curve.loc[curve["payoff"] >= top - TOLERANCE, "k"], key=lambda k: (abs(k - real_k), k))
            real = float(curve.loc[curve["k"] == real_k, "payoff"].iloc[0])
            cost = max(0.0, top - real)
            verdict = "best response" if cost <= TOLERANCE else ("over-bid" if real_k > best else "under-bid")
            rows.append({
                "round": opening.round, "card": str(opening.revealed), "seat": seat,
                "real_drop": real_drop.get(seat), "equilibrium_drop": equilibrium_drop.get(seat),
                "best_drop": int(best), "real_payoff": round(real, 4),
                "best_payoff": round(top, 4), "equilibrium_payoff": round(float(solution.payoffs[seat]), 4),
                "cost": round(cost, 4), "verdict": verdict, "credit": seat in credit,
            })  # fmt: skip
    return rows


def bids(store: TableStore, session: str | None = None, people_only: bool = True) -> pd.DataFrame:
    """Every seat's bidding in every auction of the session's Mogul tables (see the module doc).

    Columns: code, round, card, seat, name, kind, real_drop (None: won), equilibrium_drop (None:
    the equilibrium winner), best_drop (the best response nearest the real drop), real_payoff,
    best_payoff, equilibrium_payoff, cost (points), verdict ("over-bid", "under-bid", "best
    response"), credit. ``people_only``: leave out the bots' seats.
    """
    rows = []
    for info in store.tables(session):
        if info.game != "mogul":
            continue
        states = store.history(info.code)
        for row in auction_bids(states):
            seat = info.seats[row["seat"]]
            if people_only and not seat.is_human:
                continue
            rows.append({"code": info.code, **row, "name": seat.name, "kind": seat.kind})
    frame = pd.DataFrame(rows, columns=BID_COLUMNS)
    return frame.astype({"real_drop": "Int64", "equilibrium_drop": "Int64"})


def bidders(bid_rows: pd.DataFrame) -> pd.DataFrame:
    """One row per player: auctions, how often over-bid / under-bid / best response, and the
    total and mean cost in points; the costliest first."""
    counts = pd.crosstab([bid_rows["code"], bid_rows["name"]], bid_rows["verdict"])
    for verdict in ("over-bid", "under-bid", "best response"):
        if verdict not in counts:
            counts[verdict] = 0
    cost = bid_rows.groupby(["code", "name"])["cost"].agg(["count", "sum", "mean"])
    out = counts[["over-bid", "under-bid", "best response"]].join(cost)
    out = out.rename(columns={"count": "auctions", "sum": "total_cost", "mean": "mean_cost"}).reset_index()
    out[["total_cost", "mean_cost"]] = out[["total_cost", "mean_cost"]].round(2)
    columns = ["code", "name", "auctions", "over-bid", "under-bid", "best response", "total_cost", "mean_cost"]
    return out[columns].sort_values(["total_cost", "name"], ascending=[False, True], ignore_index=True)


def league_table(store: TableStore, session: str | None = None, bid_rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """The session's players ranked by final score: name, table, score, rank at the table,
    won, and (with ``bid_rows`` from ``bids``) the points their bidding cost them."""
    seats = seats_table(store, session)
    seats = seats[seats["kind"] == "human"]
    table = seats[["name", "code", "score", "rank", "won"]].copy()
    if bid_rows is not None:
        cost = bid_rows.groupby(["code", "name"])["cost"].sum().round(2).rename("bidding_cost")
        table = table.join(cost, on=["code", "name"])
    table = table.sort_values(["score", "name"], ascending=[False, True], ignore_index=True)
    table.insert(0, "place", table["score"].rank(method="min", ascending=False).astype(int))
    return table


def share_values(store: TableStore, session: str | None = None) -> dict[str, pd.DataFrame]:
    """Per Mogul table: market value, premiums to come and premiums realized by company and
    round (``mogul.analysis.game_share_values``), for ``mogul.plots.mogul.game.share_value_figure``."""
    return {
        info.code: game_share_values(store.history(info.code))
        for info in store.tables(session)
        if info.game == "mogul" and store.history(info.code)
    }
