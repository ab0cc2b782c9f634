"""Who plays a run's games, and how they are refereed: the entrants, the run's secret, each
game's plan (deal seed, seating, bot seeds), and the ``Referee``.

    >>> [(p.game, p.seating) for p in plan_games(1, [(0, 1, 2), (2, 1, 0)])]
    [(0, (0, 1, 2)), (1, (2, 1, 0))]

``mogul.kit.runner`` plays the plans; ``simulate`` and ``tournament`` make them.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mogul.kit.bots import BotFactory, BotFailure, BotSpec, bot_factory, bot_name
from mogul.kit.guard import MEMORY_LIMIT, TIME_LIMIT, Sandbox, build
from mogul.kit.names import student_name


@dataclass(frozen=True)
class Referee:
    """How a run treats its bots (see ``mogul.kit.guard``).

    ``time_limit``: seconds an untrusted bot may take for one decision (and to start).
    ``sandbox``: run untrusted bots in processes of their own (stoppable, memory capped).
    ``memory_limit``: bytes a sandboxed bot may use beyond its start. ``on_failure``:
    "forfeit" (drop the game) or "replace" (``fallback``, one of the game's bots, finishes
    it for the failing seat).
    """

    time_limit: float = TIME_LIMIT
    sandbox: bool = True
    memory_limit: int | None = MEMORY_LIMIT
    on_failure: str = "forfeit"
    fallback: str = "random"

    def __post_init__(self) -> None:
        limit = self.time_limit
        if (
            isinstance(limit, bool)
            or not isinstance(limit, int | float)
            or not 0 < limit < float("inf")
        ):
            raise ValueError(f"time_limit must be a number of seconds > 0, got {limit!r}")
        if self.on_failure not in ("forfeit", "replace"):
            raise ValueError(f"on_failure must be 'forfeit' or 'replace', got {self.on_failure!r}")
        if not isinstance(self.sandbox, bool):
            raise ValueError(f"sandbox must be True or False, got {self.sandbox!r}")


@dataclass(frozen=True)
class GamePlan:
    """One game to play: its number, deal seed, which entrant sits in each seat, bot seeds."""

    game: int
    seed: int
    seating: tuple[int, ...]
    bot_seeds: tuple[int, ...]


def plan_games(
    seed: int, seatings: Iterable[tuple[int, ...]], secret: int | None = None
) -> Iterator[GamePlan]:
    """Number the games and give each its deal seed and bot seeds, all drawn from ``seed``
    (and ``secret``, where the run has one: see ``run_secret``).

    Without a secret, deals come from ``random.Random(seed)`` in game order, as they always
    have (seeded deals stay the same), and bot seeds from a keyed hash (BLAKE2b keyed with
    the run's seed) of the game number and the seat. A bot that knows its seed then learns
    nothing about the deal short of trying every run seed, which for small seeds is quick.
    With a secret, both come from BLAKE2b keyed with the seed and the secret: whoever does
    not know the secret can predict neither the deals nor any bot's seed, whatever the seed.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    if secret is None:
        deals = random.Random(seed)
        bots = hashlib.blake2b(str(seed).encode(), person=b"mogul bots").digest()
    else:
        keys = f"{seed} {secret}".encode()
        dealt = hashlib.blake2b(
            key=hashlib.blake2b(keys, person=b"mogul deals").digest(), digest_size=4
        )
        bots = hashlib.blake2b(keys, person=b"mogul run bots").digest()
    keyed = hashlib.blake2b(key=bots, digest_size=4)

    def hashed(h: Any, text: str) -> int:
        h = h.copy()
        h.update(text.encode())
        return int.from_bytes(h.digest(), "big")

    for game, seating in enumerate(seatings):
        if secret is None:
            deal = deals.getrandbits(32)
            for _ in seating:  # the draws that were bot seeds before: every seed's deals stay
                deals.getrandbits(32)
        else:
            deal = hashed(dealt, str(game))
        yield GamePlan(
            game,
            deal,
            tuple(seating),
            tuple(hashed(keyed, f"{game} {seat}") for seat in range(len(seating))),
        )


SECRET_BITS = 64


def run_secret(secret: int | None, entered: Sequence[Entrant], referee: Referee) -> int | None:
    """The secret that keys a run's deals and bot seeds (``plan_games``).

    ``secret`` if given (a whole number >= 0: a run's ``secret`` reproduces it). Otherwise a
    fresh one, ``SECRET_BITS`` random bits, when a bot that is not the kit's own plays in a
    sandbox: such a bot could search small run seeds for its own seed and then knew the deal.
    Else None: runs of the kit's own bots (and untrusted bots run with ``sandbox=False``, who
    can read the game anyway) stay reproducible from the seed alone.
    """
    if secret is not None:
        if isinstance(secret, bool) or not isinstance(secret, int) or secret < 0:
            raise ValueError(f"secret must be a whole number >= 0 (or None), got {secret!r}")
        return secret
    if referee.sandbox and any(not e.trusted for e in entered):
        return secrets.randbits(SECRET_BITS)
    return None


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
