"""The modeled board (spaces, track spaces, connection to the eastern edge) and game set-up:
the seeded deal, the scripted setup, and clear errors for bad setup input."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from mogul import credit_mobilier as cm
from mogul.games.credit_mobilier.board import buildable, connected_spaces, moves_from
from mogul.games.credit_mobilier.dice import roll
from mogul.kit.data import data_path


def test_the_board_has_24_squares_the_coast_and_42_track_spaces():
    b = cm.board()
    assert (
        len(b.squares) == 24
        and b.spaces[0] == cm.COAST
        and b.squares[:7] == ("A1", "A2", "A3", "A4", "A5", "A6", "B1")
    )
    assert len(b.sections) == 42
    kinds = Counter(s.direction for s in b.sections)
    assert kinds == {"east-west": 24, "north-south": 18}, "4 x 5 + 4 into the coast; 3 x 6"
    assert sorted(s.id for s in b.sections if s.a == cm.COAST) == [
        "coast-A1",
        "coast-B1",
        "coast-C1",
        "coast-D1",
    ]
    assert b.eastern == {"A6", "B6", "C6", "D6"}
    assert b.section("B3-B4").a == "B3" and b.between("B4", "B3").id == "B3-B4"
    assert b.between("B3", "C4") is None
    with pytest.raises(ValueError, match="west or north end first"):
        b.section("B4-B3")


def test_directions_and_ways_out():
    b = cm.board()
    assert [b.direction("B3", x) for x in ("B2", "A3", "C3", "B4")] == [
        "west",
        "north",
        "south",
        "east",
    ]
    assert b.direction("A1", "coast") == "west"
    assert moves_from(b, "B3") == (
        ("B2-B3", "B2", "west"),
        ("A3-B3", "A3", "north"),
        ("B3-C3", "C3", "south"),
    )
    assert moves_from(b, "A1") == (("coast-A1", "coast", "west"), ("A1-B1", "B1", "south"))
    assert moves_from(b, "coast") == ()


def test_track_must_join_the_eastern_edge():
    b = cm.board()
    assert set(buildable(b, frozenset())) == {
        "A5-A6",
        "B5-B6",
        "C5-C6",
        "D5-D6",
        "A6-B6",
        "B6-C6",
        "C6-D6",
    }
    one = frozenset({"B5-B6"})
    assert connected_spaces(b, one) == b.eastern | {"B5"}
    assert set(buildable(b, one)) - set(buildable(b, frozenset())) == {"B4-B5", "A5-B5", "B5-C5"}
    row = frozenset(f"B{c}-B{c + 1}" for c in range(1, 6))
    assert "coast-B1" in buildable(b, row) and "coast-A1" not in buildable(b, row)
    assert cm.COAST in connected_spaces(b, row | {"coast-B1"})


def test_every_modeled_field_is_marked():
    board = json.loads(data_path("credit-mobilier", "board.json").read_text())
    assert board["modeled"] is True
    for key in ("rows", "columns", "coast", "eastern_edge", "track_spaces"):
        assert board[key]["modeled"] is True, key
    box = json.loads(data_path("credit-mobilier", "components.json").read_text())
    for key in ("dice", "goods", "track_markers", "stock", "bank"):
        assert box[key]["modeled"] is True, key
    assert box["start"]["treasuries_modeled"] is True
    assert box["start"]["money"] == 3 and box["start"]["stock"] == {"purple": 1}, (
        "confirmed by the rules"
    )


def test_a_seeded_deal_follows_the_set_up():
    s = cm.new_game(players=4, seed=3)
    assert (
        s.names == ("Ann", "Ben", "Cai", "Dee")
        and s.turn == 1
        and s.current_player == s.start_player
    )
    assert [space for space, _ in s.goods] == list(cm.board().squares), (
        "one pawn on each square, coast empty"
    )
    assert all(n <= 8 for n in Counter(c for _, c in s.goods).values())
    assert s.money == (3, 3, 3, 3) and all(st == cm.ByCompany(purple=1) for st in s.stocks)
    assert s.treasuries == cm.ByCompany() and s.track == ()
    assert len(s.dice) == 5 and s.kind is None and s.phase == "choose an action"
    assert cm.new_game(players=4, seed=3) == s
    deals = {cm.new_game(players=4, seed=seed).goods for seed in range(20)}
    assert len(deals) == 20
    starts = Counter(cm.new_game(players=4, seed=seed).start_player for seed in range(200))
    assert set(starts) == {0, 1, 2, 3}


def test_dice_come_from_the_seed_after_the_scripted_rolls():
    s = cm.new_game(players=2, seed=5, dice=[["orange"] * 5], start_player=1)
    assert s.dice == ("orange",) * 5 and s.current_player == 1
    after = s.apply(cm.EndTurn())
    assert after.dice == roll(5, 1), "roll 2 comes from the seed"
    assert cm.new_game(players=2, seed=5).dice == roll(5, 0)
    faces = Counter(d for seed in range(400) for d in cm.new_game(players=2, seed=seed).dice)
    assert set(faces) == {"red", "yellow", "green", "blue", "purple", "orange"}
    assert max(faces.values()) / min(faces.values()) < 1.3, f"dice look unfair: {faces}"


def test_the_view_hides_only_the_dice_to_come():
    s = cm.new_game(players=3, seed=1)
    view = s.view(2)
    assert view.seat == 2 and view.names == s.names and not hasattr(view, "setup")
    assert (view.money, view.stocks, view.treasuries, view.goods, view.track, view.dice) == (
        s.money,
        s.stocks,
        s.treasuries,
        s.goods,
        s.track,
        s.dice,
    )
    future = cm.determinize(view, random.Random(1))
    assert future.legal_actions() == s.legal_actions() and future.setup.seed != s.setup.seed


BAD_SETUPS = [
    ({"players": 1}, "2 to 5 players"),
    ({"players": 6}, "2 to 5 players"),
    ({"players": ["Ann", "Ann"]}, "must differ"),
    ({"seed": "x"}, "seed must be a whole number"),
    ({"dice": [["red"] * 4]}, "roll 1 of the scripted dice must be 5 colours"),
    ({"dice": [["red"] * 4 + ["pink"]]}, "roll 1"),
    ({"dice": "red"}, "dice must be a list"),
    ({"money": [3, 3]}, "money must be 3 whole numbers"),
    ({"money": [3, -1, 3]}, "money must be 3 whole numbers"),
    ({"stocks": [{"pink": 1}, {}, {}]}, "no company 'pink'"),
    ({"stocks": [{"red": 1}]}, "one mapping .* per player \\(3\\)"),
    ({"stocks": [{"red": 1.5}, {}, {}]}, "whole number of shares"),
    ({"treasuries": {"orange": 2}}, "no company 'orange'"),
    ({"goods": {"E1": "red", "A1": "blue", "A2": "green"}}, "no space 'E1'"),
    ({"goods": {"A1": "purple", "A2": "blue", "A3": "green"}}, "no goods colour 'purple'"),
    ({"goods": {"A1": ["red"] * 9, "A2": "blue", "A3": "green"}}, "9 red pawns, but the box has 8"),
    ({"goods": {"A1": "red", "A2": "blue", "coast": "green"}}, "at least three colours"),
    ({"track": {"B4-B3": "red"}}, "no track space 'B4-B3'"),
    ({"track": {"B4-B5": "red"}}, "joined by track to the eastern edge"),
    ({"track": {"B5-B6": "purple"}}, "no track colour 'purple'"),
    ({"start_player": 3}, "seat number from 0 to 2"),
]


@pytest.mark.parametrize("bad, message", BAD_SETUPS, ids=[m for _, m in BAD_SETUPS])
def test_bad_setup_input_is_refused_clearly(bad, message):
    kwargs = {"players": 3, "seed": 0, **bad}
    with pytest.raises(ValueError, match=message):
        cm.new_game(**kwargs)


def test_a_scripted_setup_round_trips_through_json():
    s = cm.new_game(
        ["Connie", "Randy", "Aaron"],
        seed=4,
        dice=[["red", "orange", "red", "purple", "blue"]],
        money=[1, 2, 3],
        stocks=[{"red": 2}, {}, {"purple": 1}],
        treasuries={"red": 4},
        goods={"B3": ["red", "red"], "C2": "green", "D5": "blue", "coast": "yellow"},
        track={"B5-B6": "blue", "B4-B5": "red"},
        start_player=2,
    )
    assert s.dice == ("red", "red", "blue", "purple", "orange"), "a roll reads in dice-face order"
    data = cm.SPEC.setup_to_json(s.setup)
    assert data["goods"] == {"coast": "yellow", "B3": ["red", "red"], "C2": "green", "D5": "blue"}
    assert data["track"] == {"B4-B5": "red", "B5-B6": "blue"}
    again = cm.SPEC.setup_from_json(json.loads(json.dumps(data)))
    assert again == s.setup and cm.SPEC.deal(again) == s
    with pytest.raises(ValueError, match="unknown setup fields"):
        cm.SPEC.setup_from_json({**data, "chips": [1]})
    with pytest.raises(ValueError, match="edition"):
        cm.SPEC.setup_from_json({**data, "edition": "classic"})


def test_a_colour_with_all_its_markers_on_the_board_builds_no_more():
    # Twelve red sections joined to the east: rows A and B, columns 2 to 6, and A6-B6, B5-C5 ...
    red = [f"{r}{c}-{r}{c + 1}" for r in "AB" for c in range(1, 6)] + ["A6-B6", "B6-C6"]
    assert len(red) == 12
    s = cm.new_game(
        3, seed=0, track=dict.fromkeys(red, "red"), dice=[["red", "red", "blue", "green", "yellow"]]
    )
    kinds = {(type(a).__name__, getattr(a, "colour", None)) for a in s.legal_actions()}
    assert ("Build", "red") not in kinds and ("Build", "blue") in kinds
    with pytest.raises(ValueError, match="13 red sections, but the box has 12"):
        cm.new_game(3, seed=0, track=dict.fromkeys([*red, "C5-C6"], "red"))


def test_a_stock_cap_in_the_components_limits_buying(monkeypatch):
    from mogul.games.credit_mobilier import rules, setup
    from mogul.games.credit_mobilier.components import components

    capped = dataclasses.replace(components(), stock_per_company=2)
    monkeypatch.setattr(rules, "components", lambda: capped)
    monkeypatch.setattr(setup, "components", lambda: capped)
    s = cm.new_game(2, seed=0, start_player=0, dice=[["purple", "red", "red", "green", "yellow"]])
    assert cm.Buy("purple") not in s.legal_actions(), "both purple shares are held"
    assert cm.Buy("red") in s.legal_actions()
    s = s.apply(cm.Buy("red")).apply(cm.Buy("red"))
    assert s.current_player == 1 and s.stocks[0].red == 2
    with pytest.raises(ValueError, match="more than the 2 shares per company"):
        cm.new_game(2, seed=0, stocks=[{"red": 2}, {"red": 1}])
