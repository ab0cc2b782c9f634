"""The Mogul auction on its own: model, exact equilibrium, payoff curves, private values.

The mechanism (Mogul rulebook, "Auction the Card")
--------------------------------------------------
Seats sit in a circle and act in seat order, wrapping around, starting at ``start``. On its
turn an active seat either *bids* (puts one chip into the pot; only with a chip in hand) or
*drops* (takes the whole pot and leaves this auction for good). A seat without chips must
drop. When one active seat is left it wins; the last seat to drop is the runner-up. The pot
is empty when the auction ends, because the runner-up has just taken it.

This is a war of attrition in which the losers are paid: every bid is a sunk cost for the
bidder and a prize for whoever drops next (the mechanism of "No Thanks!"). For the war of
attrition see Maynard Smith (1974), "The theory of games and the evolution of animal
conflicts", J. Theor. Biol. 47; Bulow & Klemperer (1999), "The generalized war of
attrition", AER 89; Krishna (2010), *Auction Theory*, 2nd ed., ch. 2-3 (all-pay and war of
attrition auctions).

The model
---------
``values[i] = (win, second, out)`` are the points seat ``i`` gets for winning, for second
place (the runner-up) and for dropping out earlier. ``chip_value`` converts chips to points.
A seat's payoff is

    value of its place + chip_value * (final chips - initial chips)

Complete information: everybody knows all values and chips. There is no credit inside the
model (the real game lets a player take a credit of 2 chips for 2 points before bidding;
feed the chips after credit into the model if you want to study that case).

The exact equilibrium (``solve``) is the subgame-perfect equilibrium found by backward
induction (Osborne & Rubinstein (1994), *A Course in Game Theory*, ch. 6, Kuhn's theorem and
Proposition 99.2). The game is finite (every bid spends a chip) and has perfect information,
so backward induction gives a pure equilibrium; it is unique up to ties, and ties are broken
by the ``tie`` rule (default: a seat that is indifferent drops).

What the rest of the auction depends on
---------------------------------------
Payoffs are additive in chips, so chips already paid or collected are sunk: the rest of the
auction depends only on who is still in, whose turn it is, the pot, and the chips of those
still in. Seats that left are out for good (the last of them to leave becomes runner-up only
if it is the last drop overall, which is decided by the active seats). Two more reductions:

* Between two drops the play is a straight line of bids ("a chain"): the pot counts the bids
  since the last drop, and every active seat has bid at each of its turns. A chain is fixed
  by its first state (pot 0), so the solver memoises only pot-0 states and solves each
  chain backwards in one pass, keeping "the next drop" and counting the bids in between.
* Chips count only as a budget. A seat that holds more than one chip more than every other
  active seat can never run out before all the others have left, so its surplus is cut
  (when a chain is looked up from outside: at the start and for ``Solution.action``; inside
  the backward pass the check costs more time than the extra memo hits save).

A state a seat never reaches unless someone deviates is solved on demand (lazily) when it is
asked for, so ``solve`` only does the work that the equilibrium payoffs need.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

import numpy as np
import pandas as pd

from mogul.games.mogul.pile import premium_outlook

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "AuctionNode",
    "BestResponseResult",
    "Bot",
    "LiveAuction",
    "Outcome",
    "Solution",
    "Step",
    "ValueDraw",
    "best_response_dynamics",
    "compare_mechanisms",
    "draw_values",
    "payoff_curve",
    "payoff_curves",
    "play",
    "solve",
    "threshold_bot",
    "threshold_outcomes",
    "uniform_values",
    "values_from_state",
]

MIN_SEATS = 2
MAX_SEATS = 8
PLACES = ("win", "second", "out")
TOLERANCE = 1e-9

Action = Literal["bid", "drop"]
Bot = Callable[[int, int, Mapping[int, int]], str]
"""A bot is ``bot(seat, pot, chips) -> "bid" | "drop"``.

``chips`` maps each seat still in the auction (in seat order) to its chips, so
``tuple(chips)`` is the tuple of active seats. A bot must not depend on anything else (the
solver memoises on exactly this state). A "bid" from a seat without chips counts as a drop.
"""


class Step(NamedTuple):
    """One move of the auction: ``seat`` plays ``action`` when the pot holds ``pot`` chips."""

    seat: int
    action: str
    pot: int


class AuctionNode(NamedTuple):
    """A decision point: ``seat`` to move, the ``pot``, and ``chips`` of the active seats.

    ``active`` lists the seats still in, in seat order; ``chips`` is aligned with it.
    """

    active: tuple[int, ...]
    seat: int
    pot: int
    chips: tuple[int, ...]


@dataclass(frozen=True)
class Outcome:
    """How one auction went: the moves, the places, the chips and the payoffs per seat.

    ``places[i]`` is "win", "second" or "out"; ``net_chips[i]`` = chips collected - chips bid;
    ``payoffs[i]`` = value of the place + chip_value * net_chips[i].
    """

    path: tuple[Step, ...]
    places: tuple[str, ...]
    net_chips: tuple[int, ...]
    payoffs: tuple[float, ...]
    winner: int
    runner_up: int

    @property
    def paid(self) -> tuple[int, ...]:
        """Chips each seat put into the pot."""
        n = len(self.places)
        return tuple(
            sum(1 for st in self.path if st.seat == i and st.action == "bid") for i in range(n)
        )

    @property
    def collected(self) -> tuple[int, ...]:
        """Chips each seat took from the pot when it dropped."""
        n = len(self.places)
        return tuple(
            sum(st.pot for st in self.path if st.seat == i and st.action == "drop")
            for i in range(n)
        )


# --------------------------------------------------------------------------- validation


def _check_inputs(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    start: int,
    chip_value: float,
    tie: str,
) -> tuple[tuple[tuple[float, float, float], ...], tuple[int, ...]]:
    """Validate and normalise the model's inputs; raise ValueError saying what is wrong."""
    try:
        vals = [tuple(v) for v in values]
    except TypeError:
        raise ValueError(
            "values must be a sequence of (win, second, out) triples, one per seat"
        ) from None
    n = len(vals)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"the auction needs {MIN_SEATS}..{MAX_SEATS} seats; got {n} value triples")
    out_vals = []
    for i, v in enumerate(vals):
        if len(v) != 3:
            raise ValueError(f"values[{i}] must be a (win, second, out) triple; got {v!r}")
        try:
            fv = tuple(float(x) for x in v)
        except (TypeError, ValueError):
            raise ValueError(f"values[{i}] must hold numbers; got {v!r}") from None
        if not all(math.isfinite(x) for x in fv):
            raise ValueError(f"values[{i}] must be finite numbers; got {v!r}")
        out_vals.append(fv)
    chip_list = list(chips)
    if len(chip_list) != n:
        raise ValueError(
            f"chips must give one count per seat: {n} seats, {len(chip_list)} chip counts"
        )
    for i, c in enumerate(chip_list):
        if isinstance(c, bool) or not isinstance(c, int | np.integer) or c < 0:
            raise ValueError(f"chips[{i}] must be a non-negative integer; got {c!r}")
    if isinstance(start, bool) or not isinstance(start, int | np.integer) or not 0 <= start < n:
        raise ValueError(f"start must be a seat index 0..{n - 1}; got {start!r}")
    if (
        not isinstance(chip_value, int | float | np.number)
        or not math.isfinite(chip_value)
        or chip_value < 0
    ):
        raise ValueError(
            f"chip_value must be a finite number >= 0 (points per chip); got {chip_value!r}"
        )
    if tie not in ("drop", "bid"):
        raise ValueError(f"tie must be 'drop' or 'bid'; got {tie!r}")
    return tuple(out_vals), tuple(int(c) for c in chip_list)  # type: ignore[return-value]


