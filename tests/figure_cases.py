"""Every figure the kit draws, built from small real data: for the layout tests.

``FIGURES`` maps a case name to a function that builds the figure; ``BUILDERS`` names the
public builder each case covers, so a test can check that every builder in ``mogul.plots``
has a case. The live figures of the widgets are here too.
"""

from __future__ import annotations

from functools import cache

import plotly.graph_objects as go

import mogul
import mogul.analysis.mogul as analysis
import mogul.credit_mobilier as cm
from mogul.analysis.credit_mobilier import by_turn, marginal_by_turn, marginal_values, share_values
from mogul.auction import (
    best_response_dynamics,
    compare_mechanisms,
    draw_values,
    payoff_curves,
    solve,
    uniform_values,
    winner_map,
)
from mogul.kit.record import GameRecord
from mogul.kit.simulate import simulate
from mogul.plots import (
    convergence_figure,
    head_to_head_figure,
    mechanism_figure,
    payoff_curve_figure,
    position_analysis_figure,
    pot_ladder_figure,
    win_rate_figure,
    winner_regions_figure,
)
from mogul.plots.credit_mobilier import (
    board_figure,
    dividends_figure,
    dividends_to_come_figure,
    marginal_value_figure,
    stock_figure,
    treasuries_figure,
)
from mogul.plots.mogul.board import board_figure as mogul_board_figure
from mogul.plots.mogul.board import network_figure
from mogul.plots.mogul.game import (
    crash_hazard_figure,
    distribution_figure,
    game_pot_ladder_figure,
    holdings_figure,
    market_value_figure,
    scores_figure,
    sell_right_figure,
    sell_right_use_figure,
    share_value_figure,
)
from mogul.widgets.credit_mobilier import CreditMobilierPlayer
from mogul.widgets.mogul import GamePlayer

CLASSIC = mogul.edition("classic")
VALUES = [(10, 3, 0), (8, 2, 0), (6, 1, 0)]


@cache
def game() -> GameRecord:
    """A whole game of four value bots, with credits and sales (notebook 04's game)."""
    return mogul.play(
        mogul.new_game("classic", players=4, seed=12), [mogul.ValueBot() for _ in range(4)]
    )


@cache
def played() -> GamePlayer:
    """A human seat against three bots, two rounds in: the play page's live charts."""
    app = GamePlayer(
        "classic", ["human", "value", "value", "value"], seed=3, payoff_curve=True, dashboard=True
    )
    app.act(mogul.BID)
    return app


def rio_grande_table():
    """A 2013 table with houses on the map, one of them on an interchange."""
    houses = [["BR1", "GR-BR", "BR3"], ["YE2", "BL2"], [], ["BL-PI"]]
    return mogul.new_game("rio-grande", players=4, seed=7, houses=houses)


@cache
def editions_compared():
    """A few games of each edition with value bots (notebook 06 plays more)."""
    return analysis.compare_editions(["value"], games=8, seed=1)


@cache
def _rio_grande_uses():
    return analysis.sell_right_table("rio-grande", ["value"], games=8, seed=1, players=4)


@cache
def contest() -> mogul.Tournament:
    return mogul.tournament(
        "classic", ["value", "threshold", "random"], repetitions=2, seed=1, progress=False
    )


@cache
def sample():
    return draw_values(
        uniform_values(win=(2, 10), second=(0, 3), step=1), seats=3, samples=40, seed=1
    )


@cache
def dynamics():
    return best_response_dynamics(sample(), chips=[4, 4, 4], chip_value=1.0)


