"""The compiled part of the batch simulator (``mogul.games.mogul.fast``): the rules of classic
Mogul, the bots' policies, the deal and the batch loops, as numba functions over one table.

A game's whole table is one record of a numpy structured array (``TABLE``: chips, points,
shares, the pile, the auction...). The rules below are plain loops over those records,
written in the order of ``rules.py`` and named after its helpers (``begin_round``, ``bid``,
``drop``, ``take_credit``, ``use_right``), so the two can be read side by side. Actions are
small integers (``BID``, ``DROP``, ``CREDIT``, ``TAKE``, ``SELL + n``) and the bots are rules
of a few lines: uniform random over the legal actions, and the ``ThresholdBot`` and
``ValueBot`` rules of ``simple_bots.py`` with the same arithmetic, so with the same pile they
make the same decisions, float for float.

Why numba and not numpy over a batch of games: a numpy prototype that steps all games of a
batch together (one array operation per decision, masks for the games in each phase) played
at best about 39,000 random 4-player games a second on one core (batches of 10,000); an
auction is a loop of unknown length whose every step depends on the last, so most of the
work went into masks and gathers. The compiled loop plays about 195,000 a second on the same
core and reads like the rules.

Why the layout lives apart (``fast_table.py``): numba checks only a function's own file to
decide whether its cached machine code is still good; ``drop_stale_caches`` at the end of
this module recompiles it (about 4 s, once) whenever one of the compiled files changed.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from mogul.games.mogul.fast_rng import below, deal_hidden_pile, new_rng, shuffle
from mogul.games.mogul.fast_table import (
    AUCTION,
    BID,
    COMPANIES,
    CRASH,
    CREDIT,
    DROP,
    NO_ACTION,
    OVER,
    RANDOM,
    RUNNER_UP,
    SELL,
    TAKE,
    THRESHOLD,
    VALUE,
    WINNER,
    drop_stale_caches,
)

_jit = nb.njit(cache=True, nogil=True)
_inline = nb.njit(cache=True, nogil=True, inline="always")
"""For the rules shared by both editions that take the edition's functions as arguments
(``step``, ``any_action``, ``value_bid``, ``play_out``, ``play_tables``, ``play_branches``):
inlined where they are called, so the functions are called directly, as if written there (a
function passed to a call that is not inlined is an address numba cannot cache), and as fast
as the code they replace (checked with benchmarks/bench_games.py)."""


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
    step(t, action, use_right, begin_round)


@_inline
def step(t, action, use_right, begin_round):
    """``action`` played with an edition's ``use_right`` and ``begin_round`` (classic's here,
    Rio Grande's in ``fast_rio_kernels``): numba compiles one copy per pair, calls inlined."""
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


@_inline
def auction_option(t, i):
    """The ``i``-th of the auction's actions: Bid (with a chip), Drop, Credit (where allowed)."""
    if t.chips[t.current] > 0:
        if i == 0:
            return BID
        i -= 1
    return DROP if i == 0 else CREDIT


@_inline
def any_action(t, rng, below):
    """Any legal action, each equally likely (the order of rules.legal_actions), drawn by
    ``below(rng, n)``: ``fast_rng.below``, or ``numpy_below`` (numpy's generator)."""
    seat = t.current
    if t.phase == AUCTION:  # Bid (with a chip), Drop, Credit (where allowed)
        return auction_option(t, below(rng, 1 + (t.chips[seat] > 0) + may_take_credit(t, seat)))
    owned = t.shares[seat, t.border]
    if t.phase == WINNER:  # Take, Sell(0) ... Sell(owned)
        i = below(rng, owned + 2)
        return TAKE if i == 0 else SELL + i - 1
    if t.winner_took:  # the runner-up may sell 0 ... owned
        return SELL + below(rng, owned + 1)
    return TAKE


@_jit
def numpy_below(rng, n):
    """A whole number in 0 .. n - 1 from numpy's generator (seeded per batch; ``rng`` unused)."""
    return np.random.randint(n)


@_jit
def random_action(t):
    """Any legal action, each equally likely, from numpy's generator."""
    return any_action(t, None, numpy_below)


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


@_inline
def value_bid(t, take, sell, chip_value, may_take_credit):
    """ValueBot in the auction, worth ``take`` or ``sell`` as winner (both editions): bid while
    winning is worth more than the pot's chips, with a credit (where the edition's
    ``may_take_credit`` allows it) if it is worth its points."""
    win, second = max(take, sell), min(take, sell)
    if_dropping = second if t.seats_in == 2 else 0.0
    gain = win - if_dropping - chip_value * t.pot
    if gain <= 0:
        return DROP
    if t.chips[t.current] > 0:
        return BID
    credit_cost = t.credit_points - chip_value * t.credit_chips
    return CREDIT if may_take_credit(t, t.current) and gain > credit_cost else DROP


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
        return value_bid(t, take, sell, chip_value, may_take_credit)
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
    play_out(t, kinds, params, apply, choose)


