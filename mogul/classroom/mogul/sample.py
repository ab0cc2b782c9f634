"""A Mogul class session played by stand-in students, for the debrief notebook and the tests.

Each stand-in is one of the game's bots with its own habit (a fixed drop point, a value
player with a high or low opinion of chips, a coin-flipper), and plays through the same path
a page does: ``TableStore.join`` and ``TableStore.act`` with the step it saw. The session
shipped in ``data/classroom/sample-class`` was written by ``write_sample``.
"""

from __future__ import annotations

import random
from pathlib import Path

from mogul.classroom.export import export_session
from mogul.classroom.store import TableStore
from mogul.kit.bots import bot_factory, decide
from mogul.kit.spec import resolve

STUDENTS = (
    ("Ada", "threshold:drop_at=2"),
    ("Ben", "value"),
    ("Cleo", "threshold:drop_at=6"),
    ("Dev", "value:chip_value=0.5"),
    ("Emma", "random"),
    ("Femi", "threshold:drop_at=4"),
    ("Gus", "value:chip_value=2.0"),
    ("Hana", "threshold:drop_at=1"),
    ("Ivo", "value"),
    ("Jun", "threshold:drop_at=8"),
    ("Kira", "value:chip_value=0.3"),
    ("Lars", "threshold:drop_at=3"),
)
"""Stand-in students: a name and the habit (a bot spec) each plays by."""


def play_session(
    store: TableStore,
    session: str = "Sample class",
    game: str = "classic",
    tables: int = 3,
    seats: int = 4,
    seed: int = 2026,
) -> list[str]:
    """Create ``tables`` tables of ``seats`` people, seat the stand-ins, play every game to its
    end through the store; returns the table codes."""
    spec, _ = resolve(game)
    rng = random.Random(seed)
    students = list(STUDENTS)
    if tables * seats > len(students):
        raise ValueError(
            f"there are {len(students)} stand-in students; {tables} x {seats} seats need more"
        )
    infos = store.create_tables(tables, game, ["human"] * seats, session=session, seed=seed)
    for n, info in enumerate(infos):
        group = students[n * seats : (n + 1) * seats]
        tickets = [store.join(info.code, name) for name, _ in group]
        habits = [bot_factory(habit, spec.bots)(rng.randrange(2**31)) for _, habit in group]
        while True:
            states = store.history(info.code)
            state = states[-1]
            if state.is_over:
                break
            seat = state.current_player
            legal = state.legal_actions()
            action = decide(habits[seat], state.view(seat), legal) if len(legal) > 1 else legal[0]
            store.act(tickets[seat], len(states) - 1, str(action))
    return [info.code for info in infos]


def write_sample(folder: str | Path) -> Path:
    """Play the sample session in a fresh in-memory store and export it into ``folder``."""
    store = TableStore("sqlite://")
    play_session(store)
    return export_session(store, "Sample class", folder)
