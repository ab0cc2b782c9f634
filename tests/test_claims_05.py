"""Every number notebook 05 (the strategy tournament) states, computed and pinned.

The tournament in the notebook is seeded (seed 2026, 20 repetitions); the Monte-Carlo table
comes from ``benchmarks/tournament_acceptance.py`` (about 45 minutes on two cores, so not
re-run here): its game counts and 95% Wilson intervals are checked against the kit's own
``wilson_interval``, and the claims the prose draws from it against the intervals.
``test_every_number_in_the_prose_is_pinned`` fails when any number in the prose changes.
"""

import inspect
import math
import re

import pytest
from test_auction_claims import prose, prose_numbers, stated

import mogul
from mogul import MonteCarloBot, tournament
from mogul.kit.tournament import Z95, wilson_interval

NB = "05-strategy-tournament"


def play_tournament(bots, **kwargs):
    """``tournament`` on the classic game, whether it takes the game first or not (the kit's
    entry points are being unified: tournament(game, bots, ...))."""
    if "game" in inspect.signature(tournament).parameters:
        return tournament("classic", bots, **kwargs)
    return tournament(bots, **kwargs)


def test_every_seating_of_four_bots_is_24_games():
    result = play_tournament(
        ["random", "threshold", "value", "threshold:drop_at=2"],
        repetitions=1,
        seed=1,
        progress=False,
    )
    assert len(result.games) // result.players == 24 == math.factorial(4)
    assert 24 * 20 == 480  # the notebook's 20 repetitions: 480 games
    stated(NB, "(4 bots at 4 seats: 24 seatings)", '`"threshold:drop_at=2"`')


def test_wilson_interval_and_the_score_interval():
    # 95%: z = 1.96; four times the games, half the width (for the same win rate)
    assert round(Z95, 2) == 1.96
    widths = [wilson_interval(0.4 * n, n) for n in (480, 1920)]
    ratio = (widths[0][1] - widths[0][0]) / (widths[1][1] - widths[1][0])
    assert ratio == pytest.approx(2, abs=0.01)
    stated(
        NB,
        "95% **Wilson score interval** (Wilson 1927)",
        "four times the games, half the width",
        "(mean ± 1.96 standard errors)",
        "*mean rank* (1 = first)",
    )


def test_head_to_head_counts_a_tie_one_half():
    result = play_tournament(
        ["random", "random", "value", "threshold"], repetitions=1, seed=3, progress=False
    )
    h2h = result.head_to_head()
    for a in h2h.index:
        for b in h2h.columns:
            if a != b:  # a tie counts one half for each, so the two shares add up to 1
                assert h2h.loc[a, b] + h2h.loc[b, a] == pytest.approx(1.0)
    stated(NB, "a tie counts one half")


def test_a_monte_carlo_decision_plays_rollouts_times_options_games():
    state = mogul.new_game("classic", players=4, seed=5)
    view = state.view(state.current)
    options = MonteCarloBot(rollouts=200).candidates(view, state.legal_actions())
    assert [str(a) for a in options] == ["bid", "drop"]
    assert 200 * len(options) == 400
    stated(NB, "400 games for one auction decision with 200 rollouts and two options (bid and drop")


TABLE = [  # (games, win rate %, low %, high %) as the notebook prints them
    (2016, "52.9", "50.7", "55.0"),
    (960, "62.4", "59.3", "65.4"),
    (960, "26.8", "24.1", "29.7"),
    (960, "11.1", "9.3", "13.3"),
    (960, "0.0", "0.0", "0.4"),
]


def percent(x: float) -> str:
    return f"{100 * x:.1f}"


@pytest.mark.parametrize(("games", "rate", "low", "high"), TABLE)
def test_the_monte_carlo_table_intervals_are_wilson_intervals(games, rate, low, high):
    # some whole number of wins gives the printed rate and exactly the printed interval
    fits = [
        w
        for w in range(games + 1)
        if percent(w / games) == rate
        and tuple(map(percent, wilson_interval(w, games))) == (low, high)
    ]
    assert fits, (games, rate, low, high)
    stated(NB, f"| {games:,} | {rate}% | {low}–{high}% |")


def test_the_value_bots_row_and_the_game_counts():
    # each ValueBot 16.0-16.1% of 2,016 games; interval from the lowest to the highest
    lows = [
        w
        for w in range(2017)
        if percent(w / 2016) == "16.0" and percent(wilson_interval(w, 2016)[0]) == "14.5"
    ]
    highs = [
        w
        for w in range(2017)
        if percent(w / 2016) == "16.1" and percent(wilson_interval(w, 2016)[1]) == "17.7"
    ]
    assert lows and highs
    assert (24 * 84, 24 * 40) == (2016, 960)  # 84 and 40 repetitions of the 24 seatings
    stated(
        NB,
        "| each `ValueBot` | 2,016 | 16.0–16.1% | 14.5–17.7% |",
        "(seed 2026, `MonteCarloBot` with 8 rollouts; 84 and 40 repetitions of the 24 seatings",
    )
    # the claims drawn from the table: intervals apart
    assert float("50.7") > float("17.7")  # mc-8 clearly ahead of each ValueBot
    assert float("29.7") < float("59.3")  # at the mixed table, clearly behind the ValueBot
    text = " ".join(prose(NB).split())
    assert "the Monte-Carlo bot wins clearly" in text and "falls well behind the `ValueBot`" in text


def test_the_shareholder_limit_and_the_crash_rule():
    stated(
        NB,
        "it bids while the pot is smaller than 2 plus the shares it already owns",
        "the crash card lies in the last five cards",
    )
    assert re.search(r"limit = 2 \+ view\.me\.shares", open_code())
    state = mogul.new_game("classic", players=4, seed=5)
    assert state.view(state.current).crash_chance() == 0.0  # far from the end: no chance yet


def open_code() -> str:
    import json

    from test_auction_claims import NOTEBOOKS

    cells = json.loads((NOTEBOOKS / f"{NB}.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


PROSE_NUMBERS_05 = """
05 95% two 1984 one
one two
five
one 2 once
one three
One 4 4 24 2 one
95% 1927 1 four half 95% 1.96 1 Two
one half
400 one 200 two Two four 2026 8 84 40 24 95% 95% three 8 2,016 52.9% 50.7 55.0% 2,016 16.0 16.1% 14.5 17.7% 960 62.4% 59.3 65.4% 8 960 26.8% 24.1 29.7% 3 960 11.1% 9.3 13.3% 960 0.0% 0.0 0.4%
2
8786 100 50 2 1 2 2 three 3 4 4 2000
"""


def test_every_number_in_the_prose_is_pinned():
    # One line per markdown cell; the tests above compute the numbers that are claims.
    assert prose_numbers(NB) == PROSE_NUMBERS_05.strip()
