"""Invariants every classic game must keep, checked after every step of a game."""

from mogul.games.mogul.events import CreditTaken, PremiumsPaid, SharesSold
from mogul.games.mogul.rules import RUNNER_UP, GameState

CHIPS_IN_BOX = 45
SHARES_IN_BOX = 31


def shares_accounted(state: GameState) -> int:
    """Held + sold + unseen + the revealed share while nobody has taken it yet."""
    held = sum(p.shares.total for p in state.players)
    untaken = not state.is_over and not (state.phase == RUNNER_UP and state.winner_choice == "take")
    return held + state.sold.total + len(state.unseen) + untaken


def check_state(state: GameState) -> None:
    """Conservation and bookkeeping that hold in every state."""
    assert sum(p.chips for p in state.players) + state.pot + state.bank == CHIPS_IN_BOX
    assert all(p.chips >= 0 for p in state.players) and state.pot >= 0 and state.bank >= 0
    assert shares_accounted(state) == SHARES_IN_BOX
    assert len(state.unseen) == state.cards_left - (0 if state.is_over else 1)
    if state.is_over:
        assert state.current is None and state.legal_actions() == []
    else:
        assert state.current in range(len(state.players)) and state.legal_actions()


def check_step(before: GameState, after: GameState) -> None:
    """Points change only by premium, sale or credit, as the step's events say."""
    expected = [0] * len(before.players)
    for e in after.events:
        if type(e) is PremiumsPaid:
            expected = [x + p for x, p in zip(expected, e.points, strict=True)]
        elif type(e) is SharesSold:
            expected[e.seat] += e.count * e.price
        elif type(e) is CreditTaken:
            expected[e.seat] -= e.points
    changed = [b.points - a.points for a, b in zip(before.players, after.players, strict=True)]
    assert changed == expected
    check_state(after)