@_inline
def play_out(t, kinds, params, apply, choose):
    """The game on ``t`` to the crash, with an edition's ``apply`` and ``choose``."""
    while t.phase != OVER:
        apply(t, choose(t, kinds, params))


# --- dealing ----------------------------------------------------------------------------------


@_jit
def deal(t, rng, box_company, box_border, starting, rest, chips_total, chips_per_player, pile):
    """A fresh deal as setup.deal does it, drawing from ``rng`` (``fast_rng``) into ``pile``
    (room for the box): S shares to the players, the pile, a start player."""
    players, s = t.players, len(starting)
    pile[:s] = starting
    shuffle(rng, pile, s)
    # 1. one brown S share to each player; the other S shares join the pile
    for seat in range(players):
        t.shares[seat, box_company[pile[seat]]] += 1
    n = s - players
    for i in range(n):  # forward: the cards move down
        pile[i] = pile[players + i]
    pile[n : n + len(rest)] = rest
    n += len(rest)
    # 3. shuffle the pile and mix the crash card into its last cards
    shuffle(rng, pile, n)
    crash = n - below(rng, min(t.crash_window, n + 1))
    set_out(t, pile[:n], crash, box_company, box_border, chips_total, chips_per_player)
    # 4. a start player; the first card is revealed
    begin_round(t, below(rng, players))


@_jit
def set_out(t, cards, crash, box_company, box_border, chips_total, chips_per_player):
    """The pile (the box's ``cards`` in order, the crash card at ``crash``) and the chips: each
    player's, the rest to the bank."""
    size = len(cards) + 1
    j = 0
    for i in range(size):
        if i == crash:
            t.pile_company[i], t.pile_border[i] = CRASH, CRASH
        else:
            card = cards[j]
            j += 1
            t.pile_company[i], t.pile_border[i] = box_company[card], box_border[card]
            t.unseen[box_company[card]] += 1
    t.pile_size, t.top = size, 0
    for seat in range(t.players):
        t.chips[seat] = chips_per_player
    t.bank = chips_total - t.players * chips_per_player


@_jit
def fresh_random_action(t, rng):
    """``random_action`` drawing from ``rng`` (``fast_rng``) instead of numpy's generator."""
    return any_action(t, rng, below)


# --- batches ----------------------------------------------------------------------------------


@_jit
def _seed(seed):
    np.random.seed(seed)


@_jit
def _deal_and_play(
    tables,
    box_company,
    box_border,
    box_starting,
    chips_total,
    chips_per_player,
    kinds,
    params,
    seed,
):
    """Fresh games for ``fast.play_fresh``: the deals and the random bots draw from one
    splitmix64 generator (``fast_rng``), the other bots decide as ``choose`` does."""
    rng = new_rng(seed)
    starting = np.flatnonzero(box_starting)
    rest = np.flatnonzero(box_starting == 0)
    pile = np.empty(len(box_starting), np.int64)
    for g in range(len(tables)):
        t = tables[g]
        deal(t, rng, box_company, box_border, starting, rest, chips_total, chips_per_player, pile)
        while t.phase != OVER:
            if kinds[t.current] == RANDOM:
                apply(t, fresh_random_action(t, rng))
            else:
                apply(t, choose(t, kinds, params))


@_jit
def _play_tables(tables, kinds, params, seed):
    play_tables(tables, kinds, params, seed, apply, choose)


@_inline
def play_tables(tables, kinds, params, seed, apply, choose):
    """Each table played to the crash with an edition's ``apply`` and ``choose``."""
    np.random.seed(seed)
    for g in range(len(tables)):
        play_out(tables[g], kinds, params, apply, choose)


@_jit
def _play_branches(starts, first, settle, piles, kinds, params, seed, scores, keys):
    """For each rollout one hidden pile, shared by every branch (common random numbers); each
    branch is a start table, optionally settled, then its first action, then bots to the end."""
    np.random.seed(seed)
    play_branches(
        starts, first, settle, piles, kinds, params, scores, keys, apply, choose, final_score
    )


@_jit
def final_score(t, seat):
    """Points plus one per full ``chips_per_point`` chips (rules.score)."""
    return t.points[seat] + t.chips[seat] // t.chips_per_point


@_inline
def play_branches(starts, first, settle, piles, kinds, params, scores, keys, apply, choose, score):
    """``_play_branches`` with an edition's ``apply``, ``choose`` and ``score``, one rollout
    per row of ``scores``."""
    work = starts[:1].copy()
    dealt = starts[:1].copy()
    t = work[0]
    for r in range(len(scores)):
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
            play_out(t, kinds, params, apply, choose)
            for seat in range(t.players):
                scores[r, b, seat] = score(t, seat)
                keys[r, b, seat] = ranking_key(scores[r, b, seat], t.shares[seat])


@_jit
def ranking_key(score, shares):
    """One number that orders seats as rules.standings does: score first, then shares held."""
    return score * 100 + np.sum(shares)


drop_stale_caches(globals())
