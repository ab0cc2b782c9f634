"""Plotly figure builders (data in, ``go.Figure`` out) and the kit template."""

from mogul.plots.analysis import position_analysis_figure
from mogul.plots.auction import (
    convergence_figure,
    mechanism_figure,
    payoff_curve_figure,
    pot_ladder_figure,
    winner_regions_figure,
)
from mogul.plots.credit_mobilier import (
    board_figure,
    dividends_figure,
    dividends_to_come_figure,
    stock_figure,
    treasuries_figure,
)
from mogul.plots.editions import sell_right_figure, sell_right_use_figure
from mogul.plots.game import (
    crash_hazard_figure,
    distribution_figure,
    game_pot_ladder_figure,
    holdings_figure,
    market_value_figure,
    scores_figure,
    share_value_figure,
)
from mogul.plots.network import network_figure
from mogul.plots.template import KIT_TEMPLATE, SEAT_COLOURS
from mogul.plots.tournament import head_to_head_figure, win_rate_figure

__all__ = [
    "KIT_TEMPLATE",
    "SEAT_COLOURS",
    "board_figure",
    "convergence_figure",
    "crash_hazard_figure",
    "distribution_figure",
    "dividends_figure",
    "dividends_to_come_figure",
    "game_pot_ladder_figure",
    "head_to_head_figure",
    "holdings_figure",
    "market_value_figure",
    "mechanism_figure",
    "network_figure",
    "payoff_curve_figure",
    "position_analysis_figure",
    "pot_ladder_figure",
    "scores_figure",
    "sell_right_figure",
    "sell_right_use_figure",
    "share_value_figure",
    "stock_figure",
    "treasuries_figure",
    "win_rate_figure",
    "winner_regions_figure",
]
