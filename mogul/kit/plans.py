"""Who plays which game: the run's games numbered and seeded, and its entrants named.

``plan_games`` gives every game its deal seed and its bots' seeds, all drawn from the run's
seed (so the same seed plays the same games on any executor); ``entrants`` turns bot specs
into the run's named entrants, trusted (the game's own bots) or not (a student's bot, later
run in a sandbox). ``mogul.kit.runner`` plays the plans.

    >>> [(p.game, len(p.bot_seeds)) for p in plan_games(1, [(0, 1, 2), (2, 1, 0)])]
    [(0, 3), (1, 3)]
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from mogul.kit.bots import BotFactory, BotSpec, bot_factory, bot_name
from mogul.kit.guard import BotFailure, Sandbox, build
from mogul.kit.names import student_name
from mogul.kit.options import Referee


@dataclass(frozen=True)
class GamePlan:
    """One game to play: its number, deal seed, which entrant sits in each seat, bot seeds."""

    game: int
    seed: int
    seating: tuple[int, ...]
    bot_seeds: tuple[int, ...]


def plan_games(seed: int, seatings: Iterable[tuple[int, ...]]) -> Iterator[GamePlan]:
    """Number the games and give each its deal seed and bot seeds, all drawn from ``seed``.

    Deals come from ``random.Random(seed)`` in game order, as they always have (seeded deals
    stay the same). Bot seeds come from streams of their own, a keyed hash (BLAKE2b keyed
    with the run's seed) of the game number and the seat, so a bot that knows its seed learns
    nothing about the deal or the other bots' seeds (short of trying every run seed: for a
    graded tournament pick a large random one, for example ``secrets.randbits(64)``).
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    deals = random.Random(seed)
    keyed = hashlib.blake2b(
        key=hashlib.blake2b(str(seed).encode(), person=b"mogul bots").digest(), digest_size=4
    )

    def bot_seed(game: int, seat: int) -> int:
        h = keyed.copy()
        h.update(f"{game} {seat}".encode())
        return int.from_bytes(h.digest(), "big")

    for game, seating in enumerate(seatings):
        deal = deals.getrandbits(32)
        for _ in (
            seating
        ):  # the draws that were bot seeds before: the deals of every seed stay as they were
            deals.getrandbits(32)
        yield GamePlan(
            game, deal, tuple(seating), tuple(bot_seed(game, seat) for seat in range(len(seating)))
        )


@dataclass(frozen=True)
class Entrant:
    """A bot in a run: how to build it, its name, and whether it is one of the kit's own."""

    factory: BotFactory
    name: str
    trusted: bool


def entrants(
    specs: Sequence[BotSpec],
    registry: Mapping[str, type],
    *,
    unique: bool,
    referee: Referee | None = None,
) -> tuple[Entrant, ...]:
    """The run's entrants from bot specs. Registry names are trusted; anything else is not.

    Names come from a bot built with seed 0 (an untrusted one in its sandbox, under the time
    limit; a bot that cannot start keeps its class name and fails in every game). An
    untrusted bot whose name passes for one of the game's bots gets " (student)" after it
    (``mogul.kit.names``). With ``unique``, repeated names get " 2", " 3" ...
    """
    referee = referee or Referee()
    out: list[Entrant] = []
    for spec in specs:
        factory = bot_factory(spec, registry)
        trusted = isinstance(spec, str)
        name = _start_name(factory, trusted, referee)
        if (
            not trusted and factory.make not in registry.values()
        ):  # a student's bot may not pass for the kit's
            name = student_name(
                name, {*registry, *(str(getattr(c, "name", k)) for k, c in registry.items())}
            )
        if unique and name in [e.name for e in out]:
            taken = [e.name for e in out]
            name = next(
                f"{name} {k}" for k in range(2, len(taken) + 2) if f"{name} {k}" not in taken
            )
        out.append(Entrant(factory, name, trusted))
    return tuple(out)


def _start_name(factory: BotFactory, trusted: bool, referee: Referee) -> str:
    make = getattr(factory.make, "func", factory.make)  # a functools.partial's function
    fallback = getattr(make, "__name__", type(make).__name__)
    if trusted:
        return bot_name(factory(0))
    if referee.sandbox:
        box = Sandbox(factory, referee.time_limit, referee.memory_limit)
        try:
            return box.new_game(0)
        except BotFailure:
            return fallback
        finally:
            box.close()
    try:
        return bot_name(build(factory, 0))
    except Exception:
        return fallback
