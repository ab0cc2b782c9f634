"""The end of the game: the scores when the crash card is revealed, and who wins.

Rulebook, "End of the game": the game ends at once when the crash card is turned up (phase 1
of a round, in ``mogul.games.mogul.rules.begin_round``). Every player then gets one point per
full 5 chips; the 2013 edition adds the branches' points and one point per share held (in the
classic edition shares are worthless after the crash). Most points wins; a tie goes to the
most shares; a tie left after that is shared.
"""

from __future__ import annotations

from mogul.games.mogul.network import branch_points
from mogul.games.mogul.state import GameState, ScoreBreakdown


def score_breakdown(state: GameState) -> tuple[ScoreBreakdown, ...]:
    """Each seat's score in parts (on a running game: what a crash now would leave)."""
    ed = state.edition
    out = []
    for p in state.players:
        branches = branch_points(ed, p.houses) if ed.branch_bonus else 0
        shares = ed.share_bonus * p.shares.total
        chips = p.chips // ed.chips_per_point
        out.append(
            ScoreBreakdown(p.points, branches, shares, chips, p.points + branches + shares + chips)
        )
    return tuple(out)


def final_scores(state: GameState) -> tuple[int, ...]:
    """Points plus the end bonuses: one point per full 5 chips and, in the 2013 edition, the
    branches and one point per share held (classic: shares are worthless after the crash)."""
    ed = state.edition
    per_point = ed.chips_per_point
    if not (ed.branch_bonus or ed.share_bonus):
        return tuple(p.points + p.chips // per_point for p in state.players)
    return tuple(b.total for b in score_breakdown(state))


def standings(state: GameState) -> tuple[tuple[int, int], ...]:
    """Each seat's ranking key: (score, shares held). Higher is better; equal keys share a place."""
    return tuple(
        (score, p.shares.total) for score, p in zip(final_scores(state), state.players, strict=True)
    )


def winners(state: GameState) -> tuple[int, ...]:
    """Most points wins; a tie goes to the most shares; a remaining tie is shared."""
    ranking = standings(state)
    best = max(ranking)
    return tuple(seat for seat, r in enumerate(ranking) if r == best)
