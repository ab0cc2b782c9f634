"""Game states: immutable values for the table, and what one seat may see of it.

A ``GameState`` never changes: ``state.apply(action)`` returns a new state. The fields read
like the table: each player's money and stock, the company treasuries, the goods pawns on
their spaces, the track built, and the turn: whose it is, the dice rolled, and the colour
and kind of action chosen with the turn's first unit action. The rules live in
``mogul.games.credit_mobilier.rules``; the methods here read the table, and hand the rest to
the rules through ``ANSWERS``.

Why a table of functions: ``rules.py`` and ``display.py`` build on this module (they read
and make states), so it cannot import them without an import circle. Each of them fills its
part of ``ANSWERS`` as it is imported, and importing the game
(``mogul.games.credit_mobilier``, which any of its modules' imports goes through) imports both.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from mogul.games.credit_mobilier.components import COMPANIES

if TYPE_CHECKING:
    from mogul.games.credit_mobilier.actions import Action


_COMPANY_INDEX = {c: i for i, c in enumerate(COMPANIES)}


class ByCompany(NamedTuple):
    """A count per company (shares held, dollars in treasuries): ``holding["red"]`` or ``.red``."""

    red: int = 0
    yellow: int = 0
    green: int = 0
    blue: int = 0
    purple: int = 0

    def __getitem__(self, key: Any) -> Any:
        if key.__class__ is str:
            return tuple.__getitem__(self, _COMPANY_INDEX[key])
        return tuple.__getitem__(self, key)

    @property
    def total(self) -> int:
        """The sum over all companies."""
        return sum(self)

    def add(self, company: str, amount: int = 1) -> ByCompany:
        """A copy with ``amount`` more for ``company``."""
        values = list(self)
        values[_COMPANY_INDEX[company]] += amount
        return _new_tuple(ByCompany, values)

    def items(self) -> list[tuple[str, int]]:
        """(company, count) pairs with a count other than 0, in company order."""
        return [(c, n) for c, n in zip(COMPANIES, self, strict=True) if n]

    def __repr__(self) -> str:
        return "ByCompany(" + ", ".join(f"{c}={n}" for c, n in self.items()) + ")"


class Setup(NamedTuple):
    """How a game was prepared: enough to deal the identical game again (see ``setup.py``).

    Scripted parts are kept in plain, sorted form; None means "dealt from the seed".
    """

    edition: str
    players: tuple[str, ...]
    seed: int
    dice: tuple[tuple[str, ...], ...] | None = None
    money: tuple[int, ...] | None = None
    stocks: tuple[tuple[tuple[str, int], ...], ...] | None = None
    treasuries: tuple[tuple[str, int], ...] | None = None
    goods: tuple[tuple[str, str], ...] | None = None
    track: tuple[tuple[str, str], ...] | None = None
    start_player: int | None = None


class Answers:
    """The functions a ``GameState`` answers with: ``rules.py`` and ``display.py`` fill them."""

    __slots__ = ("legal_actions", "apply", "winners", "table_html")


ANSWERS = Answers()
"""Filled by ``rules.py`` (the rules' verbs and the winners) and ``display.py`` (``table_html``)."""


class GameState(NamedTuple):
    """The whole table between two decisions. Read it; never mutate it."""

    setup: Setup
    money: tuple[int, ...]  # dollars per seat
    stocks: tuple[ByCompany, ...]  # shares per seat
    treasuries: ByCompany  # dollars in each company's treasury
    goods: tuple[tuple[str, str], ...]  # (space, colour) per goods pawn, in board order
    track: tuple[tuple[str, str], ...]  # (track space, colour) per built section, in board order
    start_player: int
    current: int | None  # seat on turn; None when the game is over
    turn: int  # turns begun so far (the first turn is 1)
    dice: tuple[str, ...]  # the roll of the player on turn, in dice-face order
    colour: str | None  # the turn's colour, fixed by its first unit action
    kind: str | None  # the turn's kind of action ("build", "move", "buy", "dividends")
    used: int  # unit actions done this turn
    events: tuple[Any, ...]  # what happened in the step that made this state

    # --- whose turn ---------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """Seat index whose decision it is; None when the game is over."""
        return self.current

    @property
    def is_over(self) -> bool:
        """True once goods of only two colours (or fewer) remain outside the Pacific Coast."""
        return self.current is None

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self.setup.players

    @property
    def phase(self) -> str:
        """What the turn is at: "over", "choose an action" (nothing chosen yet) or e.g. "build red"."""
        return phase_of(self)

    # --- reading the table --------------------------------------------------------------
    def goods_at(self, space: str) -> tuple[str, ...]:
        """The colours of the goods pawns on ``space``."""
        return tuple(c for s, c in self.goods if s == space)

    def track_owner(self, section: str) -> str | None:
        """The colour of the track built on ``section``; None while it is free."""
        return dict(self.track).get(section)

    def shares_held(self, company: str) -> int:
        """Shares of ``company`` held by all players together."""
        return sum(s[company] for s in self.stocks)

    # --- rules (answered by mogul.games.credit_mobilier.rules) ---------------------------
    def legal_actions(self) -> list[Action]:
        """The current player's options, in a stable order; empty when the game is over."""
        return list(ANSWERS.legal_actions(self))

    def apply(self, action: Action) -> GameState:
        """The state after the current player's ``action``; raises ``IllegalActionError``."""
        return ANSWERS.apply(self, action)

    def final_scores(self) -> tuple[int, ...]:
        """Each player's cash (on a running game: the cash so far)."""
        return self.money

    def winners(self) -> tuple[int, ...]:
        """Most cash wins; a tie goes to the most stock in total; a remaining tie is shared."""
        return ANSWERS.winners(self)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` can see: the whole table, but not the dice still to come."""
        return _new_tuple(PlayerView, (seat, self.setup.players, *_seen(self)))

    # --- display ------------------------------------------------------------------------
    def __repr__(self) -> str:
        if self.is_over:
            return f"<Credit Mobilier: over after {self.turn} turns>"
        return (
            f"<Credit Mobilier: turn {self.turn}, {self.names[self.current]} rolled "
            f"{' '.join(self.dice)}, {self.phase}>"
        )

    def describe_events(self) -> list[str]:
        """The sentences for this step's events."""
        return [e.text(self.names) for e in self.events]

    def _repr_html_(self) -> str:
        return ANSWERS.table_html(self)  # answered by mogul.games.credit_mobilier.display


def phase_of(table: GameState | PlayerView) -> str:
    """ "over", "choose an action" before the turn's first unit action, else the kind and colour."""
    if table.current is None:
        return "over"
    if table.kind is None:
        return "choose an action"
    return f"{table.kind} {table.colour}"


def _fast_replace(cls: type) -> None:
    """Give a NamedTuple class a ``_replace`` written out for its fields (keywords only).

    The engine copies a state at every step; NamedTuple's generic ``_replace`` (a dict and a
    map per call) costs about twice as much as this straight-line one, which behaves the same.
    """
    fields = cls._fields
    params = ", ".join(f"{f}=_KEEP" for f in fields)
    values = ", ".join(f"self[{i}] if {f} is _KEEP else {f}" for i, f in enumerate(fields))
    source = f"def _replace(self, *, {params}):\n    return _new(_cls, ({values},))\n"
    namespace = {"_KEEP": object(), "_new": tuple.__new__, "_cls": cls}
    exec(source, namespace)
    cls._replace = namespace["_replace"]


_fast_replace(GameState)


HIDDEN = ("setup",)
"""Fields no player sees: the seed and scripted rolls, i.e. the dice still to come."""

SEEN = tuple(f for f in GameState._fields if f not in HIDDEN)
"""Fields every player sees, in ``GameState`` order."""

_seen = itemgetter(*(GameState._fields.index(f) for f in SEEN))
_new_tuple = tuple.__new__

_ViewFields = NamedTuple(
    "_ViewFields",
    [("seat", int), ("names", tuple[str, ...]), *((f, GameState.__annotations__[f]) for f in SEEN)],
)


class PlayerView(_ViewFields):
    """One seat's view of the table: everything but the future dice.

    Credit Mobilier hides nothing on the table: money, stock, treasuries, goods and track are
    all in the open. Only the rolls still to come are unknown, so the view is the state
    without its ``setup`` (the seed and any scripted rolls), with ``seat`` the viewer.
    """

    __slots__ = ()

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.current is None

    @property
    def phase(self) -> str:
        """What the turn is at (see ``GameState.phase``)."""
        return phase_of(self)

    @property
    def my_money(self) -> int:
        """The viewer's dollars."""
        return self.money[self.seat]

    @property
    def my_stock(self) -> ByCompany:
        """The viewer's shares."""
        return self.stocks[self.seat]

    def shares_held(self, company: str) -> int:
        """Shares of ``company`` held by all players together."""
        return sum(s[company] for s in self.stocks)
