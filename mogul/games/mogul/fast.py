"""A batch simulator of classic Mogul: many games at once, compiled, checked against ``rules.py``.

``rules.py`` is the reference: readable, one helper per rulebook phase, about a thousand random
games a second. This module plays the same rules a hundred times faster, for Monte-Carlo
bots and analyses that need tens of thousands of games while a student waits:

    >>> from mogul.games.mogul import fast
    >>> result = fast.play_fresh(games=1000, players=4, bots="random", seed=1)
    >>> result.scores.shape, int(result.rounds.min()) >= 20
    ((1000, 4), True)

How it works. A game's whole table is one record of a numpy structured array (``TABLE``:
chips, points, shares, the pile, the auction...). The rules below are plain loops over those
records, compiled by numba, written in the order of ``rules.py`` and named after its helpers
(``begin_round``, ``bid``, ``drop``, ``take_credit``, ``use_right``), so the two can be read
side by side. Actions are small integers (``BID``, ``DROP``, ``CREDIT``, ``TAKE``, ``SELL + n``)
and the bots are rules of a few lines: uniform random over the legal actions, and the
``ThresholdBot`` and ``ValueBot`` rules of ``bots.py`` with the same arithmetic, so with the
same pile they make the same decisions, float for float.

Why numba and not numpy over a batch of games: a numpy prototype that steps all games of a
batch together (one array operation per decision, masks for the games in each phase) played
at best about 39,000 random 4-player games a second on one core (batches of 10,000); an
auction is a loop of unknown length whose every step depends on the last, so most of the
work went into masks and gathers. The compiled loop plays about 195,000 a second on the same
core and reads like the rules. The first call in a fresh checkout compiles the module's
functions (about 4 s); numba caches the machine code (``cache=True``) in ``__pycache__``
beside this file (or in ``NUMBA_CACHE_DIR``; where that folder is read-only, in the user's
cache folder), so later processes load it in a fraction of a second.

What it covers: the classic (2002) edition, 3-6 players, from a fresh deal or from any
state (its hidden pile re-dealt as ``determinize`` does, or given). The quick start only
changes the deal, so states of a quick-start game are covered but fresh deals are not. The
Rio Grande edition is not covered: ``check_edition`` refuses it, and callers fall back to
the readable engine. Randomness comes from numba's generator, seeded per call: a seed gives
the same games again, but not the games the readable engine would deal from that seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba as nb
import numpy as np

from mogul.games.mogul.actions import BID as BID_ACTION
from mogul.games.mogul.actions import CREDIT as CREDIT_ACTION
from mogul.games.mogul.actions import DROP as DROP_ACTION
from mogul.games.mogul.actions import TAKE as TAKE_ACTION
from mogul.games.mogul.actions import Action, Sell
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.editions import edition as load_edition
from mogul.games.mogul.state import AUCTION as AUCTION_PHASE
from mogul.games.mogul.state import OVER as OVER_PHASE
from mogul.games.mogul.state import RUNNER_UP as RUNNER_UP_PHASE
from mogul.games.mogul.state import WINNER as WINNER_PHASE
from mogul.games.mogul.state import GameState, PlayerView

MAX_SEATS = 6
COMPANIES = 5
PILE = 32  # the classic box: 31 shares and the crash card

# Phases of a round, as in state.py.
AUCTION, WINNER, RUNNER_UP, OVER = 0, 1, 2, 3
PHASES = {AUCTION_PHASE: AUCTION, WINNER_PHASE: WINNER, RUNNER_UP_PHASE: RUNNER_UP, OVER_PHASE: OVER}

# Actions: Sell(n) is SELL + n.
BID, DROP, CREDIT, TAKE, SELL = 0, 1, 2, 3, 4
NO_ACTION = -1

CRASH = -1  # the crash card's company in the pile

# Bots: RANDOM (uniform over the legal actions), THRESHOLD (parameter: drop_at), VALUE
# (parameter: chip_value), as in bots.py.
RANDOM, THRESHOLD, VALUE = 0, 1, 2

TABLE = np.dtype([
    # the edition's numbers
    ("players", np.int64), ("credit_chips", np.int64), ("credit_points", np.int64),
    ("chips_per_point", np.int64), ("crash_window", np.int64),
    # the players
    ("chips", np.int64, MAX_SEATS), ("points", np.int64, MAX_SEATS),
    ("shares", np.int64, (MAX_SEATS, COMPANIES)), ("credits", np.int64, MAX_SEATS),
    ("bank", np.int64),
    # the draw pile, top card at ``top``; the crash card's company is CRASH
    ("pile_company", np.int64, PILE), ("pile_border", np.int64, PILE),
    ("pile_size", np.int64), ("top", np.int64),
    ("unseen", np.int64, COMPANIES),  # shares of each company still in the pile
    # the round
    ("round", np.int64), ("phase", np.int64), ("current", np.int64), ("start_player", np.int64),
    ("company", np.int64), ("border", np.int64),  # of the revealed card
    ("pot", np.int64), ("in_auction", np.int64, MAX_SEATS), ("seats_in", np.int64),
    ("credited", np.int64, MAX_SEATS), ("winner", np.int64), ("runner_up", np.int64),
    ("winner_took", np.int64),
    # counts for the tables
    ("bids", np.int64), ("credits_taken", np.int64),
])
"""One game's table as a numpy record (see the module docstring)."""

