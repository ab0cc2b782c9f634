""" "Analyse this position": the function, its figure, the widget, and the Monte-Carlo auction values."""

from __future__ import annotations

import random

import numpy as np
import pytest

import mogul
from mogul.analysis.mogul import analyse_position
from mogul.auction.mogul import chain_payoff_curve, values_from_state
from mogul.games.mogul import fast
from mogul.games.mogul.bots import ValueBot
from mogul.games.mogul.determinize import determinize
from mogul.games.mogul.display import action_label
from mogul.games.mogul.rules import settle_auction
from mogul.kit.bots import play_out
from mogul.kit.session import GameSession
from mogul.plots.analysis import CHOSEN, bar_label, position_analysis_figure
from mogul.widgets.mogul import PositionAnalysis


def mid_game(seed: int = 3, round_: int = 10):
    state = mogul.new_game("classic", 4, seed)
    rng = random.Random(1)
    history = [state]
    while state.round < round_ or state.phase != "auction":
        state = state.apply(rng.choice(state.legal_actions()))
        history.append(state)
    return state, history


def test_analyse_position_rows_follow_the_legal_actions():
    state, _ = mid_game()
    table = analyse_position(state, rollouts=400, policy="value", seed=2)
    assert list(table["action"]) == [action_label(state, a) for a in state.legal_actions()]
    assert (table["score_low"] < table["mean_score"]).all() and (
        table["mean_score"] < table["score_high"]
    ).all()
    assert (table["win_low"] <= table["win_chance"]).all() and (
        table["win_chance"] <= table["win_high"]
    ).all()
    assert table["rollouts"].eq(400).all()
    again = analyse_position(state.view(state.current), rollouts=400, policy="value", seed=2)
    assert table.equals(again)  # the view of the seat to move gives the same analysis


def test_analyse_position_scores_are_the_rollouts_means():
    state, _ = mid_game(5, 12)
    table = analyse_position(state, rollouts=300, policy="random", seed=4)
    scores, keys = fast.rollouts(state.view(state.current), state.legal_actions(), 300, "random", 4)
    own = scores[:, :, state.current]
    assert np.allclose(table["mean_score"], own.mean(axis=0))
    wins = (keys[:, :, state.current] == keys.max(axis=2)).mean(axis=0)
    assert np.allclose(table["win_chance"], wins)


def test_analyse_position_refuses_bad_input():
    state, _ = mid_game()
    with pytest.raises(ValueError, match="policy must be"):
        analyse_position(state, policy="mc")
    with pytest.raises(ValueError, match="rollouts must be"):
        analyse_position(state, rollouts=0)
    with pytest.raises(ValueError, match="seat must be"):
        analyse_position(state, seat=4)
    over = play_out(state, [ValueBot()] * 4)
    with pytest.raises(ValueError, match="game is over"):
        analyse_position(over)


def test_the_figure_marks_the_chosen_action():
    state, _ = mid_game()
    table = analyse_position(state, rollouts=100)
    fig = position_analysis_figure(table, chosen=table["action"][1])
    score, win = fig.data
    assert list(score.y) == [bar_label(action) for action in table["action"]]
    assert score.marker.color[1] == CHOSEN and score.marker.color[0] != CHOSEN
    assert score.text[1] == "chosen" and list(win.x) == [round(x, 3) for x in table["win_chance"]]


def test_the_widget_analyses_the_human_and_marks_the_move():
    session = GameSession("classic", ["human", "value", "value", "value"], 3, autoplay=True)
    widget = PositionAnalysis(session, rollouts=200)
    assert widget.figure.layout.title.text.startswith("Ann to move")
    assert widget.last_box.layout.display == "none"
    first = session.state.legal_actions()[0]
    session.act(first)
    assert widget.last_caption.value == (
        '<div style="line-height: 1.3">Ann chose Bid 1 chip (round 1), marked below.</div>'
    )
    assert widget.last_figure.layout.title.text == "Ann's move, round 1"
    colours = widget.last_figure.data[0].marker.color
    assert colours[0] == CHOSEN and CHOSEN not in colours[1:]


def test_game_player_places_the_analysis_on_request():
    from mogul.widgets.mogul import GamePlayer

    app = GamePlayer(seed=3, analysis=True)
    assert isinstance(app.analysis, PositionAnalysis) and app.analysis.analysis is not None
    assert GamePlayer(seed=3).analysis is None


def test_settled_rollouts_match_the_readable_engine():
    state, _ = mid_game(7, 9)
    view = state.view(state.current)
    dealt = [determinize(view, random.Random(k)) for k in range(4)]
    piles = np.stack([fast.pile_codes(s) for s in dealt])
    pairs = [(0, 1), (2, 3), (3, 0)]
    scores, _ = fast.rollouts(view, [None] * 3, 4, "value", settle=pairs, piles=piles)
    for r, table in enumerate(dealt):
        for b, (winner, runner_up) in enumerate(pairs):
            final = play_out(settle_auction(table, winner, runner_up), [ValueBot()] * 4)
            assert tuple(scores[r, b]) == final.final_scores()


