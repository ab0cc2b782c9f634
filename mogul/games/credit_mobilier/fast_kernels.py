"""The compiled part of Credit Mobilier's batch simulator (``fast.py``): the rules, the bots and
the batch loops as numba functions over one numpy record per game.

A game's table is one record of ``TABLE``: money and shares per seat, treasuries, the goods
as a count of pawns per space and colour, the owner of every track space, the dice as a
count per face, and the turn (colour, kind, unit actions used). The rules below follow
``rules.py`` helper by helper (``allowance``, ``options``, ``pay_round``, ``begin_turn``,
``apply``) and list the legal actions in its order, so a bot that takes the first best
action decides alike in both. The board comes in as one ``BOARD`` record built from
``board.json`` by ``fast.board_record``, the bots in their seats as one ``SEATS`` record;
spaces, track spaces and colours are numbered in the board's and the box's order (space 0
is the Pacific Coast; colours are red, yellow, green, blue, purple, with orange the sixth
die face).

Why everything is a record: an array a numba function holds is reference-counted (an atomic
add and subtract on every hand-over, and the helpers below are inlined into the loop, so
every call is one); arrays inside a record are not. With the board as a tuple of arrays and
the scratch lists as arrays, half the time went into those counts (``NRT_incref`` and
``NRT_decref``, found with perf and gdb); as records the loop plays nearly twice as many
games (12,900 to 23,000 random 4-player games a second, CPU time, on the same machine).

An action is a small integer: ``kind << 12 | colour << 9 | x`` with ``x`` the track space
(build) or ``3 * space + way`` (move: the way out in ``moves_from`` order), and ``END``.
Every compiled function is in this one file, so numba's cache (keyed by this file) never
runs bots compiled against old rules.

Chance comes from splitmix64 streams, the engine's own: draw ``k`` of the stream seeded by
``s`` is ``mix(s + (k + 1) * GOLDEN)``, read onto ``0 .. n - 1`` by a multiply-shift (a bias
below ``n / 2**32``). A game's stream (``t.chance``) deals it: draws ``0 .. pawns - 2``
shuffle the goods pawns (Fisher-Yates), draw ``pawns - 1`` picks the start player, and roll
``n`` (0 = the first turn's) is draw ``pawns + n``, whatever came before it: so a game played
on from any of its states rolls the same dice. A random bot draws from its seat's stream
(``t.bots[seat]``, advanced one step per choice among two or more actions).
"""

from __future__ import annotations

import numba as nb
import numpy as np

MAX_SEATS = 5
SPACES = 25  # the coast, then the squares
SECTIONS = 42
COMPANIES = 5
RAILROADS = 4
PURPLE, ORANGE = 4, 5  # the Credit Mobilier's colour (wild on the dice) and the dividend face
FACES = 6
COAST = 0
MAX_OPTIONS = 256

BUILD, MOVE, BUY, DIVIDEND = 0, 1, 2, 3  # the kinds, in the rulebook's order
END = -1
NO_KIND = -1

RANDOM, DIVIDEND_BOT = 0, 1  # bots: uniform over the legal actions; DividendBot(rival_weight)

BUILD_PAYMENT, WEST_INCOME, STOCK_PRICE = 2, 2, 1

TABLE = np.dtype(
    [
        ("players", np.int64),
        ("money", np.int64, MAX_SEATS),
        ("stocks", np.int64, (MAX_SEATS, COMPANIES)),
        ("treasuries", np.int64, COMPANIES),
        ("pawns", np.int64, (SPACES, RAILROADS)),  # goods pawns per space and colour
        ("owner", np.int64, SECTIONS),  # colour of the track on each track space, -1 free
        ("markers", np.int64, RAILROADS),  # track markers of each colour on the board
        ("built", np.int64),  # bit s: track space s holds track
        ("buildable", np.int64),  # bit s: track space s is free and joined to the eastern edge
        ("occupied", np.int64, RAILROADS),  # bit per space with goods pawns of the colour
        ("start_player", np.int64),
        ("current", np.int64),  # -1 once the game is over
        ("turn", np.int64),
        ("dice", np.int64, FACES),  # the roll as a count per face
        ("colour", np.int64),
        ("kind", np.int64),
        ("used", np.int64),
        ("decisions", np.int64),
        ("until", np.int64),  # play stops when this turn begins (0: at the end of the game)
        ("chance", np.uint64),  # the seed of the game's stream: the deal and the dice
        ("bots", np.uint64, MAX_SEATS),  # each seat's random bot: its stream's state
    ]
)
"""One game's table as a numpy record (see the module docstring)."""

