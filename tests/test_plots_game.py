"""Game figures: the right traces, the right numbers, the companies' colours, small JSON."""

import pandas as pd
import plotly.graph_objects as go
import pytest

import mogul
import mogul.analysis.mogul as analysis
from mogul.kit.record import GameRecord
from mogul.plots.mogul.game import (
    auction_steps,
    crash_hazard_figure,
    distribution_figure,
    game_pot_ladder_figure,
    holdings_figure,
    market_value_figure,
    scores_figure,
    share_value_figure,
)
from mogul.plots.template import KIT_TEMPLATE

CLASSIC = mogul.edition("classic")


@pytest.fixture(scope="module")
def opening():
    return GameRecord.load("rulebook-opening")


def by_name(fig: go.Figure, name: str):
    (trace,) = [t for t in fig.data if t.name == name]
    return trace


def test_market_value_figure_lines_colours_and_sales(opening):
    fig = market_value_figure(opening.table("rounds"), CLASSIC, opening.table("auctions"))
    assert fig.layout.template == KIT_TEMPLATE
    brown = by_name(fig, "brown")  # colour words, as on cards and buttons
    assert "Great Northern" in brown.hovertemplate  # the railroad in the hover
    assert list(brown.x) == [1, 2, 3, 4] and list(brown.y) == [4, 5, 3, 3]  # 4: the crash row
    assert brown.line.color == CLASSIC.colours()["brown"]
    sale = by_name(fig, "sale")
    assert list(sale.x) == [2] and list(sale.y) == [5]
    assert list(sale.text) == ["Ann sells 2 brown at 5"]
    assert len(fig.data) == 5 + 1


def test_market_value_figure_without_sales(opening):
    fig = market_value_figure(opening.table("rounds"))
    assert list(by_name(fig, "sale").x) == []


def test_holdings_figure_stacks_companies_per_player(opening):
    fig = holdings_figure(opening.table("rounds"), CLASSIC)
    assert fig.layout.barmode == "stack" and fig.layout.title.text == "Shares held, round 4"
    assert list(by_name(fig, "brown").x) == ["Ann", "Ben", "Cai", "Dee"]
    assert list(by_name(fig, "brown").y) == [0, 1, 1, 1]  # Ann sold both of hers
    assert list(by_name(fig, "green").y) == [0, 0, 0, 1]
    assert list(by_name(fig, "pink").y) == [0, 0, 1, 0]
    assert by_name(fig, "green").marker.color == CLASSIC.colours()["green"]


def test_scores_figure_and_the_track():
    rounds = pd.DataFrame(
        {
            "round": [1, 1, 2, 2],
            "seat": [0, 1, 0, 1],
            "player": ["Ann", "Ben"] * 2,
            "points": [30, 1, 35, 2],
            "score": [31, 2, 36, 3],
        }
    )
    fig = scores_figure(rounds)
    assert [list(t.y) for t in fig.data] == [[31, 36], [2, 3]]
    track = scores_figure(rounds, score_track=32, track=True)
    assert list(track.data[0].y) == [30, 3]  # 35 points: once round the track, space 3
    assert list(track.data[0].customdata[1]) == [35, 36, 3]


def test_pot_ladder_of_a_game_auction(opening):
    states = list(opening.states())
    steps = auction_steps(states, 1)
    assert [(s.seat, s.action, s.pot) for s in steps] == [
        (0, "bid", 0),
        (1, "bid", 1),
        (2, "drop", 2),
        (3, "drop", 0),
        (0, "bid", 0),
        (1, "drop", 1),
    ]
    fig = game_pot_ladder_figure(states, 1)
    assert list(fig.data[0].y) == [0, 1, 2, 0, 0, 1]
    assert "Cai takes 2" in list(fig.data[2].text)
    assert fig.layout.title.text == "The auction of round 1"


def test_crash_hazard_figure():
    fig = crash_hazard_figure(analysis.crash_hazard(mogul.new_game("classic", players=4, seed=7)))
    bars, line = fig.data
    assert list(bars.y)[-5:] == [0.2] * 5 and sum(bars.y) == pytest.approx(1)
    assert list(line.y)[-5:] == [0.2, 0.25, 0.3333, 0.5, 1.0]


def test_distribution_figure_counts_whole_values():
    fig = distribution_figure([3, 3, 4, 7.2], title="t", x_title="score")
    assert list(fig.data[0].x) == [3, 4, 7] and list(fig.data[0].y) == [0.5, 0.25, 0.25]
    two = distribution_figure({"all": [1, 2], "winners": [2]})
    assert [t.name for t in two.data] == ["all", "winners"] and two.layout.barmode == "overlay"
    two = distribution_figure({"all": [1, 2], "winners": [2]}, intervals=True)
    # each group: bars named with the mean and its 95% interval, then a diamond at the mean
    assert [t.name for t in two.data] == [
        "all: mean 1.50 (0.52 to 2.48)",
        "winners: mean 2.00 (2.00 to 2.00)",
        "all mean",
        "winners mean",
    ] and two.layout.barmode == "overlay"
    assert two.data[2].x == (1.5,) and two.data[2].error_x.value == 0.98


def test_share_value_figure_and_a_small_json(opening):
    avg = analysis.by_round(analysis.share_values(opening.table("rounds")))
    fig = share_value_figure(avg, CLASSIC)
    assert len(fig.data) == 2 * 5 + 2  # two lines per company, and a key to the two line styles
    assert (
        fig.data[0].name == "brown"
        and fig.data[1].line.dash == "dash"
        and not fig.data[1].showlegend
    )
    assert [t.name for t in fig.data if t.showlegend is not False] == [
        *CLASSIC.company_ids,
        "market value",
        "premiums to come",
    ]
    assert len(fig.to_json()) < 6000


def test_scores_are_scores_and_the_track_says_it_wraps():
    rounds = pd.DataFrame(
        {
            "round": [1, 2],
            "seat": [0, 0],
            "player": ["Cai"] * 2,
            "points": [0, -2],
            "score": [1, -1],
        }
    )
    fig = scores_figure(rounds)
    assert list(fig.data[0].y) == [1, -1]  # after a credit the score is negative, not 30
    assert fig.layout.yaxis.title.text == "score (points,<br>plus 1 per 5 chips)"
    track = scores_figure(rounds, track=True)
    assert list(track.data[0].y) == [0, 30] and "wraps around" in track.layout.yaxis.title.text


def test_game_pot_ladder_has_a_legend_of_players(opening):
    fig = game_pot_ladder_figure(list(opening.states()), 1)
    legend = [t for t in fig.data if t.showlegend is not False]
    assert [t.name for t in legend] == ["Ann", "Ben", "Cai", "Dee"]
    assert all(t.cliponaxis is False for t in fig.data)
