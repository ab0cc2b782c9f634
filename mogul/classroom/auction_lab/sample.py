"""An auction-lab class session played by stand-in students, for notebook 09 and the tests.

The session is SIMULATED, not a real class: twelve stand-ins, each one a habit (bid what
the theory says, bid the value, learn from one to the other over the rounds, settle in
between, or bid at random) with its own seeded noise, play five rounds each of
first-price sealed bids, Mogul's auction and all-pay sealed bids, in groups of four drawn
afresh for each mechanism (one table per group, partners for its five rounds). The tables
go through the classroom's own export (``export_session``), so the files have the shape a
real session's export has. ``data/classroom/sample-auction-lab`` was written by
``write_sample`` (``python -m mogul.classroom.auction_lab.sample``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from mogul.classroom.export import ExportedSession, load_session, whole_numbers
from mogul.classroom.table import CODE_ALPHABET, CODE_LENGTH, pretty_code, recorded_table
from mogul.games.auction_lab.bots import EquilibriumBot
from mogul.games.auction_lab.rules import SEALED
from mogul.games.auction_lab.setup import EDITIONS, new_game
from mogul.games.auction_lab.spec import SPEC
from mogul.kit.bots import RandomBot
from mogul.kit.data import data_path
from mogul.kit.record import GameRecord

SAMPLE = "sample-auction-lab"
SESSION = "Sample auction lab"
MECHANISMS = ("first-price", "mogul", "all-pay")
ROUNDS, GROUP = 5, 4
SETTINGS = {"values": "uniform 0..10", "budget": 10, "second": 0}

STUDENTS = (
    ("Ada", "equilibrium"),
    ("Ben", "naive"),
    ("Cleo", "learner"),
    ("Dev", "halfway"),
    ("Emma", "random"),
    ("Femi", "naive"),
    ("Gus", "learner"),
    ("Hana", "equilibrium"),
    ("Ivo", "halfway"),
    ("Jun", "naive"),
    ("Kira", "learner"),
    ("Lars", "halfway"),
)
"""Stand-in students: a name and the habit each plays by (``StandIn``)."""


class StandIn:
    """A stand-in student: a weight on the equilibrium's bid against the naive bid (the
    value), with noise. "equilibrium" weighs it 1, "naive" 0, "halfway" 1/2, a "learner"
    moves from 0 in the first round to 1 in the last; "random" plays ``RandomBot``.
    Sealed bids: the weighted bid plus normal noise (sd 1 chip), rounded, within the budget.
    English and Mogul's auction: each round the stand-in plays the equilibrium's drop point
    with the weight's chance, else the naive one, moved by a whole chip of noise or two."""

    def __init__(self, habit: str, seed: int):
        self.habit, self.rng = habit, random.Random(seed)
        self.random = RandomBot(self.rng.randrange(2**31))
        self.rounds: dict[int, tuple[bool, int]] = {}

    def weight(self, view: Any) -> float:
        if self.habit == "learner":
            return (view.round - 1) / max(1, view.rounds - 1)
        return {"equilibrium": 1.0, "naive": 0.0, "halfway": 0.5}[self.habit]

    def choose(self, view: Any, legal: list) -> Any:
        if self.habit == "random":
            return self.random.choose(view, legal)
        w = self.weight(view)
        if view.mechanism in SEALED:
            target = w * EquilibriumBot().bid(view) + (1 - w) * min(view.value, view.budget)
            bid = round(target + self.rng.gauss(0, 1))
            return legal[max(0, min(view.budget, bid))]
        if view.round not in self.rounds:
            noise = round(self.rng.gauss(0, 1))
            self.rounds[view.round] = (self.rng.random() < w, noise)
        wise, noise = self.rounds[view.round]
        if len(legal) == 1:
            return legal[0]
        k = EquilibriumBot().threshold(view) if wise else None
        if k is not None:
            stays = view.pot < k + noise
        else:
            price = view.paid if view.mechanism == "mogul" else view.pot
            stays = price < view.value + noise
        return legal[0] if stays else legal[-1]


def play_session(seed: int = 2026) -> list[tuple[str, GameRecord]]:
    """The sample's tables: (code, record) for every group of every mechanism."""
    rng = random.Random(seed)
    tables = []
    for mechanism in MECHANISMS:
        students = list(STUDENTS)
        rng.shuffle(students)
        for g in range(len(students) // GROUP):
            group = students[g * GROUP : (g + 1) * GROUP]
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            first = new_game(
                EDITIONS[mechanism],
                [name for name, _ in group],
                rng.randrange(2**31),
                rounds=ROUNDS,
                **SETTINGS,
            )
            bots = [StandIn(habit, rng.randrange(2**31)) for _, habit in group]
            state, actions = first, []
            while not state.is_over:
                seat = state.current_player
                action = bots[seat].choose(state.view(seat), state.legal_actions())
                state = state.apply(action)
                actions.append(action)
            title = f"Table {pretty_code(code)}, {SESSION}"
            tables.append((code, GameRecord.of(first, actions, title=title)))
    return tables


def write_sample(folder: str | Path, seed: int = 2026) -> Path:
    """Play the sample session and export it into ``folder`` as the classroom exports one."""
    from mogul.classroom.export import export_session
    from mogul.classroom.store import TableStore

    store = TableStore("sqlite://")
    for code, record in play_session(seed):
        info, states = recorded_table(code, SESSION, record, ["human"] * GROUP)
        store.restore_table(info, record, states)
    return export_session(store, SESSION, folder)


def load_sample() -> tuple[ExportedSession, str]:
    """The sample session shipped in ``data/classroom/sample-auction-lab``, read back (no
    database; trusted as it is: it ships inside the kit, beside this code)."""
    return load_session(data_path("classroom", SAMPLE), trust=True)


def rounds_table(store: Any, session: str | None = None) -> pd.DataFrame:
    """The session's auction-lab rounds (one row per table, round and seat, as the export's
    ``rounds.csv``) with each table's settings beside them: values, budget, second. Only the
    lab's tables count: a session may hold Mogul games too, whose records have rounds of
    their own; a table no round of which is over yet adds no row."""
    frames = []
    for info in store.tables(session):
        record = store.record(info.code) if info.game == SPEC.name else None
        if record is None:
            continue
        frame = record.table("rounds")
        frame.insert(0, "code", info.code)
        frame.insert(1, "table", pretty_code(info.code))
        for name in ("values", "budget", "second"):
            frame[name] = getattr(record.setup, name)
        frames.append(frame)
    if not frames:
        raise ValueError("this session has no auction-lab tables (no rounds table)")
    return whole_numbers(pd.concat(frames, ignore_index=True))


if __name__ == "__main__":  # python -m mogul.classroom.auction_lab.sample [folder]
    print(write_sample(sys.argv[1] if len(sys.argv) > 1 else data_path("classroom")))
