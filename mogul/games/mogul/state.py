"""Game states: immutable values for the table, and what one seat may see of it.

A ``GameState`` never changes: ``state.apply(action)`` returns a new state, so undo, "what if"
branches and widgets can keep old states around. The rules themselves live in ``mogul.games.mogul.rules``;
the methods here read the table, and hand the rest to the rules through ``ANSWERS``.

Why a table of functions: ``rules.py`` and ``display.py`` build on this module (they read
and make states), so it cannot import them without an import circle. Each of them fills its
part of ``ANSWERS`` as it is imported, and importing the game (``mogul.games.mogul``, which
any of its modules' imports goes through) imports both.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from mogul.games.mogul.cards import Card, CrashCard, Shares
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.pile import next_crash_chance

if TYPE_CHECKING:
    from mogul.games.mogul.actions import Action
    from mogul.games.mogul.events import Event

# Phases of a round (see mogul.games.mogul.rules). Reveal and premiums happen inside ``apply``, so a
# state waiting for a decision is always in one of these.
AUCTION = "auction"  # phase 3: the current player bids, drops or takes a credit
WINNER = "winner"  # phase 4: the auction winner takes the card or sells
RUNNER_UP = "runner-up"  # phase 4: the runner-up does the other action
OVER = "over"  # the crash was revealed


def _generated_replace(cls: type) -> None:
    """Give a NamedTuple class a generated ``_replace`` with one parameter per field.

    The engine builds a new state on every step. NamedTuple's generic ``_replace`` (a dict and
    a map per call) costs about twice as much as this straight-line version, which behaves the
    same when called with keywords, as the engine always does.
    """
    fields = cls._fields
    params = ", ".join(f"{f}=_KEEP" for f in fields)
    old = ", ".join(f"_{f}" for f in fields)
    values = ", ".join(f"_{f} if {f} is _KEEP else {f}" for f in fields)
    source = (
        f"def _replace(self, {params}):\n    {old}, = self\n    return _new(_cls, ({values},))\n"
    )
    namespace = {"_KEEP": object(), "_new": tuple.__new__, "_cls": cls}
    exec(source, namespace)
    cls._replace = namespace["_replace"]


class Setup(NamedTuple):
    """How a game was prepared: enough to deal the identical game again."""

    edition: str
    players: tuple[str, ...]
    seed: int
    quick_start: bool = False
    deck: tuple[str, ...] | None = None
    starting_shares: tuple[tuple[str, ...], ...] | None = None
    start_player: int | None = None
    chips: tuple[int, ...] | None = None
    houses: tuple[tuple[str, ...], ...] | None = None  # 2013: branches already placed, per seat


class PlayerState(NamedTuple):
    """One seat at the table."""

    name: str
    chips: int
    points: int
    shares: Shares
    credits: int = 0  # credits taken so far this game
    houses: tuple[str, ...] = ()  # 2013 edition: stations holding this player's branches


class ScoreBreakdown(NamedTuple):
    """One seat's final score in parts: points on the track, then the end bonuses."""

    points: int  # on the score track: premiums, sales, credits
    branches: int  # 2013: each house scores the owner's house count on each of its lines
    shares: int  # 2013: one point per share still held (classic: shares are worthless)
    chips: int  # one point per full 5 chips
    total: int


class Answers:
    """The functions a ``GameState`` answers with: ``rules.py`` and ``display.py`` fill them."""

    __slots__ = (
        "legal_actions",
        "apply",
        "final_scores",
        "winners",
        "score_breakdown",
        "table_html",
    )


ANSWERS = Answers()
"""Filled by ``rules.py`` (the rules' verbs and scores) and ``display.py`` (``table_html``)."""


