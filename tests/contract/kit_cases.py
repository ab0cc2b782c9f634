"""The games the contract tests run over, and small helpers they share.

``CASES`` is read from the registry when the tests are collected: every edition of every
registered game (Rio Grande and Credit Mobilier join on their own once they register), plus
the toy game of ``examples/toy_game/``, which proves the contract is not written for Mogul.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mogul
from mogul.kit import spec as registry
from mogul.kit.bots import RandomBot, play_states
from mogul.kit.spec import GameSpec

MAX_STEPS = 5_000
"""A step bound for one game: the longest 6-player Mogul game is far shorter."""

FAST: dict[tuple[str, str], dict[str, Any]] = {
    ("mogul", "mc"): {"rollouts": 2, "rollout_policy": "random"},
    ("credit-mobilier", "mc"): {"rollouts": 1, "horizon": 1},
}
"""Small settings for slow bots, by (game, bot name); every other bot plays with its defaults.

The contract checks that a bot offers only legal moves and replays its seed, not how well it
plays: Mogul's MonteCarloBot keeps two rollouts (it still averages and prunes branches) but
plays them out with random bots, which on the readable engine (Rio Grande) costs a quarter
of its default ValueBot rollouts."""


@dataclass(frozen=True)
class Case:
    """One edition of one game."""

    game: str
    edition: str

    @property
    def spec(self) -> GameSpec:
        return registry.get_game(self.game)

    @property
    def players(self) -> tuple[int, ...]:
        """Every player count the edition allows."""
        low, high = self.spec.player_range(self.edition)
        return tuple(range(low, high + 1))

    def new_game(self, players: int, seed: int) -> Any:
        """The edition dealt through the one way in, ``mogul.new_game``."""
        return mogul.new_game(self.edition, players, seed)

    def random_game(self, players: int, seed: int) -> tuple[list[Any], list[Any]]:
        """A game by seeded RandomBots: (states, actions), first decision to the end."""
        bots = [RandomBot(seed * 100 + seat) for seat in range(players)]
        return play_states(self.new_game(players, seed), bots, max_steps=MAX_STEPS)

    def __str__(self) -> str:
        return f"{self.game}-{self.edition}"


def game_cases(extra: Sequence[GameSpec] = ()) -> list[Case]:
    """Every edition of every registered game, then of the ``extra`` specs not registered."""
    specs = [registry.get_game(name) for name in registry.games()]
    specs += [s for s in extra if s.name not in registry.games()]
    return [Case(s.name, edition) for s in specs for edition in s.editions]


def bot_cases(cases: Sequence[Case]) -> list[tuple[Case, str]]:
    """(case, bot name) for every bot each game ships; read from the game specs directly."""
    return [(case, name) for case in cases for name in _spec_of(case).bots]


def _spec_of(case: Case) -> GameSpec:
    import toy_game

    return toy_game.SPEC if case.game == toy_game.SPEC.name else registry.get_game(case.game)
