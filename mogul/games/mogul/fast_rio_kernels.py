"""The compiled rules of Rio Grande (2013) Mogul, over one ``RIO_TABLE`` record.

Where the 2013 rules are classic's, classic's kernels play them (``fast_kernels``: the
reveal and premiums, the round's steps, bids, drops, credits, takes and sales, the value
bot's bidding, the pile with the crash card, the hidden pile and the batch loops, handed this
module's functions where the editions differ); this module has what differs, named after
``rules.py``: credit once per game (``may_take_credit``), the sell right as "all or none" or
a branch (``option_count``, ``option``), houses placed and moved (``use_right``), the end
bonuses (``score_end``, ``final_score``), the bots' 2013 choices (``value_action``:
``simple_bots.ValueBot`` with ``best_branch``, the same arithmetic in the same order) and the
deal by the setup card.

Legal actions are numbered as ``rules.legal_actions`` lists them: ``option(t, i)`` is the
``i``-th of ``option_count(t)``, so the random bot draws uniformly among them, in that order.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from mogul.games.mogul.fast_kernels import (
    auction_option,
    begin_round,
    below,
    market_value,
    play_branches,
    play_games,
    play_tables,
    premium_outlook,
    set_out,
    shuffle,
    step,
    threshold_action,
    value_bid,
)
from mogul.games.mogul.fast_kernels import use_right as classic_use_right
from mogul.games.mogul.fast_table import (
    AUCTION,
    BRANCH,
    COMPANIES,
    MAX_STATIONS,
    NO_ACTION,
    NO_STATION,
    OVER,
    RIO_COMPILED,
    RUNNER_UP,
    SELL,
    TAKE,
    THRESHOLD,
    VALUE,
    WINNER,
    drop_stale_caches,
)

_jit = nb.njit(cache=True, nogil=True)


# --- the round and the end --------------------------------------------------------------------


@_jit
def score_end(t):
    """The end bonuses (rules.score_breakdown): each house scores its owner's house count on
    each of its lines (``h * h`` per line), and ``share_bonus`` per share held."""
    for seat in range(t.players):
        bonus = 0
        for c in range(COMPANIES):
            bonus += t.share_bonus * t.shares[seat, c]
            if t.branch_bonus:
                h = seat_houses_on(t, seat, c)
                bonus += h * h
        t.end_bonus[seat] = bonus


@_jit
def open_round(t, start_player):
    """``rules.begin_round``: classic's reveal and premiums; the crash scores the end bonuses."""
    begin_round(t, start_player)
    if t.phase == OVER:
        score_end(t)


@_jit
def may_take_credit(t, seat):
    """Credit needs the bank to hold the credit's chips; once per game (2013)."""
    return t.bank >= t.credit_chips and t.credits[seat] == 0


# --- the map ----------------------------------------------------------------------------------


@_jit
def seat_houses_on(t, seat, line):
    """How many of ``seat``'s houses stand on ``line`` (an interchange counts on both)."""
    count = 0
    for k in range(t.house_count[seat]):
        station = t.houses[seat, k]
        if t.station_lines[station, 0] == line or t.station_lines[station, 1] == line:
            count += 1
    return count


@_jit
def free_on_line(t, line):
    """Stations of ``line`` without a house."""
    count = 0
    for k in range(t.line_length[line]):
        count += t.owner[t.line_stations[line, k]] < 0
    return count


@_jit
def free_station(t, line, i):
    """The ``i``-th free station along ``line``."""
    for k in range(t.line_length[line]):
        station = t.line_stations[line, k]
        if t.owner[station] < 0:
            if i == 0:
                return station
            i -= 1
    return NO_STATION


@_jit
def on_line(t, station, line):
    return station >= 0 and (
        t.station_lines[station, 0] == line or t.station_lines[station, 1] == line
    )


@_jit
def line_change(t, seat, line, station, move_from):
    """How much ``seat``'s points on ``line`` change with that branch (``h * h``)."""
    before = seat_houses_on(t, seat, line)
    after = before + on_line(t, station, line) - on_line(t, move_from, line)
    return after * after - before * before