BOARD = np.dtype(
    [
        ("ends", np.int64, (SECTIONS, 2)),  # the two spaces of each track space
        ("ways", np.int64, (SPACES, 3, 3)),  # per space and way out: track space, space, 1: west
        ("touching", np.int64, SPACES),  # per space: a bit for each track space at its ends
        ("exits", np.int64, SPACES),  # per space: a bit for each track space of its ways out
        ("eastern", np.int64),  # a bit per square on the eastern edge
        ("track_per_colour", np.int64),  # track markers in the box per railroad
        ("stock_cap", np.int64),  # shares per company (-1: unlimited)
        ("goods_per_colour", np.int64),
        ("start_money", np.int64),
        ("start_stock", np.int64, COMPANIES),  # shares each player starts with
        ("pawns", np.int64),  # goods pawns in the box: the deal's draws, before the first roll
    ]
)
"""The board and the box as the kernels read them (one record, see ``fast.board_record``)."""

SEATS = np.dtype(
    [
        ("kind", np.int64, MAX_SEATS),  # the bot in each seat: RANDOM or DIVIDEND_BOT
        ("rival_weight", np.float64, MAX_SEATS),  # each DividendBot's rival_weight
        ("legal", np.int64, MAX_OPTIONS),  # scratch: the legal actions of the moment
        ("stake", np.float64, COMPANIES),  # scratch: the deciding seat's stakes
        ("paid", np.int64, MAX_SEATS),  # scratch: a round of dividends per seat
    ]
)
"""The bots in their seats, with the scratch space of the loop that asks them (one record)."""

_jit = nb.njit(cache=True, nogil=True, error_model="numpy")
_inline = nb.njit(
    cache=True, nogil=True, error_model="numpy", inline="always"
)  # small helpers: no call, no copies


@_inline
def encode_action(kind, colour, x):
    """An action's number (see the module docstring)."""
    return kind << 12 | colour << 9 | x


DE_BRUIJN = 0x03F79D71B4CB0A89
"""A de Bruijn sequence: ``lowest_bit`` reads a bit's number off the top 6 bits of a product."""
LOWEST_BIT = np.zeros(64, np.int64)
for _bit in range(64):
    LOWEST_BIT[((1 << _bit) * DE_BRUIJN) % 2**64 >> 58] = _bit


@_inline
def lowest_bit(mask):
    """The number of the lowest bit set in ``mask`` (a mask of fewer than 63 bits, not 0)."""
    return LOWEST_BIT[((mask & -mask) * DE_BRUIJN) >> 58 & 63]


@_inline
def shares_held(t, company):
    """Shares of ``company`` held by all players."""
    held = 0
    for seat in range(t.players):
        held += t.stocks[seat, company]
    return held


# --- chance: splitmix64 streams ----------------------------------------------------------------

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1, MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
ROLLS = FACES**5  # the rolls of five dice: a roll's number has the faces as its base-6 digits


