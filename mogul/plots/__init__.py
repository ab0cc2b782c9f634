"""Plotly figure builders (data in, ``go.Figure`` out): the generic ones and one place per game.

Generic, here: the kit template (``template``), the auction model's figures (``auction``),
tournaments (``tournament``) and "analyse this position" for any game (``analysis``). Each
game's figures live in its own module or folder, ``mogul.plots.<game>``, named as the game's
folder in ``mogul/games/``. A game's spec names its board figure
(``GameSpec.faces["board"]``), so a page can draw any game.
"""

from mogul.plots.analysis import position_analysis_figure, position_traces
from mogul.plots.auction import (
    convergence_figure,
    mechanism_figure,
    payoff_curve_figure,
    pot_ladder_figure,
    winner_regions_figure,
)
from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS
from mogul.plots.tournament import head_to_head_figure, win_rate_figure

__all__ = [
    "KIT_TEMPLATE",
    "SEAT_COLOURS",
    "convergence_figure",
    "head_to_head_figure",
    "mechanism_figure",
    "payoff_curve_figure",
    "position_analysis_figure",
    "position_traces",
    "pot_ladder_figure",
    "win_rate_figure",
    "winner_regions_figure",
]
