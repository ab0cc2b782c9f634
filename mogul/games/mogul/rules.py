"""The rules of Mogul, phase by phase, in the rulebook's order.

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
bonuses (branches, shares held); both editions add a point per 5 chips. That scoring, and who
wins, is in ``mogul.games.mogul.scoring``.

Phases 1 and 2 need no decision, so ``apply`` runs them as soon as a round ends. Game
preparation (dealing) is in ``mogul.games.mogul.setup``. The editions differ only through
their data (``Edition``: credit size and limit, the sale rule, houses, map, end bonuses).
Where the rulebooks leave a choice, the kit's decision is written next to the code and in
``docs/rules-decisions.md``.
"""

from __future__ import annotations

from functools import cache

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
    GameEnded,
    PremiumsPaid,
    SharesSold,
)
from mogul.games.mogul.network import free_stations
from mogul.games.mogul.scoring import final_scores, score_breakdown, winners
from mogul.games.mogul.scoring import standings as standings  # importable here, as before
from mogul.games.mogul.state import (
    ANSWERS,
    AUCTION,
    OVER,
    RUNNER_UP,
    WINNER,
    GameState,
    PlayerState,
)
from mogul.games.mogul.state import ScoreBreakdown as ScoreBreakdown  # mogul.ScoreBreakdown
from mogul.kit.contract import IllegalActionError

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


# Auction turn options by (has a chip, may take credit). Without chips a player must drop
# (or take a credit first).
_AUCTION_OPTIONS = {
    (True, True): (BID, DROP, CREDIT),
    (True, False): (BID, DROP),
    (False, True): (DROP, CREDIT),
    (False, False): (DROP,),
}


def _bid(state: GameState) -> GameState:
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
    # Credit does not use up the turn: the same player then bids or drops.
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
    if state.edition.sale == "all or none":
        # 2013: sell all of them or none; or, instead, found a branch.
        sales = (Sell(0), Sell(owned)) if owned else (Sell(0),)
        return sales + _branch_options(state, seat) if state.edition.houses_per_player else sales
    return (
        _SELL_OPTIONS[owned]
        if owned < len(_SELL_OPTIONS)
        else tuple(Sell(n) for n in range(owned + 1))
    )


_SELL_OPTIONS = tuple(tuple(Sell(n) for n in range(k + 1)) for k in range(32))


def _branch_options(state: GameState, seat: int) -> tuple[Branch, ...]:
    """A house on any free station of the border colour's line; with every house out, one moved."""
    free = free_stations(state, state.revealed.border)
    houses = state.players[seat].houses
    if len(houses) < state.edition.houses_per_player:
        return tuple(_branch(station, None) for station in free)
    return tuple(_branch(station, old) for station in free for old in houses)


@cache
def _branch(station: str, move_from: str | None) -> Branch:
    # One shared instance per option, as for the other actions: legal_actions runs often.
    return Branch(station, move_from)


def _use_right(state: GameState, seat: int, action: Action) -> GameState:
    """The seat uses its action right: ``Take`` the revealed share, ``Sell`` border shares, or
    (2013) found a ``Branch`` instead of selling."""
    kind = type(action)
    player = state.players[seat]
    if kind is Take:
        # The seat places the revealed share in front of them.
        card = state.revealed
        player = player._replace(shares=player.shares.add(card.company))
        return state._replace(
            players=_with_player(state.players, seat, player), events=(CardTaken(seat, str(card)),)
        )
    if kind is Sell:
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
    if kind is Branch:
        # A house goes on the free station (moved there from ``move_from`` once all are out).
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
    raise IllegalActionError.for_state(state, action, legal_actions(state))


def _winner_acts(state: GameState, action: Action) -> GameState:
    # The winner chooses one action; the runner-up then does the other one.
    after = _use_right(state, state.winner, action)
    choice = _CHOICE[type(action)]
    return after._replace(phase=RUNNER_UP, current=state.runner_up, winner_choice=choice)


_CHOICE = {Take: "take", Sell: "sell", Branch: "branch"}


def _runner_up_acts(state: GameState, action: Action) -> GameState:
    # The player who took the revealed share starts the next round.
    after = _use_right(state, state.runner_up, action)
    taker = state.runner_up if type(action) is Take else state.winner
    return begin_round(after, taker, list(after.events))


# --- the engine's two verbs -----------------------------------------------------------------


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The current player's options in a stable order (empty when the game is over).

    Auction turn: ``Bid`` (with a chip), ``Drop``, ``Credit`` (where allowed).
    Auction winner: ``Take`` and the sell right: ``Sell(0..k)`` (2013: ``Sell(0)``, ``Sell(k)``
    for all ``k`` owned, and ``Branch`` per free station of the border's line). Runner-up: the
    other action only.
    """
    phase = state.phase
    if phase == AUCTION:
        seat = state.current
        return _AUCTION_OPTIONS[state.players[seat].chips > 0, can_take_credit(state, seat)]
    if phase == WINNER:
        return (TAKE,) + _sell_options(state, state.winner)
    if phase == RUNNER_UP:
        if state.winner_choice == "take":
            return _sell_options(state, state.runner_up)
        return (TAKE,)
    return ()


def apply(state: GameState, action: Action) -> GameState:
    """The new state after the current player's ``action``; the old state is untouched.

    Raises ``IllegalActionError`` (naming the legal actions) for anything else.
    """
    kind = type(action)
    if state.phase == AUCTION:
        # Same tests as legal_actions, asked directly: this is the engine's hottest path.
        seat = state.current
        if kind is Bid and state.players[seat].chips > 0:
            return _bid(state)
        if kind is Drop:
            return _drop(state)
        if kind is Credit and can_take_credit(state, seat):
            return _credit(state)
    elif action in legal_actions(state):
        if state.phase == WINNER:
            return _winner_acts(state, action)
        return _runner_up_acts(state, action)
    raise IllegalActionError.for_state(state, action, legal_actions(state))


# --- game end ---------------------------------------------------------------------------------
# The crash ends the game inside ``begin_round`` (phase 1). The end bonuses, the final scores and
# the ranking are in ``mogul.games.mogul.scoring``: ``score_breakdown``, ``final_scores``,
# ``standings``, ``winners``.


# --- what a state answers -------------------------------------------------------------------
# ``state.legal_actions()``, ``state.apply(action)`` and the scores are the functions above and
# scoring's: state.py cannot import this module (this one builds on it), so it is handed them here.
ANSWERS.legal_actions, ANSWERS.apply = legal_actions, apply
ANSWERS.final_scores, ANSWERS.winners, ANSWERS.score_breakdown = (
    final_scores,
    winners,
    score_breakdown,
)
