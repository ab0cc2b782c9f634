"""Play the auction lab in a notebook: the generic session player, with the seat's own
value, budget and running payoff above the buttons and the finished rounds beside them.

``LabPlayer`` shows what the human seat may see (``state.view(seat)``): its value for this
round's prize, never another seat's; with bots only, every value (nobody's is secret). No
rules live here: the session applies the moves, the game labels them ("Bid 7", "Pay a chip
(pot 3)").
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from mogul.games.auction_lab.rules import TITLES, LabState
from mogul.kit.session import HUMAN
from mogul.widgets.session_player import SessionPlayer

__all__ = ["LabPlayer"]


def seat_html(state: LabState, seat: int | None) -> str:
    """The seat's value, budget and running payoff (every value when ``seat`` is None)."""
    title = f"{TITLES[state.mechanism]}, round {min(state.round, state.setup.rounds)} of {state.setup.rounds}"
    if state.is_over:
        mine = "the session is over: " + ", ".join(
            f"{name} {score}" for name, score in zip(state.names, state.final_scores(), strict=True)
        )
    elif seat is None:
        mine = "values: " + ", ".join(
            f"{name} {v}" for name, v in zip(state.names, state.value, strict=True)
        )
    else:
        view = state.view(seat)
        value = "" if view.value is None else f"your value: <b>{view.value}</b>, "
        mine = f"{value}budget {view.budget}, your payoff so far: <b>{view.payoff}</b>"
    return f"<div class='mogul-lab-seat'><b>{html.escape(title)}</b><br>{mine}</div>"


def rounds_html(state: LabState) -> str:
    """The finished rounds, as everyone sees them: bids (or chips paid), winner, payments."""
    rows = "".join(
        f"<tr><td>{r.number}</td><td>{html.escape(state.names[r.winner])}</td>"
        f"<td>{', '.join(map(str, r.bids))}</td><td>{', '.join(map(str, r.payments))}</td></tr>"
        for r in state.results
    )
    head = "<tr><th>round</th><th>winner</th><th>bids</th><th>payments</th></tr>"
    return f"<table class='mogul-lab-rounds'>{head}{rows}</table>" if rows else ""


class LabPlayer(SessionPlayer):
    """A session of the auction lab with human and bot seats, stepped by buttons.

    ``game``: an edition of "auction-lab" ("first-price-auction" ...); ``seats``: ``"human"``
    or a bot name ("equilibrium", "naive", "random") per seat; ``seed`` deals the values;
    setup keywords (``rounds``, ``values``, ``budget`` ...) go to the game's ``new_game``.
    """

    stage_word = "round"

    def __init__(
        self,
        game: str = "mogul-auction",
        seats: Sequence[Any] = (HUMAN, "equilibrium", "equilibrium"),
        seed: int = 0,
        **options: Any,
    ) -> None:
        self.seat_box = w.HTML(layout=w.Layout(width="100%", margin="2px 0"))
        self.rounds_box = w.HTML(layout=w.Layout(width="100%"))
        super().__init__(game, seats, seed, **options)

    def side_top(self) -> list[w.Widget]:
        return [self.seat_box]

    def side(self) -> list[w.Widget]:
        return [self.rounds_box]

    def draw(self, state: Any, deciding: bool) -> None:
        shown = self.viewer if self.viewer is not None else next(iter(self.humans), None)
        self.seat_box.value = seat_html(state, shown)
        self.rounds_box.value = rounds_html(state)