_jit = nb.njit(cache=True, nogil=True)


# --- phases 1 and 2: reveal and premiums (rules.begin_round) ----------------------------------


@_jit
def begin_round(t, start_player):
    """Reveal the top card, pay premiums and open the auction at ``start_player``."""
    company, border = t.pile_company[t.top], t.pile_border[t.top]
    t.top += 1
    t.round += 1
    t.start_player = start_player
    if company == CRASH:  # the crash ends the game at once: no premiums, no auction
        t.phase = OVER
        t.current = -1
        return
    t.company, t.border = company, border
    t.unseen[company] -= 1
    for seat in range(t.players):  # premiums: one point per owned share of the company
        t.points[seat] += t.shares[seat, company]
    t.phase, t.current, t.pot = AUCTION, start_player, 0
    for seat in range(t.players):
        t.in_auction[seat] = 1
        t.credited[seat] = 0
    t.seats_in = t.players


# --- phase 3: the auction ---------------------------------------------------------------------


@_jit
def may_take_credit(t, seat):
    """Credit needs the bank to hold the credit's chips; once per auction (classic)."""
    return t.bank >= t.credit_chips and t.credited[seat] == 0


@_jit
def next_in_auction(t, seat):
    """The next seat clockwise after ``seat`` that is still in the auction."""
    for s in range(seat + 1, t.players):
        if t.in_auction[s]:
            return s
    for s in range(seat + 1):
        if t.in_auction[s]:
            return s
    return -1


@_jit
def bid(t):
    """The current player pays a chip into the pot."""
    seat = t.current
    t.chips[seat] -= 1
    t.pot += 1
    t.bids += 1
    t.current = next_in_auction(t, seat)


@_jit
def drop(t):
    """The current player takes the pot and leaves; with one player left the auction ends."""
    seat = t.current
    t.chips[seat] += t.pot
    t.pot = 0
    t.in_auction[seat] = 0
    t.seats_in -= 1
    if t.seats_in > 1:
        t.current = next_in_auction(t, seat)
        return
    # the last player in wins; the one who just dropped is the runner-up
    t.winner = next_in_auction(t, seat)
    t.runner_up = seat
    t.phase = WINNER
    t.current = t.winner


@_jit
def take_credit(t):
    """+credit chips from the bank, -credit points; the player then bids or drops."""
    seat = t.current
    t.chips[seat] += t.credit_chips
    t.points[seat] -= t.credit_points
    t.credits[seat] += 1
    t.bank -= t.credit_chips
    t.credited[seat] = 1
    t.credits_taken += 1


@_jit
def settle_auction(t, winner, runner_up):
    """The auction decided at once (rules.settle_auction): no chips move, the pot is emptied."""
    for seat in range(t.players):
        t.in_auction[seat] = 0
    t.in_auction[winner] = 1
    t.seats_in = 1
    t.pot = 0
    t.winner, t.runner_up = winner, runner_up
    t.phase, t.current = WINNER, winner


