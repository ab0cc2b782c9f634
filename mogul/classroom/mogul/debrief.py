"""The debrief: the class's real bids beside the auction's equilibrium and best responses.

For every auction of every table of a session (Mogul games), the auction as it opened (the
card revealed, the pot empty) is put into the model of ``mogul.auction``: each seat's values
for winning, second place and dropping out from ``values_from_state`` (the table heuristic),
the chips in hand, the start player, and a chip's worth at the end of the game. Then:

* the **equilibrium drop point** of each seat: the pot at which it drops on the
  subgame-perfect path of ``solve`` (none for the equilibrium winner);
* the others' **recorded play**: at every point of the auction the record shows (whose turn,
  the pot, who is still in with how many chips) a seat does what it did; at a point the
  record does not show (it was never reached) it plays the equilibrium move;
* each seat's **best response** to that: its payoff from "drop when the pot reaches k"
  against the others' recorded play (``payoff_curve`` with the others fixed), the k paying
  most (of several equally good, the one nearest the seat's real drop point);
  ``equilibrium_is_best`` says whether the seat's equilibrium drop point pays as much (a tie
  with the best response, not a different answer);
* the seat's **verdict**: "over-bid" when it bid more chips than that best response would
  have (it stayed in too long), "under-bid" when fewer, "best response" when it lost nothing;
* the seat's **real payoff** in the model (its value of the place it got plus its chips won
  or paid) and its **model loss**: best payoff minus real payoff, in points. This is a loss
  *in the model* against the benchmark "the best response to what the others did", not
  points lost in the game: the model's values are estimates and the game goes on.

The model's assumptions: each seat values winning, second place and dropping out as
``values_from_state`` estimates them (the winner gets the option it values more, the
runner-up the other), a chip is worth ``chip_value`` points at the end, and there is no credit:
a seat that took one during the auction is measured as if it had held the credit's chips from
the opening (the points the credit cost are not counted). That changes the model for every
seat of the auction (the others' equilibrium and best responses depend on those chips), so
every row of such an auction is flagged (``credit``), and ``credit_moves_equilibrium`` says
where the seat's equilibrium drop point differs from the model without the credit's chips. Everything
here is read from a live store (``TableStore``) or an exported session (``ExportedSession``,
no database needed) alike.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

import pandas as pd

from mogul.analysis.mogul import game_share_values
from mogul.auction import payoff_curve, solve
from mogul.auction.model import PLACES
from mogul.auction.mogul import values_from_state
from mogul.classroom.export import ExportedSession, load_session, pretty_code, seats_table
from mogul.kit.data import data_path

if TYPE_CHECKING:
    from mogul.classroom.store import TableStore

TOLERANCE = 1e-9
BID_COLUMNS = [
    "code",
    "round",
    "card",
    "seat",
    "name",
    "kind",
    "real_drop",
    "equilibrium_drop",
    "best_drop",
    "real_bids",
    "best_bids",
    "real_payoff",
    "best_payoff",
    "equilibrium_payoff",
    "model_loss",
    "verdict",
    "equilibrium_is_best",
    "best_stays_in",
    "credit",
    "credit_moves_equilibrium",
]
NO_AUCTION = "no finished auction"
"""What the league table shows for a player whose table finished no auction."""
ASSUMPTIONS = (
    "Model loss: points in the auction model, against the best response to what the others at the table "
    "did (their recorded moves; the equilibrium move where the record is silent). Assumed: each seat's values "
    "for winning, second place and dropping out are the table estimates (values_from_state); the runner-up gets "
    "the option the winner did not take; a chip is worth 1/5 point; no credit (a seat that took one is measured as "
    "if it had held the credit's chips from the opening, and every row of that auction is flagged)."
)
"""The model's assumptions in one paragraph, to print beside the debrief's charts."""
LINE = 88
"""Characters in a printed line: what fits a notebook column on a laptop."""
BID_PARTS = {
    "drops": {
        "real_drop": ("drop at pot", "real"),
        "equilibrium_drop": ("drop at pot", "equilibrium"),
        "best_drop": ("drop at pot", "best"),
        "real_bids": ("chips bid", "real"),
        "best_bids": ("chips bid", "best"),
    },
    "payoffs": {
        "real_payoff": ("payoff", "real"),
        "best_payoff": ("payoff", "best"),
        "equilibrium_payoff": ("payoff", "equilibrium"),
        "model_loss": ("", "model_loss"),
        "verdict": ("", "verdict"),
        "credit": ("", "credit"),
    },
}
"""The two halves of a row of ``bids`` that ``bid_table`` shows, each column under its heading."""
SAMPLE = "sample-class"
STAY_IN = "stay in"
"""What ``bid_table`` shows for a best response that never drops."""


def load_sample() -> tuple[ExportedSession, str]:
    """The sample session shipped in ``data/classroom/sample-class``, read back (no database).

    Trusted as it is: it ships inside the kit, beside this code, and no store's key signs it."""
    return load_session(data_path("classroom", SAMPLE), trust=True)


