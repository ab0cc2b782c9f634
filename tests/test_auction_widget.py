"""AuctionExplorer without a browser: set widget values, read the HTML and figure data.

Speed is measured in benchmarks/bench_auction.py, not here.
"""

import ipywidgets as w
import pytest

from mogul.auction import payoff_curve, solve
from mogul.widgets import AuctionExplorer
from mogul.widgets.auction import curve_reach


@pytest.fixture
def app():
    return AuctionExplorer(seats=3, chips=3, values=[(10, 3, 0), (8, 2, 0), (6, 1, 0)])


def test_initial_state_shows_the_equilibrium(app):
    sol = solve([(10, 3, 0), (8, 2, 0), (6, 1, 0)], [3, 3, 3])
    assert f"Seat {sol.winner} wins" in app.status.value
    assert f"seat {sol.runner_up} is runner-up" in app.status.value
    pot_line = app.ladder.data[0]
    assert list(pot_line.y) == [st.pot for st in sol.path]
    curve = payoff_curve([(10, 3, 0), (8, 2, 0), (6, 1, 0)], [3, 3, 3], seat=2)
    # the k axis stops where the curves stop changing: seat 2's curve is flat from k = 4 on
    assert curve.payoff.tolist() == [2.0, 2.0, 2.0, 2.0] + [3.0] * 6
    assert app.k_max == 5 and list(app.curves.layout.xaxis.range) == [-0.5, 5.5]
    assert list(app.curves.data[6].y) == curve.payoff.tolist()[:6]
    # three seats in play: the curves of seats 3..5 and their slider rows are hidden
    assert [app.curves.data[3 * i].visible for i in range(6)] == [True] * 3 + [False] * 3
    assert app.value_rows[3].layout.display == "none"


def test_moving_a_slider_updates_text_and_figures(app):
    before_text, before_curve = app.status.value, app.curves.data[6].y
    app.value_sliders[2][0].value = 20.0  # seat 2 now values winning at 20
    values = [(10, 3, 0), (8, 2, 0), (20, 1, 0)]
    sol = solve(values, [3, 3, 3])
    assert app.status.value != before_text
    assert f"Seat {sol.winner} wins" in app.status.value
    assert list(app.ladder.data[0].y) == [st.pot for st in sol.path]
    curve = payoff_curve(values, [3, 3, 3], seat=2).payoff.tolist()
    assert list(app.curves.data[6].y) == curve[: app.k_max + 1]
    assert app.curves.data[6].y != before_curve


def test_seats_chips_start_and_chip_value(app):
    app.seats.value = 5
    assert app.start.options == (0, 1, 2, 3, 4)
    assert [app.curves.data[3 * i].visible for i in range(6)] == [True] * 5 + [False]
    app.chips.value = 4
    app.start.value = 4
    app.chip_value.value = 0.5
    sol = solve(app.values(), [4] * 5, start=4, chip_value=0.5)
    assert app.solution.path == sol.path
    assert list(app.ladder.data[0].y) == [st.pot for st in sol.path]
    app.seats.value = 2  # start 4 no longer exists: it falls back to a valid seat
    assert app.start.value in (0, 1)
    assert app.solution.path == solve(app.values(), [4, 4], app.start.value, 0.5).path
    app.chips.value = 99  # clamped to the slider's maximum
    assert app.chips.value == 20


def test_sliders_report_only_when_released(app):
    sliders = [app.seats, app.chips, app.chip_value, *sum(app.value_sliders, [])]
    assert all(isinstance(x, w.widgets.widget_int._Int | w.FloatSlider) for x in sliders)
    assert not any(x.continuous_update for x in sliders)


def test_the_k_axis_fits_the_curves_and_the_chips_note_tells_why():
    # 6 seats x 10 chips: the old axis ran to 60; the curves stop changing long before
    app = AuctionExplorer(seats=6, chips=10)
    curves = [payoff_curve(app.values(), [10] * 6, seat=i) for i in range(6)]
    reach = curve_reach(curves, app.solution)
    assert app.k_max == reach < 20
    for df in curves:  # nothing changes past the axis
        assert (df.payoff.iloc[reach:] == df.payoff.iloc[-1]).all()
    most = max(app.solution.paid)
    assert f"The most any seat bids is {most} chips (each holds at least 10)" in app.status.value
    assert f"flat beyond k = {reach}" in app.status.value
    app.chips.value = 20  # more chips: the note says how many are really used
    assert "each holds at least 20" in app.status.value


def test_figures_store_their_current_data_for_views_made_later(app):
    # A Voila page or a re-displayed widget draws the stored widget state, not the updates.
    app.value_sliders[2][0].value = 20.0
    assert app.curves._widget_data[6]["y"] == list(app.curves.data[6].y)
    assert app.ladder._widget_data[0]["y"] == list(app.ladder.data[0].y)


def test_a_burst_of_changes_is_coalesced_and_ends_on_the_latest_values():
    # background=True: a worker thread solves while the changes keep coming (as in a kernel)
    app = AuctionExplorer(seats=6, chips=20, background=True)
    first = app.updates
    for i in range(30):
        app.value_sliders[1][0].value = 0.5 * (i + 1)
    app.wait(timeout=60)
    assert app.error is None
    assert 1 <= app.updates - first < 30  # not one solve per change: at most one waits
    assert app.solution.values[1][0] == 15.0
    expected = solve(app.values(), [20] * 6, 0, 1.0)
    assert app.solution.path == expected.path
    assert f"Seat {expected.winner} wins" in app.status.value


def test_changes_made_during_an_update_are_solved_once_afterwards(app):
    # a change that arrives while an update runs (here: from inside it) only marks it stale
    seen = []
    original = app.update

    def update():
        seen.append(app.value_sliders[0][0].value)
        if len(seen) == 1:
            app.value_sliders[0][0].value = 12.0
            app.value_sliders[0][0].value = 13.0
        original()

    app.update = update
    app.value_sliders[0][0].value = 11.0
    assert seen == [11.0, 13.0]
    assert app.solution.values[0][0] == 13.0


def test_a_failed_update_is_shown_and_does_not_block_the_next(app):
    def broken():
        raise ValueError("boom")

    original, app.update = app.update, broken
    with pytest.raises(ValueError, match="boom"):
        app.value_sliders[0][0].value = 11.0
    assert "Could not solve: boom" in app.status.value
    app.update = original
    app.value_sliders[0][0].value = 12.0
    assert app.solution.values[0][0] == 12.0 and "wins" in app.status.value


def test_a_change_that_leaves_the_equilibrium_says_so():
    # notebook 02's explorer: a seventh chip changes nothing (the most a seat bids is 6)
    app = AuctionExplorer(seats=4, chips=6, background=False)
    assert "as it was" not in app.status.value  # the first solve
    app.chips.value = 7
    assert app.status.value.startswith(
        "<div style='color:#555'><i>This change leaves the equilibrium as it was"
    )
    app.value_sliders[0][0].value += 5  # seat 0 values winning more: it wins, paying more
    assert "as it was" not in app.status.value
