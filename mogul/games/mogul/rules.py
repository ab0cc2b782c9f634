"""The rules of Mogul in the rulebook's order: the table, then a round phase by phase, then
the end of the game.

The table is a ``GameState``: an immutable value. ``state.apply(action)`` returns a new state,
so undo, "what if" branches and widgets can keep old states around. A seat sees the table
without the order of the draw pile (``state.view(seat)``, a ``PlayerView``).

Each round has four phases:

1. Reveal card: the top card of the draw pile is turned up. The crash card ends the game.
2. Pay out premiums: one point per owned share of the revealed card's company.
3. Auction: from the start player clockwise, each player still in pays a chip into the pot
   or drops out and takes the whole pot. A player may take a credit on their own turn first.
   The last player left wins; the last to drop is the runner-up.
4. Actions: the winner takes the revealed share or uses the sell right (sells shares of its
   border colour; in the 2013 edition: all or none of them, or founds a branch on that
   colour's line instead); the runner-up does the other action. Whoever took the share
   starts the next round.

The game ends at once when the crash card is revealed. The 2013 edition then adds end
bonuses (branches, shares held); both editions add a point per 5 chips. Most points wins.

Phases 1 and 2 need no decision, so ``apply`` runs them as soon as a round ends. Game
preparation (dealing) is in ``mogul.games.mogul.setup``; what players know of the draw pile
(the crash chance, the premiums still to come) in ``mogul.games.mogul.pile``. The editions
differ only through their data (``Edition``: credit size and limit, the sale rule, houses,
map, end bonuses). Where the rulebooks leave a choice, the kit's decision is written next to
the code and in ``docs/rules-decisions.md``.
"""

from __future__ import annotations

from typing import NamedTuple

from mogul.games.mogul.actions import (
    BID,
    CREDIT,
    DROP,
    TAKE,
    Action,
    Bid,
    Branch,
    Credit,
    Drop,
    Sell,
    Take,
)
from mogul.games.mogul.cards import Card, CrashCard, Shares
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.events import (
    AuctionWon,
    BonusesScored,
    BranchFounded,
    CardRevealed,
    CardTaken,
    ChipBid,
    CrashRevealed,
    CreditTaken,
    Dropped,
    Event,
    GameEnded,
    PremiumsPaid,
    SharesSold,
)
from mogul.games.mogul.network import branch_points, free_stations
from mogul.games.mogul.pile import next_crash_chance
from mogul.kit.contract import IllegalActionError

# Phases of a round. Reveal and premiums happen inside ``apply``, so a state waiting for a
# decision is always in one of these.
AUCTION = "auction"  # phase 3: the current player bids, drops or takes a credit
WINNER = "winner"  # phase 4: the auction winner takes the card or sells
RUNNER_UP = "runner-up"  # phase 4: the runner-up does the other action
OVER = "over"  # the crash was revealed


# --- the table -------------------------------------------------------------------------------


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


