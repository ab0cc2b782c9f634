"""Guards of the engine's values: actions check their fields, shared objects are read-only,
a view is the state minus its hidden fields, and what-if analysis has its own rules helper."""

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mogul
from mogul import Branch, Sell
from mogul.games.mogul.rules import HIDDEN, SEEN, GameState, PlayerView, settle_auction
from mogul.games.mogul.tables import auctions_table
from mogul.kit.contract import IllegalActionError


@pytest.mark.parametrize("bad", [1.0, True, "2", None, 2.5])
def test_sell_refuses_anything_but_a_whole_number(bad):
    with pytest.raises(ValueError, match="Sell needs a whole number of shares"):
        Sell(bad)


def test_sell_turns_numpy_integers_into_ints_and_refuses_negatives():
    sale = Sell(np.int64(2))
    assert sale == Sell(2) and type(sale.count) is int and str(sale) == "sell 2"
    with pytest.raises(ValueError, match=">= 0; got -1"):
        Sell(-1)


@pytest.mark.parametrize("bad", [("", None), (7, None), ("s1", 3)])
def test_branch_needs_station_ids_as_text(bad):
    with pytest.raises(ValueError, match="Branch needs a station id"):
        Branch(*bad)
    assert str(Branch("s1", "s2")) == "branch s1 from s2"


def test_shares_cannot_be_rewritten_through_a_view():
    state = mogul.new_game(players=4, seed=3)
    shares = state.view(0).me.shares
    with pytest.raises(AttributeError, match="read-only"):
        shares._counts = (9, 9, 9, 9, 9)
    assert state.players[0].shares.total == 1


def test_edition_options_are_read_only_and_editions_stay_one_object():
    state = mogul.new_game(players=4, seed=3)
    with pytest.raises(TypeError):
        state.view(0).edition.options["quick_start"] = {}
    with pytest.raises(TypeError):
        state.edition.options["quick_start"]["max_players"] = 6
    assert pickle.loads(pickle.dumps(state)).edition is state.edition
    assert copy.deepcopy(state) == state


def test_a_view_is_the_state_without_its_hidden_fields():
    assert set(HIDDEN) == {"setup", "deck", "events"}
    assert PlayerView._fields == ("seat", *SEEN, "cards_left")
    assert set(SEEN) | set(HIDDEN) == set(GameState._fields)
    state = mogul.new_game(players=4, seed=3).apply(mogul.BID)
    view = state.view(2)
    assert all(getattr(view, f) == getattr(state, f) for f in SEEN)
    assert (view.seat, view.cards_left, view.is_over) == (2, len(state.deck), False)


def test_quick_start_must_be_a_boolean():
    with pytest.raises(ValueError, match="quick_start must be True or False, got 'no'"):
        mogul.new_game(players=4, seed=1, quick_start="no")


def test_illegal_action_error_survives_pickling():
    state = mogul.new_game(players=3, seed=1)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(mogul.TAKE)
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value) and again.action == mogul.TAKE
    assert again.legal == tuple(state.legal_actions())


def test_settle_auction_decides_at_once_without_moving_chips():
    state = mogul.new_game(players=4, seed=3, start_player=0).apply(mogul.BID)  # Ann bids: pot 1
    ended = settle_auction(state, winner=2, runner_up=0)
    assert (ended.phase, ended.current, ended.winner, ended.runner_up, ended.pot) == (
        "winner",
        2,
        2,
        0,
        0,
    )
    assert ended.dropped == (1, 3, 0) and ended.in_auction == (2,)
    assert [p.chips for p in ended.players] == [5, 6, 6, 6] and ended.legal_actions()[
        0
    ] == mogul.TAKE
    with pytest.raises(ValueError, match="two different seats"):
        settle_auction(state, 1, 1)


def test_the_auctions_table_shows_a_round_once_its_action_phase_begins():
    # Ann bids, Ben, Cai and Dee drop: Ann wins, Dee is runner-up. Ann takes the card; Dee has
    # not acted yet, and the round already has its row (with the taker and the choice).
    s = mogul.new_game(players=4, seed=3, start_player=0)
    states = [s]
    for action in (mogul.BID, mogul.DROP, mogul.DROP, mogul.DROP, mogul.TAKE):
        states.append(states[-1].apply(action))
    table = auctions_table(states)
    assert len(table) == 1
    row = table.iloc[0]
    assert (row.winner, row.runner_up, row.winner_choice, row.taker, row.chips_paid) == (
        0,
        3,
        "take",
        0,
        1,
    )
    assert "sold" not in table  # the runner-up's sale has not happened yet
    states.append(states[-1].apply(states[-1].legal_actions()[0]))
    assert auctions_table(states).iloc[0].sold == 0


FRESH_IMPORT = """
import sys
from mogul.games.credit_mobilier.rules import GameState as CMState
from mogul.games.mogul.rules import GameState
from mogul.games.mogul.setup import new_game
from mogul.games.credit_mobilier.setup import new_game as new_cm_game
import mogul.games.mogul.spec, mogul.games.credit_mobilier.spec
s, c = new_game("classic", 3, seed=1), new_cm_game(2, seed=1)
assert isinstance(s, GameState) and isinstance(c, CMState)
print(len(s.legal_actions()), s.final_scores(), "mogul-game" in s._repr_html_(), len(c.legal_actions()) > 0)
print(sorted(m for m in ("pandas", "numba") if m in sys.modules))
"""


def test_a_fresh_process_importing_the_states_first_gets_answers_and_no_pandas_or_numba():
    """A state imported on its own answers its rules and draws itself (the rules live in the
    state's module; the display is imported when first asked); importing the games (their
    specs too) loads no pandas or numba."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", FRESH_IMPORT], capture_output=True, text=True, env=env, cwd=root
    )
    assert out.returncode == 0, out.stderr
    answers, heavy = out.stdout.splitlines()
    assert (
        answers == "3 (2, 2, 2) True True"
    )  # the first card is brown: a premium for every S share
    assert heavy == "[]"
