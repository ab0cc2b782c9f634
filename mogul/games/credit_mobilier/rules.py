"""The rules of Credit Mobilier, in the rulebook's order.

Sequence of play: the player on turn rolls the five dice, chooses one colour rolled and one
kind of action, and performs up to as many unit actions of that kind as the roll allows
(``dice.allowance``). Each unit action is its own decision:

* ``Build(colour, section)``: a free track space joined by built track (any colours) to the
  eastern edge; the bank pays the Credit Mobilier treasury $2 per section.
* ``Move(colour, from_space, to_space)``: one goods pawn one space along built track, west,
  north or south, never east; a pawn on the Pacific Coast stays there. A move west earns
  $2 from the bank for the pawn's company and $2 for the company whose track it crossed.
  (The rulebook's sentence says "east" for the second payment: a misprint, since goods never
  move east and its own example pays the blue track owner for a red pawn moved west.)
  North and south moves earn nothing.
* ``Buy(company)``: one share for $1, paid to the bank.
* ``PayRound(company)``: one round of dividends (``pay_round``); only with orange rolled,
  the company's colour rolled and at least $1 in its treasury.

The turn's first unit action fixes its colour and kind; later ones must match. ``EndTurn()``
stops early. Before the first unit action it is legal only when the roll allows nothing at
all (say five orange dice and empty treasuries): the player then passes the dice, which is
the only way a turn goes by without an action. When no further unit action is possible the
turn ends by itself. The game ends at once when goods of only two colours remain outside
the Pacific Coast; the most cash wins, a tie goes to the most stock, then it is shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import is_

from mogul.games.credit_mobilier.actions import END, Action, Build, Buy, EndTurn, Move, PayRound
from mogul.games.credit_mobilier.board import COAST, WEST
from mogul.games.credit_mobilier.components import COMPANIES, CREDIT_MOBILIER, RAILROADS, components
from mogul.games.credit_mobilier.dice import (
    BUILD,
    BUY,
    DIVIDEND,
    KINDS,
    MOVE,
    Roll,
    as_roll,
    roll,
)
from mogul.games.credit_mobilier.events import (
    DiceRolled,
    DividendsPaid,
    GameEnded,
    GoodsMoved,
    StockBought,
    TrackBuilt,
    TurnEnded,
)
from mogul.games.credit_mobilier.facts import (  # noqa: F401 - TrackFacts and goods_order: read by the bots and the set-up
    TrackFacts,
    goods_facts,
    goods_order,
    tables,
    track_facts,
    with_move,
    with_section,
)
from mogul.games.credit_mobilier.state import ANSWERS, ByCompany, GameState, Setup
from mogul.kit.contract import IllegalActionError

BUILD_PAYMENT = 2
"""Dollars the bank pays the Credit Mobilier treasury for each section of track built."""
WEST_INCOME = 2
"""Dollars the bank pays the pawn's company, and again the track's owner, for a move west."""
STOCK_PRICE = 1
"""Dollars a share costs (paid to the bank)."""

KIND_OF = {Build: BUILD, Move: MOVE, Buy: BUY, PayRound: DIVIDEND}


# --- reading the table -------------------------------------------------------------------
# What the rules read off the track and the goods (built sections, owners, where track may
# be built, the ways out of each space, where each colour's pawns stand) is worked out once
# per track or goods and kept up to date build by build, move by move: see ``facts.py``.


def built_sections(state: GameState) -> frozenset[str]:
    """The track spaces with track on them."""
    return track_facts(state.track).built


def markers_left(state: GameState, colour: str) -> int:
    """Track markers of ``colour`` not yet on the board."""
    return components().track_per_colour - track_facts(state.track).markers.get(colour, 0)


def stock_left(state: GameState, company: str) -> int | None:
    """Shares of ``company`` still for sale; None when the stock is unlimited."""
    cap = components().stock_per_company
    return None if cap is None else cap - sum(s[company] for s in state.stocks)


def colours_outside_coast(goods: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The railroad colours with goods still off the Pacific Coast, in railroad order."""
    return goods_facts(goods).outside_coast()


