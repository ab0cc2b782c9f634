""" "Analyse this position" through one interface: every game's ``analyse_position`` face
gives the same columns, and the generic panel draws it in any game's player."""

from __future__ import annotations

import pytest

import mogul  # noqa: F401 - registers the games
from mogul import credit_mobilier as cm
from mogul.analysis.credit_mobilier import analyse_position as cm_analyse
from mogul.kit import spec as registry
from mogul.widgets.position_analysis import COLUMNS, PositionAnalysis

FAST_OPTIONS = {"mogul": {"rollouts": 20}, "credit-mobilier": {"rollouts": 6, "horizon": 2}}


@pytest.mark.parametrize("game", ["mogul", "credit-mobilier"])
def test_every_game_names_an_analysis_with_the_same_columns(game):
    spec = registry.get_game(game)
    analyse = spec.face("analyse_position")
    state = spec.new_game(spec.editions[-1], 3, 4)
    frame = analyse(state, **FAST_OPTIONS[game])
    assert [*COLUMNS, "rollouts"] == list(frame.columns)
    assert list(frame["action"]) == [spec.action_label(state, a) for a in state.legal_actions()]
    assert (
        (frame["win_low"] <= frame["win_chance"]) & (frame["win_chance"] <= frame["win_high"])
    ).all()
    assert ((frame["win_low"] >= 0) & (frame["win_high"] <= 1)).all()
    assert (
        (frame["score_low"] <= frame["mean_score"]) & (frame["mean_score"] <= frame["score_high"])
    ).all()


def test_credit_mobilier_analysis_is_seeded_and_reads_the_worth_of_the_table():
    # Everyone holds one purple share; $10 in the purple treasury. The player on turn rolled
    # purple and orange: paying purple dividends or buying purple shares.
    state = cm.new_game(
        players=2,
        seed=1,
        dice=[["purple", "purple", "orange", "red", "red"]],
        treasuries={"purple": 10},
    )
    first = cm_analyse(state, rollouts=5, horizon=1, seed=3)
    again = cm_analyse(state, rollouts=5, horizon=1, seed=3)
    assert first.equals(again)
    assert (first["rollouts"] == 5).all()
    # Horizon 1: only the rest of this turn is played, on the dice already rolled, so every
    # future gives the same worth: no spread at all.
    assert (first["score_high"] - first["score_low"]).abs().max() < 1e-9
    assert set(first["win_chance"]) <= {0.0, 0.5, 1.0}
    # Buying a purple share: $1 paid, the stake in the $10 treasury grows from 1/2 to 2/3.
    buy = first[first["action"].str.startswith("Buy purple")]
    assert len(buy) == 1


def test_credit_mobilier_analysis_says_what_was_wrong():
    state = cm.new_game(players=3, seed=2)
    with pytest.raises(ValueError, match="policy must be one of 'dividend', 'random'"):
        cm_analyse(state, policy="smart")
    with pytest.raises(ValueError, match="rollouts must be a whole number >= 1"):
        cm_analyse(state, rollouts=0)
    with pytest.raises(ValueError, match="seat must be a seat number from 0 to 2"):
        cm_analyse(state, seat=3)


def test_the_credit_mobilier_player_shows_the_generic_panel_for_its_human():
    from mogul.widgets.credit_mobilier import CreditMobilierPlayer

    player = CreditMobilierPlayer(
        "credit-mobilier", ["human", "dividend"], seed=5, analysis={"rollouts": 2, "horizon": 1}
    )
    panel = player.analysis
    assert isinstance(panel, PositionAnalysis) and panel in player.children[2].children[1].children
    state = player.session.state
    assert state.current_player == 0
    assert len(panel.analysis) == len(state.legal_actions())
    assert panel.layout.display is None  # shown
