"""The toy game of ``examples/toy_game/`` joins the kit through its spec alone, faces included.

Its rules, records, runs and sessions are checked with every game's in ``tests/contract``;
here its faces: the same generic checks as every registered game's (``tests/faces_checks.py``)
and the architecture checker's rule for a game's faces (only generic kit modules).
"""

from pathlib import Path

import pytest
import toy_game
from faces_checks import (
    check_board,
    check_faces_use_only_generic_parts,
    check_player_plays,
    check_player_takes_new_games_arguments,
)
from test_architecture import GAMES
from toy_game.player import RacePlayer

import mogul
from mogul.widgets import player


@pytest.fixture(autouse=True)
def toy():
    with toy_game.registered_toy() as spec:
        yield spec


def test_the_toy_game_opens_and_plays_through_the_generic_entry():
    app = check_player_plays("toy", steps=4)
    assert isinstance(app, RacePlayer) and app.track.data[0].x[0] == app.state.total


def test_the_race_player_takes_the_arguments_of_new_game_in_its_order():
    app = check_player_takes_new_games_arguments("toy")
    assert isinstance(app, RacePlayer) and app.session.edition == "toy-race"


def test_the_toy_board_draws_the_race():
    fig = check_board("toy")
    assert fig.data[0].x == (0,) and fig.layout.xaxis.range[1] > 10


def test_a_click_moves_the_track():
    app = player("toy", ["human", "human"], 1, hot_seat=False)
    app.buttons()[2].click()  # add 3
    assert app.state.total == 3 and app.track.data[0].x == (3,)


def test_the_toy_game_is_dealt_by_name_with_the_defaults_of_its_spec():
    state = mogul.new_game("toy", players=3, seed=4)
    assert state.names == ("Ada", "Bo", "Cy") and 10 <= state.target <= 15
    spec = toy_game.SPEC
    assert spec.title == "Counting race (a toy game)" and spec.player_range("toy-race") == (2, 4)
    assert spec.deal(state.setup) == state  # the default deal: new_game(**setup's fields)
    data = spec.setup_to_json(state.setup)
    assert data == {"edition": "toy-race", "players": ["Ada", "Bo", "Cy"], "seed": 4}
    assert spec.setup_from_json(data) == state.setup
    with pytest.raises(ValueError, match="fields the game does not know"):
        spec.setup_from_json({**data, "colour": "red"})
    assert spec.stage(state.apply(toy_game.Add(2))) == 0  # the default stage: state.round
    assert (
        spec.stage(state.apply(toy_game.Add(2)).apply(toy_game.Add(1)).apply(toy_game.Add(1))) == 1
    )
    assert spec.standings(state) == (0, 0, 0)  # the default: the final scores
    html = spec.table_html(state, (), ["The target is set."], ["you", "", "perfect bot"])
    assert "Ada (you)" in html and "<li>The target is set.</li>" in html


def test_the_toy_faces_import_only_generic_parts():
    folder = Path(toy_game.__file__).parent
    imports = check_faces_use_only_generic_parts(folder, GAMES)
    assert imports["player.py"] == {"mogul.kit.session", "mogul.widgets.session_player"}
    assert imports["board.py"] == {"mogul.plots.template"}


def test_nothing_in_the_package_imports_the_examples():
    package = Path(mogul.__file__).parent
    found = [p for p in package.rglob("*.py") if "toy_game" in p.read_text(encoding="utf-8")]
    assert found == []
