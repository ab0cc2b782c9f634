"""Dealing an auction-lab session: checking the lecturer's settings, drawing the values.

Every setting has a default, so ``new_game("auction-lab")`` deals a session; each bad one is
a ``ValueError`` that says what was wrong and what is allowed. All chance comes from
``seed`` before the first round, in this order: the seat that starts round 1, then the
values (round by round, seat by seat); so the same seed deals the same session, whatever
the seats do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mogul.games.auction_lab.rules import (
    MECHANISMS,
    SEALED,
    LabState,
    Setup,
    open_round,
    round_opened,
)
from mogul.games.auction_lab.values import MOST, parse_values
from mogul.kit.checks import as_list, is_whole, player_names

FEWEST, MOST_SEATS = 2, 8
MOST_SEATS_MOGUL = 6
"""Mogul's auction takes up to 6 seats: its equilibrium bot solves the group's auction (see
``equilibrium``), which grows quickly with the seats."""
MOST_ROUNDS = 100
MOST_BUDGET = 1000
DEFAULT_NAMES = ("Ann", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal")
EDITIONS = {mechanism: f"{mechanism}-auction" for mechanism in MECHANISMS}
"""Each mechanism is an edition of the game, so that any page or run that picks an edition
(``simulate``, the classroom) picks the mechanism: ``new_game("first-price-auction")``."""


def player_range(edition: str) -> tuple[int, int]:
    """Fewest and most seats of an edition (a mechanism)."""
    return FEWEST, MOST_SEATS_MOGUL if edition == EDITIONS["mogul"] else MOST_SEATS


def new_game(
    edition: str = EDITIONS["mogul"],
    players: int | Sequence[str] = 4,
    seed: int | None = None,
    *,
    mechanism: str | None = None,
    rounds: int = 5,
    values: str = "uniform 0..10",
    budget: int = 10,
    second: int = 0,
    drawn: Sequence[Sequence[int]] | None = None,
    start_player: int | None = None,
) -> LabState:
    """Deal a session of ``rounds`` auctions, one prize each, for one group of ``players``.

        ``mechanism`` (default: the edition's) is one of "mogul", "english", "first-price",
        "second-price", "all-pay"; ``values`` the distribution of the private values (see
        ``values.py``: "uniform LOW..HIGH" or "common LOW..HIGH noise K"); ``budget`` the chips
        each seat may spend in a round; ``second`` the runner-up's second prize in Mogul's auction
        (whole chips). ``drawn`` scripts the values instead of the seed: one list per round, one
        whole number 0..1000 per seat; ``start_player`` scripts the seat that starts round 1
    (then the next seat each round). A fresh seed is drawn and kept when none is given.
    """
    by_edition = {e: m for m, e in EDITIONS.items()}
    if not isinstance(edition, str) or edition not in by_edition:
        raise ValueError(f"the auction lab's editions are {', '.join(by_edition)}; got {edition!r}")
    if mechanism is None:
        mechanism = by_edition[edition]
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {', '.join(MECHANISMS)}; got {mechanism!r}")
    if edition not in (EDITIONS["mogul"], EDITIONS[mechanism]):
        raise ValueError(
            f"the {edition} edition plays the {by_edition[edition]} auction, not {mechanism!r}: "
            f"give the game's name (auction-lab) with mechanism={mechanism!r}, or the "
            f"{EDITIONS[mechanism]} edition"
        )
    edition = EDITIONS[mechanism]
    low, high = player_range(edition)
    names = player_names(players, low, high, DEFAULT_NAMES, f"The {mechanism} auction lab")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if not is_whole(seed):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    if not is_whole(rounds) or not 1 <= rounds <= MOST_ROUNDS:
        raise ValueError(f"rounds must be a whole number from 1 to {MOST_ROUNDS}; got {rounds!r}")
    dist = parse_values(values)
    if not is_whole(budget) or not 1 <= budget <= MOST_BUDGET:
        raise ValueError(
            f"budget must be a whole number of chips from 1 to {MOST_BUDGET}; got {budget!r}"
        )
    if not is_whole(second) or not 0 <= second <= MOST:
        raise ValueError(f"second must be a whole number of chips from 0 to {MOST}; got {second!r}")
    if second and mechanism != "mogul":
        raise ValueError(
            f"second is the runner-up's prize in Mogul's auction; the {mechanism} auction "
            "sells one prize, so leave second at 0"
        )
    scripted = None if drawn is None else _drawn(drawn, rounds, len(names))
    if start_player is not None and (
        not is_whole(start_player) or not 0 <= start_player < len(names)
    ):
        raise ValueError(
            f"start_player must be a seat number from 0 to {len(names) - 1}; got {start_player!r}"
        )
    setup = Setup(
        edition, names, seed, mechanism, rounds, str(dist), budget, second, scripted, start_player
    )
    return deal(setup)


def _drawn(drawn: object, rounds: int, seats: int) -> tuple[tuple[int, ...], ...]:
    rows = as_list(drawn, "drawn")
    if len(rows) != rounds:
        raise ValueError(
            f"drawn must give one list of values per round: {rounds} rounds, got {len(rows)}"
        )
    out = []
    for number, row in enumerate(rows, start=1):
        values = as_list(row, f"drawn[{number - 1}]")
        if len(values) != seats or not all(is_whole(v) and 0 <= v <= MOST for v in values):
            raise ValueError(
                f"round {number} of drawn must give {seats} whole values from 0 to {MOST}, "
                f"one per seat; got {row!r}"
            )
        out.append(tuple(values))
    return tuple(out)


def deal(setup: Setup) -> LabState:
    """The first state of the session ``setup`` describes: values drawn, round 1 open."""
    seats, rng = len(setup.players), random.Random(setup.seed)
    start = rng.randrange(seats)  # drawn even when scripted: the values stay the same
    if setup.start_player is not None:
        start = setup.start_player
    if setup.drawn is None:
        dist = parse_values(setup.values)
        values = tuple(dist.draw(rng, seats) for _ in range(setup.rounds))
    else:
        values = setup.drawn
    first = open_round(1, start, seats, setup.mechanism)
    rounds = "1 round" if setup.rounds == 1 else f"{setup.rounds} rounds"
    told = f"{rounds} of {setup.mechanism} auctions, values {setup.values}, budget {setup.budget}."
    return LabState(setup, values, (), (), first, (told, round_opened(first, setup.players)))


__all__ = ["EDITIONS", "SEALED", "deal", "new_game", "player_range"]
