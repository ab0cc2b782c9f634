"""The rules of the auction lab: one group's session of rounds, one prize per round.

Each round every seat draws a private value for the prize (``values``) and has a budget of
chips for this round alone. The round's mechanism decides who wins the prize and who pays:

* **Mogul's auction** (``"mogul"``): from the round's start seat round the table, each seat
  still in either *pays* one chip into the pot (while it has paid less than its budget) or
  *drops*: it takes the whole pot and leaves. The last seat in wins the prize; the last seat
  to drop is the runner-up and also gets the second prize (``second``, worth the same to
  everyone; 0 unless set). Chips go from seat to seat, none to the bank.
* **English auction** (``"english"``): the price starts at 0; in turn each seat still in
  either *raises* the price by one chip (only to a price within its budget) or *drops*
  (paying nothing). The last seat in wins and pays the price.
* **Sealed bids** (``"first-price"``, ``"second-price"``, ``"all-pay"``): every seat bids one
  whole number of chips from 0 to its budget, seen by nobody until all have bid. The highest
  bid wins; equal bids go to the seat earlier in the round's order (from the start seat on).
  First-price: the winner pays its bid. Second-price: the winner pays the best other bid.
  All-pay: every seat pays its own bid.

A seat's payoff for the round is the value of what it won minus the chips it paid (in
Mogul's auction plus the chips it took from the pot); its score is the sum over the rounds.
The first round's start seat is drawn; it moves one seat on each round, so no seat always
moves first or wins ties.
``setup.py`` deals a game; this module plays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from mogul.games.auction_lab.actions import Action, Bid, Drop, Pay, Raise
from mogul.kit.contract import IllegalActionError
from mogul.kit.spec import generic_table_html

MECHANISMS = ("mogul", "english", "first-price", "second-price", "all-pay")
SEALED = ("first-price", "second-price", "all-pay")
TITLES = {
    "mogul": "Mogul's auction",
    "english": "English auction",
    "first-price": "first-price sealed bids",
    "second-price": "second-price sealed bids",
    "all-pay": "all-pay sealed bids",
}


@dataclass(frozen=True)
class Setup:
    """What deals a game: ``new_game(**fields)`` deals it again (records keep this).

    ``drawn`` is None when the values come from ``seed``, else the scripted values (one
    tuple of whole chips per round, one value per seat); ``start_player`` None when the seat
    that starts round 1 comes from ``seed``.
    """

    edition: str
    players: tuple[str, ...]
    seed: int
    mechanism: str
    rounds: int
    values: str
    budget: int
    second: int
    drawn: tuple[tuple[int, ...], ...] | None = None
    start_player: int | None = None


@dataclass(frozen=True)
class RoundResult:
    """A finished round as everyone sees it (the values stay private).

    ``bids``: sealed bids: each seat's bid; Mogul's auction: the chips each seat paid into
    the pot; English: the highest price each seat raised to (0 if none). ``dropped_at``: the
    pot (Mogul) or price (English) at which each seat dropped, None for the winner and in
    sealed bids. ``payments``: chips each seat gave up (Mogul: paid minus taken from the pot,
    negative for a seat that gained). ``revenue``: chips that went to the bank.
    """

    number: int
    start: int
    bids: tuple[int, ...]
    dropped_at: tuple[int | None, ...]
    winner: int
    runner_up: int
    payments: tuple[int, ...]
    revenue: int


@dataclass(frozen=True)
class Round:
    """The round in play. ``order``: the seats from the start seat on. Sequential auctions:
    ``active`` seats still in (seat order), ``mover``, ``pot`` (the price in English),
    ``paid`` (Mogul: chips put into the pot; English: the last price raised to),
    ``collected`` (chips taken from the pot), ``dropped`` (seats in the order they left).
    Sealed bids: ``bids`` so far (None: not yet)."""

    number: int
    order: tuple[int, ...]
    active: tuple[int, ...] = ()
    mover: int | None = None
    pot: int = 0
    paid: tuple[int, ...] = ()
    collected: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()
    dropped_at: tuple[int | None, ...] = ()
    bids: tuple[int | None, ...] = ()


def open_round(number: int, start: int, seats: int, mechanism: str) -> Round:
    """Round ``number`` (from 1), begun by seat ``start``."""
    order = tuple((start + i) % seats for i in range(seats))
    zeros, nobody = (0,) * seats, (None,) * seats
    if mechanism in SEALED:
        return Round(number, order, bids=nobody)
    return Round(number, order, tuple(range(seats)), start, 0, zeros, zeros, (), nobody)


@dataclass(frozen=True)
class LabView:
    """What one seat sees: its own value and bid, the public state of the round, the
    finished rounds' results and its own payoffs (never another seat's value or pending bid).
    """

    seat: int
    names: tuple[str, ...]
    mechanism: str
    values: str  # the distribution, as the lecturer set it
    budget: int
    second: int
    rounds: int
    round: int  # the round in play (from 1); rounds + 1 once the game is over
    start: int | None
    value: int | None  # this seat's value for this round's prize (None once over)
    active: tuple[int, ...]
    mover: int | None
    pot: int
    paid: int  # chips this seat has put in this round (English: the price it raised to)
    bid: int | None  # this seat's sealed bid this round, once made
    waiting: tuple[int, ...]  # seats that have not bid yet (sealed bids)
    results: tuple[RoundResult, ...]
    my_values: tuple[int, ...]  # this seat's values in the finished rounds
    my_payoffs: tuple[int, ...]  # this seat's payoff in each finished round

    @property
    def payoff(self) -> int:
        """The running payoff: the sum of this seat's round payoffs so far."""
        return sum(self.my_payoffs)

    @property
    def position(self) -> int:
        """This seat's place in the round's order (0 = the start seat)."""
        return (self.seat - (self.start or 0)) % len(self.names)


