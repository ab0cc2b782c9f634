"""The exact subgame-perfect equilibrium of the auction, by backward induction over chains.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from mogul.auction.model import (
    TOLERANCE,
    AuctionNode,
    Bot,
    Outcome,
    Step,
    _check_inputs,
    _outcome,
)

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
        self.top = [max(v) for v in values]  # each seat's best place value (for bounds)

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
        minus = tuple(c - 1 for c in chips)
        chips_after = [chips[p + 1 :] + minus[:p] for p in range(s)]
        sum_after = [sum(c) for c in chips_after]
        top = self.top
        memo, tie_bid, values = self.memo, self.tie_bid, self.values
        nxt = length  # the pot at which the next drop happens, seen from pot k
        nxt_cont: tuple[float, ...] | None = None  # continuation after that drop (lazy)
        bots = self.bots
        for k in range(length - 1, -1, -1):
            p = k % s
            seat = order[p]
            if bots and seat in bots:
                move = bots[seat](seat, k, self._chips_at(order, chips, k))
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
                    later = values[seat][0]
                else:
                    if nxt_cont is None:
                        laps, pj = divmod(nxt, s)
                        # Bound first: from the next pot-0 state on, the seat gains at most
                        # its best place value plus every chip the others then hold. If even
                        # that loses to dropping now, it drops, with no subgame to solve.
                        others = sum_after[pj] - laps * (s - 1) - chips[p] + (nxt - p + s - 1) // s
                        most = top[seat] + cv * others - cv * (1 + (gap - 1) // s)
                        if most - (drop_value[p] + cv * k) < -TOLERANCE:
                            nxt = k
                            continue
                        key = (
                            rest[pj],
                            tuple(map(laps.__rsub__, chips_after[pj])) if laps else chips_after[pj],
                        )
                        found = memo.get(key)  # no cap here: it costs more than it saves
                        if found is None:
                            found = memo[key] = self._solve_chain(*key)
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
        out.path,
        out.places,
        out.net_chips,
        out.payoffs,
        out.winner,
        out.runner_up,
        vals,
        chip_t,
        int(start),
        float(chip_value),
        tie,
        game,
    )