# --- phase 4: actions -------------------------------------------------------------------------


@_jit
def market_value(t, company):
    """Shares of ``company`` held by all players: the points one sold share pays."""
    total = 0
    for seat in range(t.players):
        total += t.shares[seat, company]
    return total


@_jit
def use_right(t, seat, action):
    """``TAKE`` the revealed share, or ``SELL + n``: n border shares at the market value."""
    if action == TAKE:
        t.shares[seat, t.company] += 1
        return
    count = action - SELL
    t.points[seat] += count * market_value(t, t.border)
    t.shares[seat, t.border] -= count


@_jit
def apply(t, action):
    """The current player's ``action`` (assumed legal: the bots below choose only legal ones)."""
    if t.phase == AUCTION:
        if action == BID:
            bid(t)
        elif action == DROP:
            drop(t)
        else:
            take_credit(t)
    elif t.phase == WINNER:  # the winner chooses; the runner-up then does the other action
        use_right(t, t.winner, action)
        t.winner_took = 1 if action == TAKE else 0
        t.phase, t.current = RUNNER_UP, t.runner_up
    else:  # the runner-up acts; whoever took the share starts the next round
        use_right(t, t.runner_up, action)
        begin_round(t, t.runner_up if action == TAKE else t.winner)


# --- the bots ---------------------------------------------------------------------------------


@_jit
def random_action(t):
    """Any legal action, each equally likely (the order of rules.legal_actions)."""
    seat = t.current
    if t.phase == AUCTION:  # Bid (with a chip), Drop, Credit (where allowed)
        can_bid = t.chips[seat] > 0
        can_credit = may_take_credit(t, seat)
        i = np.random.randint(1 + can_bid + can_credit)
        if can_bid:
            if i == 0:
                return BID
            i -= 1
        return DROP if i == 0 else CREDIT
    owned = t.shares[seat, t.border]
    if t.phase == WINNER:  # Take, Sell(0) ... Sell(owned)
        i = np.random.randint(owned + 2)
        return TAKE if i == 0 else SELL + i - 1
    if t.winner_took:  # the runner-up may sell 0 ... owned
        return SELL + np.random.randint(owned + 1)
    return TAKE


@_jit
def threshold_action(t, drop_at):
    """ThresholdBot: bid while the pot is below ``drop_at``; take as winner; sell all as runner-up."""
    seat = t.current
    if t.phase == AUCTION:
        return BID if t.pot < drop_at and t.chips[seat] > 0 else DROP
    if t.phase == WINNER or not t.winner_took:
        return TAKE
    return SELL + t.shares[seat, t.border]


@_jit
def premium_outlook(t, company):
    """Premiums one share of ``company`` is still expected to earn (pile.premium_outlook)."""
    unseen = 0
    for c in range(COMPANIES):
        unseen += t.unseen[c]
    if unseen == 0:
        return 0.0
    left = t.pile_size - t.top  # cards left, the crash included
    window = min(t.crash_window, left)
    expected_reveals = left - (window + 1) / 2
    return t.unseen[company] * expected_reveals / unseen


@_jit
def value_action(t, chip_value):
    """ValueBot: the same values and comparisons as bots.ValueBot, in the same order."""
    seat = t.current
    take = premium_outlook(t, t.company)
    owned = t.shares[seat, t.border]
    sell = 0.0
    if owned:
        gain_per_share = market_value(t, t.border) - premium_outlook(t, t.border)
        sell = max(0.0, owned * gain_per_share)
    if t.phase == AUCTION:
        win, second = max(take, sell), min(take, sell)
        if_dropping = second if t.seats_in == 2 else 0.0
        gain = win - if_dropping - chip_value * t.pot
        if gain <= 0:
            return DROP
        if t.chips[seat] > 0:
            return BID
        credit_cost = t.credit_points - chip_value * t.credit_chips
        return CREDIT if may_take_credit(t, seat) and gain > credit_cost else DROP
    if t.phase == WINNER:
        return TAKE if take >= sell else SELL + owned
    if not t.winner_took:
        return TAKE
    return SELL + owned if sell > 0 else SELL


