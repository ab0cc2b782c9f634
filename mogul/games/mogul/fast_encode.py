"""What a state puts in a batch-engine table, the same in both editions: the edition's
numbers, chips, points, credits and shares per seat, the bank, the pile, the round and where
the auction stands; and the actions' codes.

``fast.encode`` (classic) and ``fast_rio.encode`` (Rio Grande) make tables here and add
their own fields (Rio Grande: houses on the map).
"""

from __future__ import annotations

import numpy as np

from mogul.games.mogul.actions import BID as BID_ACTION
from mogul.games.mogul.actions import CREDIT as CREDIT_ACTION
from mogul.games.mogul.actions import DROP as DROP_ACTION
from mogul.games.mogul.actions import TAKE as TAKE_ACTION
from mogul.games.mogul.actions import Action, Sell
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.fast_table import (
    AUCTION,
    BID,
    COMPANIES,
    CRASH,
    CREDIT,
    DROP,
    OVER,
    RUNNER_UP,
    SELL,
    TABLE,
    TAKE,
    WINNER,
)
from mogul.games.mogul.rules import AUCTION as AUCTION_PHASE
from mogul.games.mogul.rules import OVER as OVER_PHASE
from mogul.games.mogul.rules import RUNNER_UP as RUNNER_UP_PHASE
from mogul.games.mogul.rules import WINNER as WINNER_PHASE
from mogul.games.mogul.rules import GameState, PlayerView

PHASES = {
    AUCTION_PHASE: AUCTION,
    WINNER_PHASE: WINNER,
    RUNNER_UP_PHASE: RUNNER_UP,
    OVER_PHASE: OVER,
}
"""The state's phase names as the kernels' phase codes."""


def action_code(action: Action) -> int:
    """An action's number in the kernels (Sell(n) is SELL + n; Rio Grande's branches:
    ``fast_rio.action_code``)."""
    for code, known in (
        (BID, BID_ACTION),
        (DROP, DROP_ACTION),
        (CREDIT, CREDIT_ACTION),
        (TAKE, TAKE_ACTION),
    ):
        if action == known:
            return code
    if isinstance(action, Sell):
        return SELL + action.count
    raise ValueError(
        f"the fast simulator knows Bid, Drop, Credit, Take, Sell (and Branch in Rio Grande), "
        f"not {action!r}"
    )


def new_tables(ed: Edition, count: int, players: int, dtype: np.dtype = TABLE) -> np.ndarray:
    """``count`` empty tables of ``players`` seats holding the edition's numbers."""
    tables = np.zeros(count, dtype)
    tables["players"] = players
    tables["credit_chips"] = ed.credit_chips
    tables["credit_points"] = ed.credit_points
    tables["chips_per_point"] = ed.chips_per_point
    tables["crash_window"] = ed.crash_shuffled_into_last + 1
    return tables


def pile_codes(state: GameState, pile_slots: int) -> np.ndarray:
    """The pile of a full state as (2, ``pile_slots``) company and border codes, at the end."""
    index = {c: i for i, c in enumerate(state.edition.company_ids)}
    out = np.full((2, pile_slots), CRASH, np.int64)
    top = pile_slots - len(state.deck)
    for i, card in enumerate(state.deck):
        if not card.is_crash:
            out[0, top + i], out[1, top + i] = index[card.company], index[card.border]
    return out


def fill_table(t: np.void, table: GameState | PlayerView, pile_slots: int) -> None:
    """Write ``table``'s seats, bank, pile and auction into the record ``t``.

    A ``GameState`` keeps its pile as it lies. A ``PlayerView`` has no pile: its unseen shares
    are put in sorted order with the crash card last, to be re-dealt. The pile sits at the
    end of arrays of ``pile_slots`` cards.
    """
    if table.phase == OVER_PHASE:
        raise ValueError("the game is over: there is nothing left to play")
    index = {c: i for i, c in enumerate(table.edition.company_ids)}
    for seat, p in enumerate(table.players):
        t["chips"][seat], t["points"][seat], t["credits"][seat] = p.chips, p.points, p.credits
        t["shares"][seat, :COMPANIES] = p.shares.counts
    t["bank"] = table.bank
    pile = table.deck if isinstance(table, GameState) else (*table.unseen, None)
    top = pile_slots - len(pile)
    for i, card in enumerate(pile):
        crash = card is None or card.is_crash
        t["pile_company"][top + i] = CRASH if crash else index[card.company]
        t["pile_border"][top + i] = CRASH if crash else index[card.border]
    t["pile_size"], t["top"] = pile_slots, top
    for card in table.unseen:
        t["unseen"][index[card.company]] += 1
    t["round"], t["phase"] = table.round, PHASES[table.phase]
    t["current"], t["start_player"], t["pot"] = table.current, table.start_player, table.pot
    t["company"], t["border"] = index[table.revealed.company], index[table.revealed.border]
    for seat in table.in_auction:
        t["in_auction"][seat] = 1
    for seat in table.credited:
        t["credited"][seat] = 1
    t["seats_in"] = len(table.in_auction)
    t["winner"] = -1 if table.winner is None else table.winner
    t["runner_up"] = -1 if table.runner_up is None else table.runner_up
    t["winner_took"] = table.winner_choice == "take"
