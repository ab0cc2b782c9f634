"""Mogul's figures: the board (``board``: the game's ``board`` face), one game's charts
(``game``), the charts of the analyses (``analysis``), the 2013 railway map (``network``), the
two editions and the sell right (``editions``)."""

from mogul.plots.mogul.analysis import (
    crash_hazard_figure,
    distribution_figure,
    share_value_figure,
)
from mogul.plots.mogul.board import board_figure
from mogul.plots.mogul.editions import sell_right_figure, sell_right_use_figure
from mogul.plots.mogul.game import (
    game_pot_ladder_figure,
    holdings_figure,
    market_value_figure,
    scores_figure,
)
from mogul.plots.mogul.network import network_figure

__all__ = [
    "board_figure",
    "crash_hazard_figure",
    "distribution_figure",
    "game_pot_ladder_figure",
    "holdings_figure",
    "market_value_figure",
    "network_figure",
    "scores_figure",
    "sell_right_figure",
    "sell_right_use_figure",
    "share_value_figure",
]