@_jit
def branch_gain(t, seat, station, move_from):
    """``network.branch_gain``: how much ``seat``'s end bonus grows with a house on ``station``
    (taken off ``move_from`` first, if not -1). Only the lines of the two stations change."""
    a, b = t.station_lines[station, 0], t.station_lines[station, 1]
    gain = line_change(t, seat, a, station, move_from)
    if b >= 0:
        gain += line_change(t, seat, b, station, move_from)
    if move_from >= 0:
        for k in range(2):
            line = t.station_lines[move_from, k]
            if line >= 0 and line != a and line != b:
                gain += line_change(t, seat, line, station, move_from)
    return gain


@_jit
def branches_per_station(t, seat):
    """Branch options per free station: one new house, or one move per house once all are out."""
    if t.houses_per_player == 0:
        return 0
    count = t.house_count[seat]
    return 1 if count < t.houses_per_player else count


@_jit
def best_branch(t, seat):
    """``simple_bots.best_branch``: (gain, code) of the branch on the border's line that adds
    most to ``seat``'s end bonus, the first of equals in the legal order; (0, -1) if none."""
    per = branches_per_station(t, seat)
    best_gain, best = 0, NO_ACTION
    for k in range(t.line_length[t.border]):
        station = t.line_stations[t.border, k]
        if t.owner[station] >= 0:
            continue
        for j in range(per):
            old = t.houses[seat, j] if t.house_count[seat] >= t.houses_per_player else NO_STATION
            gain = branch_gain(t, seat, station, old)
            if best == NO_ACTION or gain > best_gain:
                best_gain, best = gain, BRANCH + station * (MAX_STATIONS + 1) + old + 1
    return best_gain, best


# --- the legal actions, in rules.legal_actions' order -----------------------------------------


@_jit
def option_count(t):
    """How many legal actions the current player has."""
    seat = t.current
    if t.phase == AUCTION:  # Bid (with a chip), Drop, Credit (where allowed)
        return 1 + (t.chips[seat] > 0) + may_take_credit(t, seat)
    if t.phase == RUNNER_UP and not t.winner_took:
        return 1  # Take
    owned = t.shares[seat, t.border]
    branches = free_on_line(t, t.border) * branches_per_station(t, seat)
    # (winner: Take), Sell(0), Sell(all) if any, the branches
    return (t.phase == WINNER) + 1 + (owned > 0) + branches


