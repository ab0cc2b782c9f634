"""Records and determinism, for every registered game and edition and the toy game.

A random game's record survives JSON (``to_json``/``from_json``, and a file via
``save``/``load``) and replays to the very final state that was played; a record whose
result was tampered with, or whose setup carries an unknown field, is refused. The same seed
deals the same game and the same bots' seeds replay the same moves; other seeds deal other
games.
"""

from __future__ import annotations

import json

import pytest

from mogul.kit.bots import RandomBot, play
from mogul.kit.record import GameRecord


def test_json_round_trip_replays_the_played_game(case):
    for players in case.players:
        states, actions = case.random_game(players, seed=20 + players)
        record = GameRecord.of(states[0], actions)
        text = record.to_json()
        data = json.loads(text)
        assert data["game"] == case.game and data["setup"]["edition"] == case.edition
        assert data["actions"] == [str(a) for a in actions]
        assert data["result"]["scores"] == list(states[-1].final_scores())
        assert data["result"]["winners"] == list(states[-1].winners())
        again = GameRecord.from_json(text)
        assert again == record and again.setup == states[0].setup
        assert again.replay() == states[-1], f"{case}, {players} players: the replay ends elsewhere"
        assert list(again.states()) == states
        assert again.to_json() == text


def test_save_and_load_a_record_file(case, tmp_path):
    states, actions = case.random_game(case.players[-1], seed=3)
    path = GameRecord.of(states[0], actions, title="contract").save(tmp_path / "game")
    assert path.name == "game.json"
    loaded = GameRecord.load(path)
    assert loaded.title == "contract" and loaded.replay() == states[-1]


def test_a_tampered_result_is_refused(case):
    states, actions = case.random_game(case.players[0], seed=8)
    data = json.loads(GameRecord.of(states[0], actions).to_json())
    data["result"]["scores"] = [s + 1 for s in data["result"]["scores"]]
    with pytest.raises(ValueError, match="scores differ"):
        GameRecord.from_dict(data)


def test_a_record_cut_short_keeps_no_result(case):
    states, actions = case.random_game(case.players[0], seed=9)
    half = GameRecord.of(states[0], actions[: len(actions) // 2])
    data = json.loads(half.to_json())
    assert "result" not in data
    assert GameRecord.from_dict(data).replay() == states[len(actions) // 2]


def test_the_setup_reader_is_strict(case):
    states, actions = case.random_game(case.players[0], seed=10)
    good = json.loads(GameRecord.of(states[0], actions).to_json())
    assert case.spec.setup_from_json(good["setup"]) == states[0].setup
    extra = {**good["setup"], "surprise": 1}
    with pytest.raises(ValueError):
        case.spec.setup_from_json(extra)
    for key in ("edition", "players", "seed"):
        if key in good["setup"]:
            wrong = {**good["setup"], key: {"not": "right"}}
            with pytest.raises(ValueError):
                case.spec.setup_from_json(wrong)


def test_an_unplayable_action_in_a_record_is_refused(case):
    states, actions = case.random_game(case.players[0], seed=12)
    data = json.loads(GameRecord.of(states[0], actions).to_json())
    data.pop("result")
    played = {str(a) for a in actions}
    found = [
        (step, sorted(played - {str(a) for a in state.legal_actions()}))
        for step, state in enumerate(states[:-1])
    ]
    step, wrong = next(((i, w) for i, w in found if w), (None, []))
    if not wrong:  # sealed bids: every bid within the budget is legal at every turn
        pytest.skip(
            f"{case}: every action of the game was legal at every state; its own tests check this"
        )
    data["actions"][step] = wrong[0]
    with pytest.raises(ValueError, match=f"action {step + 1} of the record"):
        GameRecord.from_dict(data)


def test_the_same_seed_deals_and_replays_the_same_game(case):
    players = case.players[-1]
    assert case.new_game(players, seed=42) == case.new_game(players, seed=42)
    first = play(case.new_game(players, 42), [RandomBot(s) for s in range(players)])
    again = play(case.new_game(players, 42), [RandomBot(s) for s in range(players)])
    assert first == again and first.replay() == again.replay()


def test_other_seeds_deal_other_games(case):
    players = case.players[-1]
    # The setup keeps its seed, so compare what the seed dealt: the opening events in words.
    openings = {tuple(case.new_game(players, seed).describe_events()) for seed in range(10)}
    assert len(openings) >= 5, f"{case}: ten seeds dealt only {len(openings)} openings: {openings}"