@_jit
def choose(t, kinds, params):
    """The action of the bot in the current seat."""
    seat = t.current
    kind = kinds[seat]
    if kind == THRESHOLD:
        return threshold_action(t, params[seat])
    if kind == VALUE:
        return value_action(t, params[seat])
    return random_action(t)


@_jit
def play_to_end(t, kinds, params):
    """Let the bots play the game on table ``t`` to the crash."""
    while t.phase != OVER:
        apply(t, choose(t, kinds, params))


# --- dealing ----------------------------------------------------------------------------------


@_jit
def deal(t, box_company, box_border, box_starting, players, chips_total, chips_per_player):
    """A fresh deal as setup.deal does it: S shares to the players, the pile, a start player."""
    t.players = players
    starting = np.flatnonzero(box_starting)
    rest = np.flatnonzero(box_starting == 0)
    np.random.shuffle(starting)
    # 1. one brown S share to each player; the other S shares join the pile
    for seat in range(players):
        card = starting[seat]
        t.shares[seat, box_company[card]] += 1
    pile = np.concatenate((starting[players:], rest))
    # 3. shuffle the pile and mix the crash card into its last cards
    np.random.shuffle(pile)
    size = len(pile) + 1
    crash = size - 1 - np.random.randint(min(t.crash_window, size))
    j = 0
    for i in range(size):
        if i == crash:
            t.pile_company[i], t.pile_border[i] = CRASH, CRASH
        else:
            card = pile[j]
            j += 1
            t.pile_company[i], t.pile_border[i] = box_company[card], box_border[card]
            t.unseen[box_company[card]] += 1
    t.pile_size, t.top = size, 0
    for seat in range(players):
        t.chips[seat] = chips_per_player
    t.bank = chips_total - players * chips_per_player
    # 4. a start player; the first card is revealed
    begin_round(t, np.random.randint(players))


@_jit
def deal_hidden_pile(t):
    """Shuffle the unseen shares and place the crash by the crash rule (determinize.py)."""
    left = t.pile_size - t.top
    shares = np.empty((left - 1, 2), np.int64)
    n = 0
    for i in range(t.top, t.pile_size):
        if t.pile_company[i] != CRASH:
            shares[n, 0], shares[n, 1] = t.pile_company[i], t.pile_border[i]
            n += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = np.random.randint(i + 1)
        shares[i, 0], shares[j, 0] = shares[j, 0], shares[i, 0]
        shares[i, 1], shares[j, 1] = shares[j, 1], shares[i, 1]
    window = min(t.crash_window, left)
    crash = left - window + np.random.randint(window)
    k = 0
    for i in range(left):
        if i == crash:
            t.pile_company[t.top + i], t.pile_border[t.top + i] = CRASH, CRASH
        else:
            t.pile_company[t.top + i], t.pile_border[t.top + i] = shares[k, 0], shares[k, 1]
            k += 1


# --- batches ----------------------------------------------------------------------------------


@_jit
def _seed(seed):
    np.random.seed(seed)


@_jit
def _deal_and_play(tables, box_company, box_border, box_starting, chips_total, chips_per_player,
                   kinds, params, seed):  # fmt: skip
    np.random.seed(seed)
    for g in range(len(tables)):
        t = tables[g]
        deal(t, box_company, box_border, box_starting, t.players, chips_total, chips_per_player)
        play_to_end(t, kinds, params)


@_jit
def _play_tables(tables, kinds, params, seed):
    np.random.seed(seed)
    for g in range(len(tables)):
        play_to_end(tables[g], kinds, params)