def next_roll(setup: Setup, number: int) -> Roll:
    """Roll ``number`` (0 = the first turn's): the scripted roll if there is one, else from the seed."""
    if setup.dice is not None and number < len(setup.dice):
        return as_roll(setup.dice[number])
    return roll(setup.seed, number)


# --- what the roll allows ------------------------------------------------------------------

# One shared object per unit action: legal_actions builds its lists from these.
_BUY = {company: Buy(company) for company in COMPANIES}
_PAY = {company: PayRound(company) for company in COMPANIES}


# Each kind of unit action, for the colours the roll allows it in (the dice are checked apart):
# the unit actions the table allows, colour by colour.


def build_options(state: GameState, colours: Sequence[str]) -> Sequence[Action]:
    """Build Track: a railroad colour with markers left, on any free space joined to the east."""
    track = track_facts(state.track)
    markers = components().track_per_colour
    options: list[Action] = []
    for colour in colours:
        if colour in RAILROADS and track.markers.get(colour, 0) < markers:
            options += track.builds_of(colour)
    return options


def move_options(state: GameState, colours: Sequence[str]) -> Sequence[Action]:
    """Move Goods: a pawn of the colour, one space west, north or south along built track.

    Pawns alike on one space have the same moves: they count once, in board order.
    """
    goods = goods_facts(state.goods)
    options: list[Action] = []
    for colour in colours:
        if colour in RAILROADS:
            options += goods.moves_along(state.track, colour)
    return options


def buy_options(state: GameState, colours: Sequence[str]) -> Sequence[Action]:
    """Buy Stock: with a dollar to pay and a share left in the stock."""
    if state.money[state.current] < STOCK_PRICE:
        return ()
    if components().stock_per_company is None:  # the stock is unlimited
        return [_BUY[colour] for colour in colours]
    return [_BUY[colour] for colour in colours if stock_left(state, colour) != 0]


def dividend_options(state: GameState, colours: Sequence[str]) -> Sequence[Action]:
    """Pay Dividends: from a treasury holding at least $1."""
    return [_PAY[colour] for colour in colours if state.treasuries[colour] >= 1]


OPTIONS = {BUILD: build_options, MOVE: move_options, BUY: buy_options, DIVIDEND: dividend_options}
"""The unit actions of each kind the table allows for some colours (the dice are checked apart)."""


def unit_options(state: GameState, colour: str, kind: str) -> Sequence[Action]:
    """The unit actions of ``kind`` for ``colour`` the table allows now (ignoring the dice)."""
    if kind not in OPTIONS:
        raise ValueError(f"unknown kind of action {kind!r}; the kinds are {KINDS}")
    return tuple(OPTIONS[kind](state, (colour,)))


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The current player's options, in a stable order (empty when the game is over).

    Before the turn's first unit action: every unit action the roll allows, by kind in the
    rulebook's order (build, move, buy, dividends), then by colour; ``EndTurn()`` alone when
    there is none. After it: more of the same colour and kind, and ``EndTurn()``.
    """
    global _last
    last_state, last_legal = _last  # read once: another thread may replace it meanwhile
    if last_state is state:
        return last_legal
    legal = _legal_actions(state)
    _last = (state, legal)
    return legal


_last: tuple[GameState | None, tuple[Action, ...]] = (None, ())
"""The last state asked and its legal actions: a player asks for them, then ``apply`` checks
the action against them, so each state's actions are worked out once."""


_ONE_COLOUR = {colour: (colour,) for colour in COMPANIES}


def _legal_actions(state: GameState) -> tuple[Action, ...]:
    if state.current is None:
        return ()
    dice = as_roll(state.dice)  # what the roll allows, worked out once per roll (dice.Roll)
    if state.kind is None:
        options: list[Action] = []
        for kind, colours in dice.choices:
            options += OPTIONS[kind](state, colours)
        return tuple(options) if options else (END,)
    if state.used < dice.allows[state.kind][state.colour]:
        return (*OPTIONS[state.kind](state, _ONE_COLOUR[state.colour]), END)
    return (END,)


# --- the unit actions ---------------------------------------------------------------------------


