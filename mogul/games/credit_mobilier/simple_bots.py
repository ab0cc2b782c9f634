"""Credit Mobilier's bots that read the table alone: ``DividendBot`` and the seat's worth.

They sit below the batch simulator (``fast.py``), which plays ``DividendBot`` too;
``bots.py`` above it lists every bot and adds ``MonteCarloBot``, whose rollouts the batch
simulator can play (classic Mogul's bots are split the same way).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mogul.games.credit_mobilier.actions import Action, Build, Buy, EndTurn, Move, PayRound
from mogul.games.credit_mobilier.board import WEST, board
from mogul.games.credit_mobilier.components import COMPANIES, CREDIT_MOBILIER
from mogul.games.credit_mobilier.rules import (
    BUILD_PAYMENT,
    STOCK_PRICE,
    WEST_INCOME,
    GameState,
    PlayerView,
    pay_round,
)

ACTIONS = (Build, Move, Buy, PayRound, EndTurn)
"""The options of the game: the bots know every one."""


def stake(table: GameState | PlayerView, seat: int, company: str) -> float:
    """The part of ``company`` the seat owns: its shares over all shares held (0 when none are)."""
    held = sum(s[company] for s in table.stocks)
    return table.stocks[seat][company] / held if held else 0.0


def worth(table: GameState | PlayerView, seat: int, treasury_weight: float = 1.0) -> float:
    """Cash plus ``treasury_weight`` times the seat's stake in every treasury.

    With weight 1: what the seat would have if every treasury were paid out now. Money left
    in a treasury at the end is lost, so a lower weight counts it as only partly the seat's.
    """
    held = sum(stake(table, seat, c) * table.treasuries[c] for c in COMPANIES)
    return table.money[seat] + treasury_weight * held


class DividendBot:
    """Buys what pays and pays out what it owns: each unit action valued in dollars for this seat.

    * **pay a round**: the dollars it pays this seat, minus ``rival_weight`` (default 0.5)
      times the most it pays any other player. Paying is good (only cash scores: what stays
      in a treasury is lost at the end), a rival gaining more than the seat is bad. The
      rival's dollars count at only half weight: counted in full, a round that pays every
      seat alike (everyone starts with one purple share) is worth nothing, the bots never
      pay out, and in 66% of 200 games of three such bots every player ended with $0;
    * **buy a share**: the treasury's dollars per share once the share is bought, minus its $1
      price: a share is worth buying while the treasury holds more than a dollar for each;
    * **move a good west** ($2 to the pawn's company, $2 to the track's owner) and **build**
      ($2 to the Credit Mobilier): the seat's stake in the companies paid, times the dollars;
      north or south moves and ending the turn are worth nothing.

    It takes the action worth most (the first on a tie); it ends the turn when nothing is
    worth more than that. A simple rule of thumb, not an optimum: it ignores the dice to come.
    With weight 0.5, in 200 games of three such bots (seed 0) no game ended with every
    player at $0, mean final cash was $79 and games lasted 96 turns (random play: $11,
    142 turns); one of them against two ``RandomBot``s won 93.5% of 200 games. In three-bot
    games with weights 1, 0.5 and 0 in every seating order it won most often (44%).
    """

    traits = {"stochastic": False, "lookahead": False}
    understands = ACTIONS

    def __init__(self, rival_weight: float = 0.5, seed: int | None = None):
        if (
            isinstance(rival_weight, bool)
            or not isinstance(rival_weight, int | float)
            or not 0 <= rival_weight <= 1
        ):
            raise ValueError(f"rival_weight must be a number from 0 to 1, got {rival_weight!r}")
        self.rival_weight = rival_weight
        self.name = "dividend" + ("" if rival_weight == 0.5 else f"-rw{rival_weight:g}")
        self.rng = random.Random(seed)  # unused: the bot is deterministic

    def value(self, view: PlayerView, action: Action) -> float:
        """The action's worth in dollars for the viewing seat (see the class docstring)."""
        seat = view.seat
        if isinstance(action, Move):
            b = board()
            if b.direction(action.from_space, action.to_space) != WEST:
                return 0.0
            owner = dict(view.track)[b.between(action.from_space, action.to_space).id]
            return WEST_INCOME * (stake(view, seat, action.colour) + stake(view, seat, owner))
        if isinstance(action, Build):
            return BUILD_PAYMENT * stake(view, seat, CREDIT_MOBILIER)
        if isinstance(action, PayRound):
            paid, _, _ = pay_round(
                view.stocks, view.treasuries[action.company], view.current, action.company
            )
            rival = max(p for other, p in enumerate(paid) if other != seat)
            return paid[seat] - self.rival_weight * rival
        if isinstance(action, Buy):
            c = action.company
            return view.treasuries[c] / (view.shares_held(c) + 1) - STOCK_PRICE
        return 0.0

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The action worth most (the first of equals); ending the turn when nothing is worth more."""
        return max(legal_actions, key=lambda action: self.value(view, action))
