"""A toy game that proves the kit is generic: a counting race in a few dozen lines.

Rules: 2 to 4 players. The seed draws a target from 10 to 15 and a start player. In turn,
each player adds 1, 2 or 3 to a running total that starts at 0, never going past the target.
Whoever brings the total exactly to the target scores 1 point and the game ends.

With two players it is the subtraction game of Bouton's Nim family: the player to move wins
exactly when the distance to the target is not a multiple of 4 (``PerfectBot`` plays that).

Nothing here is special-cased by the kit: records, the runner, tournaments, sessions and the
command line handle it through its ``GameSpec`` alone. ``registered_toy()`` (or the ``toy``
fixture) registers it for a test and removes it afterwards.
"""

from __future__ import annotations

import html
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import pytest

from mogul.kit.bots import RandomBot
from mogul.kit.contract import IllegalActionError
from mogul.kit.spec import GameSpec, register, unregister

EDITION = "toy-race"
NAMES = ("Ada", "Bo", "Cy", "Di")
STEPS = (1, 2, 3)


@dataclass(frozen=True)
class Add:
    """Add ``n`` to the running total."""

    n: int

    def __str__(self) -> str:
        return f"add {self.n}"


@dataclass(frozen=True)
class RaceSetup:
    edition: str
    players: tuple[str, ...]
    seed: int


@dataclass(frozen=True)
class RaceView:
    seat: int
    total: int
    target: int


@dataclass(frozen=True)
class RaceState:
    setup: RaceSetup
    target: int
    total: int
    turn: int  # moves made so far
    current: int | None  # None once the target is reached
    winner: int | None
    events: tuple[str, ...]  # what happened in the step that made this state

    names = property(lambda self: self.setup.players)
    current_player = property(lambda self: self.current)
    is_over = property(lambda self: self.winner is not None)

    def legal_actions(self) -> list[Add]:
        return [] if self.is_over else [Add(n) for n in STEPS if self.total + n <= self.target]

    def apply(self, action: Any) -> RaceState:
        legal = self.legal_actions()
        # Add(True) and Add(1.0) equal Add(1) but would be written "add True", "add 1.0".
        if action not in legal or type(action.n) is not int:
            raise IllegalActionError.for_state(self, action, legal)
        seat, total = self.current, self.total + action.n
        done = total == self.target
        said = f"{self.names[seat]} added {action.n}: total {total}" + (
            " = target." if done else "."
        )
        return replace(
            self,
            total=total,
            turn=self.turn + 1,
            events=(said,),
            current=None if done else (seat + 1) % len(self.names),
            winner=seat if done else None,
        )

    def final_scores(self) -> tuple[int, ...]:
        return tuple(int(seat == self.winner) for seat in range(len(self.names)))

    def winners(self) -> tuple[int, ...]:
        scores = self.final_scores()
        return tuple(seat for seat, s in enumerate(scores) if s == max(scores))

    def view(self, seat: int) -> RaceView:
        return RaceView(seat, self.total, self.target)

    def describe_events(self) -> list[str]:
        return list(self.events)

    def _repr_html_(self) -> str:
        return table_html(self)


def new_game(edition: str = EDITION, players: int | Sequence[str] = 2, seed: int = 0) -> RaceState:
    edition = SPEC.edition(edition)
    count = players if isinstance(players, int) else len(players)
    SPEC.check_players(edition, count)
    names = NAMES[:count] if isinstance(players, int) else tuple(players)
    if not all(isinstance(n, str) and n for n in names) or len(set(names)) != len(names):
        raise ValueError(f"player names must be distinct non-empty texts, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    return deal(RaceSetup(edition, names, seed))


def deal(setup: RaceSetup) -> RaceState:
    rng = random.Random(setup.seed)
    target, start = rng.randint(10, 15), rng.randrange(len(setup.players))
    said = f"The target is {target}; {setup.players[start]} starts."
    return RaceState(setup, target, 0, 0, start, None, (said,))


# --- the rest of the spec: records, tables, display, bots ----------------------------------


def setup_from_json(raw: Mapping[str, Any]) -> RaceSetup:
    """A setup from record JSON: exactly these three fields, each checked by ``new_game``."""
    if not isinstance(raw, Mapping) or set(raw) != {"edition", "players", "seed"}:
        raise ValueError(f"a toy-race setup has exactly edition, players and seed; got {raw!r}")
    if raw["edition"] != EDITION or not isinstance(raw["players"], list):
        raise ValueError(f"setup needs edition {EDITION!r} and a list of players; got {raw!r}")
    return new_game(EDITION, raw["players"], raw["seed"]).setup


def parse_action(text: str) -> Add:
    words = text.split() if isinstance(text, str) else []
    if len(words) != 2 or words[0] != "add" or not words[1].isdigit():
        raise ValueError(f"a toy-race action is written 'add N', got {text!r}")
    return Add(int(words[1]))


def table_html(state: RaceState, hide_chips=(), log=(), labels=None) -> str:
    who = "nobody" if state.current is None else html.escape(state.names[state.current])
    notes = [f" ({x})" if x else "" for x in labels or [""] * len(state.names)]
    seats = ", ".join(html.escape(n + note) for n, note in zip(state.names, notes, strict=True))
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in log)
    return (
        f"<div class='toy-race'><p>Total {state.total} of {state.target}; {who} to move. "
        f"Players: {seats}</p><ul>{lines}</ul></div>"
    )


def turn_rows(states: Sequence[RaceState]) -> list[dict]:
    """One row per turn: who added how much, and the total after it."""
    return [
        {"turn": b.turn, "seat": a.current, "added": b.total - a.total, "total": b.total}
        for a, b in zip(states, states[1:], strict=False)
    ]


class PerfectBot:
    """Leaves the opponent a multiple of 4 to go whenever it can (perfect play for 2 players)."""

    name = "perfect"
    traits = {"stochastic": False, "lookahead": False}

    def __init__(self, seed: int | None = None):
        pass

    def choose(self, view: RaceView, legal_actions: Sequence[Add]) -> Add:
        best = Add((view.target - view.total) % 4)
        return best if best in legal_actions else legal_actions[0]


SPEC = GameSpec(
    name="toy",
    title="Counting race (a toy game for the tests)",
    editions=(EDITION,),
    state_type=RaceState,
    player_range=lambda edition: (2, 4),
    new_game=new_game,
    deal=deal,
    setup_to_json=lambda s: {"edition": s.edition, "players": list(s.players), "seed": s.seed},
    setup_from_json=setup_from_json,
    parse_action=parse_action,
    bots={"random": RandomBot, "perfect": PerfectBot},
    result_columns=("target", "turns"),
    result_row=lambda final, seat: {"target": final.target, "turns": final.turn},
    standings=lambda state: state.final_scores(),
    stage=lambda state: state.turn // len(state.names),
    table_html=table_html,
    action_label=lambda state, a: f"Add {a.n} (to {state.total + a.n})",
    tables={"turns": turn_rows},
)


def register_toy() -> GameSpec:
    """Put the toy game in the registry (``unregister("toy")`` takes it out again)."""
    return register(SPEC)


@contextmanager
def registered_toy() -> Iterator[GameSpec]:
    """The toy game in the registry for the duration of a ``with`` block."""
    register_toy()
    try:
        yield SPEC
    finally:
        unregister(SPEC.name)


@pytest.fixture
def toy() -> Iterator[GameSpec]:
    """The toy game, registered for one test."""
    with registered_toy() as spec:
        yield spec