class GameState(NamedTuple):
    """The whole table between two decisions. Read it; never mutate it."""

    edition: Edition
    setup: Setup
    players: tuple[PlayerState, ...]
    deck: tuple[Card | CrashCard, ...]  # the draw pile, top card first (hidden from players)
    revealed: Card | CrashCard | None  # the card of this round
    round: int  # number of cards revealed so far
    phase: str  # AUCTION, WINNER, RUNNER_UP or OVER
    current: int | None  # seat to decide, None when the game is over
    start_player: int
    pot: int
    bank: int
    in_auction: tuple[int, ...]  # seats still bidding, in seat order
    dropped: tuple[int, ...]  # seats that dropped this auction, in order
    credited: tuple[int, ...]  # seats that took a credit this auction
    winner: int | None  # auction winner, once the auction is over
    runner_up: int | None  # last to drop, once the auction is over
    winner_choice: str | None  # "take", "sell" or (2013) "branch", once the winner has acted
    sold: Shares  # shares sold back to the box
    unseen: tuple[Card, ...]  # the shares still in the draw pile, sorted (kept for cheap views)
    events: tuple[Event, ...]  # what happened in the step that made this state

    # --- whose turn ---------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """Seat index whose decision it is; None when the game is over."""
        return self.current

    @property
    def is_over(self) -> bool:
        """True once the crash card has been revealed."""
        return self.phase == OVER

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return tuple(p.name for p in self.players)

    # --- reading the table --------------------------------------------------------------
    def market_value(self, company: str) -> int:
        """Shares of ``company`` held by all players: the points one sold share pays."""
        return sum([p.shares[company] for p in self.players])

    def market_values(self) -> dict[str, int]:
        """Market value of every company, in the edition's company order."""
        return {c: self.market_value(c) for c in self.edition.company_ids}

    @property
    def cards_left(self) -> int:
        """Cards still in the draw pile, the crash card included."""
        return len(self.deck)

    # --- rules (answered by mogul.games.mogul.rules) -------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The current player's options, in a stable order; empty when the game is over."""
        return list(ANSWERS.legal_actions(self))

    def apply(self, action: Action) -> GameState:
        """The state after the current player's ``action``; raises ``IllegalActionError``."""
        return ANSWERS.apply(self, action)

    def final_scores(self) -> tuple[int, ...]:
        """Points + 1 per 5 chips per seat (on a running game: what a crash now would leave)."""
        return ANSWERS.final_scores(self)

    def winners(self) -> tuple[int, ...]:
        """Seats with the best score after the tie-break (several if still tied)."""
        return ANSWERS.winners(self)

    def score_breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Each seat's final score in parts: points, branches, shares, chips and the total."""
        return ANSWERS.score_breakdown(self)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` can see: everything on the table, but not the order of the draw pile."""
        # One tuple, built directly: this runs at every bot decision.
        return _new_tuple(PlayerView, (seat, *_seen(self), len(self.deck)))

    # --- display ------------------------------------------------------------------------
    def __repr__(self) -> str:
        if self.is_over:
            return f"<GameState {self.edition.name}: over after {self.round} cards>"
        who = self.players[self.current].name
        return (
            f"<GameState {self.edition.name}: round {self.round}, {self.revealed}, "
            f"{self.phase}, {who} to act, pot {self.pot}>"
        )

    def describe_events(self) -> list[str]:
        """The sentences for this step's events."""
        return [e.text(self.names) for e in self.events]

    def _repr_html_(self) -> str:
        return ANSWERS.table_html(self)  # answered by mogul.games.mogul.display


_generated_replace(PlayerState)
_generated_replace(GameState)


HIDDEN = ("setup", "deck", "events")
"""Fields of a ``GameState`` no player sees: how the game was dealt, the pile order, the last step."""

SEEN = tuple(f for f in GameState._fields if f not in HIDDEN)
"""Fields every player sees, in ``GameState`` order; a ``PlayerView`` has exactly these."""

_seen = itemgetter(*(GameState._fields.index(f) for f in SEEN))
_new_tuple = tuple.__new__

_ViewFields = NamedTuple(
    "_ViewFields",
    [("seat", int), *((f, GameState.__annotations__[f]) for f in SEEN), ("cards_left", int)],
)


class PlayerView(_ViewFields):
    """One seat's view of the table: the ``GameState`` without its hidden fields (``HIDDEN``).

    ``seat`` is the viewer; ``unseen`` the shares not yet revealed (sorted: their order is
    hidden); ``cards_left`` the size of the draw pile, crash card included. Every chip
    movement is public in Mogul (bids, drops and credits happen on the table), so a player
    with a perfect memory knows everyone's chips; the view shows them exactly.
    """

    __slots__ = ()

    @property
    def is_over(self) -> bool:
        """True once the crash card has been revealed."""
        return self.phase == OVER

    @property
    def me(self) -> PlayerState:
        """The viewing player's own seat."""
        return self.players[self.seat]

    def market_value(self, company: str) -> int:
        """Shares of ``company`` held by all players: the points one sold share pays."""
        return sum(p.shares[company] for p in self.players)

    def crash_chance(self) -> float:
        """Chance that the next card is the crash, under the edition's crash rule.

        The crash lies uniformly in the last ``window`` cards of the pile (classic: 5). Until the
        pile is down to those cards the next card cannot be the crash; from then on the crash is
        equally likely to be any of the cards left: 1/5, 1/4, 1/3, 1/2, 1.
        """
        return next_crash_chance(self)