@_inline
def mix(z):
    """splitmix64's output for the state ``z`` (a uint64)."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@_inline
def below(word, n):
    """A whole number in ``0 .. n - 1`` from a 64-bit ``word`` (multiply-shift of its top half)."""
    return np.int64(((word >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@_inline
def draw(seed, k, n):
    """Draw ``k`` (0 = the first) of the stream seeded by ``seed``, in ``0 .. n - 1``."""
    return below(mix(seed + np.uint64(k + 1) * GOLDEN), n)


# --- what the roll allows (dice.allowance) ----------------------------------------------------


@_inline
def allowance(dice, colour, kind):
    """How many unit actions of ``kind`` for ``colour`` the roll allows (0: not allowed)."""
    own = dice[colour]
    if own == 0 or colour == ORANGE:
        return 0
    orange = dice[ORANGE]
    if colour == PURPLE:
        if kind == BUY:
            return own
        if kind == DIVIDEND and orange > 0:
            return max(orange, own)
        return 0
    with_wilds = own + dice[PURPLE]
    if kind == DIVIDEND:
        return max(orange, with_wilds) if orange > 0 else 0
    return with_wilds


# --- the unit actions the table allows (rules.build_options ... dividend_options) -------------


@_inline
def options(t, b, colour, kind, out, n):
    """Append the unit actions of ``kind`` for ``colour`` to ``out[n:]``; returns the new length."""
    if kind == BUILD:
        if colour >= RAILROADS or t.markers[colour] >= b.track_per_colour:
            return n
        free = t.buildable  # free track spaces joined to the eastern edge, in board order
        while free:
            out[n] = encode_action(BUILD, colour, lowest_bit(free))
            n += 1
            free &= free - 1
    elif kind == MOVE:
        if colour >= RAILROADS:
            return n
        spaces = t.occupied[colour] & ~1  # pawns in board order; the coast has no way out
        while spaces:
            space = lowest_bit(spaces)
            spaces &= spaces - 1
            if not b.exits[space] & t.built:  # no way out is built yet
                continue
            for way in range(3):
                section = b.ways[space, way, 0]
                if section >= 0 and t.built >> section & 1:
                    out[n] = encode_action(MOVE, colour, 3 * space + way)
                    n += 1
    elif kind == BUY:
        has_share = b.stock_cap < 0 or shares_held(t, colour) < b.stock_cap
        if t.money[t.current] >= STOCK_PRICE and has_share:
            out[n] = encode_action(BUY, colour, 0)
            n += 1
    elif t.treasuries[colour] >= 1:
        out[n] = encode_action(DIVIDEND, colour, 0)
        n += 1
    return n


@_inline
def legal_actions(t, b, out):
    """The legal actions in ``rules.legal_actions``' order into ``out``; returns how many."""
    if t.kind == NO_KIND:
        n = 0
        for kind in range(4):
            for colour in range(COMPANIES):
                if allowance(t.dice, colour, kind) > 0:
                    n = options(t, b, colour, kind, out, n)
        if n == 0:
            out[0] = END
            n = 1
        return n
    n = 0
    if t.used < allowance(t.dice, t.colour, t.kind):
        n = options(t, b, t.colour, t.kind, out, 0)
    out[n] = END
    return n + 1


# --- the unit actions (rules._do_build ... _do_pay) -------------------------------------------


@_inline
def pay_round(t, company, first, paid):
    """One round of dividends into ``paid`` (per seat); returns (dollars left, stopped early)."""
    players = t.players
    paid[:] = 0
    left = t.treasuries[company]
    top = 0
    for seat in range(players):
        top = max(top, t.stocks[seat, company])
    for level in range(1, top + 1):
        for i in range(players):
            seat = (first + i) % players
            if t.stocks[seat, company] >= level:
                if left == 0:
                    return 0, True
                paid[seat] += 1
                left -= 1
    return left, False


@_inline
def roll_dice(t, b, rolls, scripted, log):
    """The next roll: ``rolls[turn - 1]`` while rolls are given (``scripted`` of them), else
    the game's draw for it (see the module docstring), its number kept in ``log[1]``."""
    number = t.turn - 1
    if number < scripted:
        for face in range(FACES):
            t.dice[face] = rolls[number, face]
        return
    value = draw(t.chance, b.pawns + number, ROLLS)  # its five digits in base 6 are the faces
    if number < log.shape[1]:
        log[1, number] = value
    dice = t.dice
    dice[:] = 0
    for _ in range(5):
        dice[value % FACES] += 1
        value //= FACES


@_inline
def begin_turn(t, b, seat, rolls, scripted, log):
    """Hand the dice to ``seat``: the next turn begins with its roll."""
    t.current = seat
    t.turn += 1
    roll_dice(t, b, rolls, scripted, log)
    t.colour, t.kind, t.used = NO_KIND, NO_KIND, 0