def assumptions(width: int = LINE) -> str:
    """``ASSUMPTIONS`` in lines of at most ``width`` characters, for printing."""
    return textwrap.fill(ASSUMPTIONS, width)


def bid_table(bid_rows: pd.DataFrame, part: str) -> pd.DataFrame:
    """Rows of ``bids`` in a table that fits a laptop's notebook column: the table (as the
    dashboard spells its code), round, card (in "drops") and name, then one half of the
    columns, ``part`` "drops" (drop points and chips bid) or "payoffs" (payoffs and model loss
    rounded to cents, verdict, credit), under two-level headings ("drop at pot" / "real").
    A best response that never drops while it holds a chip shows "stay in" (``bids`` keeps its
    k, the table's total chips). ``equilibrium_is_best`` stays in ``bids`` (``comparison`` counts it)."""
    if part not in BID_PARTS:
        raise ValueError(f"part must be one of {sorted(BID_PARTS)}, not {part!r}")
    columns = BID_PARTS[part]
    table = pd.DataFrame(
        {
            ("", "table"): bid_rows["code"].map(pretty_code),
            ("", "round"): bid_rows["round"],
            ("", "card"): bid_rows["card"],
            ("", "name"): bid_rows["name"],
        }
    )
    if part == "payoffs":  # the card is in the "drops" half: room for the payoffs
        table = table.drop(columns=[("", "card")])
    for column, heading in columns.items():
        values = bid_rows[column]
        if column == "best_drop":
            values = values.astype(object).where(~bid_rows["best_stays_in"], STAY_IN)
        table[heading] = values.round(2) if pd.api.types.is_float_dtype(values) else values
    table.columns = pd.MultiIndex.from_tuples(table.columns)
    return table.reset_index(drop=True)


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
        while (
            end + 1 < len(states)
            and states[end].phase == "auction"
            and states[end + 1].round == state.round
        ):
            end += 1
        if states[end].phase != "auction":  # the auction was won (a choice is being made)
            out.append((i, states[i : end + 1]))
    return out


def _node(seat: int, pot: int, chips: dict[int, int]) -> tuple:
    return seat, pot, tuple(sorted(chips.items()))


def recorded_moves(auction: list[Any], chips: tuple[int, ...], start: int) -> dict[tuple, str]:
    """The moves of one auction's record, keyed by decision point (seat, pot, chips of the
    seats still in, counted from ``chips``: the chips at the opening plus any credit taken)."""
    have = dict(enumerate(chips))
    seat, pot, moves = start, 0, {}
    for state in auction[1:]:
        for event in state.events:
            kind = type(event).__name__
            if kind not in ("ChipBid", "Dropped") or len(have) < 2:
                continue
            seat = event.seat
            moves[_node(seat, pot, have)] = "bid" if kind == "ChipBid" else "drop"
            if kind == "ChipBid":
                have[seat] = max(0, have[seat] - 1)
                pot += 1
            else:
                del have[seat]
                pot = 0
    return moves


def recorded_outcome(
    auction: list[Any], values: tuple[tuple[float, float, float], ...], chip_value: float
) -> tuple[dict[int, int], list[int], list[float]]:
    """What each seat did and got in one recorded auction: (seat -> the pot it took when it
    dropped, the winner left out; chips each seat bid; each seat's payoff in the model's points: its value of the
    place it got plus ``chip_value`` times the chips it won less those it bid)."""
    n = len(values)
    net, bids = [0] * n, [0] * n
    dropped: dict[int, int] = {}
    for state in auction[1:]:
        for event in state.events:
            kind = type(event).__name__
            if kind == "ChipBid":
                net[event.seat] -= 1
                bids[event.seat] += 1
            elif kind == "Dropped":
                net[event.seat] += event.chips
                dropped[event.seat] = event.chips
    runner_up = list(dropped)[-1]
    places = ["second" if s == runner_up else "out" if s in dropped else "win" for s in range(n)]
    return (
        dropped,
        bids,
        [float(values[s][PLACES.index(places[s])] + chip_value * net[s]) for s in range(n)],
    )


