"""How a run plays its games: ``RunOptions`` (where, how visibly, how bots are refereed) and
``Referee`` (the part that travels with every job), shared by ``simulate`` and ``tournament``.

    >>> from mogul.kit.options import RunOptions
    >>> RunOptions.of(workers=2).referee.on_failure
    'forfeit'
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass, fields, replace
from typing import Any

from mogul.kit.guard import MEMORY_LIMIT, TIME_LIMIT
from mogul.kit.spec import GameSpec, default_game, resolve


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
class RunOptions:
    """How a run plays its games: where, how visibly, and how it treats untrusted bots.

    ``simulate`` and ``tournament`` take these as keywords (``workers=2, progress=False``) or
    as ``options=RunOptions(...)``; they are written down here only.

    ``executor``: any ``concurrent.futures.Executor`` (a Dask cluster's
    ``client.get_executor()`` too). ``workers=N``: a local process pool of N workers for this
    run. Neither: the games run in this process. ``progress``: None shows a bar only for runs
    longer than two seconds, True always, False never. ``chunk_size``: games per job (default:
    about a 32nd of the run, at most 100). ``time_limit``, ``sandbox``, ``memory_limit``,
    ``on_failure``: how untrusted bots are refereed (see ``Referee``).
    """

    executor: Executor | None = None
    workers: int | None = None
    progress: bool | None = None
    chunk_size: int | None = None
    time_limit: float = TIME_LIMIT
    on_failure: str = "forfeit"
    sandbox: bool = True
    memory_limit: int | None = MEMORY_LIMIT

    def __post_init__(self) -> None:
        if self.executor is not None and self.workers is not None:
            raise ValueError("give either an executor or a number of workers, not both")
        if self.executor is not None and not isinstance(self.executor, Executor):
            raise ValueError(
                f"executor must be a concurrent.futures.Executor, got {self.executor!r}"
            )
        for name in ("workers", "chunk_size", "memory_limit"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ValueError(f"{name} must be a whole number >= 1 (or None), got {value!r}")
        if self.progress not in (None, True, False):
            raise ValueError(
                f"progress must be True, False or None (a bar for long runs), got {self.progress!r}"
            )
        self.referee  # noqa: B018 - checks time_limit, on_failure and sandbox

    @property
    def referee(self) -> Referee:
        """How this run treats its bots."""
        return Referee(self.time_limit, self.sandbox, self.memory_limit, self.on_failure)

    @classmethod
    def of(cls, options: RunOptions | None = None, **changes: Any) -> RunOptions:
        """``options`` (default: the defaults) with ``changes``; an unknown name is a ``TypeError``."""
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(changes) - set(known))
        if unknown:
            raise TypeError(
                f"unknown run option(s) {', '.join(unknown)}; the options are {', '.join(known)}"
            )
        if options is not None and not isinstance(options, RunOptions):
            raise TypeError(f"options must be a RunOptions, got {options!r}")
        return replace(options or cls(), **changes)


def game_first(game: Any, entry: str) -> tuple[GameSpec, str]:
    """The game and edition of a run's first argument; a list there (bots first) is a ``TypeError``."""
    if isinstance(game, list | tuple):
        raise TypeError(
            f"{entry}(game, bots, ...) takes the game first, e.g. {entry}({default_game()!r}, {list(game)!r}, ...)"
        )
    return resolve(game)
