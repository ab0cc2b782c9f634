"""The bots a batch engine plays, as the numbers its compiled kernels read.

A batch engine plays a few bot classes, each as a kernel code with at most one number
(a threshold bot's ``drop_at``, a dividend bot's ``rival_weight``). ``PLAYED`` tables map
the bots' names to ``(class, code, parameter name, default)``; ``bot_policy`` reads one
bot (a name such as ``"threshold:drop_at=2"``, a class, a factory or an instance) and
``seat_policies`` one bot per seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mogul.kit.bots import BotFactory, bot_factory

Played = Mapping[str, tuple[type, int, str, float]]
"""Bot name -> (class, kernel code, the parameter the kernel takes or "", its default)."""


def bot_policy(spec: Any, played: Played) -> tuple[int, float] | None:
    """``(code, parameter)`` for a bot of ``played``, else None."""
    classes = {name: cls for name, (cls, *_) in played.items()}
    if isinstance(spec, tuple(classes.values())):
        cls, kwargs = type(spec), vars(spec)
    else:
        try:
            factory = spec if isinstance(spec, BotFactory) else bot_factory(spec, classes)
        except (TypeError, ValueError):
            return None
        cls, kwargs = factory.make, dict(factory.kwargs)
    for kind, code, parameter, default in played.values():
        if cls is kind:
            return code, float(kwargs.get(parameter, default)) if parameter else 0.0
    return None


def seat_policies(
    bots: Any, players: int, played: Played, seats: int, engine: str
) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat codes and parameters (arrays of ``seats``) from one bot for every seat or one
    per seat; ``ValueError`` naming the bots ``engine`` plays for any other."""
    specs = (
        [bots] * players if isinstance(bots, str) or not isinstance(bots, Sequence) else list(bots)
    )
    if len(specs) != players:
        raise ValueError(
            f"give one bot for every seat or one per seat ({players}); got {len(specs)}"
        )
    kinds, params = np.zeros(seats, np.int64), np.zeros(seats, np.float64)
    for seat, spec in enumerate(specs):
        policy = bot_policy(spec, played)
        if policy is None:
            names = [f"'{name}'" for name in played]
            listed = ", ".join(names[:-1]) + f" and {names[-1]}"
            raise ValueError(
                f"the {engine} plays {listed} bots, not {spec!r}; "
                "use the readable engine for other bots"
            )
        kinds[seat], params[seat] = policy
    return kinds, params