@dataclass(frozen=True)
class LabState:
    """One moment of a session. Frozen: ``apply`` returns a new state.

    ``values[r][seat]``: the seat's value in round r + 1 (hidden from the others).
    ``payoffs[r][seat]``: its payoff in finished round r + 1. ``now``: the round in play
    (None once the game is over).
    """

    setup: Setup
    values: tuple[tuple[int, ...], ...]
    results: tuple[RoundResult, ...]
    payoffs: tuple[tuple[int, ...], ...]
    now: Round | None
    events: tuple[str, ...]

    names = property(lambda self: self.setup.players)
    mechanism = property(lambda self: self.setup.mechanism)
    budget = property(lambda self: self.setup.budget)
    is_over = property(lambda self: self.now is None)
    round = property(lambda self: len(self.results) + 1)

    @property
    def current_player(self) -> int | None:
        """The seat to move: in sealed bids the next seat (in the round's order) to bid."""
        now = self.now
        if now is None:
            return None
        if self.mechanism in SEALED:
            return next(seat for seat in now.order if now.bids[seat] is None)
        return now.mover

    @property
    def value(self) -> tuple[int, ...]:
        """Every seat's value for the prize of the round in play (the lecturer's view)."""
        return self.values[len(self.results)] if self.now is not None else ()

    def legal_actions(self) -> list[Action]:
        """The mover's options, in a stable order."""
        now, seat = self.now, self.current_player
        if now is None or seat is None:
            return []
        if self.mechanism in SEALED:
            return [Bid(amount) for amount in range(self.budget + 1)]
        if self.mechanism == "mogul":
            return [Pay(), Drop()] if now.paid[seat] < self.budget else [Drop()]
        return [Raise(), Drop()] if now.pot + 1 <= self.budget else [Drop()]

    def apply(self, action: Any) -> LabState:
        """The state after the mover's ``action``; an illegal one raises and changes nothing."""
        legal = self.legal_actions()
        # Bid(True) equals Bid(1) but is no number of chips
        if action not in legal or (isinstance(action, Bid) and type(action.amount) is not int):
            raise IllegalActionError.for_state(self, action, legal)
        seat = self.current_player
        name = self.names[seat]
        now = self.now
        if isinstance(action, Bid):
            now = replace(now, bids=_put(now.bids, seat, action.amount))
            said = f"{name} has bid."
            return self._next(now, said) if None not in now.bids else self._moved(now, said)
        if isinstance(action, Pay):
            now = replace(now, pot=now.pot + 1, paid=_put(now.paid, seat, now.paid[seat] + 1))
            return self._moved(_pass_turn(now), f"{name} paid a chip: the pot holds {now.pot}.")
        if isinstance(action, Raise):
            now = replace(now, pot=now.pot + 1, paid=_put(now.paid, seat, now.pot + 1))
            return self._moved(_pass_turn(now), f"{name} raised the price to {now.pot}.")
        return self._drop(seat, now)

    def _drop(self, seat: int, now: Round) -> LabState:
        name, mogul = self.names[seat], self.mechanism == "mogul"
        said = (
            f"{name} dropped and took the pot of {now.pot}."
            if mogul
            else f"{name} dropped at a price of {now.pot}."
        )
        now = replace(
            _pass_turn(now),
            active=tuple(s for s in now.active if s != seat),
            dropped=(*now.dropped, seat),
            dropped_at=_put(now.dropped_at, seat, now.pot),
        )
        if mogul:  # the dropper takes the pot
            now = replace(now, collected=_put(now.collected, seat, now.pot), pot=0)
        return self._next(now, said) if len(now.active) == 1 else self._moved(now, said)

    def _moved(self, now: Round, said: str) -> LabState:
        return replace(self, now=now, events=(said,))

    def _next(self, now: Round, said: str) -> LabState:
        """Close the round (``result``), score it, and open the next one (or end the game)."""
        values = self.values[now.number - 1]
        result = result_of(self.mechanism, now)
        won = [
            (values[s] if s == result.winner else 0)
            + (self.setup.second if s == result.runner_up and self.mechanism == "mogul" else 0)
            for s in range(len(values))
        ]
        payoffs = tuple(w - pay for w, pay in zip(won, result.payments, strict=True))
        results = (*self.results, result)
        over = len(results) == self.setup.rounds
        following = None
        if not over:  # the start seat moves on by one
            start = (now.order[0] + 1) % len(values)
            following = open_round(now.number + 1, start, len(values), self.mechanism)
        told = [said, describe_result(result, self.mechanism, self.names)]
        if following is not None:
            told.append(round_opened(following, self.names))
        return replace(
            self,
            results=results,
            payoffs=(*self.payoffs, payoffs),
            now=following,
            events=tuple(told),
        )

    def final_scores(self) -> tuple[int, ...]:
        """Each seat's score: the sum of its round payoffs so far."""
        return tuple(sum(column) for column in zip(*self.payoffs, strict=True)) or (0,) * len(
            self.names
        )

    def winners(self) -> tuple[int, ...]:
        """The seats with the highest score."""
        scores = self.final_scores()
        return tuple(seat for seat, s in enumerate(scores) if s == max(scores))

    def view(self, seat: int) -> LabView:
        """What ``seat`` sees (its own value and bid only)."""
        now, played = self.now, len(self.results)
        return LabView(
            seat=seat,
            names=self.names,
            mechanism=self.mechanism,
            values=self.setup.values,
            budget=self.budget,
            second=self.setup.second,
            rounds=self.setup.rounds,
            round=self.round,
            start=None if now is None else now.order[0],
            value=None if now is None else self.values[played][seat],
            active=() if now is None else now.active,
            mover=self.current_player,
            pot=0 if now is None else now.pot,
            paid=now.paid[seat] if now is not None and now.paid else 0,
            bid=now.bids[seat] if now is not None and now.bids else None,
            waiting=tuple(s for s in now.order if now.bids[s] is None) if now and now.bids else (),
            results=self.results,
            my_values=tuple(v[seat] for v in self.values[:played]),
            my_payoffs=tuple(p[seat] for p in self.payoffs),
        )

    def describe_events(self) -> list[str]:
        """The step that made this state, in sentences (no private value, no pending bid)."""
        return list(self.events)

    def _repr_html_(self) -> str:
        return generic_table_html(self, log=self.events)


