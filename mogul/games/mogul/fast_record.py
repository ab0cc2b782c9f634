"""Games dealt and played exactly as the readable engine does, every round and auction recorded.

``simulate`` runs the readable engine's games: each deal comes from ``random.Random(seed)``
(``setup.deal``) and each random bot draws from ``random.Random(bot_seed)`` (``RandomBot``).
To play those very games at compiled speed, this module carries Python's generator: the
Mersenne Twister with Python's seeding (``init_by_array``), ``getrandbits`` and
``_randbelow``, and ``shuffle`` as ``random.py`` writes it. A deal, a random bot's choice
among the legal actions (in ``rules.legal_actions``' order) and therefore a whole game come
out the same as the readable engine's, draw for draw; the threshold and value bots are the
kernels' own (``fast_kernels.choose``), which already decide as ``simple_bots.py`` does.

``play_recorded`` writes down what the readable tables read from the states
(``tables.round_rows``, ``tables.auction_rows``): the table as each auction opens and at the
crash, and for each auction its bids, credits, drops, the pot before each step and the
actions after it. ``fast_batch`` turns those arrays into the tables.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from mogul.games.mogul.fast_kernels import apply, begin_round, choose, market_value, may_take_credit
from mogul.games.mogul.fast_table import (
    AUCTION,
    BID,
    COMPANIES,
    CRASH,
    CREDIT,
    DROP,
    OVER,
    RANDOM,
    SELL,
    TAKE,
    WINNER,
    drop_stale_caches,
)

_jit = nb.njit(cache=True, nogil=True)

N = 624  # the Mersenne Twister's words; a generator is an int64 array of N + 1 (the index last)
MASK = 0xFFFFFFFF

# The columns of an auction's record (``auctions`` below).
START, STEPS, WINNER_SEAT, RUNNER_UP_SEAT, SOLD, PRICE, SELLER, TOOK, TAKER = range(9)
CREDITS, DROPS, PATH = 9, 10, 11
AUCTION_FIELDS = 12

# --- Python's generator -----------------------------------------------------------------------


def _init_genrand(seed: int) -> np.ndarray:
    """``init_genrand``: the state ``init_by_array`` starts from (the same for every key)."""
    mt = np.zeros(N, np.int64)
    mt[0] = seed
    for i in range(1, N):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK
    return mt


START_STATE = _init_genrand(19650218)


START_WORDS = START_STATE.astype(np.uint32)
LANES = 16  # games seeded side by side in ``deal_and_record``


@_jit
def py_seed(mts, seed):
    """``random.Random(seed)`` into generator 0 of ``mts``, for 0 <= seed < 2**32."""
    py_seed_lanes(mts, np.full(1, seed), 1)


@_jit
def py_seed_lanes(mts, seeds, count):
    """``random.Random(seeds[k])`` into ``mts[k]`` for k < count, side by side: each seeding
    is a chain of 1,247 steps that wait for the one before, so the chains are computed in
    32-bit lanes (the words of all generators for one step lie together and the processor
    steps them with vector instructions), then copied out to one row per generator."""
    work = np.empty((N, count), np.uint32)
    for i in range(N):
        work[i, :] = START_WORDS[i]
    key = (seeds[:count] & MASK).astype(np.uint32)
    shift, first, second = np.uint32(30), np.uint32(1664525), np.uint32(1566083941)
    i = 1
    for _ in range(N):  # the key has one word: j stays 0
        for k in range(count):
            prev = work[i - 1, k]
            work[i, k] = (work[i, k] ^ ((prev ^ (prev >> shift)) * first)) + key[k]
        i += 1
        if i >= N:
            work[0, :] = work[N - 1, :]
            i = 1
    for _ in range(N - 1):
        step = np.uint32(i)
        for k in range(count):
            prev = work[i - 1, k]
            work[i, k] = (work[i, k] ^ ((prev ^ (prev >> shift)) * second)) - step
        i += 1
        if i >= N:
            work[0, :] = work[N - 1, :]
            i = 1
    for k in range(count):
        for i in range(1, N):
            mts[k, i] = work[i, k]
        mts[k, 0] = 0x80000000
        mts[k, N] = N


@_jit
def py_random32(mts, r):
    """The next 32 random bits (``genrand_uint32``) of generator ``mts[r]`` (indexed, not
    sliced: a view per draw would cost a reference count)."""
    if mts[r, N] >= N:  # the next N words, in the three stretches of the reference code
        for k in range(N - 397):
            y = (mts[r, k] & 0x80000000) | (mts[r, k + 1] & 0x7FFFFFFF)
            mts[r, k] = mts[r, k + 397] ^ (y >> 1) ^ (0x9908B0DF * (y & 1))
        for k in range(N - 397, N - 1):
            y = (mts[r, k] & 0x80000000) | (mts[r, k + 1] & 0x7FFFFFFF)
            mts[r, k] = mts[r, k + 397 - N] ^ (y >> 1) ^ (0x9908B0DF * (y & 1))
        y = (mts[r, N - 1] & 0x80000000) | (mts[r, 0] & 0x7FFFFFFF)
        mts[r, N - 1] = mts[r, 396] ^ (y >> 1) ^ (0x9908B0DF * (y & 1))
        mts[r, N] = 0
    y = mts[r, mts[r, N]]
    mts[r, N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


@_jit
def py_randbelow(mts, r, n):
    """``Random._randbelow(n)`` for 1 <= n < 2**32: getrandbits(n.bit_length()) until below n."""
    k = 0
    while (n >> k) > 0:
        k += 1
    x = py_random32(mts, r) >> (32 - k)
    while x >= n:
        x = py_random32(mts, r) >> (32 - k)
    return x


@_jit
def py_shuffle(mts, r, x):
    """``Random.shuffle(x)`` in place."""
    for i in range(len(x) - 1, 0, -1):
        j = py_randbelow(mts, r, i + 1)
        x[i], x[j] = x[j], x[i]


# --- the deal and the random bot, as the readable engine draws them ---------------------------


@_jit
def py_deal(t, mts, r, box_company, box_border, box_starting, chips_total, chips_per_player):
    """``setup.deal`` of a fresh classic game (steps 1, 3 and 4), then the first card, drawing
    from generator ``mts[r]``."""
    n = t.players
    starting = np.flatnonzero(box_starting)
    py_shuffle(mts, r, starting)
    kept = np.ones(len(box_company), np.bool_)
    for seat in range(n):
        card = starting[seat]
        t.shares[seat, box_company[card]] += 1
        for i in range(len(kept)):  # list.remove: the first equal card of the box
            same = box_company[i] == box_company[card] and box_border[i] == box_border[card]
            if kept[i] and same and box_starting[i] == box_starting[card]:
                kept[i] = False
                break
    box = np.flatnonzero(kept)
    py_shuffle(mts, r, box)
    cut = max(0, len(box) - (t.crash_window - 1))
    bottom = np.empty(len(box) - cut + 1, np.int64)
    bottom[:-1] = box[cut:]
    bottom[-1] = CRASH
    py_shuffle(mts, r, bottom)
    pile = np.concatenate((box[:cut], bottom))
    for i in range(len(pile)):
        card = pile[i]
        if card == CRASH:
            t.pile_company[i], t.pile_border[i] = CRASH, CRASH
        else:
            t.pile_company[i], t.pile_border[i] = box_company[card], box_border[card]
            t.unseen[box_company[card]] += 1
    t.pile_size, t.top = len(pile), 0
    for seat in range(n):
        t.chips[seat] = chips_per_player
    t.bank = chips_total - n * chips_per_player
    begin_round(t, py_randbelow(mts, r, n))


@_jit
def py_random_action(t, mts, r):
    """``RandomBot``: ``rng.choice`` over ``rules.legal_actions`` (a single option draws too),
    drawing from generator ``mts[r]``."""
    seat = t.current
    if t.phase == AUCTION:  # Bid (with a chip), Drop, Credit (where allowed)
        can_bid = t.chips[seat] > 0
        can_credit = may_take_credit(t, seat)
        i = py_randbelow(mts, r, 1 + can_bid + can_credit)
        if can_bid:
            if i == 0:
                return BID
            i -= 1
        return DROP if i == 0 else CREDIT
    owned = t.shares[seat, t.border]
    if t.phase == WINNER:  # Take, Sell(0) ... Sell(owned)
        i = py_randbelow(mts, r, owned + 2)
        return TAKE if i == 0 else SELL + i - 1
    if t.winner_took:  # the runner-up may sell 0 ... owned
        return SELL + py_randbelow(mts, r, owned + 1)
    py_randbelow(mts, r, 1)
    return TAKE


# --- recording --------------------------------------------------------------------------------


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
def play_recorded(t, kinds, params, mt, rows, g, cards, market, seats, auctions, bids, path, used):
    """Play table ``t`` (a fresh deal) to the crash, recording game ``g``; returns ``used``,
    the length of ``path`` (the pots before each step, every auction's in turn) so far.
    A random bot in ``seat`` draws from ``mt[rows[seat]]``."""
    auctions[g] = 0  # the arrays are used again chunk after chunk: clear the counters
    bids[g, :, 0] = 0
    snapshot(t, g, cards, market, seats)
    auctions[g, 0, START], auctions[g, 0, PATH] = t.start_player, used
    while t.phase != OVER:
        seat, phase, a = t.current, t.phase, t.round - 1
        if kinds[seat] == RANDOM:
            action = py_random_action(t, mt, rows[seat])
        else:
            action = choose(t, kinds, params)
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
    return used


@_jit
def deal_and_record(tables, boxes, seeds, bot_seeds, kinds, params, first, out, path, used):
    """Deal and play games ``first``, ``first + 1``... of ``tables`` as the readable engine
    does, recording into ``out`` (cards, market, seats, auctions, bids) and ``path``.

    The generators of ``LANES`` games (each game's deal and random bots) are seeded together
    (``py_seed_lanes``), then the games are played one by one. Stops before games whose steps
    might not fit in ``path`` and returns (the first of them, used); the caller grows
    ``path`` and calls again from there. With no room in ``out`` (no games) the games are
    played without a record (only their final tables).
    """
    cards, market, seats, auctions, bids = out
    box_company, box_border, box_starting, chips = boxes[0], boxes[1], boxes[2], boxes[3]
    players = kinds.size
    randoms = np.flatnonzero(kinds == RANDOM)
    per = 1 + len(randoms)  # generators per game: the deal's, then each random bot's
    mt = np.zeros((LANES * per, N + 1), np.int64)
    values = np.zeros(LANES * per, np.int64)
    rows = np.zeros(players, np.int64)  # each random bot's generator in ``mt``
    room = cards.shape[1] * (chips[0] + 2 * players)  # more steps than any game can take
    for block in range(first, len(tables), LANES):
        count = min(LANES, len(tables) - block)
        if len(cards) and used + count * room > len(path):
            return block, used
        for b in range(count):
            values[b * per] = seeds[block + b]
            for k in range(len(randoms)):
                values[b * per + 1 + k] = bot_seeds[block + b, randoms[k]]
        py_seed_lanes(mt, values, count * per)
        for b in range(count):
            g, t, deal = block + b, tables[block + b], b * per
            for k in range(len(randoms)):
                rows[randoms[k]] = deal + 1 + k
            py_deal(t, mt, deal, box_company, box_border, box_starting, chips[0], chips[1])
            if len(cards) == 0:  # only the final tables asked for: nothing to record
                while t.phase != OVER:
                    seat = t.current
                    if kinds[seat] == RANDOM:
                        apply(t, py_random_action(t, mt, rows[seat]))
                    else:
                        apply(t, choose(t, kinds, params))
            else:
                used = play_recorded(
                    t, kinds, params, mt, rows, g, cards, market, seats, auctions, bids, path, used
                )
    return len(tables), used


# --- the recorded arrays as table rows ------------------------------------------------------


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


drop_stale_caches(globals())
