"""A toy game that proves the kit is generic: a counting race in a few dozen lines.

Rules: 2 to 4 players. The seed draws a target from 10 to 15 and a start player. In turn,
each player adds 1, 2 or 3 to a running total that starts at 0, never going past the target.
Whoever brings the total exactly to the target scores 1 point and the game ends.

With two players it is the subtraction game of Bouton's Nim family: the player to move wins
exactly when the distance to the target is not a multiple of 4 (``PerfectBot`` plays that).

Nothing here is special-cased by the kit: ``mogul.new_game("toy")``, records, simulations,
tournaments, sessions, the player widget and the command line handle it through its
``GameSpec`` alone, once ``register(SPEC)`` (or ``with registered_toy():``) put it in the
registry. ``docs/adding-a-game.md`` walks through this file; ``board.py`` and ``player.py``
beside it are its optional faces.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from mogul.kit.bots import RandomBot
from mogul.kit.contract import IllegalActionError
from mogul.kit.spec import GameSpec, generic_table_html, register, unregister

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
    """What deals a game: ``new_game(**fields)`` deals it again (records keep this)."""

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
    """One moment of the race. Frozen: ``apply`` returns a new state, as the contract asks."""

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
    round = property(lambda self: self.turn // len(self.names))  # "Next round" in the player

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
        return generic_table_html(self)


def new_game(edition: str = EDITION, players: int | Sequence[str] = 2, seed: int = 0) -> RaceState:
    """Deal a race (``mogul.new_game("toy", players, seed)`` calls this through the spec)."""
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


# --- what the spec needs besides the state: reading actions, tables, bots -----------------


def parse_action(text: str) -> Add:
    words = text.split() if isinstance(text, str) else []
    if len(words) != 2 or words[0] != "add" or not words[1].isdigit():
        raise ValueError(f"a toy-race action is written 'add N', got {text!r}")
    return Add(int(words[1]))


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
    # What every game must say: its name, its states, its players, how to deal and read actions.
    name="toy",
    state_type=RaceState,
    player_range=(2, 4),
    new_game=new_game,
    parse_action=parse_action,
    # What this game says beyond the defaults (each has one: see mogul.kit.spec.GameSpec).
    title="Counting race (a toy game)",
    editions=(EDITION,),
    bots={"random": RandomBot, "perfect": PerfectBot},
    result_columns=("target", "turns"),
    result_row=lambda final, seat: {"target": final.target, "turns": final.turn},
    action_label=lambda state, a: f"Add {a.n} (to {state.total + a.n})",
    tables={"turns": turn_rows},
    faces={"player": "toy_game.player:RacePlayer", "board": "toy_game.board:race_figure"},
)
"""The toy game's spec; ``register(SPEC)`` makes it playable by name."""


@contextmanager
def registered_toy() -> Iterator[GameSpec]:
    """The toy game in the registry for the duration of a ``with`` block."""
    register(SPEC)
    try:
        yield SPEC
    finally:
        unregister(SPEC.name)
