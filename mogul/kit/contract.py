"""The contract every game of the kit keeps: what a state answers, and the one shared error.

A game is a set of immutable states. The generic layer (records, runner, tournaments,
sessions) only ever asks a state these questions, so any game that answers them plugs in::

    state.current_player      # seat to decide, None once the game is over
    state.legal_actions()     # the options of that seat, in a stable order
    state.apply(action)       # a NEW state; the old one is untouched
    state.is_over, state.final_scores(), state.winners()
    state.view(seat)          # what that seat may see (bots get this, never the state)
    state.names, state.setup  # player names; what deals this game again
    state.describe_events()   # the step that made this state, in sentences
    state._repr_html_()       # the table, drawn in a notebook

An illegal action raises ``IllegalActionError`` and leaves the state unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


class IllegalActionError(ValueError):
    """An action the current player may not take now. The state is left unchanged.

    ``action`` is what was tried, ``legal`` the actions that were allowed. The error crosses
    process boundaries intact (a worker pool sends it back to the parent as it was raised).
    """

    def __init__(self, message: str, action: object = None, legal: Sequence[object] = ()):
        super().__init__(message)
        self.action = action
        self.legal = tuple(legal)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.action, self.legal))

    @classmethod
    def for_state(cls, state: Any, action: object, legal: Sequence[object]) -> IllegalActionError:
        """The error for ``action`` in ``state``: whose turn it is and what is legal."""
        options = ", ".join(str(a) for a in legal) or "none (the game is over)"
        seat = state.current_player
        who = "nobody" if seat is None else state.names[seat]
        phase = getattr(state, "phase", None)
        where = f" in phase {phase!r}" if phase else ""
        return cls(
            f"{action!s} is not legal now: it is {who}'s turn{where}. Legal actions: {options}.",
            action,
            legal,
        )


@runtime_checkable
class GameState(Protocol):
    """What the generic layer asks of a game state (see the module docstring)."""

    @property
    def current_player(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def setup(self) -> Any: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any) -> GameState: ...

    def final_scores(self) -> tuple[int, ...]: ...

    def winners(self) -> tuple[int, ...]: ...

    def view(self, seat: int) -> Any: ...

    def describe_events(self) -> list[str]: ...

    def _repr_html_(self) -> str: ...
