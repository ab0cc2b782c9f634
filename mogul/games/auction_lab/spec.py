"""The auction lab as the generic layer sees it: one ``GameSpec``, registered as
"auction-lab", one edition per mechanism ("mogul-auction", "english-auction",
"first-price-auction", "second-price-auction", "all-pay-auction")."""

from __future__ import annotations

import html
from collections.abc import Sequence

from mogul.games.auction_lab.actions import parse_action
from mogul.games.auction_lab.bots import REGISTRY
from mogul.games.auction_lab.rules import SEALED, LabState
from mogul.games.auction_lab.setup import EDITIONS, new_game, player_range
from mogul.games.auction_lab.tables import RESULT_COLUMNS, result_row, round_rows
from mogul.kit.spec import GameSpec, generic_table_html, register


def _label(state: LabState, action: object) -> str:
    """Button texts in the auction's words."""
    if state.mechanism == "mogul":
        return {
            "pay": f"Pay a chip (pot {state.now.pot + 1})",
            "drop": f"Drop, take {state.now.pot}",
        }[str(action)]
    if state.mechanism == "english":
        return {"raise": f"Raise to {state.now.pot + 1}", "drop": "Drop"}[str(action)]
    return f"Bid {action.amount}"


def _table(
    state: LabState,
    hide_chips: Sequence[int] = (),
    log: Sequence[str] = (),
    labels: Sequence[str] | None = None,
) -> str:
    """The generic table, but in a round of sealed bids no seat is in bold as the one to move
    (every seat that has not bid may bid), and once over without the scores: a winner's score
    and the price it paid would tell its value (each seat's own score is in ``seat_panel``)."""
    if not waiting_seats(state) and not state.is_over:
        return generic_table_html(state, hide_chips, log, labels)
    seats = ", ".join(
        html.escape(name + (f" ({labels[seat]})" if labels and labels[seat] else ""))
        for seat, name in enumerate(state.names)
    )
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in log)
    return f"<div class='kit-table'><p>{seats}</p><ul>{lines}</ul></div>"


def waiting_seats(state: LabState) -> tuple[int, ...]:
    """Sealed bids: the seats that have not bid in the round, in the round's order (the seat
    to move first); () in Mogul's and English auctions, where one seat moves at a time."""
    now = state.now
    if now is None or state.mechanism not in SEALED:
        return ()
    return tuple(seat for seat in now.order if now.bids[seat] is None)


SPEC = register(
    GameSpec(
        name="auction-lab",
        title="Auction lab (Mogul's, English and sealed-bid auctions on private values)",
        editions=tuple(EDITIONS.values()),
        state_type=LabState,
        player_range=player_range,
        new_game=new_game,
        parse_action=parse_action,
        bots=REGISTRY,
        result_columns=RESULT_COLUMNS,
        result_row=result_row,
        action_label=_label,
        table_html=_table,
        tables={"rounds": round_rows},
        simultaneous=waiting_seats,
        faces={
            "player": "mogul.widgets.auction_lab:LabPlayer",
            "seat_panel": "mogul.games.auction_lab.display:seat_panel",
            "projector_panel": "mogul.games.auction_lab.display:projector_panel",
            "debrief": "mogul.classroom.auction_lab.figures:debrief",
        },
    )
)
"""The auction lab's spec."""