def _put(row: Sequence[Any], seat: int, value: Any) -> tuple[Any, ...]:
    return (*row[:seat], value, *row[seat + 1 :])


def _pass_turn(now: Round) -> Round:
    """The next seat still in after the mover, round the table."""
    seats = len(now.order)
    later = [(now.mover + step) % seats for step in range(1, seats + 1)]
    following = next((s for s in later if s in now.active and s != now.mover), None)
    return replace(now, mover=following)


def ranking(bids: Sequence[int], order: Sequence[int]) -> list[int]:
    """Seats from the highest bid down; equal bids: earlier in the round's order first."""
    return sorted(order, key=lambda seat: (-bids[seat], order.index(seat)))


def result_of(mechanism: str, now: Round) -> RoundResult:
    """Who won, who was runner-up and who paid what, once the round is over."""
    seats = len(now.order)
    if mechanism in SEALED:
        bids = tuple(now.bids)
        first, second, *_ = ranking(bids, now.order)
        payments = [0] * seats
        if mechanism == "all-pay":
            payments = list(bids)
        else:
            payments[first] = bids[first] if mechanism == "first-price" else bids[second]
        return RoundResult(
            now.number,
            now.order[0],
            bids,
            (None,) * seats,
            first,
            second,
            tuple(payments),
            sum(payments),
        )
    winner, runner_up = now.active[0], now.dropped[-1]
    if mechanism == "mogul":
        payments = tuple(p - c for p, c in zip(now.paid, now.collected, strict=True))
    else:
        payments = tuple(now.pot if s == winner else 0 for s in range(seats))
    return RoundResult(
        now.number,
        now.order[0],
        tuple(now.paid),
        tuple(now.dropped_at),
        winner,
        runner_up,
        payments,
        sum(payments),
    )


def describe_result(result: RoundResult, mechanism: str, names: Sequence[str]) -> str:
    """The round's result in a sentence everyone may read."""
    winner = names[result.winner]
    if mechanism in SEALED:
        bids = ", ".join(f"{names[s]} {b}" for s, b in enumerate(result.bids))
        return (
            f"Round {result.number}: {winner} wins the prize and pays "
            f"{result.payments[result.winner]} (bids: {bids})."
        )
    if mechanism == "mogul":
        return (
            f"Round {result.number}: {winner} wins the prize, having paid "
            f"{result.bids[result.winner]} chips into the pot; {names[result.runner_up]} is "
            "runner-up."
        )
    return f"Round {result.number}: {winner} wins the prize at a price of {result.revenue}."


def round_opened(now: Round, names: Sequence[str]) -> str:
    """The sentence that opens a round (its values are drawn but told to nobody here)."""
    return f"Round {now.number}: each seat has its value; {names[now.order[0]]} starts."