def _recorded_bot(moves: dict[tuple, str], equilibrium: Any) -> Any:
    """A bot that plays the recorded move where the record has one, else the equilibrium's."""

    def bot(seat: int, pot: int, chips: Any) -> str:
        return moves.get(_node(seat, pot, dict(chips))) or equilibrium(seat, pot, chips)

    return bot


def _drops(solution: Any) -> dict[int, int]:
    """Seat -> the pot at which it drops on the equilibrium path (the winner left out)."""
    return {step.seat: step.pot for step in solution.path if step.action == "drop"}


def auction_bids(states: list[Any], chip_value: float | None = None) -> list[dict[str, Any]]:
    """One row per auction and seat of one Mogul game (the columns of ``bids``, no code/name/kind)."""
    rows = []
    for _, auction in auction_openings(states):
        opening = auction[0]
        live = values_from_state(opening, chip_value=chip_value)
        values, start, cv = live.values, live.seat, live.chip_value
        credit_chips = [0] * len(live.chips)
        for state in auction[1:]:
            for event in state.events:
                if type(event).__name__ == "CreditTaken":
                    credit_chips[event.seat] += event.chips
        chips = tuple(c + extra for c, extra in zip(live.chips, credit_chips, strict=True))
        solution = solve(values, chips, start, cv)
        equilibrium_drop = _drops(solution)
        # without the credit's chips: where the no-credit assumption moves the equilibrium
        plain_drop = _drops(solve(values, live.chips, start, cv)) if any(credit_chips) else None
        moves = recorded_moves(auction, chips, start)
        recorded = _recorded_bot(moves, solution.action)
        real_drop, real_bids, real_payoff = recorded_outcome(auction, values, cv)
        for seat in range(len(chips)):
            others = {j: recorded for j in range(len(chips)) if j != seat}
            curve = payoff_curve(values, chips, seat, start, cv, bots=others)
            top = float(curve["payoff"].max())
            last = int(curve["k"].iloc[-1])
            real_k = real_drop.get(seat, last)  # a winner never dropped: "stay in"
            tied = curve.loc[curve["payoff"] >= top - TOLERANCE, "k"]
            best = min(tied, key=lambda k: (abs(k - real_k), k))
            got = real_payoff[seat]
            loss = max(0.0, top - got)
            best_bids = int(curve.loc[curve["k"] == best, "paid"].iloc[0])
            if loss <= TOLERANCE:
                verdict = "best response"
            elif real_bids[seat] != best_bids:  # more chips bid than the best response: over-bid
                verdict = "over-bid" if real_bids[seat] > best_bids else "under-bid"
            else:  # as many chips, another place (credit, or a drop at another turn)
                verdict = "over-bid" if real_k > best else "under-bid"
            eq_k = equilibrium_drop.get(seat, last)
            rows.append(
                {
                    "round": opening.round,
                    "card": str(opening.revealed),
                    "seat": seat,
                    "real_drop": real_drop.get(seat),
                    "equilibrium_drop": equilibrium_drop.get(seat),
                    "best_drop": int(best),
                    "real_bids": real_bids[seat],
                    "best_bids": best_bids,
                    "real_payoff": round(got, 4),
                    "best_payoff": round(top, 4),
                    "equilibrium_payoff": round(float(solution.payoffs[seat]), 4),
                    "model_loss": round(loss, 4),
                    "verdict": verdict,
                    "equilibrium_is_best": bool(eq_k in set(tied)),
                    "best_stays_in": bool(best == last),
                    "credit": plain_drop is not None,
                    "credit_moves_equilibrium": plain_drop is not None
                    and plain_drop.get(seat) != equilibrium_drop.get(seat),
                }
            )
    return rows


