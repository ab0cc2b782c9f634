"""The rules of Credit Mobilier in the rulebook's order: the table, a turn, the end.

Read it beside ``credit-mobilier-2013-en.txt``; ``docs/credit-mobilier.md`` lists what the kit
decides where the rulebook is silent.

* **The table** is a ``GameState``, an immutable value: each player's money and stock, the
  company treasuries, the goods pawns on their spaces, the track built, and the turn.
  ``state.apply(action)`` returns a new state. A seat sees everything but the dice still to
  come (``state.view(seat)``, a ``PlayerView``). Dealing a game is ``setup.py``'s work.
* **A turn** (Sequence of Play): the player on turn rolls the five dice, chooses one colour
  rolled and one kind of action, and does up to as many unit actions of that kind as the roll
  allows (``dice.allowance``, the rulebook's "Purple"). Each unit action is its own decision:
  ``Build`` (Building Track), ``Move`` (Moving Goods), ``Buy`` (Buying Stock) and ``PayRound``
  (Paying Dividends), in the order of the rulebook's list of actions. The first fixes the turn's colour and kind; later ones must match.
  ``EndTurn()`` stops early. A player must act and may not pass, so before the first unit
  action ``EndTurn()`` is legal only when the roll allows nothing at all; when no further unit
  action is possible the turn ends by itself.
* **The end**: the game ends at once when goods of only two colours remain outside the
  Pacific Coast. The most cash wins; a tie goes to the most stock, then it is shared.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from mogul.games.credit_mobilier.actions import END, Action, Build, Buy, EndTurn, Move, PayRound
from mogul.games.credit_mobilier.board import COAST, EAST, WEST, board, buildable
from mogul.games.credit_mobilier.components import COMPANIES, CREDIT_MOBILIER, RAILROADS, components
from mogul.games.credit_mobilier.dice import BUILD, BUY, DIVIDEND, KINDS, MOVE, allowance, roll
from mogul.games.credit_mobilier.events import (
    DiceRolled,
    DividendsPaid,
    GameEnded,
    GoodsMoved,
    StockBought,
    TrackBuilt,
    TurnEnded,
)
from mogul.kit.contract import IllegalActionError

BUILD_PAYMENT = 2
"""Dollars the bank pays the Credit Mobilier treasury for each section of track built."""
STOCK_PRICE = 1
"""Dollars a share costs (paid to the bank)."""
WEST_INCOME = 2
"""Dollars the bank pays the pawn's company, and again the track's owner, for a move west."""


# === The table ===================================================================================


class ByCompany(NamedTuple):
    """A count per company (shares held, dollars in treasuries): ``holding["red"]`` or ``.red``."""

    red: int = 0
    yellow: int = 0
    green: int = 0
    blue: int = 0
    purple: int = 0

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            if key not in COMPANIES:
                raise KeyError(key)
            key = COMPANIES.index(key)
        return tuple.__getitem__(self, key)

    @property
    def total(self) -> int:
        """The sum over all companies."""
        return sum(self)

    def add(self, company: str, amount: int = 1) -> ByCompany:
        """A copy with ``amount`` more for ``company``."""
        return self._replace(**{company: self[company] + amount})

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

    def goods_at(self, space: str) -> tuple[str, ...]:
        """The colours of the goods pawns on ``space``."""
        return tuple(c for s, c in self.goods if s == space)

    def track_owner(self, section: str) -> str | None:
        """The colour of the track built on ``section``; None while it is free."""
        return dict(self.track).get(section)

    def shares_held(self, company: str) -> int:
        """Shares of ``company`` held by all players together."""
        return sum(s[company] for s in self.stocks)

    def legal_actions(self) -> list[Action]:
        """The current player's options, in a stable order; empty when the game is over."""
        return list(legal_actions(self))

    def apply(self, action: Action) -> GameState:
        """The state after the current player's ``action``; raises ``IllegalActionError``."""
        return apply(self, action)

    def final_scores(self) -> tuple[int, ...]:
        """Each player's cash (on a running game: the cash so far)."""
        return self.money

    def winners(self) -> tuple[int, ...]:
        """Most cash wins; a tie goes to the most stock in total; a remaining tie is shared."""
        return winners(self)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` can see: the whole table, but not the dice still to come."""
        return PlayerView(seat, self.names, *(getattr(self, field) for field in SEEN))

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
        from mogul.games.credit_mobilier.display import table_html  # display builds on this module

        return table_html(self)


def phase_of(table: GameState | PlayerView) -> str:
    """ "over", "choose an action" before the turn's first unit action, else the kind and colour."""
    if table.current is None:
        return "over"
    if table.kind is None:
        return "choose an action"
    return f"{table.kind} {table.colour}"


HIDDEN = ("setup",)
"""Fields no player sees: the seed and scripted rolls, i.e. the dice still to come."""

SEEN = tuple(f for f in GameState._fields if f not in HIDDEN)
"""Fields every player sees, in ``GameState`` order."""

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

    def shares_held(self, company: str) -> int:
        """Shares of ``company`` held by all players together."""
        return sum(s[company] for s in self.stocks)


# --- reading the board ----------------------------------------------------------------------------


def goods_order(pawn: tuple[str, str]) -> tuple[int, int]:
    """Sort key of a goods pawn (space, colour): board order of the space, then railroad order."""
    space, colour = pawn
    return board().spaces.index(space), RAILROADS.index(colour)


def markers_on_board(track: Sequence[tuple[str, str]], colour: str) -> int:
    """Track markers of ``colour`` already built."""
    return sum(1 for _, c in track if c == colour)


def buildable_sections(track: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Free track spaces joined by built track (any colours) to the eastern edge, in board order."""
    return buildable(board(), frozenset(section for section, _ in track))


def colours_outside_coast(goods: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The railroad colours with goods still off the Pacific Coast, in railroad order."""
    return tuple(c for c in RAILROADS if any(s != COAST and c == pawn for s, pawn in goods))


# === A turn ======================================================================================
# --- roll the five dice ---------------------------------------------------------------------------


def next_roll(setup: Setup, number: int) -> tuple[str, ...]:
    """Roll ``number`` (0 = the first turn's): the scripted roll if there is one, else from the seed."""
    if setup.dice is not None and number < len(setup.dice):
        return setup.dice[number]
    return roll(setup.seed, number)


def begin_turn(state: GameState, seat: int, events: list) -> GameState:
    """Hand the dice to ``seat``: the next turn begins with its roll."""
    turn = state.turn + 1
    dice = next_roll(state.setup, turn - 1)
    events.append(DiceRolled(turn, seat, dice))
    return state._replace(
        current=seat, turn=turn, dice=dice, colour=None, kind=None, used=0, events=tuple(events)
    )


# --- Building Track -------------------------------------------------------------------------------


def build_options(state: GameState, colours: Sequence[str]) -> Iterator[Build]:
    """A railroad colour with markers left, on any free track space joined to the east."""
    markers = components().track_per_colour
    colours = [c for c in colours if c in RAILROADS and markers_on_board(state.track, c) < markers]
    if colours:
        free = buildable_sections(state.track)
        for colour in colours:
            for section in free:
                yield Build(colour, section)


def build_track(state: GameState, action: Build) -> GameState:
    """Place the marker; the bank pays the Credit Mobilier treasury $2 for the section."""
    owner = {**dict(state.track), action.section: action.colour}
    track = tuple((s.id, owner[s.id]) for s in board().sections if s.id in owner)
    return state._replace(
        track=track,
        treasuries=state.treasuries.add(CREDIT_MOBILIER, BUILD_PAYMENT),
        colour=action.colour,
        kind=BUILD,
        used=state.used + 1,
        events=(TrackBuilt(state.current, action.colour, action.section, BUILD_PAYMENT),),
    )


# --- Moving Goods ---------------------------------------------------------------------------------


def move_options(state: GameState, colours: Sequence[str]) -> Iterator[Move]:
    """A pawn of the colour, one space west, north or south along built track.

    Pawns alike on one space have the same moves: they count once, space by space in board order.
    """
    built = {section for section, _ in state.track}
    for colour in colours:
        if colour in RAILROADS:
            for space in dict.fromkeys(space for space, pawn in state.goods if pawn == colour):
                for section, there, direction in board().ways[space]:
                    if direction != EAST and section in built:
                        yield Move(colour, space, there)


def move_goods(state: GameState, action: Move) -> GameState:
    """Move the pawn; west earns $2 for its company and $2 for the track's owner."""
    b = board()
    section = b.between(action.from_space, action.to_space).id
    direction = b.direction(action.from_space, action.to_space)
    owner = state.track_owner(section)
    treasuries = state.treasuries
    to_pawn = to_track = 0
    if direction == WEST:
        to_pawn = to_track = WEST_INCOME
        treasuries = treasuries.add(action.colour, to_pawn).add(owner, to_track)
    goods = list(state.goods)
    goods.remove((action.from_space, action.colour))
    goods.append((action.to_space, action.colour))
    event = GoodsMoved(
        state.current,
        action.colour,
        action.from_space,
        action.to_space,
        direction,
        owner,
        to_pawn,
        to_track,
    )
    return state._replace(
        goods=tuple(sorted(goods, key=goods_order)),
        treasuries=treasuries,
        colour=action.colour,
        kind=MOVE,
        used=state.used + 1,
        events=(event,),
    )


# --- Buying Stock ---------------------------------------------------------------------------------


def stock_left(state: GameState, company: str) -> int | None:
    """Shares of ``company`` still for sale; None when the stock is unlimited."""
    cap = components().stock_per_company
    return None if cap is None else cap - state.shares_held(company)


def buy_options(state: GameState, companies: Sequence[str]) -> Iterator[Buy]:
    """With a dollar to pay and a share left in the stock."""
    if state.money[state.current] >= STOCK_PRICE:
        for company in companies:
            if stock_left(state, company) != 0:
                yield Buy(company)


def buy_stock(state: GameState, action: Buy) -> GameState:
    """One share for $1, paid to the bank."""
    seat = state.current
    money = list(state.money)
    money[seat] -= STOCK_PRICE
    stocks = list(state.stocks)
    stocks[seat] = stocks[seat].add(action.company)
    return state._replace(
        money=tuple(money),
        stocks=tuple(stocks),
        colour=action.company,
        kind=BUY,
        used=state.used + 1,
        events=(StockBought(seat, action.company, STOCK_PRICE),),
    )


# --- Paying Dividends -----------------------------------------------------------------------------


def dividend_options(state: GameState, companies: Sequence[str]) -> Iterator[PayRound]:
    """From a treasury holding at least $1."""
    for company in companies:
        if state.treasuries[company] >= 1:
            yield PayRound(company)


def pay_round(
    stocks: Sequence[ByCompany], treasury: int, first: int, company: str
) -> tuple[tuple[int, ...], int, bool]:
    """One round of dividends: (dollars per seat, dollars left, stopped early).

    Layer by layer: from the player on turn (``first``) to the left, $1 to every player with
    at least one share, then to every player with at least two, and so on until every share
    has earned $1, or at once when the treasury is empty ("stopped early").
    """
    n = len(stocks)
    order = [(first + i) % n for i in range(n)]
    held = [s[company] for s in stocks]  # shares of the company per seat
    paid = [0] * n
    left = treasury
    for level in range(1, max(held) + 1):
        for seat in order:
            if held[seat] >= level:
                if left == 0:
                    return tuple(paid), 0, True
                paid[seat] += 1
                left -= 1
    return tuple(paid), left, False


def pay_dividends(state: GameState, action: PayRound) -> GameState:
    """One round of dividends from the company's treasury (``pay_round``)."""
    company = action.company
    treasury = state.treasuries[company]
    paid, left, stopped = pay_round(state.stocks, treasury, state.current, company)
    event = DividendsPaid(state.current, company, state.used + 1, paid, left, stopped)
    return state._replace(
        money=tuple(m + p for m, p in zip(state.money, paid, strict=True)),
        treasuries=state.treasuries.add(company, left - treasury),
        colour=company,
        kind=DIVIDEND,
        used=state.used + 1,
        events=(event,),
    )


# --- one colour, one kind: what the player may do -------------------------------------------------


def unit_options(state: GameState, colours: Sequence[str], kind: str) -> Iterator[Action]:
    """The unit actions of ``kind`` in ``colours`` the table allows now (ignoring the dice), one
    by one: a question such as "is there one?" stops at the first."""
    if kind == BUILD:
        return build_options(state, colours)
    if kind == MOVE:
        return move_options(state, colours)
    if kind == BUY:
        return buy_options(state, colours)
    if kind == DIVIDEND:
        return dividend_options(state, colours)
    raise ValueError(f"unknown kind of action {kind!r}; the kinds are {KINDS}")


def kind_and_colour(action: Action) -> tuple[str, str] | None:
    """The kind of a unit action and its colour; None for ``EndTurn()`` (or no action at all)."""
    if isinstance(action, Build):
        return BUILD, action.colour
    if isinstance(action, Move):
        return MOVE, action.colour
    if isinstance(action, Buy):
        return BUY, action.company
    if isinstance(action, PayRound):
        return DIVIDEND, action.company
    return None


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The current player's options, in a stable order (empty when the game is over).

    Before the turn's first unit action: every unit action the roll allows, by kind in the
    rulebook's order (build, move, buy, dividends), then by colour; ``EndTurn()`` alone when
    there is none. After it: more of the same colour and kind, and ``EndTurn()``.
    """
    if state.current is None:
        return ()
    if state.kind is None:
        options: list[Action] = []
        for kind in KINDS:
            options += unit_options(
                state, [c for c in COMPANIES if allowance(state.dice, c, kind)], kind
            )
        return tuple(options) or (END,)
    if state.used < allowance(state.dice, state.colour, state.kind):
        return (*unit_options(state, [state.colour], state.kind), END)
    return (END,)


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is one of ``legal_actions(state)``, asked of its own colour and kind:
    the turn's colour and kind (once chosen), with an action of the roll left, allowed by the table."""
    if state.current is None:
        return False
    if isinstance(action, EndTurn):
        return state.kind is not None or legal_actions(state) == (END,)
    kind_colour = kind_and_colour(action)
    if kind_colour is None:
        return False
    kind, colour = kind_colour
    if state.kind is not None and (state.kind, state.colour) != kind_colour:
        return False
    return state.used < allowance(state.dice, colour, kind) and action in unit_options(
        state, [colour], kind
    )


def apply(state: GameState, action: Action) -> GameState:
    """The new state after the current player's ``action``; the old state is untouched.

    Raises ``IllegalActionError`` (naming the legal actions) for anything else.
    """
    if not is_legal(state, action):
        raise IllegalActionError.for_state(state, action, legal_actions(state))
    if isinstance(action, EndTurn):
        return end_turn(state, "ended" if state.kind else "nothing possible", [])
    if isinstance(action, Build):
        after = build_track(state, action)
    elif isinstance(action, Move):
        after = move_goods(state, action)
        if action.to_space == COAST and len(colours_outside_coast(after.goods)) <= 2:
            return game_over(after, list(after.events))
    elif isinstance(action, Buy):
        after = buy_stock(state, action)
    else:
        after = pay_dividends(state, action)
    if turn_used_up(after):
        return end_turn(after, "used up", list(after.events))
    return after


def turn_used_up(state: GameState) -> bool:
    """No further unit action of the turn's colour and kind: the roll's actions are all used, or
    the table allows no more (``legal_actions`` is ``EndTurn()`` alone)."""
    if state.used >= allowance(state.dice, state.colour, state.kind):
        return True
    return next(unit_options(state, [state.colour], state.kind), None) is None


def end_turn(state: GameState, reason: str, events: list) -> GameState:
    """The dice pass to the left."""
    events.append(TurnEnded(state.current, reason))
    return begin_turn(state, (state.current + 1) % len(state.money), events)


# === The end =====================================================================================


def game_over(state: GameState, events: list) -> GameState:
    """Goods of only two colours remain outside the Pacific Coast: the game ends at once."""
    over = state._replace(current=None)
    events.append(GameEnded(colours_outside_coast(state.goods), state.money, winners(over)))
    return over._replace(events=tuple(events))


def standings(state: GameState) -> tuple[tuple[int, int], ...]:
    """Each seat's ranking key: (cash, stock in total). Higher is better; equal keys share a place."""
    return tuple((m, s.total) for m, s in zip(state.money, state.stocks, strict=True))


def winners(state: GameState) -> tuple[int, ...]:
    """The most cash wins; a tie goes to the most stock in total; a remaining tie is shared."""
    ranking = standings(state)
    best = max(ranking)
    return tuple(seat for seat, r in enumerate(ranking) if r == best)
