"""How a game table looks in HTML: the card, the pot, a row per player, market values, the log.

``table_html`` is what a state shows in a notebook (``GameState._repr_html_``) and what the
``GameTable`` widget draws.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from mogul.games.mogul.actions import Action, Bid, Credit, Drop, Sell, Take
from mogul.games.mogul.cards import Card, CrashCard
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.pile import next_crash_chance
from mogul.games.mogul.state import AUCTION, GameState
from mogul.kit.colours import SEAT_COLOURS

__all__ = ["action_label", "card_html", "table_html"]


def card_html(edition: Edition, card: Card | CrashCard | None) -> str:
    """A card as a coloured box with a border of its border colour."""
    if card is None:
        return "&ndash;"
    if card.is_crash:
        return '<span style="background:black;color:white;padding:2px 8px">CRASH</span>'
    fill = edition.company(card.company).colour
    edge = edition.company(card.border).colour
    return (
        f'<span style="background:{fill};color:white;border:4px solid {edge};padding:1px 8px">'
        f"{card.company} / border {card.border}</span>"
    )


def _badge(colour: str, text: str, title: str = "", faded: bool = False) -> str:
    fade = "opacity:0.4;" if faded else ""
    return (
        f'<span title="{html.escape(title)}" style="background:{colour};color:white;border-radius:4px;'
        f'padding:1px 6px;margin-right:3px;white-space:nowrap;{fade}">{html.escape(text)}</span>'
    )


def _shares_html(state: GameState, seat: int) -> str:
    shares = state.players[seat].shares
    out = [
        _badge(c.colour, f"{c.id} {shares[c.id]}", c.name) for c in state.edition.companies if shares[c.id]
    ]
    return "".join(out) or "&ndash;"


def _marks(state: GameState, seat: int) -> str:
    marks = []
    if state.phase == AUCTION:
        marks.append("in the auction" if seat in state.in_auction else "dropped")
    if seat == state.winner:
        marks.append("won the auction")
    if seat == state.runner_up:
        marks.append("runner-up")
    if seat == state.start_player and not state.is_over:
        marks.append("start player")
    return ", ".join(marks)


def table_html(
    state: GameState,
    hide_chips: Sequence[int] = (),
    log: Sequence[str] = (),
    labels: Sequence[str] | None = None,
) -> str:
    """A state as HTML: the card, the pot, a row per player, market values and the log.

    ``hide_chips`` lists seats whose chips show as "?" (other humans in hot-seat mode);
    ``labels`` adds a note after each name ("you", "value bot"); ``log`` is a list of
    sentences (oldest first).
    """
    ed = state.edition
    track = ed.score_track
    scores = state.final_scores()
    names = [html.escape(n) for n in state.names]
    if state.is_over:
        head = f"<b>Game over</b> after {state.round} cards: {card_html(ed, state.revealed)}"
    else:
        crash = next_crash_chance(state)
        head = (
            f"<b>Round {state.round}</b> &middot; revealed: {card_html(ed, state.revealed)} &middot; "
            f"<b>pot {state.pot}</b> &middot; bank {state.bank} &middot; {state.cards_left} cards left "
            f"(next card is the crash: {crash:.0%})"
        )
    rows = []
    for seat, p in enumerate(state.players):
        here = seat == state.current
        name = names[seat]
        note = f" <i>({html.escape(labels[seat])})</i>" if labels and labels[seat] else ""
        chips = "?" if seat in hide_chips else str(p.chips)
        style = "background:#fff3c4;font-weight:bold" if here else ""
        arrow = "&#9654; " if here else ""
        final = f"<td>{scores[seat]}</td>" if state.is_over else ""
        rows.append(
            f'<tr style="{style}"><td style="border-left:6px solid {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}">'
            f"{arrow}{name}{note}</td><td>{chips}</td><td>{p.points}</td><td>{p.points % track}</td>"
            f"<td>{_shares_html(state, seat)}</td>{final}<td>{_marks(state, seat)}</td></tr>"
        )
    final_head = "<th>score</th>" if state.is_over else ""
    market = "".join(
        _badge(c.colour, f"{c.id} {v}", c.name, faded=not v)
        for c, v in ((c, state.market_value(c.id)) for c in ed.companies)
    )
    parts = [
        '<div class="mogul-game" style="font-family:Helvetica,Arial,sans-serif">',
        "<style>.mogul-game th, .mogul-game td {padding: 2px 8px; text-align: left}</style>",
        f"<p>{head}</p>",
        '<table style="border-collapse:collapse"><thead><tr><th>player</th><th>chips</th>'
        f"<th>points</th><th>track (of {track})</th><th>shares</th>{final_head}<th></th></tr></thead><tbody>",
        "".join(rows),
        "</tbody></table>",
        f"<p>Market value (points per share sold): {market}</p>",
    ]
    if state.phase == AUCTION:
        still = ", ".join(names[s] for s in state.in_auction)
        gone = ", ".join(names[s] for s in state.dropped) or "nobody yet"
        parts.append(f"<p>Auction: pot {state.pot} &middot; still in: {still} &middot; dropped: {gone}</p>")
    elif state.is_over:
        best = " and ".join(names[s] for s in state.winners())
        table = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
        parts.append(f"<p><b>Final scores: {table}. Winner: {best}.</b></p>")
    if log:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in log)
        parts.append(
            f'<details open><summary>What happened</summary><ul style="margin:0">{items}</ul></details>'
        )
    parts.append("</div>")
    return "".join(parts)


def action_label(state: GameState, action: Action) -> str:
    """A button text for ``action`` in ``state``: "Bid 1 chip", "Drop (take 3)", "Sell 2 blue (+10)"."""
    kind = type(action)
    if kind is Bid:
        return "Bid 1 chip"
    if kind is Drop:
        return f"Drop (take {state.pot})"
    if kind is Credit:
        ed = state.edition
        return f"Credit (+{ed.credit_chips} chips, -{ed.credit_points} points)"
    if kind is Take:
        return f"Take {state.revealed}"
    if kind is Sell:
        colour = state.revealed.border
        if action.count == 0:
            return f"Sell 0 {colour}"
        return f"Sell {action.count} {colour} (+{action.count * state.market_value(colour)})"
    return str(action)