@_jit
def _play_branches(starts, first, settle, piles, rollouts, kinds, params, seed, scores, keys):
    """For each rollout one hidden pile, shared by every branch (common random numbers); each
    branch is a start table, optionally settled, then its first action, then bots to the end."""
    np.random.seed(seed)
    work = starts[:1].copy()
    dealt = starts[:1].copy()
    t = work[0]
    for r in range(rollouts):
        if len(piles):
            dealt[0].pile_company[:] = piles[r, 0]
            dealt[0].pile_border[:] = piles[r, 1]
        else:
            deal_hidden_pile(dealt[0])
        for b in range(len(starts)):
            work[0] = starts[b]
            t.pile_company[:] = dealt[0].pile_company
            t.pile_border[:] = dealt[0].pile_border
            if settle[b, 0] >= 0:
                settle_auction(t, settle[b, 0], settle[b, 1])
            if first[b] != NO_ACTION:
                apply(t, first[b])
            play_to_end(t, kinds, params)
            for seat in range(t.players):
                score = t.points[seat] + t.chips[seat] // t.chips_per_point
                scores[r, b, seat] = score
                keys[r, b, seat] = ranking_key(score, t.shares[seat])


@_jit
def ranking_key(score, shares):
    """One number that orders seats as rules.standings does: score first, then shares held."""
    return score * 100 + np.sum(shares)


# --- from Python: editions, bots, states ------------------------------------------------------


def check_edition(ed: Edition | str) -> Edition:
    """The edition if the fast simulator plays its rules; else a ``ValueError`` saying why."""
    ed = load_edition(ed)
    if ed.name != "classic":
        raise ValueError(
            f"the fast simulator plays the classic edition only, not {ed.name!r}; "
            "use the readable engine (mogul.kit.bots.play_out) for it"
        )
    if ed.sale != "any number" or ed.credit_limit != "once per auction" or len(ed.cards) + 1 > PILE:
        raise ValueError("the fast simulator plays the classic rules as printed; this classic edition data differs")
    return ed


def bot_policy(spec: Any) -> tuple[int, float] | None:
    """``(kind, parameter)`` for a bot the fast simulator can play, else None.

    ``spec`` is a bot name (``"threshold:drop_at=2"``), class, factory or instance of
    ``RandomBot``, ``ThresholdBot`` or ``ValueBot``.
    """
    from mogul.games.mogul.bots import REGISTRY, ThresholdBot, ValueBot
    from mogul.kit.bots import BotFactory, RandomBot, bot_factory

    if isinstance(spec, RandomBot | ThresholdBot | ValueBot):
        cls, kwargs = type(spec), {"drop_at": getattr(spec, "drop_at", 3), "chip_value": getattr(spec, "chip_value", 1.0)}
    else:
        try:
            factory = spec if isinstance(spec, BotFactory) else bot_factory(spec, REGISTRY)
        except (TypeError, ValueError):
            return None
        cls, kwargs = factory.make, dict(factory.kwargs)
    if cls is RandomBot:
        return RANDOM, 0.0
    if cls is ThresholdBot:
        return THRESHOLD, float(kwargs.get("drop_at", 3))
    if cls is ValueBot:
        return VALUE, float(kwargs.get("chip_value", 1.0))
    return None