@cache
def _position():
    """The analysis of an auction turn in the middle of notebook 04's game."""
    states = list(game().states())
    return analysis.analyse_position(states[len(states) // 2], rollouts=200, seed=1)


def _rounds():
    return game().table("rounds")


@cache
def cm_game() -> GameRecord:
    """A whole Credit Mobilier game of three dividend bots."""
    return mogul.play(cm.new_game(3, seed=11), [cm.DividendBot() for _ in range(3)])


def cm_midgame():
    """A Credit Mobilier table 60 steps in: track of every colour, pawns on the move."""
    return list(cm_game().states())[60]


@cache
def cm_player() -> CreditMobilierPlayer:
    """A human seat against two dividend bots, after the first human action."""
    app = CreditMobilierPlayer("credit-mobilier", ["human", "dividend", "dividend"], seed=5)
    app.buttons()[0].click()
    return app


@cache
def cm_study():
    sim = simulate(
        "credit-mobilier",
        ["dividend", "random", "dividend"],
        games=10,
        seed=1,
        tables=("games", "treasuries", "dividends"),
        progress=False,
    )
    return by_turn(share_values(sim.treasuries, sim.dividends))


FIGURES = {
    "market_value": lambda: market_value_figure(_rounds(), CLASSIC, game().table("auctions")),
    "holdings": lambda: holdings_figure(_rounds(), CLASSIC),
    "scores": lambda: scores_figure(_rounds()),
    "score_track": lambda: scores_figure(_rounds(), track=True),
    "game_pot_ladder": lambda: game_pot_ladder_figure(list(game().states()), 2),
    "crash_hazard": lambda: crash_hazard_figure(analysis.crash_hazard(game().initial_state())),
    "distribution": lambda: distribution_figure(
        [3, 4, 4, 7], title="Scores", x_title="final score"
    ),
    "distributions": lambda: distribution_figure({"all players": [1, 2, 2], "winners": [2, 3]}),
    "distributions_intervals": lambda: distribution_figure(
        {"all players": [1, 2, 2], "winners": [2, 3]}, intervals=True
    ),
    "share_value": lambda: share_value_figure(
        analysis.by_round(analysis.share_values(_rounds())), CLASSIC
    ),
    "win_rate": lambda: win_rate_figure(contest().summary()),
    "head_to_head": lambda: head_to_head_figure(contest().head_to_head()),
    "payoff_curve": lambda: payoff_curve_figure(
        {f"seat {i}": df for i, df in payoff_curves(VALUES, [3, 3, 3]).items()}
    ),
    "payoff_curve_cut": lambda: payoff_curve_figure(  # as notebook 02: the k axis cut at 4
        {f"seat {i}": df for i, df in payoff_curves(VALUES, [3, 3, 3]).items()}, x_max=4
    ),
    "pot_ladder": lambda: pot_ladder_figure(solve(VALUES, [3, 3, 3], start=0).path),
    "convergence": lambda: convergence_figure(dynamics().trace),
    "mechanism": lambda: mechanism_figure(compare_mechanisms(sample(), chips=[4, 4, 4])),
    "live_dashboard": lambda: go.Figure(played().dashboard.market),
    "live_auction": lambda: go.Figure(played().auction_chart),
    "live_payoff_curve": lambda: go.Figure(played().curve),
    "network": lambda: network_figure(rio_grande_table(), highlight="BL-PI"),
    "mogul_board": lambda: mogul_board_figure(list(game().states())[20]),
    "mogul_board_2013": lambda: mogul_board_figure(rio_grande_table()),
    "sell_right": lambda: sell_right_figure(analysis.sell_right_by_fill(_rio_grande_uses())),
    "sell_right_use": lambda: sell_right_use_figure(
        analysis.use_shares(editions_compared()["uses"])
    ),
    "cm_board": lambda: board_figure(cm_midgame(), cm_midgame().legal_actions()),
    "cm_board_start": lambda: board_figure(cm.new_game(5, seed=2)),
    "cm_treasuries": lambda: treasuries_figure(cm_game().table("treasuries")),
    "cm_dividends": lambda: dividends_figure(
        cm_game().table("dividends"), cm_game().initial_state().names
    ),
    "cm_stock": lambda: stock_figure(cm_game().table("holdings")),
    "cm_dividends_to_come": lambda: dividends_to_come_figure(cm_study()),
    "cm_marginal_value": lambda: marginal_value_figure(
        marginal_by_turn(marginal_values("dividend", games=3, players=3, seed=1, turns=(1, 10)))
    ),
    "live_cm_board": lambda: go.Figure(cm_player().board),
    "winner_regions": lambda: winner_regions_figure(
        winner_map(
            [(10, 3, 0), (8, 2, 0), (6, 1, 0)],
            [3, 3, 3],
            seat=2,
            win_values=[5, 6, 7],
            low=0.5,
            high=2,
        )
    ),
    "position_analysis": lambda: position_analysis_figure(
        _position(), chosen=_position()["action"].iloc[0]
    ),
}

BUILDERS = {
    "market_value": "market_value_figure",
    "holdings": "holdings_figure",
    "scores": "scores_figure",
    "game_pot_ladder": "game_pot_ladder_figure",
    "crash_hazard": "crash_hazard_figure",
    "distribution": "distribution_figure",
    "share_value": "share_value_figure",
    "win_rate": "win_rate_figure",
    "head_to_head": "head_to_head_figure",
    "payoff_curve": "payoff_curve_figure",
    "pot_ladder": "pot_ladder_figure",
    "convergence": "convergence_figure",
    "mechanism": "mechanism_figure",
    "winner_regions": "winner_regions_figure",
    "position_analysis": "position_analysis_figure",
    "network": "network_figure",
    "mogul_board": "board_figure",
    "sell_right": "sell_right_figure",
    "sell_right_use": "sell_right_use_figure",
    "cm_board": "board_figure",
    "cm_treasuries": "treasuries_figure",
    "cm_dividends": "dividends_figure",
    "cm_stock": "stock_figure",
    "cm_dividends_to_come": "dividends_to_come_figure",
    "cm_marginal_value": "marginal_value_figure",
}
