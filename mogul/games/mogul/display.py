"""How a game table looks in HTML: the card, the pot, a row per player, market values, the log.

``table_html`` is what a state shows in a notebook (``GameState._repr_html_``) and what the
``GameTable`` widget draws. It reads a state by its fields and methods (the phase as text)
and imports nothing from ``mogul.games.mogul.rules``, which imports this module to draw itself.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from mogul.games.mogul.actions import Action, Bid, Branch, Credit, Drop, Sell, Take
from mogul.games.mogul.cards import Card, CrashCard
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.pile import next_crash_chance
from mogul.kit.colours import SEAT_COLOURS, readable_fill, text_colour

__all__ = ["action_label", "badge_colours", "card_html", "table_html"]


def card_html(edition: Edition, card: Card | CrashCard | None) -> str:
    """A card as a coloured box with a border of its border colour."""
    if card is None:
        return "&ndash;"
    if card.is_crash:
        return '<span style="background:black;color:white;padding:2px 8px">CRASH</span>'
    fill = readable_fill(edition.company(card.company).colour)
    edge = edition.company(card.border).colour
    return (
        f'<span title="{html.escape(edition.company(card.company).name)}" style="background:{fill};'
        f'color:{text_colour(fill)};border:4px solid {edge};padding:1px 8px;white-space:nowrap">'
        f"{card.company} / border {card.border}</span>"
    )


def badge_colours(colour: str, faded: bool = False) -> tuple[str, str]:
    """(background, text) of a company badge: the company's colour, or white when ``faded``.

    Both pass WCAG AA for text (contrast 4.5:1); a faded badge (a market value of 0) keeps
    the company's colour as its border.
    """
    if faded:
        return "#ffffff", "#444444"
    fill = readable_fill(colour)
    return fill, text_colour(fill)


def _badge(colour: str, text: str, title: str = "", faded: bool = False) -> str:
    fill, ink = badge_colours(colour, faded)
    return (
        f'<span title="{html.escape(title)}" style="background:{fill};color:{ink};border:1px solid {colour};'
        f'border-radius:4px;padding:0 5px;margin:1px 3px 1px 0;display:inline-block;white-space:nowrap">'
        f"{html.escape(text)}</span>"
    )


def _shares_html(state: Any, seat: int) -> str:
    shares = state.players[seat].shares
    out = [
        _badge(c.colour, f"{c.id} {shares[c.id]}", c.name)
        for c in state.edition.companies
        if shares[c.id]
    ]
    return "".join(out) or "&ndash;"


def _houses_html(state: Any, seat: int) -> str:
    """A player's houses as station badges, coloured by the station's (first) line."""
    ed = state.edition
    out = []
    for station in state.players[seat].houses:
        lines = ed.stations[station].lines
        title = "on the " + " and ".join(lines) + " line" + ("s" if len(lines) > 1 else "")
        out.append(_badge(ed.company(lines[0]).colour, station, title))
    left = ed.houses_per_player - len(state.players[seat].houses)
    return "".join(out) + f'<span style="color:#555">{left} left</span>'


def _marks(state: Any, seat: int) -> str:
    marks = []
    if state.phase == "auction":
        marks.append("in the auction" if seat in state.in_auction else "dropped")
    if seat == state.winner:
        marks.append("won the auction")
    if seat == state.runner_up:
        marks.append("runner-up")
    if seat == state.start_player and not state.is_over:
        marks.append("start player")
    return ", ".join(marks)


# The table reflows to one card per player when its box is narrow (a phone): a container
# query, so it also holds in a narrow notebook column on a wide screen.
_CSS = (
    "<style>"
    ".mogul-game{container-type:inline-size;font-family:Helvetica,Arial,sans-serif;line-height:1.4;"
    "white-space:normal}"
    ".mogul-game p{margin:4px 0}"
    ".mogul-game table{border-collapse:collapse;width:100%}"
    ".mogul-game th,.mogul-game td{padding:2px 8px;text-align:left;vertical-align:top}"
    ".mogul-game td.num{text-align:right}"
    "@container (max-width: 440px){"
    ".mogul-game thead{display:none}"
    ".mogul-game tr{display:block;padding:3px 0;border-bottom:1px solid #ddd}"
    ".mogul-game td{display:inline-block;padding:1px 8px 1px 6px}"
    ".mogul-game td.name,.mogul-game td.shares,.mogul-game td.notes{display:block}"
    ".mogul-game td.notes:empty{display:none}"
    ".mogul-game td[data-label]::before{content:attr(data-label) ' ';color:#555}"
    "}"
    "</style>"
)


def table_html(
    state: Any,
    hide_chips: Sequence[int] = (),
    log: Sequence[str] = (),
    labels: Sequence[str] | None = None,
) -> str:
    """A state as HTML: the card, the pot, a row per player, market values and the log.

    Each player's row shows chips, points and the score (points plus one per five chips,
    negative after a credit), shares as badges (colour words; the railroad's name on hover)
    and where they stand in the auction. ``hide_chips`` lists seats whose chips show as "?"
    (other humans in hot-seat mode); ``labels`` adds a note after each name ("you", "value
    bot"); ``log`` is a list of sentences (oldest first). On a narrow screen each player's
    row becomes a card.
    """
    ed = state.edition
    scores = state.final_scores()
    names = [html.escape(n) for n in state.names]
    branches = ed.houses_per_player > 0  # 2013: houses on the map and end bonuses
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
        note = (  # the label wraps as a whole, under the name
            f' <i style="white-space:nowrap">({html.escape(labels[seat])})</i>'
            if labels and labels[seat]
            else ""
        )
        chips = "?" if seat in hide_chips else str(p.chips)
        score = "?" if seat in hide_chips else str(scores[seat])
        style = "background:#fff3c4;font-weight:bold;" if here else ""
        arrow = "&#9654; " if here else ""
        houses = f'<td class="shares">{_houses_html(state, seat)}</td>' if branches else ""
        rows.append(
            f'<tr style="{style}border-left:6px solid {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}">'
            f'<td class="name">{arrow}{names[seat]}{note}</td>'
            f'<td class="num" data-label="chips">{chips}</td><td class="num" data-label="points">{p.points}</td>'
            f'<td class="num" data-label="score">{score}</td><td class="shares">{_shares_html(state, seat)}</td>'
            f'{houses}<td class="notes">{_marks(state, seat)}</td></tr>'
        )
    score_title = "points, plus one per 5 chips"
    houses_head = ""
    if branches:
        score_title = "points, plus the end bonuses: branches, one per share held, one per 5 chips"
        houses_head = "<th>houses</th>"
    market = "".join(
        _badge(c.colour, f"{c.id} {v}", c.name, faded=not v)
        for c, v in ((c, state.market_value(c.id)) for c in ed.companies)
    )
    parts = [
        '<div class="mogul-game">',
        _CSS,
        f"<p>{head}</p>",
        "<table><thead><tr><th>player</th><th>chips</th><th>points</th>"
        f'<th title="{score_title}">score</th><th>shares</th>{houses_head}<th></th></tr></thead><tbody>',
        "".join(rows),
        "</tbody></table>",
        f"<p>Market value (points per share sold): {market}</p>",
    ]
    if state.phase == "auction":
        still = ", ".join(names[s] for s in state.in_auction)
        gone = ", ".join(names[s] for s in state.dropped) or "nobody yet"
        parts.append(
            f"<p>Auction: pot {state.pot} &middot; still in: {still} &middot; dropped: {gone}</p>"
        )
    elif state.is_over:
        best = " and ".join(names[s] for s in state.winners())
        table = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
        parts.append(f"<p><b>Final scores: {table}. Winner: {best}.</b></p>")
    if branches:
        parts.append(_bonus_table(state, names, hide_chips))
    if log:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in log)
        parts.append(
            f'<details open><summary>What happened</summary><ul style="margin:0">{items}</ul></details>'
        )
    parts.append("</div>")
    return "".join(parts)


def _bonus_table(state: Any, names: Sequence[str], hide_chips: Sequence[int]) -> str:
    """The score in parts (2013): points on the track and each end bonus ("?" for hidden chips)."""
    rows = []
    for seat, (n, b) in enumerate(zip(names, state.score_breakdown(), strict=True)):
        chips, total = ("?", "?") if seat in hide_chips else (b.chips, b.total)
        rows.append(
            f'<tr><td>{n}</td><td class="num">{b.points}</td><td class="num">{b.branches}</td>'
            f'<td class="num">{b.shares}</td><td class="num">{chips}</td><td class="num"><b>{total}</b></td></tr>'
        )
    cells = "".join(rows)
    when = "Final score" if state.is_over else "Score if the crash came now"
    return (
        f"<details><summary>{when}, in parts</summary><table><thead><tr><th>player</th><th>points</th>"
        "<th>branches</th><th>shares</th><th>chips</th><th>total</th></tr></thead>"
        f"<tbody>{cells}</tbody></table></details>"
    )


def action_label(state: Any, action: Action) -> str:
    """A button text for ``action`` in ``state``: "Bid 1 chip", "Drop (take 3)", "Sell 2 blue (+10)",
    "Branch at BL3", "Move house BR2 -> BL3"."""
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
    if kind is Branch:
        if action.move_from:
            return f"Move house {action.move_from} -> {action.station}"
        return f"Branch at {action.station}"
    return str(action)
