"""The toy game gets faces without an edit to any other module: the generic checks run it.

The same functions check every registered game's faces (``tests/faces_checks.py``), and the
architecture checker's rule for a game's faces (only generic kit modules, no other game).
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: toy_game, faces_checks

from faces_checks import check_board, check_faces_use_only_generic_parts, check_player_plays  # noqa: E402
from test_architecture import GAMES  # noqa: E402

from mogul.widgets import player  # noqa: E402
from toy_faces import registered_toy_with_faces  # noqa: E402
from toy_faces.player import RacePlayer  # noqa: E402


@pytest.fixture(autouse=True)
def toy():
    with registered_toy_with_faces() as spec:
        yield spec


def test_the_toy_game_opens_and_plays_through_the_generic_entry():
    app = check_player_plays("toy", steps=4)
    assert isinstance(app, RacePlayer) and app.track.data[0].x[0] == app.state.total


def test_the_toy_board_draws_the_race():
    fig = check_board("toy")
    assert fig.data[0].x == (0,) and fig.layout.xaxis.range[1] > 10


def test_a_click_moves_the_track():
    app = player("toy", seats=["human", "human"], seed=1, hot_seat=False)
    app.buttons()[2].click()  # add 3
    assert app.state.total == 3 and app.track.data[0].x == (3,)


def test_the_toy_faces_import_only_generic_parts():
    imports = check_faces_use_only_generic_parts(Path(__file__).parent, GAMES)
    assert imports["player.py"] == {"mogul.kit.session", "mogul.widgets.session_player"}