@_jit
def option(t, i):
    """The ``i``-th legal action of the current player."""
    seat = t.current
    if t.phase == AUCTION:
        return auction_option(t, i)
    if t.phase == RUNNER_UP and not t.winner_took:
        return TAKE
    if t.phase == WINNER:
        if i == 0:
            return TAKE
        i -= 1
    owned = t.shares[seat, t.border]
    if i == 0:
        return SELL
    if owned > 0:
        if i == 1:
            return SELL + owned
        i -= 1
    i -= 1
    per = branches_per_station(t, seat)
    station = free_station(t, t.border, i // per)
    old = t.houses[seat, i % per] if t.house_count[seat] >= t.houses_per_player else NO_STATION
    return BRANCH + station * (MAX_STATIONS + 1) + old + 1


@_jit
def legal_codes(t):
    """Every legal action's code, in order."""
    out = np.empty(option_count(t), np.int64)
    for i in range(len(out)):
        out[i] = option(t, i)
    return out


# --- phase 4 and the engine's verb ------------------------------------------------------------


@_jit
def use_right(t, seat, action):
    """``TAKE``, ``SELL + n`` (classic's) or a branch: a house placed or moved."""
    if action < BRANCH:
        classic_use_right(t, seat, action)
        return
    station = (action - BRANCH) // (MAX_STATIONS + 1)
    old = (action - BRANCH) % (MAX_STATIONS + 1) - 1
    if old == NO_STATION:
        t.houses[seat, t.house_count[seat]] = station
        t.house_count[seat] += 1
    else:
        for k in range(t.house_count[seat]):
            if t.houses[seat, k] == old:
                t.houses[seat, k] = station
        t.owner[old] = NO_STATION
    t.owner[station] = seat


@_jit
def apply(t, action):
    """The current player's ``action`` (assumed legal): classic's round with the 2013 right."""
    step(t, action, use_right, open_round)


# --- the bots ---------------------------------------------------------------------------------


@_jit
def share_value(t, company):
    """``simple_bots.share_value``: premiums still expected plus the end bonus of a share."""
    return premium_outlook(t, company) + t.share_bonus


@_jit
def value_action(t, chip_value):
    """ValueBot in the 2013 edition: the same values and comparisons as simple_bots.ValueBot."""
    seat = t.current
    take = share_value(t, t.company)
    owned = t.shares[seat, t.border]
    sell = 0.0
    if owned:
        gain_per_share = market_value(t, t.border) - share_value(t, t.border)
        sell = max(0.0, owned * gain_per_share)
    gain, branch = 0, NO_ACTION
    if t.houses_per_player:
        gain, branch = best_branch(t, seat)
        sell = max(sell, gain)
    if t.phase == AUCTION:
        return value_bid(t, take, sell, chip_value, may_take_credit)
    if t.phase == RUNNER_UP and not t.winner_took:
        return TAKE
    if t.phase == WINNER and take >= sell:
        return TAKE
    if branch != NO_ACTION and gain >= sell and sell > 0:
        return branch
    return SELL + owned if sell > 0 else SELL


@_jit
def choose(t, kinds, params):
    """The action of the bot in the current seat (random: uniform over the legal actions)."""
    kind = kinds[t.current]
    if kind == THRESHOLD:  # classic's rule: it never takes a credit nor founds a branch
        return threshold_action(t, params[t.current])
    if kind == VALUE:
        return value_action(t, params[t.current])
    return option(t, np.random.randint(option_count(t)))


@_jit
def seat_random_action(t, rngs):
    """Any legal action, each equally likely, drawn from the current seat's stream."""
    return option(t, below(rngs, 1 + t.current, option_count(t)))


# --- dealing and batches ----------------------------------------------------------------------


@_jit
def deal(t, rngs, box, order):
    """A fresh deal as setup.deal does it in 2013, drawing from stream 0 of ``rngs``: the pile
    (the box less the setup card's shares, shuffled in ``order``) with the crash in its last
    cards, a start player, the setup card's positions clockwise from the start player.
    ``box``: the pile's companies and borders, the setup card's companies by position, and
    (chips in the box, chips per player)."""
    pile_company, pile_border, hands, chips = box
    n = t.players
    for i in range(len(order)):
        order[i] = i
    shuffle(rngs, 0, order, len(order))
    crash = len(order) - below(rngs, 0, min(t.crash_window, len(order) + 1))
    set_out(t, order, crash, pile_company, pile_border, chips[0], chips[1])
    start = below(rngs, 0, n)
    for position in range(n):
        for k in range(hands.shape[1]):
            t.shares[(start + position) % n, hands[position, k]] += 1
    open_round(t, start)


@_jit
def _play_games(tables, box, seeds, bot_seeds, kinds, params, first, out, path, used, log, dealt):
    """Classic's ``play_games`` with the 2013 rules (``out`` empty: no rounds or auctions)."""
    return play_games(
        tables, box, seeds, bot_seeds, kinds, params, first, out, path, used, log, dealt,
        deal, apply, choose, seat_random_action,
    )  # fmt: skip


@_jit
def _play_tables(tables, kinds, params, seed):
    play_tables(tables, kinds, params, seed, apply, choose)


@_jit
def _play_branches(starts, first, settle, piles, kinds, params, seed, scores, keys):
    """As classic's: one hidden pile per rollout, shared by every branch; the scores count the
    end bonuses."""
    np.random.seed(seed)
    play_branches(
        starts, first, settle, piles, kinds, params, scores, keys, apply, choose, final_score
    )


@_jit
def final_score(t, seat):
    """Points, one per full ``chips_per_point`` chips and the end bonuses (rules.score)."""
    return t.points[seat] + t.chips[seat] // t.chips_per_point + t.end_bonus[seat]


drop_stale_caches(globals(), RIO_COMPILED)