@_inline
def colours_outside_coast(t):
    """How many railroad colours have goods off the Pacific Coast."""
    count = 0
    for colour in range(RAILROADS):
        if t.occupied[colour] & ~1:  # a square (not the coast, space 0) holds one
            count += 1
    return count


@_inline
def apply(t, b, action, rolls, scripted, paid, log):
    """The current player's ``action`` (assumed legal: the bots choose only legal ones)."""
    if action == END:
        begin_turn(t, b, (t.current + 1) % t.players, rolls, scripted, log)
        return
    kind, colour, x = action >> 12, (action >> 9) & 7, action & 511
    t.colour, t.kind, t.used = colour, kind, t.used + 1
    if kind == BUILD:
        t.owner[x] = colour
        t.built |= 1 << x
        t.markers[colour] += 1
        touching = b.touching[b.ends[x, 0]] | b.touching[b.ends[x, 1]]
        t.buildable = (t.buildable | touching) & ~t.built  # free spaces at its ends join
        t.treasuries[PURPLE] += BUILD_PAYMENT
    elif kind == MOVE:
        space, way = x // 3, x % 3
        section, there, west = b.ways[space, way, 0], b.ways[space, way, 1], b.ways[space, way, 2]
        t.pawns[space, colour] -= 1
        t.pawns[there, colour] += 1
        if t.pawns[space, colour] == 0:
            t.occupied[colour] &= ~(1 << space)
        t.occupied[colour] |= 1 << there
        if west:
            t.treasuries[colour] += WEST_INCOME
            t.treasuries[t.owner[section]] += WEST_INCOME
        if there == COAST and colours_outside_coast(t) <= 2:
            t.current = -1  # the game ends at once
            return
    elif kind == BUY:
        t.money[t.current] -= STOCK_PRICE
        t.stocks[t.current, colour] += 1
    else:
        left, _ = pay_round(t, colour, t.current, paid)
        for seat in range(t.players):
            t.money[seat] += paid[seat]
        t.treasuries[colour] = left
    # When nothing more of this colour and kind is possible, the turn is over: the next
    # legal_actions lists END alone, which play_out applies without asking the bot.


# --- the bots ---------------------------------------------------------------------------------


@_inline
def dividend_value(t, b, action, seat, stake, rival_weight, paid):
    """``DividendBot.value``: the action's worth in dollars for ``seat``."""
    if action == END:
        return 0.0
    kind, colour, x = action >> 12, (action >> 9) & 7, action & 511
    if kind == MOVE:
        space, way = x // 3, x % 3
        if not b.ways[space, way, 2]:
            return 0.0
        owner = t.owner[b.ways[space, way, 0]]
        return WEST_INCOME * (stake[colour] + stake[owner])
    if kind == BUILD:
        return BUILD_PAYMENT * stake[PURPLE]
    if kind == DIVIDEND:
        pay_round(t, colour, t.current, paid)
        rival = -1
        for other in range(t.players):
            if other != seat and paid[other] > rival:
                rival = paid[other]
        return paid[seat] - rival_weight * rival
    return t.treasuries[colour] / (shares_held(t, colour) + 1) - STOCK_PRICE


@_inline
def choose(t, b, s, n):
    """The action of the bot in the current seat among ``s.legal[:n]``."""
    seat, legal = t.current, s.legal
    if n == 1:
        return legal[0]
    if s.kind[seat] == RANDOM:
        t.bots[seat] += GOLDEN
        return legal[below(mix(t.bots[seat]), n)]
    stake = s.stake
    for company in range(COMPANIES):  # bots.stakes
        held = shares_held(t, company)
        stake[company] = t.stocks[seat, company] / held if held else 0.0
    best, most = legal[0], -np.inf
    for i in range(n):
        worth = dividend_value(t, b, legal[i], seat, stake, s.rival_weight[seat], s.paid)
        if worth > most:
            best, most = legal[i], worth
    return best


# --- the batch loops ----------------------------------------------------------------------------


