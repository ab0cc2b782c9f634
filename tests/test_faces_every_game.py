"""Every registered game opens through one entry, ``mogul.widgets.player``, and plays by clicks.

The checks are in ``tests/faces_checks.py`` and name no game: the games come from the registry.
"""

import pytest
from faces_checks import (
    check_board,
    check_player_plays,
    check_player_takes_new_games_arguments,
    expected_player,
)

from mogul.kit.spec import games, get_game
from mogul.widgets import SessionPlayer, player

EDITIONS = [edition for name in games() for edition in get_game(name).editions]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_edition_plays_through_its_player(edition):
    app = check_player_plays(edition)
    assert isinstance(app, SessionPlayer)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_player_takes_the_arguments_of_new_game_in_its_order(edition):
    assert isinstance(check_player_takes_new_games_arguments(edition), SessionPlayer)


@pytest.mark.parametrize("game", games())
def test_every_game_names_its_own_player_and_board(game):
    spec = get_game(game)
    assert expected_player(game) is not SessionPlayer, f"{game} names no player of its own"
    assert check_board(game) is not None or "board" not in spec.faces


def test_the_default_game_opens_without_a_name():
    from mogul.kit.spec import default_game

    assert type(player()) is expected_player(default_game())


def test_an_unknown_game_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown game or edition 'chess'; known: "):
        player("chess")
