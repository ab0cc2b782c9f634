"""Play the auction lab in a notebook: the generic session player, with the seat's own
value, budget and running payoff above the buttons and the finished rounds beside them
(drawn by ``mogul.games.auction_lab.display``).

``LabPlayer`` shows what the human seat may see (``state.view(seat)``): its value for this
round's prize, never another seat's; with bots only, every value (nobody's is secret). No
rules live here: the session applies the moves, the game labels them ("Bid 7", "Pay a chip
(pot 3)").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from mogul.games.auction_lab.display import rounds_html, seat_html
from mogul.kit.session import HUMAN
from mogul.widgets.session_player import SessionPlayer

__all__ = ["LabPlayer"]


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
