"""The toy race at the screen: the generic session player, with the race track beside the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from mogul.kit.session import HUMAN
from mogul.widgets.session_player import SessionPlayer
from toy_game.board import race_figure


class RacePlayer(SessionPlayer):
    """A counting race with human and bot seats: buttons, table and a live track."""

    def __init__(
        self,
        game: str = "toy-race",
        seats: Sequence[Any] = (HUMAN, "perfect"),
        seed: int = 0,
        **options: Any,
    ) -> None:
        super().__init__(game, seats, seed, **options)

    def side(self) -> list:
        self.track = go.FigureWidget(race_figure(self.session.state))
        return [self.track]

    def draw(self, state: Any, deciding: bool) -> None:
        fresh = race_figure(state)
        with self.track.batch_update():
            self.track.data[0].x = fresh.data[0].x
            self.track.data[0].marker.color = fresh.data[0].marker.color
            self.track.layout.title.text = fresh.layout.title.text
