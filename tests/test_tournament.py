"""Tournaments: the schedule, the statistics, and identical results on every executor."""

import math
import random
from functools import partial

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mogul.games.mogul.bots import ThresholdBot
from mogul.kit.tournament import Tournament, mean_interval, seatings, tournament, wilson_interval

LINEUP = ["value", "threshold", "random", "threshold:drop_at=1"]


class FirstOption:
    """A student's bot, as a plain class with no seed: always the first legal action."""

    name = "first"

    def choose(self, view, legal_actions):
        return legal_actions[0]


class CoinFlip:
    """A student's bot with a seed: bids or drops on a coin flip, takes when it can."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, view, legal_actions):
        options = [a for a in legal_actions if str(a) in ("bid", "drop", "take")] or legal_actions
        return self.rng.choice(options)


@pytest.fixture(scope="module")
def small() -> Tournament:
    return tournament("classic", LINEUP, repetitions=2, seed=7, progress=False)


def test_schedule_seats_everyone_everywhere():
    planned = list(seatings(4, 4, 2))
    assert len(planned) == 48 and len(set(planned)) == 24
    for seat in range(4):
        assert sorted(s[seat] for s in planned[:24]) == [b for b in range(4) for _ in range(6)]
    assert len(list(seatings(5, 3, 1))) == 5 * 4 * 3


def test_results_table(small):
    summary = small.summary()
    assert list(summary.columns) == [
        "games",
        "wins",
        "win_rate",
        "win_low",
        "win_high",
        "mean_score",
        "score_low",
        "score_high",
        "mean_rank",
    ]
    assert sorted(summary.index) == sorted(["value", "threshold-3", "random", "threshold-1"])
    assert (summary["games"] == 48).all()
    assert (summary["win_low"] <= summary["win_rate"]).all() and (
        summary["win_rate"] <= summary["win_high"]
    ).all()
    assert (summary["score_low"] <= summary["mean_score"]).all()
    assert summary["win_rate"].is_monotonic_decreasing
    assert summary["wins"].sum() >= 48
    assert len(small.games) == 48 * 4


def test_head_to_head_is_complementary(small):
    h2h = small.head_to_head()
    assert list(h2h.index) == list(h2h.columns) == list(small.summary().index)
    for a in small.entrants:
        assert math.isnan(h2h.loc[a, a])
        for b in small.entrants:
            if a != b:
                assert h2h.loc[a, b] + h2h.loc[b, a] == pytest.approx(1)


def test_identical_in_process_and_on_a_two_worker_pool(small):
    pooled = tournament(
        "classic", LINEUP, repetitions=2, seed=7, workers=2, progress=False, chunk_size=5
    )
    pd.testing.assert_frame_equal(pooled.games, small.games)
    pd.testing.assert_frame_equal(pooled.summary(), small.summary())


def test_identical_on_a_dask_cluster(small):
    import dask
    from dask.distributed import Client, LocalCluster

    # Forked workers start in about a second; spawned ones each start a fresh interpreter.
    with (
        dask.config.set({"distributed.worker.multiprocessing-method": "fork"}),
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        on_dask = tournament(
            "classic", LINEUP, repetitions=2, seed=7, executor=client.get_executor(), progress=False
        )
    pd.testing.assert_frame_equal(on_dask.games, small.games)


def test_student_bots_enter_without_registration():
    result = tournament(
        "classic",
        [FirstOption, CoinFlip, partial(ThresholdBot, 2)],
        repetitions=1,
        seed=1,
        progress=False,
    )
    assert set(result.entrants) == {"first", "CoinFlip", "threshold-2"}
    assert len(result.games) == 6 * 3


def test_the_same_bot_twice_gets_a_suffix():
    result = tournament(
        "classic", ["value", "value", "random"], repetitions=1, seed=1, progress=False
    )
    assert result.entrants == ("value", "value 2", "random")


def test_more_entrants_than_seats():
    result = tournament("classic", LINEUP, players=3, repetitions=1, seed=2, progress=False)
    assert len(result.games) == 4 * 3 * 2 * 3
    assert (result.summary()["games"] == 18).all()


def test_unpicklable_bot_on_a_pool_explains_what_to_do():
    lineup = [lambda seed: ThresholdBot(2, seed), "random", "value"]
    with pytest.raises(Exception) as info:
        tournament("classic", lineup, repetitions=1, seed=1, workers=2, progress=False)
    assert "put the class in a .py file" in "".join(getattr(info.value, "__notes__", []))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 7}, "3 to 6 players"),
        ({"players": 5}, "cannot fill 5 seats"),
        ({"repetitions": 0}, "repetitions"),
        ({"secret": -1}, r"secret must be a whole number >= 0 \(or None\), got -1"),
        ({"secret": "1"}, "secret must be a whole number"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tournament("classic", LINEUP, **kwargs)


def test_wilson_interval_known_values():
    # Brown, Cai & DasGupta (2001), and by hand: 0 of 10 -> (0, 0.2775); 5 of 10 -> (0.2366, 0.7634).
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert wilson_interval(10, 10)[1] == 1.0
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_mean_interval():
    low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 1.959963984540054 * (1.6666666666666667**0.5) / 2
    assert (low, high) == (pytest.approx(2.5 - half), pytest.approx(2.5 + half))


def test_win_rate_figure(small):
    from mogul.plots.tournament import head_to_head_figure, win_rate_figure

    summary = small.summary()
    fig = win_rate_figure(summary)
    bar = fig.data[0]
    assert list(bar.x) == list(summary.index)
    assert list(bar.y) == [round(v, 4) for v in summary["win_rate"]]
    assert all(e >= 0 for e in bar.error_y.array) and all(e >= 0 for e in bar.error_y.arrayminus)
    assert fig.layout.shapes[0].y0 == 0.25  # fair share at 4 seats
    heat = head_to_head_figure(small.head_to_head()).data[0]
    assert heat.z[0][0] is None and len(heat.z) == 4


@settings(max_examples=8, deadline=None)
@given(
    lineup=st.lists(
        st.sampled_from(["random", "value", "threshold", "threshold:drop_at=1"]),
        min_size=3,
        max_size=4,
    ),
    players=st.integers(3, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_tournament_bookkeeping(lineup, players, seed):
    players = min(players, len(lineup))
    result = tournament(
        "classic", lineup, players=players, repetitions=1, seed=seed, progress=False
    )
    games = len(result.games) // players
    summary = result.summary()
    assert len(set(result.entrants)) == len(lineup)
    # Every entrant sits in the same number of games, and every game has at least one winner.
    assert set(summary["games"]) == {games * players // len(lineup)}
    assert summary["wins"].sum() >= games
    h2h = result.head_to_head()
    for a in result.entrants:
        for b in result.entrants:
            if a != b:
                assert h2h.loc[a, b] + h2h.loc[b, a] == pytest.approx(1)


def test_the_game_comes_first():
    with pytest.raises(TypeError, match=r"takes the game first, e\.g\. tournament\('mogul'"):
        tournament(LINEUP, 3)


def test_run_options_are_one_block_shared_by_simulate_and_tournament():
    from mogul.kit.runner import RunOptions
    from mogul.kit.simulate import simulate

    by_keywords = tournament(
        "classic", LINEUP[:3], repetitions=1, seed=3, progress=False, chunk_size=2
    )
    by_options = tournament(
        "classic",
        LINEUP[:3],
        repetitions=1,
        seed=3,
        options=RunOptions(progress=False, chunk_size=2),
    )
    pd.testing.assert_frame_equal(by_keywords.games, by_options.games)
    # keywords change the options given: here the progress bar stays off
    assert RunOptions.of(RunOptions(progress=False), workers=2) == RunOptions(
        progress=False, workers=2
    )
    for run in (
        lambda **k: tournament("classic", LINEUP, **k),
        lambda **k: simulate("classic", ["random"], games=2, **k),
    ):
        with pytest.raises(
            TypeError, match="unknown run option.s. wrkers; the options are executor, workers"
        ):
            run(wrkers=2)


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"chunk_size": 0}, "chunk_size must be a whole number >= 1"),
        ({"workers": 1.5}, "workers must be"),
        ({"progress": "yes"}, "progress must be True, False or None"),
        ({"memory_limit": 0}, "memory_limit"),
        ({"executor": "pool"}, "executor must be a concurrent.futures.Executor"),
        ({"time_limit": -1}, "time_limit"),
        ({"on_failure": "ignore"}, "on_failure"),
        ({"sandbox": 1}, "sandbox"),
    ],
)
def test_bad_run_options_say_what_is_wrong(bad, message):
    from mogul.kit.runner import RunOptions

    with pytest.raises(ValueError, match=message):
        RunOptions(**bad)
