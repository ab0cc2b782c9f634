"""Setting up games: seeded deals follow the rulebook, bad input gets a clear ValueError."""

import pytest

import mogul
from mogul.games.mogul.cards import Shares


def test_classic_box_holds_31_shares_with_the_printed_counts():
    ed = mogul.edition("classic")
    assert len(ed.cards) == 31
    per_company = Shares.of(ed.company_ids, ed.cards)
    assert dict(per_company) == {"brown": 8, "green": 5, "yellow": 5, "blue": 6, "pink": 7}
    assert all(c.company != c.border for c in ed.cards)
    starting = sorted(c.border for c in ed.cards if c.starting)
    assert starting == ["blue", "blue", "green", "pink", "pink", "yellow"]
    assert all(c.company == "brown" for c in ed.cards if c.starting)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_seeded_deal_follows_the_rulebook(players):
    s = mogul.new_game("classic", players=players, seed=5)
    assert [p.chips for p in s.players] == [6] * players
    assert s.bank == 45 - 6 * players
    # Each player starts with one brown S share; the other S shares are in the pile.
    assert all(p.shares.total == 1 and p.shares["brown"] == 1 for p in s.players)
    assert len(s.deck) + 1 == 31 - players + 1  # the revealed card is no longer in the pile
    assert s.current_player == s.start_player and s.round == 1


def test_players_can_be_named():
    s = mogul.new_game(players=["Ann", "Ben", "Cai"], seed=1)
    assert s.names == ("Ann", "Ben", "Cai")
    assert mogul.new_game(players=4, seed=1).names == ("Ann", "Ben", "Cai", "Dee")


def test_a_game_without_seed_draws_one_and_keeps_it():
    s = mogul.new_game(players=4)
    assert isinstance(s.setup.seed, int)
    assert mogul.new_game(players=4, seed=s.setup.seed) == s


def test_scripted_chips_set_the_bank():
    s = mogul.new_game(players=3, seed=1, chips=[6, 6, 0])
    assert [p.chips for p in s.players] == [6, 6, 0] and s.bank == 33


def test_scripted_starting_shares_may_be_empty():
    s = mogul.new_game(
        players=3,
        seed=1,
        deck=["green/brown", "crash"],
        starting_shares=[["brown/green"], ["brown/blue", "pink/yellow"], []],
        start_player=0,
    )
    assert [p.shares.total for p in s.players] == [1, 2, 0]
    assert s.current_player == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_or_edition": "monopoly"}, "unknown game or edition 'monopoly'; known: .*classic"),
        ({"players": 2}, "classic edition is for 3 to 6 players; got 2"),
        ({"players": 7}, "classic edition is for 3 to 6 players; got 7"),
        ({"players": ["Ann", "Ann", "Ben"]}, "names must differ"),
        ({"players": ["Ann", ""]}, "3 to 6 players; got 2 names"),
        (
            {"deck": ["purple/brown", "crash"]},
            "unknown colour 'purple' in card 'purple/brown'; colours are brown, green, yellow, blue, pink",
        ),
        ({"deck": ["green", "crash"]}, "malformed card 'green': write 'company/border'"),
        ({"deck": ["brown/brown", "crash"]}, "no brown/brown card in the classic box"),
        (
            {"deck": ["green/pink", "green/pink", "green/pink", "crash"]},
            "too many green/pink cards: the classic box has only 2",
        ),
        ({"deck": ["green/pink"]}, "must hold the crash card exactly once; it has 0"),
        ({"deck": ["crash", "crash"]}, "exactly once; it has 2"),
        ({"deck": "green/pink"}, "deck must be a list"),
        ({"starting_shares": [["crash"], [], []]}, "crash card belongs in the deck"),
        ({"starting_shares": [["brown/green"]]}, "one list per player \\(3\\), got 1"),
        ({"chips": [6, 6]}, "chips must be 3 whole numbers >= 0"),
        ({"chips": [6, -1, 6]}, "chips must be 3 whole numbers >= 0"),
        ({"chips": [20, 20, 20]}, "the box holds 45 chips; the scripted chips add up to 60"),
        ({"start_player": 3}, "start_player must be a seat number from 0 to 2, got 3"),
        ({"seed": "seven"}, "seed must be an integer"),
        (
            {"quick_start": True, "starting_shares": [[], [], []]},
            "either quick_start=True or scripted",
        ),
    ],
)
def test_bad_setup_says_what_is_allowed(kwargs, message):
    kwargs = {"players": 3, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        mogul.new_game(**kwargs)


def test_a_scripted_deck_using_s_cards_may_leave_too_few_to_deal():
    deck = ["brown/blue", "brown/blue", "brown/pink", "brown/pink", "crash"]
    with pytest.raises(ValueError, match="only 2 starting \\(S\\) shares are left for 3 players"):
        mogul.new_game(players=3, seed=1, deck=deck)


def test_starting_shares_and_deck_together_respect_the_box():
    with pytest.raises(ValueError, match="too many pink/brown cards: the classic box has only 2"):
        mogul.new_game(
            players=3,
            seed=1,
            deck=["pink/brown", "crash"],
            starting_shares=[["pink/brown"], ["pink/brown"], []],
        )