def bids(
    store: TableStore | ExportedSession, session: str | None = None, people_only: bool = True
) -> pd.DataFrame:
    """Every seat's bidding in every auction of the session's Mogul tables (see the module doc).

    Columns: code, round, card, seat, name, kind, real_drop (None: won), equilibrium_drop (None:
    the equilibrium winner), best_drop (the best response to the others' recorded play, nearest
    the real drop), real_bids and best_bids (chips bid in the auction and by that best
    response), real_payoff, best_payoff, equilibrium_payoff, model_loss (points in the
    model), verdict ("over-bid", "under-bid", "best response"), equilibrium_is_best (the
    equilibrium drop point ties the best response), best_stays_in (the best response never
    drops while it holds a chip: "stay in"; its best_drop is the table's total chips), credit (a seat
    took a credit in this auction: every seat of it is measured as if the credit's chips had
    been in hand from the opening), credit_moves_equilibrium (that changes this seat's
    equilibrium drop point). ``people_only``: leave out the bots' seats.
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
    """One row per player: their table (as the dashboard spells its code), auctions, how
    often over-bid / under-bid / best response, and the total and mean model loss in points;
    the largest loss first."""
    counts = pd.crosstab([bid_rows["code"], bid_rows["name"]], bid_rows["verdict"])
    for verdict in ("over-bid", "under-bid", "best response"):
        if verdict not in counts:
            counts[verdict] = 0
    loss = bid_rows.groupby(["code", "name"])["model_loss"].agg(["count", "sum", "mean"])
    out = counts[["over-bid", "under-bid", "best response"]].join(loss)
    out = out.rename(
        columns={"count": "auctions", "sum": "total_loss", "mean": "mean_loss"}
    ).reset_index()
    out[["total_loss", "mean_loss"]] = out[["total_loss", "mean_loss"]].round(2)
    out["table"] = out["code"].map(pretty_code)
    columns = [
        "table",
        "name",
        "auctions",
        "over-bid",
        "under-bid",
        "best response",
        "total_loss",
        "mean_loss",
    ]
    return out[columns].sort_values(
        ["total_loss", "name"], ascending=[False, True], ignore_index=True
    )


def league_table(
    store: TableStore | ExportedSession,
    session: str | None = None,
    bid_rows: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The session's players ranked by final score: name, table (its code as the dashboard
    spells it), score, rank at the table, won, and (with ``bid_rows`` from ``bids``) ``model_loss``: the points their bidding lost
    in the model, or "no finished auction" for a table that finished none."""
    seats = seats_table(store, session)
    seats = seats[seats["kind"] == "human"]
    table = seats[["name", "code", "table", "score", "rank", "won"]].copy()
    if bid_rows is not None:  # joined on the stored code, shown as the dashboard spells it
        loss = bid_rows.groupby(["code", "name"])["model_loss"].sum().round(2).rename("model_loss")
        table = table.join(loss, on=["code", "name"])
        table["model_loss"] = (
            table["model_loss"].astype(object).where(table["model_loss"].notna(), NO_AUCTION)
        )
    table = table.drop(columns="code")
    table = table.sort_values(["score", "name"], ascending=[False, True], ignore_index=True)
    table.insert(0, "place", table["score"].rank(method="min", ascending=False).astype(int))
    return table


def comparison(bid_rows: pd.DataFrame) -> dict[str, int]:
    """How the best response to the others' recorded play compares with the equilibrium, in
    rows of ``bids``: ``rows``; ``seats_that_dropped`` (real and equilibrium drop points both
    known); ``differ`` (of those, best drop point not the equilibrium's) and ``differ_tie``
    (of those, the equilibrium drop point pays as much: a tie, not a different answer);
    ``equilibrium_not_best`` (rows in which the equilibrium drop point pays less than the best
    response); ``loss_rows`` (model loss above zero); ``credit`` (rows of auctions in which a
    seat took a credit, all flagged); ``credit_moves_equilibrium`` (of those, rows whose
    equilibrium drop point the no-credit assumption changes)."""
    both = bid_rows.dropna(subset=["real_drop", "equilibrium_drop"])
    differ = both[both["best_drop"] != both["equilibrium_drop"]]
    return {
        "rows": len(bid_rows),
        "seats_that_dropped": len(both),
        "differ": len(differ),
        "differ_tie": int(differ["equilibrium_is_best"].sum()),
        "equilibrium_not_best": int((~bid_rows["equilibrium_is_best"]).sum()),
        "loss_rows": int((bid_rows["model_loss"] > TOLERANCE).sum()),
        "credit": int(bid_rows["credit"].sum()),
        "credit_moves_equilibrium": int(bid_rows["credit_moves_equilibrium"].sum()),
    }


def comparison_table(bid_rows: pd.DataFrame) -> pd.Series:
    """``comparison`` as a one-column table (rows of ``bids``), one count a line."""
    return pd.Series(comparison(bid_rows), name="rows of bids")


def share_values(
    store: TableStore | ExportedSession, session: str | None = None
) -> dict[str, pd.DataFrame]:
    """Per Mogul table: market value, premiums to come and premiums realized by company and
    round (``mogul.analysis.game_share_values``), for ``mogul.plots.mogul.game.share_value_figure``."""
    return {
        info.code: game_share_values(store.history(info.code))
        for info in store.tables(session)
        if info.game == "mogul" and store.history(info.code)
    }
