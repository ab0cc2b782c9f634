"""The lab drawn for one seat, in HTML: its own value, budget and running payoff, and the
finished rounds as everyone sees them. The notebook player shows them; a page of the lecture
hall can show the same for the seat it serves (nothing here reveals another seat's value or
a pending bid)."""

from __future__ import annotations

import html

from mogul.games.auction_lab.rules import SEALED, TITLES, LabState


def seat_html(state: LabState, seat: int | None) -> str:
    """The seat's value, budget and running payoff (every value when ``seat`` is None: a table
    of bots, or the lecturer's view); once over, everyone's score."""
    rounds = state.setup.rounds
    title = f"{TITLES[state.mechanism]}, round {min(state.round, rounds)} of {rounds}"
    if state.is_over:
        mine = "the session is over: " + ", ".join(
            f"{name} {score}" for name, score in zip(state.names, state.final_scores(), strict=True)
        )
    elif seat is None:
        mine = "values: " + ", ".join(
            f"{name} {v}" for name, v in zip(state.names, state.value, strict=True)
        )
    else:
        view = state.view(seat)
        value = "" if view.value is None else f"your value: <b>{view.value}</b>, "
        mine = f"{value}budget {view.budget}, your payoff so far: <b>{view.payoff}</b>"
        if view.bid is not None:
            mine += f"<br>your sealed bid: <b>{view.bid}</b>"
    return f"<div class='mogul-lab-seat'><b>{html.escape(title)}</b><br>{mine}</div>"


def seat_panel(state: LabState, seat: int) -> str:
    """What a student's page in the lecture hall shows of the lab: ``seat_html`` and the
    finished rounds from that seat's side (its value, the bids as everyone saw them once the
    round closed, who won, its payoff); never another seat's value or a bid still sealed, nor
    (once over) another seat's score."""
    view = state.view(seat)
    rows = "".join(
        f"<tr><td>{r.number}</td><td>{value}</td><td>{', '.join(map(str, r.bids))}</td>"
        f"<td>{'you' if r.winner == seat else html.escape(state.names[r.winner])}</td>"
        f"<td>{r.payments[seat]}</td><td><b>{payoff}</b></td></tr>"
        for r, value, payoff in zip(view.results, view.my_values, view.my_payoffs, strict=True)
    )
    head = (
        "<tr><th>round</th><th>your value</th><th>bids</th><th>winner</th><th>you paid</th>"
        "<th>your payoff</th></tr>"
    )
    table = f"<table class='mogul-lab-rounds'>{head}{rows}</table>" if rows else ""
    if state.is_over:  # its own score only: a winner's score and price would tell its value
        rounds = state.setup.rounds
        title = f"{TITLES[state.mechanism]}: {rounds} round{'s' if rounds > 1 else ''}"
        mine = f"the session is over: your score <b>{view.payoff}</b>"
        return f"<div class='mogul-lab-seat'><b>{html.escape(title)}</b><br>{mine}</div>{table}"
    return seat_html(state, seat) + table


def projector_panel(state: LabState) -> str:
    """The last closed round on the room's projector, with no names or values: its bids
    (sealed bids; in Mogul's auction the chips paid, in English the prices raised to) from
    high to low, and what the winner paid."""
    if not state.results:
        return ""
    last = state.results[-1]
    bids = " &middot; ".join(str(b) for b in sorted(last.bids, reverse=True))
    word = (
        "bids"
        if state.mechanism in SEALED
        else "chips paid"
        if state.mechanism == "mogul"
        else "prices"
    )
    return (
        f"round {last.number} {word}: <b>{bids}</b>; the winner paid {last.payments[last.winner]}"
    )


def rounds_html(state: LabState) -> str:
    """The finished rounds, as everyone sees them: bids (or chips paid), winner, payments."""
    rows = "".join(
        f"<tr><td>{r.number}</td><td>{html.escape(state.names[r.winner])}</td>"
        f"<td>{', '.join(map(str, r.bids))}</td><td>{', '.join(map(str, r.payments))}</td></tr>"
        for r in state.results
    )
    head = "<tr><th>round</th><th>winner</th><th>bids</th><th>payments</th></tr>"
    return f"<table class='mogul-lab-rounds'>{head}{rows}</table>" if rows else ""
