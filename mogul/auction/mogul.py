"""The auction of a live game: values read from the table, and the equilibrium of the rest."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from mogul.auction.curves import payoff_curve
from mogul.auction.model import PLACES, Outcome, Step
from mogul.auction.solve import _Game
from mogul.games.mogul.pile import premium_outlook


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

    ``method="montecarlo"`` asks the same question of the batch simulator
    (``mogul.games.mogul.fast``), with less noise: every rollout deals one hidden pile and
    settles the auction on it in every way (each ordered pair of active seats as winner and
    runner-up, the others out), so each place is averaged over all the seats that could hold
    the others. ValueBots play every seat. Thousands of rollouts take a fraction of a second;
    an edition the batch simulator does not play falls back to ``"rollout"``.

    No credit is modelled (see the module docstring).
    """
    if method not in ("heuristic", "rollout", "montecarlo"):
        raise ValueError(f"method must be 'heuristic', 'rollout' or 'montecarlo'; got {method!r}")
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
        values = _montecarlo_values(state, rollouts, seed) if method == "montecarlo" else None
        values = values or _rollout_values(state, rollouts, seed)
    return LiveAuction(
        values,
        tuple(p.chips for p in state.players),
        tuple(state.in_auction),
        state.current_player,
        state.pot,
        float(chip_value),
        method,
    )


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

    from mogul.games.mogul.bots import ValueBot
    from mogul.games.mogul.determinize import determinize
    from mogul.games.mogul.rules import settle_auction
    from mogul.kit.bots import play_out

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
                ended = settle_auction(table, winner, runner_up)
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


def _montecarlo_values(
    state, rollouts: int, seed: int
) -> tuple[tuple[float, float, float], ...] | None:
    """Mean final scores per seat and place from the batch simulator; None if it cannot play."""
    import numpy as np

    from mogul.games.mogul import fast

    try:
        fast.check_edition(state.edition)
    except ValueError:
        return None
    n = len(state.players)
    active = list(state.in_auction)
    pairs = [(w, r) for w in active for r in active if w != r]
    view = state.view(state.current_player)
    scores, _ = fast.rollouts(view, [None] * len(pairs), rollouts, "value", seed, settle=pairs)
    mean = scores.mean(axis=0)  # branch x seat

    def average(branches: list[int], seat: int) -> float:
        return float(np.mean(mean[branches, seat]))

    out = []
    for seat in range(n):
        if seat not in active:
            last = average(list(range(len(pairs))), seat)
            out.append((last, last, last))
            continue
        win = average([b for b, (w, _) in enumerate(pairs) if w == seat], seat)
        second = average([b for b, (_, r) in enumerate(pairs) if r == seat], seat)
        others = [b for b, (w, r) in enumerate(pairs) if seat not in (w, r)]
        out.append((win, second, average(others, seat) if others else second))
    return tuple(out)


def chain_payoff_curve(
    states: Sequence,
    seat: int,
    chip_value: float | None = None,
    method: str = "heuristic",
    rollouts: int = 10_000,
    seed: int = 0,
) -> pd.DataFrame | None:
    """``seat``'s payoff curve for the auction on the table, from the start of the current chain.

    A *chain* is the run of bids since the pot was last empty (the auction's start or the last
    drop). From its first state the players still in play a fresh auction among themselves
    (those who left are out for good), so ``payoff_curve`` applies exactly: the seat's payoff
    from "drop when the pot reaches k" while the others play the equilibrium, with (win,
    second, out) values from ``values_from_state`` (the table heuristic; ``chip_value``
    defaults to its end-of-game value). ``states`` (``mogul.GameState`` s) is the game so far,
    oldest first. Returns None unless the last state is an auction that ``seat`` is in. The
    model has no credit (see ``mogul.auction``). ``method="montecarlo"`` takes the values
    from ``rollouts`` games of the batch simulator instead (see ``values_from_state``).
    """
    now = states[-1]
    if now.phase != "auction" or seat not in now.in_auction:
        return None
    start = next(
        s for s in reversed(states) if s.round == now.round and s.phase == "auction" and s.pot == 0
    )
    live = values_from_state(start, method, chip_value, rollouts, seed)
    active = list(start.in_auction)
    return payoff_curve(
        [live.values[i] for i in active],
        [live.chips[i] for i in active],
        seat=active.index(seat),
        start=active.index(start.current),
        chip_value=live.chip_value,
    )