def policies(bots: Any, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat bot kinds and parameters from one bot for every seat or one per seat."""
    specs = [bots] * players if isinstance(bots, str) or not isinstance(bots, Sequence) else list(bots)
    if len(specs) != players:
        raise ValueError(f"give one bot for every seat or one per seat ({players}); got {len(specs)}")
    kinds, params = np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.float64)
    for seat, spec in enumerate(specs):
        policy = bot_policy(spec)
        if policy is None:
            raise ValueError(
                f"the fast simulator plays 'random', 'threshold' and 'value' bots, not {spec!r}; "
                "use the readable engine for other bots"
            )
        kinds[seat], params[seat] = policy
    return kinds, params


def _empty_tables(ed: Edition, count: int, players: int) -> np.ndarray:
    tables = np.zeros(count, TABLE)
    tables["players"] = players
    tables["credit_chips"] = ed.credit_chips
    tables["credit_points"] = ed.credit_points
    tables["chips_per_point"] = ed.chips_per_point
    tables["crash_window"] = ed.crash_shuffled_into_last + 1
    return tables


def encode(table: GameState | PlayerView) -> np.ndarray:
    """A state (or one seat's view) as a one-record ``TABLE`` array.

    A ``GameState`` keeps its pile as it lies. A ``PlayerView`` has no pile: its unseen shares
    are put in sorted order with the crash card last, to be re-dealt (``deal_hidden_pile``).
    """
    ed = check_edition(table.edition)
    n = len(table.players)
    if table.phase == OVER_PHASE:
        raise ValueError("the game is over: there is nothing left to play")
    companies = ed.company_ids
    index = {c: i for i, c in enumerate(companies)}
    out = _empty_tables(ed, 1, n)
    t = out[0]
    for seat, p in enumerate(table.players):
        t["chips"][seat], t["points"][seat], t["credits"][seat] = p.chips, p.points, p.credits
        t["shares"][seat, :COMPANIES] = p.shares.counts
    t["bank"] = table.bank
    pile = table.deck if isinstance(table, GameState) else (*table.unseen, None)
    top = PILE - len(pile)  # the pile sits at the end of the arrays
    for i, card in enumerate(pile):
        crash = card is None or card.is_crash
        t["pile_company"][top + i] = CRASH if crash else index[card.company]
        t["pile_border"][top + i] = CRASH if crash else index[card.border]
    t["pile_size"], t["top"] = PILE, top
    for card in table.unseen:
        t["unseen"][index[card.company]] += 1
    t["round"], t["phase"] = table.round, PHASES[table.phase]
    t["current"], t["start_player"], t["pot"] = table.current, table.start_player, table.pot
    t["company"], t["border"] = index[table.revealed.company], index[table.revealed.border]
    for seat in table.in_auction:
        t["in_auction"][seat] = 1
    for seat in table.credited:
        t["credited"][seat] = 1
    t["seats_in"] = len(table.in_auction)
    t["winner"] = -1 if table.winner is None else table.winner
    t["runner_up"] = -1 if table.runner_up is None else table.runner_up
    t["winner_took"] = table.winner_choice == "take"
    return out


def action_code(action: Action) -> int:
    """An action's number in the fast simulator (Sell(n) is SELL + n)."""
    for code, known in ((BID, BID_ACTION), (DROP, DROP_ACTION), (CREDIT, CREDIT_ACTION), (TAKE, TAKE_ACTION)):
        if action == known:
            return code
    if isinstance(action, Sell):
        return SELL + action.count
    raise ValueError(f"the fast simulator knows Bid, Drop, Credit, Take and Sell, not {action!r}")


# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchResult:
    """Final tables of a batch of games, as arrays with one row per game (seat columns)."""

    tables: np.ndarray  # the final TABLE records

    @property
    def players(self) -> int:
        """Seats per game."""
        return int(self.tables["players"][0])

    def _seats(self, field: str) -> np.ndarray:
        return self.tables[field][:, : self.players]

    @property
    def points(self) -> np.ndarray:
        """Points per game and seat."""
        return self._seats("points")

    @property
    def chips(self) -> np.ndarray:
        """Chips per game and seat."""
        return self._seats("chips")

    @property
    def shares(self) -> np.ndarray:
        """Shares held at the end, per game and seat."""
        return self.tables["shares"][:, : self.players].sum(axis=2)

    @property
    def credits(self) -> np.ndarray:
        """Credits taken, per game and seat."""
        return self._seats("credits")

    @property
    def scores(self) -> np.ndarray:
        """Final scores: points + 1 per full 5 chips."""
        return self.points + self.chips // self.tables["chips_per_point"][:, None]

    @property
    def rounds(self) -> np.ndarray:
        """Cards revealed per game, the crash included."""
        return self.tables["round"]

    @property
    def bids(self) -> np.ndarray:
        """Chips bid per game."""
        return self.tables["bids"]

    @property
    def ranks(self) -> np.ndarray:
        """1 = best, by score then shares held (rules.standings); tied seats share a rank."""
        keys = self.scores * 100 + self.shares
        return 1 + (keys[:, None, :] > keys[:, :, None]).sum(axis=2)


def play_fresh(games: int, players: int = 4, bots: Any = "random", seed: int = 0,
               edition: str | Edition = "classic") -> BatchResult:  # fmt: skip
    """Deal ``games`` fresh games and let ``bots`` play them to the crash.

    ``bots``: one of "random", "threshold[:drop_at=k]", "value[:chip_value=x]" (or their
    classes) for every seat, or one per seat.
    """
    ed = check_edition(edition)
    if not ed.min_players <= players <= ed.max_players:
        raise ValueError(f"the {ed.name} edition is for {ed.min_players} to {ed.max_players} players; got {players}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {games!r}")
    kinds, params = policies(bots, players)
    companies = ed.company_ids
    box_company = np.array([companies.index(c.company) for c in ed.cards], np.int64)
    box_border = np.array([companies.index(c.border) for c in ed.cards], np.int64)
    box_starting = np.array([c.starting for c in ed.cards], np.int64)
    tables = _empty_tables(ed, games, players)
    _deal_and_play(tables, box_company, box_border, box_starting, ed.chips_total, ed.chips_per_player,
                   kinds, params, seed)  # fmt: skip
    return BatchResult(tables)


def play_states(states: Sequence[GameState], bots: Any = "random", seed: int = 0) -> BatchResult:
    """Play each state (its pile as it lies) to the crash with ``bots``; all with as many seats."""
    if not states:
        raise ValueError("give at least one state")
    players = len(states[0].players)
    if any(len(s.players) != players for s in states):
        raise ValueError("all states must have the same number of players")
    tables = np.concatenate([encode(s) for s in states])
    kinds, params = policies(bots, players)
    _play_tables(tables, kinds, params, seed)
    return BatchResult(tables)


def rollouts(
    table: GameState | PlayerView,
    first: Sequence[Action | None] = (None,),
    rollouts: int = 1000,
    bots: Any = "random",
    seed: int = 0,
    settle: Sequence[tuple[int, int] | None] | None = None,
    piles: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Final scores and ranking keys of ``rollouts`` games per branch from ``table``.

    Each rollout deals one hidden pile consistent with the table (or takes ``piles[r]``, an
    array (rollouts, 2, PILE) of company and border codes) and plays every branch on it: the
    table, settled as ``settle[b] = (winner, runner_up)`` if given, then the action
    ``first[b]`` if not None, then ``bots`` to the crash. Returns two arrays of shape
    (rollouts, branches, players): scores and keys (higher key = better rank).
    """
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be a whole number >= 1, got {rollouts!r}")
    start = encode(table)
    players = len(table.players)
    kinds, params = policies(bots, players)
    settle = [None] * len(first) if settle is None else list(settle)
    if len(settle) != len(first):
        raise ValueError("give one settle entry per branch")
    starts = np.repeat(start, len(first))
    codes = np.array([NO_ACTION if a is None else action_code(a) for a in first], np.int64)
    settled = np.array([(-1, -1) if s is None else s for s in settle], np.int64).reshape(len(first), 2)
    given = np.zeros((0, 2, PILE), np.int64) if piles is None else np.asarray(piles, np.int64)
    if piles is not None and given.shape != (rollouts, 2, PILE):
        raise ValueError(f"piles must have shape ({rollouts}, 2, {PILE}), got {given.shape}")
    scores = np.zeros((rollouts, len(first), players), np.int64)
    keys = np.zeros_like(scores)
    _play_branches(starts, codes, settled, given, rollouts, kinds, params, seed, scores, keys)
    return scores, keys


def pile_codes(state: GameState) -> np.ndarray:
    """The pile of a full state as (2, PILE) company and border codes (for ``rollouts(piles=)``)."""
    index = {c: i for i, c in enumerate(state.edition.company_ids)}
    out = np.full((2, PILE), CRASH, np.int64)
    top = PILE - len(state.deck)
    for i, card in enumerate(state.deck):
        if not card.is_crash:
            out[0, top + i], out[1, top + i] = index[card.company], index[card.border]
    return out


def new_seed(rng: random.Random) -> int:
    """A seed for numba's generator drawn from a Python generator."""
    return rng.getrandbits(31)
