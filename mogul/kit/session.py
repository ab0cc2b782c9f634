"""A game session: one game of any registered game with human and bot seats, step by step.

The session keeps every state (states are immutable, so undo is "go back in the list"),
lets bots move when asked or on their own, and gives the record and the event log. It has
no widgets: ``mogul.widgets.player(game, ...)`` opens the game's player over one.

    >>> from mogul.kit.session import GameSession
    >>> from mogul.kit.spec import default_game
    >>> s = GameSession(default_game(), ["human", "random", "random"], seed=3)
    >>> s.human_to_act() or s.state.is_over
    True

It takes the first arguments of ``mogul.new_game`` in the same order: the game or edition,
who sits at the table (here one spec per seat), the seed.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from mogul.kit.bots import RandomBot, bot_factory, bot_name, decide
from mogul.kit.record import GameRecord
from mogul.kit.spec import GameSpec, default_game, resolve

HUMAN = "human"
"""The seat spec of a person at the table (every other spec names a bot)."""


def default_seats(spec: GameSpec, edition: str) -> list[Any]:
    """You against the game's first bots (random bots for a game with none), at the fewest seats."""
    fewest = spec.player_range(edition)[0]
    bot = next(iter(spec.bots), None) or RandomBot
    return [HUMAN, *(bot for _ in range(fewest - 1))]


def last_events(states: Sequence[Any], lines: int = 12) -> list[str]:
    """The last ``lines`` sentences of the events that made ``states``, oldest first."""
    out: list[str] = []
    for state in reversed(states):
        out[:0] = state.describe_events()
        if len(out) >= lines:
            break
    return out[-lines:]


