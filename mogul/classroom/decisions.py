"""The debrief's "analyse this position": a student's recorded move beside every move they had.

For any game the classroom hosts, every decision of a class game (a state in which a seat had
two options or more) is a row of ``decisions``; ``analyse_decision`` replays the table to
that state and asks the game's own ``analyse_position`` face (``GameSpec.faces``) what each
legal action was worth to the seat to move, as that seat saw the table: mean final score and
win chance, each with a 95% interval, and the move the student really made marked
(``chosen``). Nothing here names a game: the store replays each table with its game's spec.
"""

from __future__ import annotations

from numbers import Integral
from typing import TYPE_CHECKING, Any

import pandas as pd

from mogul.classroom.export import ExportedSession, pretty_code

if TYPE_CHECKING:
    from mogul.classroom.store import TableStore

DECISION_COLUMNS = [
    "code",
    "table",
    "step",
    "stage",
    "seat",
    "name",
    "kind",
    "options",
    "chosen",
]


def decisions(
    store: TableStore | ExportedSession, session: str | None = None, people_only: bool = True
) -> pd.DataFrame:
    """One row per decision of the session's tables: a state with two legal actions or more.

    Columns: ``code`` (as stored), ``table`` (as the dashboard spells it), ``step`` (the
    state's index in ``store.history(code)``, the move's index in ``store.actions(code)``),
    ``stage`` (the game's round or turn number), ``seat``, ``name``, ``kind``, ``options``
    (legal actions) and ``chosen`` (the move made, as the game labels it). ``people_only``:
    leave out the bots' seats. Tables not dealt yet have none.
    """
    rows = []
    for info in store.tables(session):
        states = store.history(info.code)
        if not states:
            continue
        spec = store.spec(info.code)
        for step, action in enumerate(store.actions(info.code)):
            state = states[step]
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) < 2 or (people_only and not info.seats[seat].is_human):
                continue
            rows.append(
                {
                    "code": info.code,
                    "table": pretty_code(info.code),
                    "step": step,
                    "stage": spec.stage(state),
                    "seat": seat,
                    "name": info.seats[seat].name,
                    "kind": info.seats[seat].kind,
                    "options": len(legal),
                    "chosen": spec.action_label(state, spec.parse_action(action)),
                }
            )
    return pd.DataFrame(rows, columns=DECISION_COLUMNS)


def analyse_decision(
    store: TableStore | ExportedSession, code: str, step: int, **options: Any
) -> pd.DataFrame:
    """What each legal action was worth at move ``step`` of table ``code``, to the seat that moved.

    The game's ``analyse_position`` face on the state before the move, for the seat to move
    (it sees only what that seat saw: hidden cards are dealt afresh in each rollout);
    ``options`` go to it (``rollouts``, ``seed``, ...). One row per legal action with the
    face's columns (``action``, ``mean_score``, ``score_low``, ``score_high``, ``win_chance``,
    ``win_low``, ``win_high``, ``rollouts``) and ``chosen``: True for the move made.
    """
    states, actions = store.history(code), store.actions(code)
    if isinstance(step, bool) or not isinstance(step, Integral) or not 0 <= step < len(actions):
        raise ValueError(
            f"step must be a move of table {pretty_code(code)}: a whole number from 0 to "
            f"{len(actions) - 1}, got {step!r}"
        )
    spec = store.spec(code)
    analyse = spec.face("analyse_position")
    if analyse is None:
        raise ValueError(f"the game {spec.name!r} names no analyse_position face")
    state = states[int(step)]
    analysis = analyse(state, seat=state.current_player, **options)
    chosen = spec.action_label(state, spec.parse_action(actions[int(step)]))
    return analysis.assign(chosen=analysis["action"] == chosen)


def decision_title(row: Any) -> str:
    """A chart's title for one row of ``decisions``: who moved and what they chose."""
    return f"{row['name']} chose {row['chosen']}"


def decision_caption(row: Any) -> str:
    """Where one row of ``decisions`` happened: the table, the move and the options."""
    return (
        f"Table {row['table']}, move {row['step']} of the game (all seats' moves counted): "
        f"{row['name']} had {row['options']} options"
    )


def regret(analysis: pd.DataFrame) -> float:
    """How much win chance the move made gave up: the best action's ``win_chance`` minus the
    chosen one's (0 when the student chose a best action)."""
    chosen = analysis.loc[analysis["chosen"], "win_chance"]
    if len(chosen) != 1:
        raise ValueError("the analysis marks no move as chosen (or several)")
    return float(analysis["win_chance"].max() - chosen.iloc[0])
