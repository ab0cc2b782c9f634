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

Why numba and not numpy over a batch of games: an auction is a loop of unknown length whose
every step depends on the last, so a numpy prototype stepping all games together spent its
time on masks and gathers (about 39,000 random 4-player games a second on one core); the
compiled loop plays about 195,000 and reads like the rules.

Randomness: each game draws from splitmix64 streams of its own (``below``), one seeded by
the game's deal seed (the deal, the crash's place, the start player) and one per seat seeded
by that seat's bot seed (a random bot's choices), so a game depends on its own seeds only.
The Monte-Carlo rollouts (``play_tables``, ``play_branches``) draw from numpy's generator.

``play_games`` is the one loop that deals and plays fresh games, in both editions (each
edition's ``_play_games`` hands it its deal and rules): for ``fast.play_fresh``, for
``simulate``'s batch engine (``fast_batch``, recording classic's rounds and auctions for its
tables) and for a game's record (an action log).

The layout and codes live in ``fast_table.py``, which says why (numba's caches).
"""

from __future__ import annotations

import numba as nb
import numpy as np

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
(``step``, ``play_games``, ``play_branches``...): inlined where they are called, so those
functions are called directly, as if written there (a function passed to a call that is not
inlined is an address numba cannot cache)."""


# --- randomness: splitmix64 streams -----------------------------------------------------------

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1, MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


@_jit
def below(rngs, k, n):
    """A whole number in 0 .. n - 1 (n >= 1) from stream ``k`` of ``rngs`` (uint64 states),
    each about equally likely (bias below n / 2**32): a splitmix64 step and a multiply-shift,
    as the C reference (``benchmarks/mogul_ref.c``) draws."""
    z = rngs[k] + GOLDEN
    rngs[k] = z
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z ^= z >> np.uint64(31)
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@_jit
def shuffle(rngs, k, x, n):
    """Fisher-Yates over ``x[:n]``, drawing from stream ``k``."""
    for i in range(n - 1, 0, -1):
        j = below(rngs, k, i + 1)
        x[i], x[j] = x[j], x[i]


@_jit
def seed_streams(rngs, seed, bot_seeds):
    """Stream 0 (the deal) seeded by ``seed``, stream ``1 + s`` (seat s's bot) by ``bot_seeds[s]``."""
    rngs[0] = np.uint64(seed)
    for s in range(len(bot_seeds)):
        rngs[1 + s] = np.uint64(bot_seeds[s])


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
def any_action(t, rngs, k, below):
    """Any legal action, each equally likely (the order of rules.legal_actions), drawn by
    ``below(rngs, k, n)``: ``below`` (stream k), or ``numpy_below`` (numpy's generator)."""
    seat = t.current
    if t.phase == AUCTION:  # Bid (with a chip), Drop, Credit (where allowed)
        n = 1 + (t.chips[seat] > 0) + may_take_credit(t, seat)
        return auction_option(t, below(rngs, k, n))
    owned = t.shares[seat, t.border]
    if t.phase == WINNER:  # Take, Sell(0) ... Sell(owned)
        i = below(rngs, k, owned + 2)
        return TAKE if i == 0 else SELL + i - 1
    if t.winner_took:  # the runner-up may sell 0 ... owned
        return SELL + below(rngs, k, owned + 1)
    return TAKE


@_jit
def numpy_below(rngs, k, n):
    """A whole number in 0 .. n - 1 from numpy's generator (seeded per batch; no streams)."""
    return np.random.randint(n)


@_jit
def random_action(t):
    """Any legal action, each equally likely, from numpy's generator."""
    return any_action(t, None, 0, numpy_below)


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
def seat_random_action(t, rngs):
    """Any legal action, each equally likely, drawn from the current seat's stream (called,
    not inlined, in the play loop: it runs a third faster so)."""
    return any_action(t, rngs, 1 + t.current, below)


@_inline
def play_out(t, kinds, params, apply, choose):
    """The game on ``t`` to the crash, with an edition's ``apply`` and ``choose``."""
    while t.phase != OVER:
        apply(t, choose(t, kinds, params))


# --- dealing ----------------------------------------------------------------------------------


@_jit
def deal(t, rngs, box, pile):
    """A fresh deal as setup.deal does it, drawing from stream 0 of ``rngs`` into ``pile``
    (room for the box): S shares to the players, the pile, a start player. ``box``: each
    card's company and border, the S cards, the others, and (chips in the box, per player)."""
    box_company, box_border, starting, rest, chips = box
    players, s = t.players, len(starting)
    pile[:s] = starting
    shuffle(rngs, 0, pile, s)
    # 1. one brown S share to each player; the other S shares join the pile
    for seat in range(players):
        t.shares[seat, box_company[pile[seat]]] += 1
    n = s - players
    for i in range(n):  # forward: the cards move down
        pile[i] = pile[players + i]
    pile[n : n + len(rest)] = rest
    n += len(rest)
    # 3. shuffle the pile and mix the crash card into its last cards
    shuffle(rngs, 0, pile, n)
    crash = n - below(rngs, 0, min(t.crash_window, n + 1))
    set_out(t, pile[:n], crash, box_company, box_border, chips[0], chips[1])
    # 4. a start player; the first card is revealed
    begin_round(t, below(rngs, 0, players))


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


# --- fresh games: one loop for both editions, and classic's recorded games -----------------

# The columns of an auction's record (``play_recorded``).
START, STEPS, WINNER_SEAT, RUNNER_UP_SEAT, SOLD, PRICE, SELLER, TOOK, TAKER = range(9)
CREDITS, DROPS, PATH = 9, 10, 11
AUCTION_FIELDS = 12


@_inline
def play_games(
    tables, box, seeds, bot_seeds, kinds, params, first, out, path, used, log, dealt,
    deal, apply, choose, seat_random_action,
):  # fmt: skip
    """Deal and play games ``first``, ``first + 1``... of ``tables`` to the crash with an
    edition's ``deal`` (of its ``box``, chips last), ``apply``, ``choose`` and
    ``seat_random_action``: game g's deal from ``seeds[g]``, seat s's random bot from
    ``bot_seeds[g, s]``. Where ``out`` has rows, every round and auction is recorded there
    (classic's only), the pots before each step in ``path`` from ``used`` on; games that
    might not fit in ``path`` are left for the caller to grow it: returns (the first game not
    played, used). ``log`` gets every action's code while it has room, ``dealt[g]`` (where it
    has rows) game g's table as dealt."""
    pile = np.empty(len(box[0]), np.int64)
    rngs = np.zeros(1 + kinds.size, np.uint64)
    recording = len(out[0]) > 0
    room = out[0].shape[1] * (box[-1][0] + 2 * kinds.size + 2)  # more steps than any game takes
    logged = 0
    for g in range(first, len(tables)):
        if recording and used + room > len(path):
            return g, used
        t = tables[g]
        seed_streams(rngs, seeds[g], bot_seeds[g])
        deal(t, rngs, box, pile)
        if len(dealt):
            dealt[g] = t
        if recording:  # classic's rules, recorded (the records know no branch)
            used, logged = play_recorded(t, kinds, params, rngs, g, out, path, used, log, logged)
            continue
        while t.phase != OVER:
            random = kinds[t.current] == RANDOM
            action = seat_random_action(t, rngs) if random else choose(t, kinds, params)
            if logged < len(log):
                log[logged] = action
                logged += 1
            apply(t, action)
    return len(tables), used


@_jit
def snapshot(t, g, cards, market, seats):
    """The table as the round's auction opens (or at the crash): row ``round - 1``."""
    r = t.round - 1
    cards[g, r, 0] = CRASH if t.phase == OVER else t.company
    cards[g, r, 1] = CRASH if t.phase == OVER else t.border
    for c in range(COMPANIES):
        market[g, r, c] = market_value(t, c)
    for seat in range(t.players):
        seats[g, r, seat, 0] = t.points[seat]
        seats[g, r, seat, 1] = t.chips[seat]
        for c in range(COMPANIES):
            seats[g, r, seat, 2 + c] = t.shares[seat, c]


@_jit
def play_recorded(t, kinds, params, rngs, g, out, path, used, log, logged):
    """Play table ``t`` (a fresh classic deal) to the crash by classic's rules as ``play_games``
    does, recording game ``g`` into ``out``: what the readable tables read from the states (``tables.round_rows``,
    ``tables.auction_rows``). Returns ``used``, the length of ``path`` (the pots before each
    step, every auction's in turn) so far, and the actions logged so far."""
    cards, market, seats, auctions, bids = out
    auctions[g] = 0  # the arrays are used again chunk after chunk: clear the counters
    bids[g, :, 0] = 0
    snapshot(t, g, cards, market, seats)
    auctions[g, 0, START], auctions[g, 0, PATH] = t.start_player, used
    while t.phase != OVER:
        seat, phase, a = t.current, t.phase, t.round - 1
        random = kinds[seat] == RANDOM
        action = seat_random_action(t, rngs) if random else choose(t, kinds, params)
        if logged < len(log):
            log[logged] = action
            logged += 1
        if phase == AUCTION:
            if action == CREDIT:  # bids[g, a]: chips bid per seat, credit seats, drop seats
                bids[g, a, 1, auctions[g, a, CREDITS]] = seat
                auctions[g, a, CREDITS] += 1
            else:
                path[used] = t.pot
                used += 1
                auctions[g, a, STEPS] += 1
                if action == BID:
                    bids[g, a, 0, seat] += 1
                else:
                    bids[g, a, 2, auctions[g, a, DROPS]] = seat
                    auctions[g, a, DROPS] += 1
        elif action == TAKE:
            auctions[g, a, TAKER] = seat
        else:
            auctions[g, a, SOLD] = action - SELL
            auctions[g, a, PRICE] = market_value(t, t.border)
            auctions[g, a, SELLER] = seat
        if phase == WINNER:
            auctions[g, a, TOOK] = action == TAKE
        apply(t, action)
        if phase == AUCTION and t.phase == WINNER:
            auctions[g, a, WINNER_SEAT] = t.winner
            auctions[g, a, RUNNER_UP_SEAT] = t.runner_up
        if t.round - 1 != a:  # the next card is revealed
            snapshot(t, g, cards, market, seats)
            if t.phase != OVER:
                auctions[g, a + 1, START], auctions[g, a + 1, PATH] = t.start_player, used
    return used, logged


@_jit
def _play_games(tables, box, seeds, bot_seeds, kinds, params, first, out, path, used, log, dealt):
    """``play_games`` with classic's rules."""
    return play_games(
        tables, box, seeds, bot_seeds, kinds, params, first, out, path, used, log, dealt,
        deal, apply, choose, seat_random_action,
    )  # fmt: skip


@_jit
def round_rows(cards, market, seats, rounds, chips_per_point, crash, game_numbers, game, fields):
    """The rounds table's rows (game, round, seat), every round played and the crash:
    ``game[r]`` and ``fields[:, r]`` = round, card (company * companies + border, ``crash``
    for the crash), seat, points, chips, score, each company's shares, each market value."""
    players, companies = seats.shape[2], market.shape[2]
    r = 0
    for g in range(len(rounds)):
        for i in range(rounds[g]):
            card = crash if cards[g, i, 0] < 0 else cards[g, i, 0] * companies + cards[g, i, 1]
            for seat in range(players):
                game[r] = game_numbers[g]
                fields[0, r], fields[1, r], fields[2, r] = i + 1, card, seat
                points, chips = seats[g, i, seat, 0], seats[g, i, seat, 1]
                fields[3, r], fields[4, r] = points, chips
                fields[5, r] = points + chips // chips_per_point
                for c in range(companies):
                    fields[6 + c, r] = seats[g, i, seat, 2 + c]
                    fields[6 + companies + c, r] = market[g, i, c]
                r += 1
    return r


@_jit
def auction_rows(cards, auctions, bids, rounds, companies, game_numbers, game, fields, seqs):
    """The auctions table's rows (game, round), every round but the crash: ``game[r]``,
    ``fields[:, r]`` = round, card, company, border, start player, steps, winner, runner-up,
    sold, sale price, seller, winner took, taker, chips paid, credits, drops; ``seqs[0]``
    the chips bid per seat, ``seqs[1]`` and ``seqs[2]`` the credit and drop seats, in turn.
    Returns the rows and how many credit and drop seats were written."""
    players = bids.shape[3]
    r = credits = drops = 0
    for g in range(len(rounds)):
        for i in range(rounds[g] - 1):
            record = auctions[g, i]
            company, border = cards[g, i, 0], cards[g, i, 1]
            game[r] = game_numbers[g]
            fields[0, r], fields[1, r] = i + 1, company * companies + border
            fields[2, r], fields[3, r] = company, border
            fields[4, r], fields[5, r] = record[START], record[STEPS]
            fields[6, r], fields[7, r] = record[WINNER_SEAT], record[RUNNER_UP_SEAT]
            fields[8, r], fields[9, r] = record[SOLD], record[PRICE]
            fields[10, r], fields[11, r] = record[SELLER], record[TOOK]
            fields[12, r] = record[TAKER]
            paid = 0
            for seat in range(players):
                seqs[0, r * players + seat] = bids[g, i, 0, seat]
                paid += bids[g, i, 0, seat]
            fields[13, r], fields[14, r], fields[15, r] = paid, record[CREDITS], record[DROPS]
            for k in range(record[CREDITS]):
                seqs[1, credits] = bids[g, i, 1, k]
                credits += 1
            for k in range(record[DROPS]):
                seqs[2, drops] = bids[g, i, 2, k]
                drops += 1
            r += 1
    return r, credits, drops


# --- rollouts from a position (Monte-Carlo bots and analyses: numpy's generator) ---------------


@_jit
def _seed(seed):
    np.random.seed(seed)


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
