"""One way in: ``mogul.new_game`` deals every registered game and edition by name.

The cases come from the registry (``mogul.kit.spec``), so a game that registers is checked
here with no edit: at its fewest and its most players, the same seed deals the same game,
a legal action applies, and a bad name or player count is a ``ValueError`` that says what is
allowed. Game names stand for their first edition, aliases for their edition.
"""

import pytest

import mogul
from mogul.kit import spec as registry

EDITIONS = [
    (game, edition) for game in registry.games() for edition in registry.get_game(game).editions
]


def player_counts(game: str, edition: str) -> tuple[int, int]:
    return registry.get_game(game).player_range(edition)


@pytest.mark.parametrize(("game", "edition"), EDITIONS, ids=[e for _, e in EDITIONS])
def test_every_edition_is_dealt_by_name_at_its_fewest_and_most_players(game, edition):
    for players in player_counts(game, edition):
        state = mogul.new_game(edition, players, 11)
        assert isinstance(state, registry.get_game(game).state_type)
        assert len(state.names) == players and not state.is_over
        assert mogul.new_game(edition, players=players, seed=11) == state, "same seed, same game"
        assert registry.spec_for(state).name == game
        legal = state.legal_actions()
        assert legal, f"{edition}, {players} players: no legal action at the start"
        after = state.apply(legal[-1])
        assert after != state and state == mogul.new_game(edition, players, 11), "state changed"


@pytest.mark.parametrize("game", registry.games())
def test_a_game_name_stands_for_its_first_edition(game):
    spec = registry.get_game(game)
    low, _ = spec.player_range(spec.editions[0])
    assert mogul.new_game(game, low, 3) == mogul.new_game(spec.editions[0], low, 3)
    for alias, edition in spec.aliases.items():
        assert mogul.new_game(alias, low, 3) == mogul.new_game(edition, low, 3)


def test_names_are_read_as_given_and_seats_can_be_named():
    state = mogul.new_game(registry.default_game(), ["Xu", "Yan", "Zoe"], 2)
    assert state.names == ("Xu", "Yan", "Zoe")
    assert mogul.new_game(players=3, seed=2) == mogul.new_game(registry.default_game(), 3, 2)


def test_other_seeds_deal_other_games():
    for game, edition in EDITIONS:
        low, _ = player_counts(game, edition)
        dealt = {repr(mogul.new_game(edition, low, seed)) for seed in range(4)}
        assert len(dealt) > 1, f"{edition}: four seeds dealt one game"


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="unknown game or edition 'chess'; known: ") as err:
        mogul.new_game("chess", 4, 1)
    assert all(name in str(err.value) for name in registry.names())


@pytest.mark.parametrize(("game", "edition"), EDITIONS, ids=[e for _, e in EDITIONS])
def test_a_player_count_outside_the_edition_says_what_it_allows(game, edition):
    low, high = player_counts(game, edition)
    for players in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"{low} to {high} players; got {players}"):
            mogul.new_game(edition, players, 1)


def test_the_credit_mobilier_shortcut_is_the_same_call():
    from mogul import credit_mobilier as cm

    assert cm.new_game(3, 5) == mogul.new_game("credit-mobilier", 3, 5)
    assert cm.new_game(players=2, seed=1, start_player=1).current_player == 1