# Each unit action returns the state after it: its colour and kind are the turn's from now on.


def _do_build(state: GameState, action: Build) -> GameState:
    event = TrackBuilt(state.current, action.colour, action.section, BUILD_PAYMENT)
    return state._replace(
        track=with_section(state.track, action.section, action.colour),
        treasuries=state.treasuries.add(CREDIT_MOBILIER, BUILD_PAYMENT),
        colour=action.colour,
        kind=BUILD,
        used=state.used + 1,
        events=(event,),
    )


def _do_move(state: GameState, action: Move) -> GameState:
    section, direction = tables().way[action.from_space, action.to_space]
    owner = track_facts(state.track).owner[section]
    treasuries = state.treasuries
    to_pawn = to_track = 0
    if direction == WEST:
        to_pawn = to_track = WEST_INCOME
        treasuries = treasuries.add(action.colour, to_pawn).add(owner, to_track)
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
        goods=with_move(state.goods, action),
        treasuries=treasuries,
        colour=action.colour,
        kind=MOVE,
        used=state.used + 1,
        events=(event,),
    )


def _do_buy(state: GameState, action: Buy) -> GameState:
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


def _do_pay(state: GameState, action: PayRound) -> GameState:
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


_EFFECTS = {Build: _do_build, Move: _do_move, Buy: _do_buy, PayRound: _do_pay}


# --- turns and the end --------------------------------------------------------------------------


def begin_turn(state: GameState, seat: int, events: list) -> GameState:
    """Hand the dice to ``seat``: the next turn begins with its roll."""
    turn = state.turn + 1
    dice = next_roll(state.setup, turn - 1)
    events.append(DiceRolled(turn, seat, dice))
    return state._replace(
        current=seat, turn=turn, dice=dice, colour=None, kind=None, used=0, events=tuple(events)
    )


def _end_turn(state: GameState, reason: str, events: list) -> GameState:
    events.append(TurnEnded(state.current, reason))
    return begin_turn(state, (state.current + 1) % len(state.money), events)


def _game_over(state: GameState, events: list) -> GameState:
    over = state._replace(current=None)
    events.append(GameEnded(colours_outside_coast(state.goods), state.money, winners(over)))
    return over._replace(events=tuple(events))


def apply(state: GameState, action: Action) -> GameState:
    """The new state after the current player's ``action``; the old state is untouched.

    Raises ``IllegalActionError`` (naming the legal actions) for anything else.
    """
    last_state, legal = _last
    if last_state is not state:
        legal = legal_actions(state)
    if (
        not any(map(is_, legal, repeat(action))) and action not in legal
    ):  # (the same object, usually)
        raise IllegalActionError.for_state(state, action, legal)
    kind = type(action)
    if kind is EndTurn:
        return _end_turn(state, "ended" if state.kind else "nothing possible", [])
    after = _EFFECTS[kind](state, action)
    if kind is Move and action.to_space == COAST and len(colours_outside_coast(after.goods)) <= 2:
        return _game_over(after, list(after.events))
    if legal_actions(after)[0] is END:  # nothing more of this colour and kind: the turn is over
        return _end_turn(after, "used up", list(after.events))
    return after


# --- the winner ------------------------------------------------------------------------------------


def standings(state: GameState) -> tuple[tuple[int, int], ...]:
    """Each seat's ranking key: (cash, stock in total). Higher is better; equal keys share a place."""
    return tuple((m, s.total) for m, s in zip(state.money, state.stocks, strict=True))


def winners(state: GameState) -> tuple[int, ...]:
    """The most cash wins; a tie goes to the most stock in total; a remaining tie is shared."""
    ranking = standings(state)
    best = max(ranking)
    return tuple(seat for seat, r in enumerate(ranking) if r == best)


# --- what a state answers -------------------------------------------------------------------
# ``state.legal_actions()``, ``state.apply(action)`` and ``state.winners()`` are the functions
# above: state.py cannot import this module (this one builds on it), so it is handed them here.
ANSWERS.legal_actions, ANSWERS.apply, ANSWERS.winners = legal_actions, apply, winners