class GameState(NamedTuple):
    """The whole table between two decisions. Read it; never mutate it.

    Every field but ``HIDDEN`` ones is on the table for all to see: a ``PlayerView`` has
    exactly those. The draw pile is both: its order (``deck``) is hidden, its contents
    (``unseen``) are known to every player, who saw the box's cards and every card revealed.
    """

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
    unseen: tuple[Card, ...]  # the shares still in the draw pile, sorted (their order is hidden)
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

    # --- the rules below ------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The current player's options, in a stable order; empty when the game is over."""
        return list(legal_actions(self))

    def apply(self, action: Action) -> GameState:
        """The state after the current player's ``action``; raises ``IllegalActionError``."""
        return apply(self, action)

    def final_scores(self) -> tuple[int, ...]:
        """Points + 1 per 5 chips per seat (on a running game: what a crash now would leave)."""
        return final_scores(self)

    def winners(self) -> tuple[int, ...]:
        """Seats with the best score after the tie-break (several if still tied)."""
        return winners(self)

    def score_breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Each seat's final score in parts: points, branches, shares, chips and the total."""
        return score_breakdown(self)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` can see: everything on the table, but not the order of the draw pile."""
        return PlayerView(seat, *[getattr(self, field) for field in SEEN], len(self.deck))

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
        # The display reads a state by its fields and imports nothing from here: no circle.
        from mogul.games.mogul.display import table_html

        return table_html(self)


HIDDEN = ("setup", "deck", "events")
"""Fields of a ``GameState`` no player sees: how the game was dealt, the pile order, the last step."""

SEEN = tuple(f for f in GameState._fields if f not in HIDDEN)
"""Fields every player sees, in ``GameState`` order; a ``PlayerView`` has exactly these."""

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


# --- small helpers -------------------------------------------------------------------------


def _with_player(players: tuple[PlayerState, ...], seat: int, player: PlayerState):
    """The players with ``seat`` replaced by ``player``."""
    players = list(players)
    players[seat] = player
    return tuple(players)


def _next_in_auction(in_auction: tuple[int, ...], seat: int) -> int:
    """The next seat clockwise after ``seat`` that is still in the auction."""
    for s in in_auction:
        if s > seat:
            return s
    return in_auction[0]


def _without(unseen: tuple, card) -> tuple:
    """The unseen shares once ``card`` has been revealed."""
    i = unseen.index(card)
    return unseen[:i] + unseen[i + 1 :]


# --- phases 1 and 2: reveal and premiums ----------------------------------------------------


def begin_round(state: GameState, start_player: int, events: list) -> GameState:
    """Reveal the top card, pay premiums and open the auction at ``start_player``.

    The crash card ends the game at once: no premiums, no auction.
    """
    card, deck = state.deck[0], state.deck[1:]
    number = state.round + 1
    if card.is_crash:
        events.append(CrashRevealed(number, shares_score=state.edition.share_bonus > 0))
        over = state._replace(
            deck=deck,
            revealed=card,
            round=number,
            phase=OVER,
            current=None,
            start_player=start_player,
            pot=0,
            in_auction=(),
            dropped=(),
            credited=(),
            winner=None,
            runner_up=None,
            winner_choice=None,
        )
        if state.edition.share_bonus or state.edition.branch_bonus:
            parts = score_breakdown(over)
            events.append(
                BonusesScored(
                    tuple(b.branches for b in parts),
                    tuple(b.shares for b in parts),
                    tuple(b.chips for b in parts),
                )
            )
        events.append(GameEnded(final_scores(over), winners(over)))
        return over._replace(events=tuple(events))

    events.append(CardRevealed(number, str(card)))
    # Premiums: one point per owned share of the revealed company.
    premiums = tuple([p.shares[card.company] for p in state.players])
    players = tuple(
        [
            p._replace(points=p.points + n) if n else p
            for p, n in zip(state.players, premiums, strict=True)
        ]
    )
    events.append(PremiumsPaid(card.company, premiums))
    return state._replace(
        players=players,
        deck=deck,
        unseen=_without(state.unseen, card),
        revealed=card,
        round=number,
        phase=AUCTION,
        current=start_player,
        start_player=start_player,
        pot=0,
        in_auction=tuple(range(len(players))),
        dropped=(),
        credited=(),
        winner=None,
        runner_up=None,
        winner_choice=None,
        events=tuple(events),
    )


# --- phase 3: the auction -------------------------------------------------------------------


def can_take_credit(state: GameState, seat: int) -> bool:
    """Credit needs the bank to hold the credit's chips and the edition's limit to allow it."""
    edition = state.edition
    if state.bank < edition.credit_chips:
        return False
    if edition.credit_limit == "once per game":
        return state.players[seat].credits == 0
    return seat not in state.credited  # once per auction


def _bid(state: GameState) -> GameState:
    """Bid: pay one chip into the pot; the turn passes clockwise to the next player still in."""
    seat = state.current
    player = state.players[seat]
    pot = state.pot + 1
    return state._replace(
        players=_with_player(state.players, seat, player._replace(chips=player.chips - 1)),
        pot=pot,
        current=_next_in_auction(state.in_auction, seat),
        events=(ChipBid(seat, pot),),
    )


def _drop(state: GameState) -> GameState:
    """Drop: leave the auction and take the whole pot; the last player left wins."""
    seat = state.current
    player = state.players[seat]
    players = _with_player(state.players, seat, player._replace(chips=player.chips + state.pot))
    i = state.in_auction.index(seat)
    still_in = state.in_auction[:i] + state.in_auction[i + 1 :]
    events = (Dropped(seat, state.pot),)
    if len(still_in) > 1:
        return state._replace(
            players=players,
            pot=0,
            in_auction=still_in,
            dropped=state.dropped + (seat,),
            current=_next_in_auction(still_in, seat),
            events=events,
        )
    # One player left: the auction is over; the player who just dropped is the runner-up.
    winner = still_in[0]
    return state._replace(
        players=players,
        pot=0,
        in_auction=still_in,
        dropped=state.dropped + (seat,),
        phase=WINNER,
        current=winner,
        winner=winner,
        runner_up=seat,
        events=events + (AuctionWon(winner, seat),),
    )


def _credit(state: GameState) -> GameState:
    """Credit: chips from the bank for points. It does not use up the turn: the same player
    then bids or drops."""
    seat = state.current
    edition = state.edition
    player = state.players[seat]
    player = player._replace(
        chips=player.chips + edition.credit_chips,
        points=player.points - edition.credit_points,
        credits=player.credits + 1,
    )
    return state._replace(
        players=_with_player(state.players, seat, player),
        bank=state.bank - edition.credit_chips,
        credited=state.credited + (seat,),
        events=(CreditTaken(seat, edition.credit_chips, edition.credit_points),),
    )


def settle_auction(state: GameState, winner: int, runner_up: int) -> GameState:
    """The auction on the table decided at once: ``winner`` to act, ``runner_up`` second.

    For analysis ("what if this seat won here?"), not for play: no chips move, the pot is
    emptied, and every other seat still in counts as dropped before the runner-up.
    """
    if state.phase != AUCTION:
        raise ValueError(f"settle_auction needs a state in the auction phase, not {state.phase!r}")
    if winner == runner_up or not all(0 <= s < len(state.players) for s in (winner, runner_up)):
        raise ValueError(
            f"winner and runner-up must be two different seats, got {winner} and {runner_up}"
        )
    others = tuple(s for s in state.in_auction if s not in (winner, runner_up))
    dropped = tuple(s for s in state.dropped if s != runner_up) + others + (runner_up,)
    return state._replace(
        phase=WINNER,
        current=winner,
        winner=winner,
        runner_up=runner_up,
        pot=0,
        in_auction=(winner,),
        dropped=dropped,
        credited=(),
        events=(),
    )


# --- phase 4: actions -----------------------------------------------------------------------


def _sell_options(state: GameState, seat: int) -> tuple[Action, ...]:
    """The sell right: sell shares of the border colour (or none); 2013: or found a branch."""
    owned = state.players[seat].shares[state.revealed.border]
    if state.edition.sale != "all or none":
        return tuple(Sell(n) for n in range(owned + 1))
    # 2013: sell all of them or none; or, instead, found a branch.
    sales = (Sell(0), Sell(owned)) if owned else (Sell(0),)
    return sales + _branch_options(state, seat) if state.edition.houses_per_player else sales


def _branch_options(state: GameState, seat: int) -> tuple[Branch, ...]:
    """A house on any free station of the border colour's line; with every house out, one moved."""
    free = free_stations(state, state.revealed.border)
    houses = state.players[seat].houses
    if len(houses) < state.edition.houses_per_player:
        return tuple(Branch(station) for station in free)
    return tuple(Branch(station, old) for station in free for old in houses)


def _use_right(state: GameState, seat: int, action: Action) -> GameState:
    """The seat uses its action right: ``Take`` the revealed share, ``Sell`` border shares, or
    (2013) found a ``Branch`` instead of selling."""
    player = state.players[seat]
    if isinstance(action, Take):
        # The seat places the revealed share in front of them.
        card = state.revealed
        player = player._replace(shares=player.shares.add(card.company))
        return state._replace(
            players=_with_player(state.players, seat, player), events=(CardTaken(seat, str(card)),)
        )
    if isinstance(action, Sell):
        # Each sold share pays the market value before the sale (shares held by all players);
        # sold shares leave the game.
        company = state.revealed.border
        price = state.market_value(company)
        sale = SharesSold(seat, company, action.count, price)
        if action.count == 0:
            return state._replace(events=(sale,))
        player = player._replace(
            points=player.points + action.count * price,
            shares=player.shares.add(company, -action.count),
        )
        return state._replace(
            players=_with_player(state.players, seat, player),
            sold=state.sold.add(company, action.count),
            events=(sale,),
        )
    # Branch: a house goes on the free station (moved there from ``move_from`` once all are out).
    old = action.move_from
    if old is None:
        houses = player.houses + (action.station,)
    else:
        houses = tuple(action.station if h == old else h for h in player.houses)
    player = player._replace(houses=houses)
    return state._replace(
        players=_with_player(state.players, seat, player),
        events=(BranchFounded(seat, action.station, state.revealed.border, old),),
    )


def _winner_acts(state: GameState, action: Action) -> GameState:
    # The winner chooses one action; the runner-up then does the other one.
    after = _use_right(state, state.winner, action)
    choice = type(action).__name__.lower()  # "take", "sell" or (2013) "branch"
    return after._replace(phase=RUNNER_UP, current=state.runner_up, winner_choice=choice)


def _runner_up_acts(state: GameState, action: Action) -> GameState:
    # The player who took the revealed share starts the next round.
    after = _use_right(state, state.runner_up, action)
    taker = state.runner_up if isinstance(action, Take) else state.winner
    return begin_round(after, taker, list(after.events))


# --- the engine's two verbs -----------------------------------------------------------------


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The current player's options in a stable order (empty when the game is over).

    Auction turn: ``Bid`` (with a chip), ``Drop``, ``Credit`` (where allowed); without chips a
    player must drop (or take a credit first). Auction winner: ``Take`` and the sell right:
    ``Sell(0..k)`` (2013: ``Sell(0)``, ``Sell(k)`` for all ``k`` owned, and ``Branch`` per free
    station of the border's line). Runner-up: the other action only.
    """
    if state.phase == AUCTION:
        seat = state.current
        options = (BID, DROP) if state.players[seat].chips > 0 else (DROP,)
        return options + (CREDIT,) if can_take_credit(state, seat) else options
    if state.phase == WINNER:
        return (TAKE,) + _sell_options(state, state.winner)
    if state.phase == RUNNER_UP:
        if state.winner_choice == "take":
            return _sell_options(state, state.runner_up)
        return (TAKE,)
    return ()


def apply(state: GameState, action: Action) -> GameState:
    """The new state after the current player's ``action``; the old state is untouched.

    Raises ``IllegalActionError`` (naming the legal actions) for anything else.
    """
    legal = legal_actions(state)
    if action not in legal:
        raise IllegalActionError.for_state(state, action, legal)
    if isinstance(action, Bid):
        return _bid(state)
    if isinstance(action, Drop):
        return _drop(state)
    if isinstance(action, Credit):
        return _credit(state)
    if state.phase == WINNER:
        return _winner_acts(state, action)
    return _runner_up_acts(state, action)


# --- the end of the game ----------------------------------------------------------------------
# The crash ends the game at once, inside ``begin_round`` (phase 1).


def score_breakdown(state: GameState) -> tuple[ScoreBreakdown, ...]:
    """Each seat's score in parts (on a running game: what a crash now would leave).

    Every player gets one point per full 5 chips; the 2013 edition adds the branches' points
    and one point per share held (in the classic edition shares are worthless after the crash).
    """
    ed = state.edition
    out = []
    for p in state.players:
        branches = branch_points(ed, p.houses) if ed.branch_bonus else 0
        shares = ed.share_bonus * p.shares.total
        chips = p.chips // ed.chips_per_point
        out.append(
            ScoreBreakdown(p.points, branches, shares, chips, p.points + branches + shares + chips)
        )
    return tuple(out)


def final_scores(state: GameState) -> tuple[int, ...]:
    """Points plus the end bonuses, per seat (``score_breakdown``'s totals)."""
    return tuple(b.total for b in score_breakdown(state))


def standings(state: GameState) -> tuple[tuple[int, int], ...]:
    """Each seat's ranking key: (score, shares held). Higher is better; equal keys share a place."""
    return tuple(
        (score, p.shares.total) for score, p in zip(final_scores(state), state.players, strict=True)
    )


def winners(state: GameState) -> tuple[int, ...]:
    """Most points wins; a tie goes to the most shares; a remaining tie is shared."""
    ranking = standings(state)
    best = max(ranking)
    return tuple(seat for seat, r in enumerate(ranking) if r == best)