# --------------------------------------------------------------------------- the solver


def _cap(chips: tuple[int, ...]) -> tuple[int, ...]:
    """Cut the surplus of a seat holding more than one chip above every other active seat."""
    top = max(chips)
    if chips.count(top) > 1:
        return chips
    rest = max((c for c in chips if c != top), default=0)
    if top <= rest + 1:
        return chips
    i = chips.index(top)
    return chips[:i] + (rest + 1,) + chips[i + 1 :]


@dataclass
class _Chain:
    """The bids between two drops, solved backwards: ``bid[k]`` is the move at pot ``k``."""

    order: tuple[int, ...]  # active seats, the first mover first
    chips: tuple[int, ...]  # their chips at pot 0, aligned with ``order``
    bid: bytearray  # 1 = bid, 0 = drop, for pot 0..length
    first_drop: int  # the pot at which the chain ends in equilibrium
    value: tuple[float, ...]  # continuation payoff of every seat (0.0 for seats not in)


class _Game:
    """Backward induction over chains, memoised on pot-0 states (see the module docstring)."""

    def __init__(
        self,
        values: tuple[tuple[float, float, float], ...],
        chip_value: float,
        tie: str,
        bots: Mapping[int, Bot],
    ) -> None:
        self.values = values
        self.n = len(values)
        self.cv = float(chip_value)
        self.tie_bid = tie == "bid"
        self.bots = dict(bots)
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...]], _Chain] = {}

    # A pot-0 state is (order, chips): the active seats from the mover on, and their chips.
    def key(
        self, order: tuple[int, ...], chips: tuple[int, ...]
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The memo key of a pot-0 state (chips capped unless bots may look at them)."""
        return order, (chips if self.bots else _cap(chips))

    def chain(self, order: tuple[int, ...], chips: tuple[int, ...]) -> _Chain:
        """The solved chain starting at this pot-0 state (memoised)."""
        key = self.key(order, chips)
        found = self.memo.get(key)
        if found is None:
            found = self._solve_chain(*key)
            self.memo[key] = found
        return found

    def after_drop(
        self, order: tuple[int, ...], chips: tuple[int, ...], j: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The pot-0 state after the mover at pot ``j`` of this chain drops."""
        s = len(order)
        p = j % s
        laps = j // s
        left = [c - laps - (1 if q < p else 0) for q, c in enumerate(chips)]
        return order[p + 1 :] + order[:p], tuple(left[p + 1 :] + left[:p])

    def continuation(self, order: tuple[int, ...], chips: tuple[int, ...]) -> tuple[float, ...]:
        """Continuation payoffs (per seat) from a pot-0 state."""
        if len(order) == 1:
            vals = [0.0] * self.n
            vals[order[0]] = self.values[order[0]][0]
            return tuple(vals)
        return self.chain(order, chips).value

    def _solve_chain(self, order: tuple[int, ...], chips: tuple[int, ...]) -> _Chain:
        s = len(order)
        cv = self.cv
        length = min(c * s + p for p, c in enumerate(chips))  # the first forced drop
        bid = bytearray(length + 1)
        place = 1 if s == 2 else 2
        drop_value = [self.values[x][place] for x in order]
        # After the mover at position p drops at pot j, the pot-0 state is
        # (rest[p], chips_after[p] - j // s): precomputed per p, the hot loop only subtracts.
        rest = [order[p + 1 :] + order[:p] for p in range(s)]
        after = [tuple(c - (q < p) for q, c in enumerate(chips)) for p in range(s)]
        chips_after = [a[p + 1 :] + a[:p] for p, a in enumerate(after)]
        memo, tie_bid = self.memo, self.tie_bid
        nxt = length  # the pot at which the next drop happens, seen from pot k
        nxt_cont: tuple[float, ...] | None = None  # continuation after that drop (lazy)
        bots = self.bots
        for k in range(length - 1, -1, -1):
            p = k % s
            seat = order[p]
            bot = bots.get(seat) if bots else None
            if bot is not None:
                move = bot(seat, k, self._chips_at(order, chips, k))
                if move not in ("bid", "drop"):
                    raise ValueError(
                        f"bot for seat {seat} returned {move!r}; expected 'bid' or 'drop'"
                    )
                bids = move == "bid"
            else:
                gap = nxt - k
                if gap % s == 0:  # this seat is the one that drops next
                    later = drop_value[p] + cv * nxt
                elif s == 2:  # the other seat drops next: this one wins
                    later = self.values[seat][0]
                else:
                    if nxt_cont is None:
                        laps, pj = divmod(nxt, s)
                        key_chips = (
                            tuple(c - laps for c in chips_after[pj]) if laps else chips_after[pj]
                        )
                        found = memo.get(
                            (rest[pj], key_chips)
                        )  # no cap here: it costs more than it saves
                        if found is None:
                            found = memo[rest[pj], key_chips] = self._solve_chain(
                                rest[pj], key_chips
                            )
                        nxt_cont = found.value
                    later = nxt_cont[seat]
                diff = later - cv * (1 + (gap - 1) // s) - (drop_value[p] + cv * k)
                bids = diff > TOLERANCE or (tie_bid and diff >= -TOLERANCE)
            if bids:
                bid[k] = 1
            else:
                nxt = k
                nxt_cont = None
        if nxt_cont is None:
            nxt_cont = self.continuation(*self.after_drop(order, chips, nxt))
        value = list(nxt_cont)
        p_drop = nxt % s
        for q, x in enumerate(order):
            paid = nxt // s + (1 if q < p_drop else 0)
            got = drop_value[q] + cv * nxt if q == p_drop else value[x]
            value[x] = got - cv * paid
        return _Chain(order, chips, bid, nxt, tuple(value))

    @staticmethod
    def _chips_at(order: tuple[int, ...], chips: tuple[int, ...], k: int) -> dict[int, int]:
        """Chips of the active seats (in seat order) at pot ``k`` of a chain."""
        s = len(order)
        laps, p = divmod(k, s)
        return {
            x: chips[q] - laps - (1 if q < p else 0)
            for q, x in sorted(enumerate(order), key=lambda t: t[1])
        }

    def origin(
        self, seat: int, pot: int, chips: Mapping[int, int]
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The pot-0 state of the chain that contains this decision point."""
        active = sorted(chips)
        if seat not in chips:
            raise ValueError(f"seat {seat} is not among the active seats {active}")
        if pot < 0:
            raise ValueError(f"pot must be >= 0; got {pot}")
        s = len(active)
        i = (active.index(seat) - pot) % s
        order = tuple(active[i:] + active[:i])
        laps, p = divmod(pot, s)
        return order, tuple(chips[x] + laps + (1 if q < p else 0) for q, x in enumerate(order))

    def action(self, seat: int, pot: int, chips: Mapping[int, int]) -> str:
        """The move at a decision point (solving its chain if needed)."""
        if len(chips) < 2:
            raise ValueError("the auction is over when fewer than two seats are active")
        if seat not in chips:
            raise ValueError(f"seat {seat} is not among the active seats {sorted(chips)}")
        if chips[seat] <= 0:
            return "drop"
        ch = self.chain(*self.origin(seat, pot, chips))
        return "bid" if ch.bid[pot] else "drop"


def _outcome(
    values: tuple[tuple[float, float, float], ...], chip_value: float, path: list[Step]
) -> Outcome:
    """Places, chips and payoffs of a finished auction, from its moves."""
    n = len(values)
    net = [0] * n
    dropped: list[int] = []
    for st in path:
        if st.action == "bid":
            net[st.seat] -= 1
        else:
            net[st.seat] += st.pot
            dropped.append(st.seat)
    winner = next(i for i in range(n) if i not in dropped)
    places = ["out"] * n
    places[winner] = "win"
    places[dropped[-1]] = "second"
    payoffs = tuple(values[i][PLACES.index(places[i])] + chip_value * net[i] for i in range(n))
    return Outcome(tuple(path), tuple(places), tuple(net), payoffs, winner, dropped[-1])


@dataclass(frozen=True)
class Solution(Outcome):
    """The subgame-perfect equilibrium of one auction: its outcome plus the strategy.

    ``action(seat, pot, chips)`` gives the equilibrium move at any decision point (it is a
    ``Bot``); ``strategy()`` lists the move at every reachable decision point.
    """

    values: tuple[tuple[float, float, float], ...] = ()
    chips: tuple[int, ...] = ()
    start: int = 0
    chip_value: float = 1.0
    tie: str = "drop"
    _game: _Game | None = field(default=None, repr=False, compare=False)

    def action(self, seat: int, pot: int, chips: Mapping[int, int]) -> str:
        """The equilibrium move of ``seat`` at this pot, ``chips`` of the active seats."""
        assert self._game is not None
        return self._game.action(seat, pot, chips)

    def strategy(self) -> dict[AuctionNode, str]:
        """The equilibrium move at every decision point reachable under any play.

        This solves every subgame, so it is only meant for small auctions.
        """
        game = self._game
        assert game is not None
        n = len(self.chips)
        order = tuple((self.start + i) % n for i in range(n))
        todo = [(order, tuple(self.chips[x] for x in order))]
        seen = set()
        moves: dict[AuctionNode, str] = {}
        while todo:
            order, chips = todo.pop()
            if (order, chips) in seen or len(order) < 2:
                continue
            seen.add((order, chips))
            ch = game.chain(order, chips)
            for k in range(len(ch.bid)):
                at = game._chips_at(order, chips, k)
                seat = order[k % len(order)]
                moves[AuctionNode(tuple(at), seat, k, tuple(at.values()))] = (
                    "bid" if ch.bid[k] else "drop"
                )
                todo.append(game.after_drop(order, chips, k))
        return moves


def solve(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    tie: str = "drop",
    bots: Mapping[int, Bot] | None = None,
) -> Solution:
    """The exact subgame-perfect equilibrium of the auction, by backward induction.

    ``values[i]`` is seat i's (win, second, out) triple in points, ``chips[i]`` its chips,
    ``start`` the first seat to act, ``chip_value`` the points per chip. ``tie`` says what an
    indifferent seat does ("drop", the default, or "bid"); payoffs within 1e-9 count as equal.
    ``bots`` fixes the play of some seats (see ``Bot``); the other seats best-respond to them
    and to each other in every subgame. 2..8 seats; no credit (see the module docstring).

    Method: Osborne & Rubinstein (1994) ch. 6 (backward induction, subgame perfection),
    with memoisation on the minimal state described in the module docstring.
    """
    vals, chip_t = _check_inputs(values, chips, start, chip_value, tie)
    bots = dict(bots or {})
    for seat, bot in bots.items():
        if seat not in range(len(vals)) or not callable(bot):
            raise ValueError(
                f"bots must map seat indices 0..{len(vals) - 1} to callables; got {seat!r}: {bot!r}"
            )
    game = _Game(vals, chip_value, tie, bots)
    n = len(vals)
    order = tuple((start + i) % n for i in range(n))
    state = (order, tuple(chip_t[x] for x in order))
    path: list[Step] = []
    while len(state[0]) > 1:
        ch = game.chain(*state)
        s = len(state[0])
        path.extend(Step(state[0][k % s], "bid", k) for k in range(ch.first_drop))
        path.append(Step(state[0][ch.first_drop % s], "drop", ch.first_drop))
        state = game.after_drop(*state, ch.first_drop)
    out = _outcome(vals, float(chip_value), path)
    return Solution(
        out.path, out.places, out.net_chips, out.payoffs, out.winner, out.runner_up,
        vals, chip_t, int(start), float(chip_value), tie, game,
    )  # fmt: skip


# --------------------------------------------------------------------------- playing bots


def threshold_bot(k: int) -> Bot:
    """A bot that commits to "drop when the pot reaches k".

    It bids while the pot is below ``k`` and it has a chip; it drops at its first turn with
    pot >= k, or when it has no chip. Its commitment applies afresh after every drop.
    """

    def bot(seat: int, pot: int, chips: Mapping[int, int]) -> str:
        return "bid" if pot < k and chips[seat] > 0 else "drop"

    bot.__name__ = bot.__qualname__ = f"threshold_bot_{k}"
    return bot


def play(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    bots: Mapping[int, Bot] | Sequence[Bot],
    start: int = 0,
    chip_value: float = 1.0,
) -> Outcome:
    """Run one auction in which every seat is played by a bot; return its outcome."""
    vals, chip_t = _check_inputs(values, chips, start, chip_value, "drop")
    n = len(vals)
    players = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
    if sorted(players) != list(range(n)):
        raise ValueError(
            f"play needs one bot for each seat 0..{n - 1}; got seats {sorted(players)}"
        )
    have = dict(enumerate(chip_t))
    seat, pot, path = start, 0, []
    while len(have) > 1:
        move = players[seat](seat, pot, dict(have)) if have[seat] > 0 else "drop"
        if move not in ("bid", "drop"):
            raise ValueError(f"bot for seat {seat} returned {move!r}; expected 'bid' or 'drop'")
        if move == "bid" and have[seat] > 0:
            path.append(Step(seat, "bid", pot))
            have[seat] -= 1
            pot += 1
        else:
            path.append(Step(seat, "drop", pot))
            del have[seat]
            pot = 0
        seat = next(x for x in [*range(seat + 1, n), *range(seat + 1)] if x in have)
    return _outcome(vals, float(chip_value), path)


# --------------------------------------------------------------------------- payoff curves


def payoff_curve(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    seat: int,
    start: int = 0,
    chip_value: float = 1.0,
    max_k: int | None = None,
    opponents: str = "naive",
    bots: Mapping[int, Bot] | None = None,
    tie: str = "drop",
) -> pd.DataFrame:
    """Seat ``seat``'s payoff from committing to "drop when the pot reaches k", k = 0..max_k.

    The seat plays ``threshold_bot(k)``. What the other seats do:

    * ``opponents="naive"``: they keep their subgame-perfect strategies of the game without
      the commitment (they do not know of it). The seat then faces a fixed decision problem
      in which its equilibrium strategy is optimal, so every point of the curve is at most
      the equilibrium payoff, and the best k reaches it whenever the seat's equilibrium play
      on the path is itself a threshold rule (e.g. whenever the seat acts in only one chain).
    * ``opponents="informed"``: they know the commitment and best-respond to it (a new
      backward induction for each k, with the seat as a bot). Slower; the best k can beat
      the equilibrium payoff, because commitment is valuable in a war of attrition.

    ``bots`` (seat -> ``Bot``) fixes some opponents' play in both modes. ``max_k`` defaults to
    the total number of chips (a larger k means "never drop while holding a chip").

    Returns one row per k with columns: ``k``; ``payoff`` (points); ``place`` ("win",
    "second", "out"); ``paid`` (chips the seat bid); ``collected`` (chips it took from the
    pot); ``winner`` (seat); ``equilibrium`` (the seat's payoff in the equilibrium without
    commitment, the same in every row).
    """
    vals, chip_t = _check_inputs(values, chips, start, chip_value, tie)
    n = len(vals)
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat index 0..{n - 1}; got {seat!r}")
    if opponents not in ("naive", "informed"):
        raise ValueError(f"opponents must be 'naive' or 'informed'; got {opponents!r}")
    bots = dict(bots or {})
    if seat in bots:
        raise ValueError(f"seat {seat} is the committed seat; it cannot also be given a bot")
    if max_k is None:
        max_k = sum(chip_t)
    if isinstance(max_k, bool) or not isinstance(max_k, int | np.integer) or max_k < 0:
        raise ValueError(f"max_k must be an integer >= 0; got {max_k!r}")
    base = solve(vals, chip_t, start, chip_value, tie, bots)
    return _curve(base, int(seat), int(max_k), opponents, bots)


def payoff_curves(
    values: Sequence[Sequence[float]],
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    max_k: int | None = None,
    tie: str = "drop",
) -> dict[int, pd.DataFrame]:
    """``payoff_curve`` (naive opponents) for every seat, sharing one equilibrium solve."""
    vals, chip_t = _check_inputs(values, chips, start, chip_value, tie)
    base = solve(vals, chip_t, start, chip_value, tie)
    top = sum(chip_t) if max_k is None else int(max_k)
    return {seat: _curve(base, seat, top, "naive", {}) for seat in range(len(vals))}


def _curve(
    base: Solution, seat: int, max_k: int, opponents: str, bots: Mapping[int, Bot]
) -> pd.DataFrame:
    """The rows of a payoff curve, given the equilibrium ``base`` of the game without commitment."""
    vals, chip_t, start, cv, tie = base.values, base.chips, base.start, base.chip_value, base.tie
    n = len(vals)
    rows: list[tuple] = []
    for k in range(max_k + 1):
        if opponents == "naive":
            players = {i: bots.get(i, base.action) for i in range(n)}
            players[seat] = threshold_bot(k)
            out: Outcome = play(vals, chip_t, players, start, cv)
        else:
            out = solve(vals, chip_t, start, cv, tie, {**bots, seat: threshold_bot(k)})
        rows.append(
            (
                k,
                out.payoffs[seat],
                out.places[seat],
                out.paid[seat],
                out.collected[seat],
                out.winner,
            )
        )
        # Against fixed opponents, a seat that never met a pot >= k plays every larger k alike.
        if opponents == "naive" and all(st.pot < k for st in out.path if st.seat == seat):
            rows.extend((j, *rows[-1][1:]) for j in range(k + 1, max_k + 1))
            break
    df = pd.DataFrame(rows, columns=["k", "payoff", "place", "paid", "collected", "winner"])
    df["equilibrium"] = base.payoffs[seat]
    return df


# --------------------------------------------------------------------------- private values

ValueDraw = Callable[[np.random.Generator], Sequence[float]]
"""Draws one seat's (win, second, out) values from a numpy Generator."""


def uniform_values(
    win: tuple[float, float] = (4.0, 12.0),
    second: tuple[float, float] = (0.0, 4.0),
    out: tuple[float, float] = (0.0, 0.0),
    step: float | None = None,
) -> ValueDraw:
    """A ``ValueDraw`` with independent uniform win, second and out values.

    Each of ``win``, ``second``, ``out`` is a (low, high) range; with ``step`` the values are
    rounded to multiples of it (e.g. ``step=1`` for whole points).
    """
    for name, (lo, hi) in (("win", win), ("second", second), ("out", out)):
        if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
            raise ValueError(
                f"{name} must be a finite (low, high) range with low <= high; got {(lo, hi)}"
            )
    if step is not None and not step > 0:
        raise ValueError(f"step must be > 0 or None; got {step!r}")

    def draw(rng: np.random.Generator) -> tuple[float, float, float]:
        vals = rng.uniform((win[0], second[0], out[0]), (win[1], second[1], out[1]))
        if step is not None:
            vals = np.round(vals / step) * step
        return float(vals[0]), float(vals[1]), float(vals[2])

    return draw


def draw_values(
    draws: ValueDraw | Sequence[ValueDraw],
    seats: int,
    samples: int,
    seed: int | np.random.Generator = 0,
) -> np.ndarray:
    """``samples`` value profiles as an array of shape (samples, seats, 3).

    ``draws`` is one ``ValueDraw`` for every seat (independent, identically distributed
    private values) or one per seat. Only the seeded numpy Generator is used: the same seed
    gives the same array.
    """
    per_seat = list(draws) if isinstance(draws, Sequence) else [draws] * seats
    if len(per_seat) != seats:
        raise ValueError(
            f"give one value draw for all seats or one per seat; got {len(per_seat)} for {seats} seats"
        )
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"the auction needs {MIN_SEATS}..{MAX_SEATS} seats; got {seats}")
    if samples < 1:
        raise ValueError(f"samples must be >= 1; got {samples}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    out = np.array([[tuple(d(rng)) for d in per_seat] for _ in range(samples)], dtype=float)
    if out.shape != (samples, seats, 3) or not np.isfinite(out).all():
        raise ValueError("every value draw must return three finite numbers (win, second, out)")
    return out


def threshold_outcomes(
    thresholds: np.ndarray, chips: Sequence[int], start: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Play many auctions at once in which every seat plays a threshold rule.

    ``thresholds`` has shape (games, seats): seat i drops at its first turn with pot >= its
    threshold (or without a chip). Returns ``places`` (0 = win, 1 = second, 2 = out) and
    ``net`` chips (collected - bid), both of shape (games, seats). Vectorised with numpy;
    it plays exactly like ``play`` with ``threshold_bot``.
    """
    thr = np.asarray(thresholds)
    games, n = thr.shape
    have = np.tile(np.asarray(chips, dtype=np.int64), (games, 1))
    active = np.ones((games, n), dtype=bool)
    left = np.full(games, n)
    seat = np.full(games, start)
    pot = np.zeros(games, dtype=np.int64)
    net = np.zeros((games, n), dtype=np.int64)
    places = np.full((games, n), 2, dtype=np.int8)
    offsets = np.arange(1, n)
    rows = np.arange(games)
    while True:
        r = rows[left > 1]
        if r.size == 0:
            break
        m = seat[r]
        bids = (pot[r] < thr[r, m]) & (have[r, m] > 0)
        rb, mb = r[bids], m[bids]
        have[rb, mb] -= 1
        net[rb, mb] -= 1
        pot[rb] += 1
        rd, md = r[~bids], m[~bids]
        net[rd, md] += pot[rd]
        pot[rd] = 0
        active[rd, md] = False
        left[rd] -= 1
        last = left[rd] == 1
        places[rd[last], md[last]] = 1
        cand = (m[:, None] + offsets) % n
        first = np.argmax(active[r[:, None], cand], axis=1)
        seat[r] = cand[np.arange(r.size), first]
    places[active] = 0
    return places, net


def _payoffs(
    values: np.ndarray, places: np.ndarray, net: np.ndarray, chip_value: float
) -> np.ndarray:
    """Payoff per game and seat: value of the place + chip_value * net chips."""
    return (
        np.take_along_axis(values, places[..., None].astype(np.intp), axis=-1)[..., 0]
        + chip_value * net
    )


@dataclass(frozen=True)
class BestResponseResult:
    """Best-response dynamics over threshold strategies with private values.

    ``values`` (samples, seats, 3) are the drawn types; ``thresholds`` (samples, seats) the
    threshold each seat plays for its own type in each sample, at the end; ``trace`` has one
    row per iteration and seat (columns ``iteration``, ``seat``, ``mean_threshold``,
    ``changed`` = share of types whose threshold changed, ``expected_payoff``);
    ``converged`` tells whether a sweep changed nothing (a fixed point on the sample).
    """

    values: np.ndarray
    chips: tuple[int, ...]
    start: int
    chip_value: float
    thresholds: np.ndarray
    trace: pd.DataFrame
    converged: bool


def best_response_dynamics(
    values: np.ndarray,
    chips: Sequence[int],
    start: int = 0,
    chip_value: float = 1.0,
    max_iter: int = 30,
    initial: np.ndarray | None = None,
    min_gain: float = 0.05,
) -> BestResponseResult:
    """Iterate best responses among threshold strategies to a fixed point.

    Model: independent private values. Each seat knows its own (win, second, out) values and
    its rivals' distribution (the empirical distribution of ``values``, e.g. from
    ``draw_values``), and commits to "drop when the pot reaches k" with k depending on its own
    values. A best response of seat i, for each of its sampled types v, is the k that
    maximises v . P_k(place) + chip_value * E_k[net chips] against the rivals' current
    thresholds over all sampled rival types (a Monte-Carlo expectation with common random
    numbers; ties go to the smallest k). A type switches only if that gains more than
    ``min_gain`` points over its current threshold (a little inertia that stops the
    dynamics from cycling over near-ties). Seats update one after another (Gauss-Seidel
    best-response dynamics, cf. Fudenberg & Levine (1998), *The Theory of Learning in Games*,
    ch. 2); the loop stops when a full sweep changes nothing (a Bayesian equilibrium in
    threshold strategies on the sample, Krishna (2010) ch. 2) or after ``max_iter`` sweeps.
    ``initial`` thresholds default to "bid up to the value of winning": round((win - out) /
    chip_value), clipped to 0..total chips.
    """
    vals = np.asarray(values, dtype=float)
    if vals.ndim != 3 or vals.shape[2] != 3 or not np.isfinite(vals).all():
        raise ValueError(
            f"values must be a finite array of shape (samples, seats, 3); got shape {vals.shape}"
        )
    samples, n, _ = vals.shape
    _, chip_t = _check_inputs(vals[0], chips, start, chip_value, "drop")
    max_k = sum(chip_t)
    if initial is None:
        worth = (
            (vals[:, :, 0] - vals[:, :, 2]) / chip_value
            if chip_value > 0
            else np.full((samples, n), max_k)
        )
        thr = np.clip(np.round(worth), 0, max_k).astype(np.int64)
    else:
        thr = np.array(initial, dtype=np.int64)
        if thr.shape != (samples, n):
            raise ValueError(f"initial thresholds must have shape {(samples, n)}; got {thr.shape}")
    ks = np.arange(max_k + 1)
    rows, converged = [], False
    for it in range(1, max_iter + 1):
        changed_any = False
        for i in range(n):
            trial = np.repeat(thr[None, :, :], ks.size, axis=0)  # (k, samples, seats)
            trial[:, :, i] = ks[:, None]
            places, net = threshold_outcomes(trial.reshape(-1, n), chip_t, start)
            place_i = places[:, i].reshape(ks.size, samples)
            share = np.stack([(place_i == p).mean(axis=1) for p in range(3)], axis=1)  # (k, 3)
            mean_net = net[:, i].reshape(ks.size, samples).mean(axis=1)
            utility = vals[:, i, :] @ share.T + chip_value * mean_net  # (samples, k)
            best = np.argmax(np.round(utility, 9), axis=1)
            now = utility[np.arange(samples), thr[:, i]]
            best = np.where(utility[np.arange(samples), best] > now + min_gain, best, thr[:, i])
            changed = best != thr[:, i]
            changed_any |= bool(changed.any())
            thr[:, i] = best
            rows.append((it, i, float(best.mean()), float(changed.mean()),
                         float(utility[np.arange(samples), best].mean())))  # fmt: skip
        if not changed_any:
            converged = True
            break
    trace = pd.DataFrame(
        rows, columns=["iteration", "seat", "mean_threshold", "changed", "expected_payoff"]
    )
    return BestResponseResult(vals, chip_t, int(start), float(chip_value), thr, trace, converged)


def _english(
    vals: np.ndarray, chips: tuple[int, ...], start: int, cv: float
) -> tuple[np.ndarray, np.ndarray]:
    """Places and net chips of an English (ascending clock) auction on each value profile."""
    samples, n, _ = vals.shape
    worth = (vals[:, :, 0] - vals[:, :, 2]) / cv if cv > 0 else np.full((samples, n), np.inf)
    top = np.clip(np.minimum(np.floor(worth), np.asarray(chips)), 0, None)
    return _rank(top, start, "second_price")


def _rank(bids: np.ndarray, start: int, rule: str) -> tuple[np.ndarray, np.ndarray]:
    """Places by bid (ties to the seat earlier in turn order) and payments per rule."""
    samples, n = bids.shape
    order_rank = (np.arange(n) - start) % n  # position in turn order
    key = bids * (n + 1) - order_rank[None, :] / (n + 1)  # higher bid first, then turn order
    ranking = np.argsort(-key, axis=1)
    places = np.full((samples, n), 2, dtype=np.int8)
    idx = np.arange(samples)
    places[idx, ranking[:, 0]] = 0
    places[idx, ranking[:, 1]] = 1
    net = np.zeros((samples, n))
    if rule == "second_price":
        net[idx, ranking[:, 0]] = -bids[idx, ranking[:, 1]]
    else:  # all pay
        net = -bids
    return places, net


def _all_pay_bids(vals: np.ndarray, chips: tuple[int, ...], cv: float) -> np.ndarray:
    """Symmetric all-pay equilibrium bids beta(w) = E[Y 1{Y < w}], Y = best rival's worth."""
    samples, n, _ = vals.shape
    worth = (
        (vals[:, :, 0] - vals[:, :, 2]) / cv if cv > 0 else np.full((samples, n), float(sum(chips)))
    )
    worth = np.clip(worth, 0, None)
    pooled = np.sort(worth.ravel())
    cdf = np.arange(1, pooled.size + 1) / pooled.size
    g = cdf ** (n - 1)  # G = F^(n-1), the distribution of the highest of n-1 rivals
    dg = np.diff(np.concatenate([[0.0], g]))
    integral = np.cumsum(pooled * dg)  # beta at each pooled point
    pos = np.searchsorted(pooled, worth, side="left")  # points strictly below w
    beta = np.where(pos > 0, integral[np.maximum(pos - 1, 0)], 0.0)
    return np.minimum(beta, np.asarray(chips, dtype=float))


def compare_mechanisms(
    result: BestResponseResult, complete_information: bool = True
) -> pd.DataFrame:
    """Efficiency and chip flows of four mechanisms on the same sampled values.

    Rows: ``mogul (private values)`` - the threshold profile of ``result``; ``mogul
    (complete information)`` - ``solve`` on each sampled profile; ``english`` - an ascending
    clock auction in which each seat stays in up to min(its chips, floor((win - out) /
    chip_value)) and the winner pays the runner-up's limit to the bank (the dominant
    strategy of the standard model, Krishna (2010) ch. 2.2; the second prize is ignored in the
    bidding); ``all-pay`` - sealed bids beta(w) = E[Y 1{Y < w}] with w = (win - out) /
    chip_value and Y the best of the n - 1 rivals' w under the pooled sample distribution (the
    symmetric equilibrium, Krishna (2010) ch. 2.5 / 3.2.2; exact for identically distributed
    values, an approximation otherwise; bids capped at the budget, not rounded), everyone pays
    its bid to the bank. In English and all-pay the bidder ranked second takes second place.

    Columns: ``efficiency`` (share of samples in which a seat with the highest win value
    wins); ``winner_pays`` (mean chips the winner gives up); ``droppers_net`` (mean net chips
    of all non-winners together: in Mogul the winner's payment goes to them, in the others to
    the bank); ``runner_up_net`` (mean net chips of second place); ``welfare`` (mean sum of
    all seats' payoffs in points).
    """
    vals, chips, start, cv = result.values, result.chips, result.start, result.chip_value
    samples, n, _ = vals.shape
    rows = {}
    places, net = threshold_outcomes(result.thresholds, chips, start)
    rows["mogul (private values)"] = (places, net)
    if complete_information:
        ci_places = np.zeros((samples, n), dtype=np.int8)
        ci_net = np.zeros((samples, n))
        for s in range(samples):
            sol = solve(vals[s], chips, start, cv)
            ci_places[s] = [PLACES.index(p) for p in sol.places]
            ci_net[s] = sol.net_chips
        rows["mogul (complete information)"] = (ci_places, ci_net)
    rows["english"] = _english(vals, chips, start, cv)
    rows["all-pay"] = _rank(_all_pay_bids(vals, chips, cv), start, "all_pay")
    best = vals[:, :, 0] >= vals[:, :, 0].max(axis=1, keepdims=True)
    table = []
    for name, (pl, nt) in rows.items():
        winner = pl == 0
        table.append({
            "mechanism": name,
            "efficiency": float(best[winner].mean()),
            "winner_pays": float(-(nt * winner).sum(axis=1).mean()),
            "droppers_net": float((nt * ~winner).sum(axis=1).mean()),
            "runner_up_net": float((nt * (pl == 1)).sum(axis=1).mean()),
            "welfare": float(_payoffs(vals, pl, nt, cv).sum(axis=1).mean()),
        })  # fmt: skip
    return pd.DataFrame(table).set_index("mechanism")


# --------------------------------------------------------------------------- a live auction


@dataclass(frozen=True)
class LiveAuction:
    """The auction of a live game, in the model's terms.

    ``values[i]`` is seat i's (win, second, out) estimate in points, ``chips[i]`` its chips
    now, ``active`` the seats still in (seat order), ``seat`` the one to move, ``pot`` the
    pot, ``chip_value`` points per chip. ``solve()`` gives the equilibrium of the rest.
    """

    values: tuple[tuple[float, float, float], ...]
    chips: tuple[int, ...]
    active: tuple[int, ...]
    seat: int
    pot: int
    chip_value: float
    method: str

    def solve(self, tie: str = "drop") -> Outcome:
        """The subgame-perfect rest of the auction from here (path, places, payoffs).

        ``net_chips`` and ``payoffs`` count from now on (the chips already in the pot belong
        to whoever drops next); seats that already left are "out".
        """
        game = _Game(self.values, self.chip_value, tie, {})
        have = {i: self.chips[i] for i in self.active}
        n = len(self.values)
        seat, pot, path = self.seat, self.pot, []
        while len(have) > 1:
            move = game.action(seat, pot, have)
            path.append(Step(seat, move, pot))
            if move == "bid":
                have[seat] -= 1
                pot += 1
            else:
                del have[seat]
                pot = 0
            seat = next(x for x in [*range(seat + 1, n), *range(seat + 1)] if x in have)
        net = [0] * n
        for st in path:
            net[st.seat] += -1 if st.action == "bid" else st.pot
        places = ["out"] * n
        winner, runner_up = next(iter(have)), path[-1].seat
        places[winner], places[runner_up] = "win", "second"
        payoffs = tuple(
            self.values[i][PLACES.index(places[i])] + self.chip_value * net[i] for i in range(n)
        )
        return Outcome(tuple(path), tuple(places), tuple(net), payoffs, winner, runner_up)


def values_from_state(
    state,  # mogul.GameState (not imported here: the auction model stands on its own)
    method: str = "heuristic",
    chip_value: float | None = None,
    rollouts: int = 32,
    seed: int = 0,
) -> LiveAuction:
    """Estimate each seat's (win, second, out) values for the auction on the table.

    ``state`` is a ``mogul.GameState`` in its auction phase. ``chip_value`` defaults to what
    a chip is worth at the end of the game (1 / chips per point: 0.2 in the classic game;
    chips are worth more than that while auctions remain, so try larger values too).

    ``method="heuristic"`` reads the table, for the revealed card (company c, border b):

    * a share of a company is worth the premiums it is still expected to earn: its unseen
      shares / all unseen shares * the expected number of reveals before the crash (the crash
      lies uniformly in the last cards of the pile, per the edition's crash rule);
    * take = the value of a share of c; sell = n_b * (market value of b - value of a share
      of b) for the seat's n_b shares of b if positive, else 0;
    * win = max(take, sell); second = min(take, sell) - the runner-up is assumed to get the
      option the seat itself values less (the winner, whoever it is, picks first); out = 0.

    Effects on the other seats (premiums they get, sales that lower a market) are ignored.

    ``method="rollout"`` plays the game out instead: for each of ``rollouts`` random hidden
    piles consistent with what the players see, and for each seat and place, it ends the
    auction at once with that seat in that place (the other places go to random other
    active seats; the pot and all chips stay where they are: the auction's chip flows are
    the model's business), lets ``mogul.games.mogul.bots.ValueBot`` play every seat to the crash, and
    takes the seat's mean final score. Only differences between a seat's three values
    matter (adding a constant to all three changes nothing in the model), so these are
    expected final scores, not gains. With two seats left "out" cannot happen to them, and
    is set to "second"; seats that already left get their "out" value three times.
    Reproducible for a given ``seed``; costs rollouts * seats * 3 games.

    No credit is modelled (see the module docstring).
    """
    if method not in ("heuristic", "rollout"):
        raise ValueError(f"method must be 'heuristic' or 'rollout'; got {method!r}")
    if getattr(state, "phase", None) != "auction" or getattr(state, "is_over", True):
        raise ValueError(
            "values_from_state needs a game in its auction phase (a card up for auction)"
        )
    edition = state.edition
    if chip_value is None:
        chip_value = 1.0 / edition.chips_per_point
    if not math.isfinite(chip_value) or chip_value < 0:
        raise ValueError(f"chip_value must be a finite number >= 0; got {chip_value!r}")
    n = len(state.players)
    if method == "heuristic":
        values = tuple(_table_values(state, i) for i in range(n))
    else:
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be a whole number >= 1; got {rollouts!r}")
        values = _rollout_values(state, rollouts, seed)
    return LiveAuction(
        values, tuple(p.chips for p in state.players), tuple(state.in_auction),
        state.current_player, state.pot, float(chip_value), method,
    )  # fmt: skip


def _table_values(state, seat: int) -> tuple[float, float, float]:
    """The heuristic (win, second, out) of ``seat`` for the revealed card."""
    view = state.view(seat)
    card = state.revealed
    take = premium_outlook(view, card.company)
    gain = state.market_value(card.border) - premium_outlook(view, card.border)
    sell = state.players[seat].shares[card.border] * gain if gain > 0 else 0.0
    return max(take, sell), min(take, sell), 0.0


def _rollout_values(state, rollouts: int, seed: int) -> tuple[tuple[float, float, float], ...]:
    """Mean final scores after ending the auction with each seat in each place."""
    import random

    from mogul.games.mogul.bots import ValueBot, play_out
    from mogul.games.mogul.determinize import determinize

    rng = random.Random(seed)
    n = len(state.players)
    active = list(state.in_auction)
    total = [[0.0, 0.0, 0.0] for _ in range(n)]
    for _ in range(rollouts):
        table = determinize(state.view(state.current_player), rng)
        for seat in range(n):
            others = [x for x in active if x != seat]
            places = (0, 1, 2) if seat in active else (2,)
            for place in places:
                if place == 2 and len(others) < 2:
                    continue
                pick = rng.sample(others, 2) if place == 2 else [rng.choice(others)]
                winner, runner_up = {0: (seat, pick[0]), 1: (pick[0], seat), 2: tuple(pick)}[place]
                ended = table._replace(
                    phase="winner", current=winner, winner=winner, runner_up=runner_up, pot=0,
                    in_auction=(), dropped=(*state.dropped, *[x for x in active if x != winner]),
                    credited=(), events=(),
                )  # fmt: skip
                final = play_out(ended, [ValueBot() for _ in range(n)])
                total[seat][place] += final.final_scores()[seat]
    out = []
    for seat in range(n):
        win, second, last = (t / rollouts for t in total[seat])
        if seat not in active:
            out.append((last, last, last))
        elif len(active) == 2:
            out.append((win, second, second))
        else:
            out.append((win, second, last))
    return tuple(out)