@_jit
def play_out(t, b, s, rolls, scripted, log):
    """Play one table to the end of the game, or until turn ``t.until`` begins; ``log`` (shape
    (2, room), or (2, 0) for none) gets the actions chosen in ``log[0]`` (the ends of turns
    that end by themselves are the rules', not actions) and the drawn rolls in ``log[1]``."""
    while t.current >= 0 and (t.until == 0 or t.turn < t.until):
        n = legal_actions(t, b, s.legal)
        if n == 1 and t.kind != NO_KIND:  # the roll is used up: the turn ends by itself
            apply(t, b, END, rolls, scripted, s.paid, log)
            continue
        action = choose(t, b, s, n)
        if t.decisions < log.shape[1]:
            log[0, t.decisions] = action
        apply(t, b, action, rolls, scripted, s.paid, log)
        t.decisions += 1


@_jit
def play_tables(tables, board, seats, rolls, scripted):
    """Play every table on to the end, game ``g`` rolling ``rolls[g, :scripted[g]]`` (by roll
    number) and then its own draws."""
    no_log = np.zeros((2, 0), np.int64)
    for g in range(tables.shape[0]):
        play_out(tables[g], board[0], seats[0], rolls[g], scripted[g], no_log)


@_jit
def play_after(tables, board, seats, actions, futures, rolls):
    """Apply ``actions[g]`` to table ``g``, then play it on: to turn ``tables[g].until`` or the
    end, rolling ``rolls[futures[g]]`` (every roll it can need: one per turn up to ``until``)."""
    b, s = board[0], seats[0]
    no_log = np.zeros((2, 0), np.int64)
    for g in range(tables.shape[0]):
        t, future = tables[g], rolls[futures[g]]
        apply(t, b, actions[g], future, future.shape[0], s.paid, no_log)
        play_out(t, b, s, future, future.shape[0], no_log)


@_inline
def deal(t, b, box, seed, bot_seeds):
    """Deal the table as ``setup.deal`` does, from the game's stream: the goods pawns shuffled
    one onto each square (the rest leave the game), then the start player; it rolls."""
    t.chance = seed
    for seat in range(t.players):
        t.bots[seat] = bot_seeds[seat]
        t.money[seat] = b.start_money
        t.stocks[seat, :] = b.start_stock
    for i in range(b.pawns):
        box[i] = i // b.goods_per_colour
    for i in range(b.pawns - 1, 0, -1):  # Fisher-Yates: draws 0 .. pawns - 2
        j = draw(seed, b.pawns - 1 - i, i + 1)
        box[i], box[j] = box[j], box[i]
    for square in range(1, SPACES):
        t.pawns[square, box[square - 1]] += 1
        t.occupied[box[square - 1]] |= 1 << square
    t.owner[:] = -1
    for space in range(SPACES):
        if b.eastern >> space & 1:
            t.buildable |= b.touching[space]
    t.start_player = draw(seed, b.pawns - 1, t.players)


@_jit
def deal_tables(tables, board, seeds, bot_seeds):
    """Deal every (zeroed) table from its seeds, without rolling: the table before the first roll."""
    b = board[0]
    box = np.empty(b.pawns, np.int64)
    for g in range(tables.shape[0]):
        deal(tables[g], b, box, seeds[g], bot_seeds[g])


@_jit
def deal_and_play(tables, board, seats, seeds, bot_seeds, log):
    """Deal every (zeroed) table from ``seeds[g]`` (its chance) and ``bot_seeds[g]`` (its seats'
    random bots) and play it to the end; ``log`` as ``play_out`` has it (for one game)."""
    b, s = board[0], seats[0]
    box = np.empty(b.pawns, np.int64)
    no_rolls = np.zeros((1, FACES), np.int8)
    for g in range(tables.shape[0]):
        t = tables[g]
        deal(t, b, box, seeds[g], bot_seeds[g])
        begin_turn(t, b, t.start_player, no_rolls, 0, log)
        play_out(t, b, s, no_rolls, 0, log)


@_jit
def legal_of(tables, board, out):
    """The legal actions of every table into ``out[g]``; returns how many each has."""
    counts = np.zeros(tables.shape[0], np.int64)
    for g in range(tables.shape[0]):
        counts[g] = legal_actions(tables[g], board[0], out[g])
    return counts