def test_montecarlo_auction_values_and_live_payoff_curve():
    state, history = mid_game(5, 8)
    live = values_from_state(state, "montecarlo", rollouts=500, seed=1)
    assert live.method == "montecarlo" and len(live.values) == 4
    assert live == values_from_state(state, "montecarlo", rollouts=500, seed=1)
    rollout = values_from_state(state, "rollout", rollouts=20, seed=1)
    for quick, slow in zip(live.values, rollout.values, strict=True):
        assert np.allclose(quick, slow, atol=6)  # the same quantity, estimated with noise
    curve = chain_payoff_curve(history, state.current, method="montecarlo", rollouts=300)
    assert curve is not None and len(curve) > 1


def test_reading_says_how_far_the_rollouts_rank_the_actions():
    from mogul.analysis.position import action_values, reading

    # 100 rollouts: A wins 90, B 80, C 30, D 20 (Wilson intervals: A 0.826-0.945,
    # B 0.711-0.867, C 0.219-0.396, D 0.133-0.289): B overlaps A, C and D lie below it
    won = np.zeros((100, 4))
    for column, wins in enumerate((90, 80, 30, 20)):
        won[:wins, column] = 1
    frame = action_values(["A", "B", "C", "D"], np.zeros(won.shape), won)
    assert reading(frame) == (
        "A has the best win chance; C and D are clearly behind it, and 1 other cannot be told "
        "apart from it (the intervals overlap)."
    )
    assert reading(frame.iloc[[0, 2]]) == "A has the best win chance; C is clearly behind it."
    assert reading(frame.iloc[[1, 0]].reset_index(drop=True)) == (
        "Every interval overlaps the best one's (A): "
        "100 games each are too few to rank these actions."
    )
    many = action_values(list("ABCDEF"), np.zeros((100, 6)), np.c_[won, won[:, 3], won[:, 3]])
    assert reading(many).startswith("A has the best win chance; 4 others are clearly behind it,")
    assert reading(frame.iloc[[0]]) == ""


def test_the_widget_caption_reads_the_analysis_it_draws():
    session = GameSession("classic", ["human", "value", "value", "value"], 3, autoplay=True)
    widget = PositionAnalysis(session, rollouts=200)
    from mogul.analysis.position import reading

    sentence = reading(widget.analysis)
    assert sentence and widget.caption.value.endswith(f"{sentence}</div>".replace("'", "&#x27;"))


def test_no_win_in_any_rollout_ranks_by_the_mean_score():
    # a seat far behind: every win chance 0; the bars are the mean scores, not five empty ones
    from mogul.analysis.position import action_values, reading
    from mogul.plots.analysis import value_axis

    own = np.array([[3.0, 5.0, 4.0], [3.0, 7.0, 4.0]] * 50)
    frame = action_values(["Bid 1 chip", "Drop", "Credit"], own, np.zeros(own.shape))
    (bars,) = position_analysis_figure(frame, score=False).data
    assert list(bars.x) == [3.0, 6.0, 4.0]
    axis = value_axis(frame)
    assert axis["tickformat"] == "" and "no action won a game" in axis["title"]["text"]
    assert reading(frame) == (
        "No action won a single game: ranked by mean score. Drop has the best mean score; "
        "Bid 1 chip and Credit are clearly behind it."
    )


def test_moves_whose_rollouts_came_out_alike_share_a_bar():
    # Credit Mobilier's turn 1 (notebook 07): 21 builds whose rollouts are identical
    from mogul.analysis.position import action_values, grouped

    labels = [f"Build {c} {s}" for c in ("red", "blue") for s in ("A5-A6", "B5-B6")] + ["Buy red"]
    own = np.array([[4.0] * 4 + [6.0], [5.0] * 4 + [2.0]] * 10)
    frame = grouped(action_values(labels, own, (own > 4.5).astype(float)))
    assert list(frame["action"]) == ["Build (4 moves alike)", "Buy red"]
    assert frame["members"][0] == tuple(labels[:4])
    (bars,) = position_analysis_figure(frame, chosen="Build blue B5-B6", score=False).data
    assert list(bars.marker.color) == [CHOSEN, bars.marker.color[1]] != [CHOSEN, CHOSEN]


def test_the_widget_says_game_over_once_the_game_ends():
    session = GameSession("classic", ["human", "value", "value", "value"], 3, autoplay=True)
    widget = PositionAnalysis(session, rollouts=20)
    assert widget.figure_box.layout.display is None
    while not session.state.is_over:
        session.act(session.state.legal_actions()[-1])
    assert widget.figure_box.layout.display == "none"  # no "Ann to move" chart of an old turn
    assert "Game over" in widget.caption.value