class GameSession:
    """A game with human and bot seats, its history, undo, bot moves, record and event log.

    ``game``: a game or edition name (None: the registry's default game). ``seats``: one spec
    per seat, ``"human"`` or a bot (a name of the game's bots such as ``"random"``, a bot
    class, a function that builds a bot, or a bot instance); default: you against the game's
    first bots at the fewest seats. ``seed`` deals the game. ``names``: the people's names
    (default: the game's).
    Setup keywords (``deck``, ``start_player`` ...) go to the game's ``new_game``.
    ``autoplay``: bots move on their own after a human acted (default: when a human plays).

    A bot that raises or answers with an illegal move stops the bots: ``bot_error`` says who
    and why, the table stays as it was, and ``undo`` or ``new_game`` go on from there.
    """

    def __init__(
        self,
        game: Any = None,
        seats: Sequence[Any] | None = None,
        seed: int = 0,
        *,
        names: Sequence[str] | None = None,
        autoplay: bool | None = None,
        **setup: Any,
    ) -> None:
        if "players" in setup:
            raise TypeError(
                "GameSession takes the people's names as names=[...]; the number of players is "
                "the number of seats"
            )
        self.spec, self.edition = resolve(default_game() if game is None else game)
        self.seats = list(default_seats(self.spec, self.edition) if seats is None else seats)
        self.spec.check_players(self.edition, len(self.seats))
        self.humans = tuple(
            i for i, s in enumerate(self.seats) if isinstance(s, str) and s == HUMAN
        )
        if names is not None and len(names) != len(self.seats):
            raise ValueError(f"give one name per seat: {len(self.seats)} seats, {len(names)} names")
        self.names = list(names) if names is not None else None
        self.setup = setup
        self.autoplay = bool(self.humans) if autoplay is None else bool(autoplay)
        self._callbacks: list[Callable[[GameSession], None]] = []
        self.new_game(seed)

    # --- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The state on the table now."""
        return self.history[-1]

    def human_to_act(self) -> bool:
        """True when the game waits for a human's decision."""
        return not self.state.is_over and self.state.current_player in self.humans

    def labels(self) -> list[str]:
        """A note per seat: "you" / "human" for people, the bot's name for bots."""
        person = "you" if len(self.humans) == 1 else "human"
        return [person if b is None else f"{bot_name(b)} bot" for b in self.bots]

    def event_log(self, lines: int = 12) -> list[str]:
        """The last ``lines`` sentences of the game's events, oldest first."""
        return last_events(self.history, lines)

    def record(self) -> GameRecord:
        """The game so far as a ``GameRecord`` (save it, replay it, make tables of it)."""
        return GameRecord.of(self.history[0], self.actions)

    def action_label(self, action: Any) -> str:
        """The game's button text for ``action`` now."""
        return self.spec.action_label(self.state, action)

    def status(self) -> str:
        """One line (HTML) on what the table waits for."""
        state = self.state
        if self.bot_error:
            return f"<b>A bot failed.</b> {html.escape(self.bot_error)}"
        if state.is_over:
            winners = state.winners()
            best = html.escape(" and ".join(state.names[s] for s in winners))
            return f"<b>Game over.</b> {best} {'wins' if len(winners) == 1 else 'share the win'}."
        name = html.escape(state.names[state.current_player])
        if self.human_to_act():
            phase = getattr(state, "phase", None)
            return f"<b>{name}</b>, your move" + (f" ({html.escape(phase)})." if phase else ".")
        bot = html.escape(bot_name(self.bots[state.current_player]))
        return f"{name} ({bot} bot) is to move: press <i>Next step</i>."

    def on_change(self, callback: Callable[[GameSession], None]) -> None:
        """Call ``callback(session)`` after every change of the state."""
        self._callbacks.append(callback)

    def changed(self) -> None:
        """Tell the followers (``on_change``) that the state changed."""
        for callback in self._callbacks:
            callback(self)

    # --- moving ----------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game from ``seed`` (default: the last seed) with fresh bots."""
        seed = getattr(self, "seed", 0) if seed is None else seed
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number, got {seed!r}")
        self.seed = seed
        first = self.spec.new_game(self.edition, self.names or len(self.seats), seed, **self.setup)
        self.history = [first]
        self.actions: list[Any] = []  # actions[i] leads from history[i] to history[i + 1]
        self.bots = [
            None if i in self.humans else self._make_bot(s, seed * 1000 + i)
            for i, s in enumerate(self.seats)
        ]
        self.bot_error: str | None = None
        self._autoplay()
        self.changed()

    def act(self, action: Any) -> None:
        """Apply ``action`` for the player to act (raises ``IllegalActionError`` if not legal)."""
        self.history.append(self.state.apply(action))
        self.actions.append(action)
        self._autoplay()
        self.changed()

    def step(self) -> bool:
        """Let the bot to act make one move; False (and nothing happens) if a human must act."""
        moved = self._bot_move()
        self.changed()
        return moved

    def next_round(self) -> None:
        """Let bots play until the next round begins (or a human must act)."""
        start = self.spec.stage(self.state)
        while self.spec.stage(self.state) == start and self._bot_move():
            pass
        self.changed()

    def play_to_end(self) -> None:
        """Let bots play until the game ends (or a human must act)."""
        while self._bot_move():
            pass
        self.changed()

    def undo(self) -> None:
        """Go back one decision: to the last human decision when bots move on their own."""
        target = self.undo_target()
        if target is None:
            return
        del self.history[target + 1 :]
        del self.actions[target:]
        self.bot_error = None
        self.changed()

    def undo_target(self) -> int | None:
        """The index in ``history`` that undo goes back to; None when there is nothing to undo."""
        if self.humans and self.autoplay:
            earlier = [
                i for i, s in enumerate(self.history[:-1]) if s.current_player in self.humans
            ]
            return earlier[-1] if earlier else None
        return len(self.history) - 2 if len(self.history) > 1 else None

    def set_autoplay(self, on: bool) -> None:
        """Switch autoplay; switching it on lets the bots move now."""
        self.autoplay = bool(on)
        if self.autoplay:
            self._autoplay()
            self.changed()

    # --- bots ------------------------------------------------------------------------------------
    def _make_bot(self, spec: Any, seed: int) -> Any:
        if not isinstance(spec, type) and hasattr(spec, "choose"):
            return spec  # an instance: used as it is
        return bot_factory(spec, self.spec.bots)(seed)

    def _bot_move(self) -> bool:
        state = self.state
        if self.bot_error or state.is_over or state.current_player in self.humans:
            return False
        seat = state.current_player
        legal = state.legal_actions()
        bot = self.bots[seat]
        if len(legal) == 1:
            action = legal[0]
        else:
            try:
                action = decide(bot, state.view(seat), legal)
            except Exception as err:  # a student's bot: report it, keep the table
                self.bot_error = f"{state.names[seat]}'s bot ({bot_name(bot)}) raised {type(err).__name__}: {err}"
                return False
            if action not in legal:
                self.bot_error = f"{state.names[seat]}'s bot ({bot_name(bot)}) chose {action!r}, which is not legal now"
                return False
        self.history.append(state.apply(action))
        self.actions.append(action)
        return True

    def _autoplay(self) -> None:
        if self.autoplay:
            while self._bot_move():
                pass
