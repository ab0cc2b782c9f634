"""How a Credit Mobilier table looks in HTML: the dice, the board, the players, the treasuries.

``table_html`` is what a state shows in a notebook (``GameState._repr_html_``) and what the
kit's game widgets draw. The board is a small grid: a row per board row, the Pacific Coast at
the west; each square lists its goods pawns as coloured dots, and a built track space shows
as a thick edge of its colour (west and north edges of a square).

It reads a state through its fields and methods alone: the rules (``rules.py``) import this
module when a state draws itself, so it imports nothing from them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from mogul.games.credit_mobilier.actions import Action, Build, Buy, EndTurn, Move, PayRound
from mogul.games.credit_mobilier.board import COAST, board
from mogul.games.credit_mobilier.components import COMPANIES, components
from mogul.games.credit_mobilier.dice import allowance
from mogul.kit.colours import SEAT_COLOURS, readable_fill, text_colour

__all__ = ["action_label", "colour_of", "table_html"]

ORANGE = "#ff7f0e"

GameState = Any
"""A ``rules.GameState`` (named here only in annotations)."""


def colour_of(name: str) -> str:
    """The screen colour of a company or die colour word."""
    if name == "orange":
        return ORANGE
    return components().company(name).colour


def _badge(name: str, text: str, title: str = "") -> str:
    fill = readable_fill(colour_of(name))
    return (
        f'<span title="{html.escape(title)}" style="background:{fill};color:{text_colour(fill)};'
        f'border-radius:4px;padding:0 5px;margin:1px 3px 1px 0;display:inline-block;white-space:nowrap">'
        f"{html.escape(text)}</span>"
    )


def dice_html(dice: Sequence[str]) -> str:
    """The roll as five coloured dice."""
    return "".join(
        f'<span title="{d}" style="display:inline-block;width:1.3em;height:1.3em;margin:0 2px;'
        f'border:1px solid #333;border-radius:4px;background:{colour_of(d)};vertical-align:middle"></span>'
        for d in dice
    )


def _pawns(colours: Sequence[str]) -> str:
    return "".join(
        f'<span title="{c}" style="color:{colour_of(c)}">&#9679;</span>' for c in colours
    )


def board_html(state: GameState) -> str:
    """The board as an HTML grid: pawns as dots, track as coloured west and north edges."""
    b = board()
    owner = dict(state.track)

    def edge(section: str | None) -> str:
        colour = owner.get(section) if section else None
        return f"4px solid {colour_of(colour)}" if colour else "1px dotted #bbb"

    cells = []
    for r, row in enumerate(b.rows):
        coast = _pawns(state.goods_at(COAST)) if r == 0 else ""
        span = f' rowspan="{len(b.rows)}"' if r == 0 else ""
        line = (
            [
                f'<td{span} style="background:#dcecf7;text-align:center;min-width:3em">Pacific Coast<br>{coast}</td>'
            ]
            if r == 0
            else []
        )
        for c in range(1, b.columns + 1):
            square = f"{row}{c}"
            west = b.between(square, COAST if c == 1 else f"{row}{c - 1}")
            north = b.between(square, f"{b.rows[r - 1]}{c}") if r else None
            line.append(
                f'<td title="{square}" style="border-left:{edge(west.id)};border-top:{edge(north.id if north else None)};'
                f'min-width:2.6em;height:1.6em;font-size:90%"><span style="color:#999">{square}</span> '
                f"{_pawns(state.goods_at(square))}</td>"
            )
        cells.append("<tr>" + "".join(line) + '<td style="border-left:3px solid #333"></td></tr>')
    return '<table style="border-collapse:collapse;margin:4px 0">' + "".join(cells) + "</table>"


def table_html(
    state: GameState,
    hide_chips: Sequence[int] = (),
    log: Sequence[str] = (),
    labels: Sequence[str] | None = None,
) -> str:
    """A state as HTML: the roll, the board, a row per player, the treasuries and the log.

    ``hide_chips`` lists seats whose money shows as "?" (others' cash in hot-seat play);
    ``labels`` adds a note after each name ("you", "dividend bot"); ``log`` is a list of
    sentences (oldest first).
    """
    names = [html.escape(n) for n in state.names]
    if state.is_over:
        best = " and ".join(names[s] for s in state.winners())
        head = f"<b>Game over</b> after {state.turn} turns. Winner: {best}."
    else:
        if state.kind is None:
            doing = "to choose a colour and an action"
        else:
            allowed = allowance(state.dice, state.colour, state.kind)
            doing = f"{state.kind} {state.colour}: {state.used} of {allowed} used"
        head = f"<b>Turn {state.turn}</b> &middot; {names[state.current]} rolled {dice_html(state.dice)} &middot; {doing}"
    rows = []
    for seat, name in enumerate(names):
        here = seat == state.current
        note = f" <i>({html.escape(labels[seat])})</i>" if labels and labels[seat] else ""
        money = "?" if seat in hide_chips else f"${state.money[seat]}"
        stock = "".join(
            _badge(c, f"{c} {n}", components().company(c).name)
            for c, n in state.stocks[seat].items()
        )
        style = "background:#fff3c4;font-weight:bold;" if here else ""
        rows.append(
            f'<tr style="{style}border-left:6px solid {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}">'
            f"<td>{'&#9654; ' if here else ''}{name}{note}</td><td style='text-align:right'>{money}</td>"
            f"<td>{stock or '&ndash;'}</td></tr>"
        )
    treasuries = " ".join(
        _badge(
            c,
            f"{c} ${state.treasuries[c]} ({state.shares_held(c)} shares)",
            components().company(c).name,
        )
        for c in COMPANIES
    )
    parts = [
        '<div class="credit-mobilier" style="font-family:Helvetica,Arial,sans-serif;line-height:1.4">',
        f"<p>{head}</p>",
        board_html(state),
        '<table style="border-collapse:collapse"><thead><tr><th style="text-align:left">player</th>'
        '<th>cash</th><th style="text-align:left">stock</th></tr></thead><tbody>',
        "".join(rows),
        "</tbody></table>",
        f"<p>Treasuries: {treasuries}</p>",
    ]
    if log:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in log)
        parts.append(
            f'<details open><summary>What happened</summary><ul style="margin:0">{items}</ul></details>'
        )
    parts.append("</div>")
    return "".join(parts)


def action_label(state: GameState, action: Action) -> str:
    """A button text for ``action``: "Build red B5-B6 (+$2 CM)", "Move red B2 -> B1 (+$2 red, +$2 blue)"."""
    kind = type(action)
    if kind is Build:
        return f"Build {action.colour} {action.section} (+$2 Credit Mobilier)"
    if kind is Move:
        b = board()
        way = b.direction(action.from_space, action.to_space)
        owner = state.track_owner(b.between(action.from_space, action.to_space).id)
        if way != "west":
            return f"Move {action.colour} {action.from_space} -> {action.to_space} ({way})"
        pay = (
            f"+$4 {action.colour}"
            if owner == action.colour
            else f"+$2 {action.colour}, +$2 {owner}"
        )
        return f"Move {action.colour} {action.from_space} -> {action.to_space} ({pay})"
    if kind is Buy:
        return f"Buy {action.company} ($1)"
    if kind is PayRound:
        paid = state.apply(action).events[0].paid  # the round's DividendsPaid
        rounds = allowance(state.dice, action.company, "dividends")
        return f"Pay {action.company} dividends (round {state.used + 1 if state.kind else 1} of {rounds}: ${sum(paid)})"
    if kind is EndTurn:
        return "End turn" if state.kind else "Pass (nothing possible)"
    return str(action)
