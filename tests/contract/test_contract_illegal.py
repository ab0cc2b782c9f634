"""Illegal actions, for every registered game and edition and the toy game.

At every state of a random game, ``None``, objects of the wrong type and plausible actions
that are illegal just now (actions that were legal elsewhere in the game, or another game's)
raise ``IllegalActionError``, which says what was tried and what was legal; the state stays
equal to a twin built separately and keeps its legal actions. A finished game refuses every
action. The error crosses ``pickle`` intact (a process pool sends it back that way).

Look-alike actions (a legal action with an int field given as ``True`` or ``1.0``, which
compare equal to it) are either refused or written so that the record reads them back: an
engine that takes ``Sell(1.0)`` and records "sell 1.0" saves games it cannot load.
"""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from mogul.kit.contract import IllegalActionError
from mogul.kit.record import GameRecord

WRONG_TYPES = [None, object(), "bid", 1, ("add", 1)]


def _rejects(state, twin, action, where):
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    err = caught.value
    assert isinstance(err, ValueError), "IllegalActionError is a ValueError"
    assert err.action is action or err.action == action, (
        f"{where}: the error names {err.action!r}, not {action!r}"
    )
    assert err.legal == tuple(legal), f"{where}: the error lists {err.legal}, legal is {legal}"
    assert str(action) in str(err), f"{where}: the message {str(err)!r} does not name {action!s}"
    assert state == twin, f"{where}: the illegal {action!r} changed the state"
    assert state.legal_actions() == legal == twin.legal_actions(), f"{where}: legal actions changed"
    return err


def test_wrong_types_and_plausible_actions_are_refused_everywhere(case):
    players = case.players[0]
    states, actions = case.random_game(players, seed=30)
    twins, _ = case.random_game(players, seed=30)
    seen = list(dict.fromkeys(a for s in states for a in s.legal_actions()))
    plausible = 0
    for step, (state, twin) in enumerate(zip(states, twins, strict=True)):
        where = f"{case}, state {step}"
        for action in WRONG_TYPES:
            _rejects(state, twin, action, where)
        legal = state.legal_actions()
        for action in seen:
            if action not in legal:
                _rejects(state, twin, action, where)
                plausible += 1
    assert plausible > 0, f"{case}: no action of the game was ever illegal; the test saw nothing"


def test_another_games_actions_are_refused(case, toy):
    from toy_game import Add

    from mogul.games.mogul.actions import BID, TAKE

    states, _ = case.random_game(case.players[0], seed=31)
    twins, _ = case.random_game(case.players[0], seed=31)
    foreign = [Add(1)] if case.game != toy.name else [BID, TAKE]
    for step in (0, len(states) // 2):
        for action in foreign:
            _rejects(states[step], twins[step], action, f"{case}, state {step}")


def lookalikes(action):
    """Copies of a dataclass action with an int field as a bool or a float (equal to it);
    None for a copy the action's type refuses to make."""
    if not dataclasses.is_dataclass(action):
        return []
    out = []
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if type(value) is int:
            others = [float(value)] + ([bool(value)] if value in (0, 1) else [])
            for other in others:
                try:
                    out.append(dataclasses.replace(action, **{field.name: other}))
                except ValueError:  # refused when made: as good as refused when applied
                    out.append(None)
    return out


def test_lookalike_actions_are_refused_or_recorded_faithfully(case):
    players = case.players[0]
    states, actions = case.random_game(players, seed=34)
    twins, _ = case.random_game(players, seed=34)
    tried, wrong = 0, []
    for step, action in enumerate(actions):
        for other in lookalikes(action):
            if other is None:
                continue  # the action type refused the look-alike value itself
            tried += 1
            try:
                states[step].apply(other)
            except IllegalActionError:
                assert states[step] == twins[step]
                continue
            record = GameRecord.of(states[0], [*actions[:step], other])
            try:
                GameRecord.from_json(record.to_json())
            except ValueError as err:
                wrong.append(f"state {step}: apply({other!r}) was accepted, then {err}")
    if not any(lookalikes(a) for s in states for a in s.legal_actions()):
        pytest.skip(f"{case}: no action has an int field to imitate")
    assert tried > 0 or any(o is None for a in actions for o in lookalikes(a)), (
        f"{case}: the random game never took an action with an int field"
    )
    assert not wrong, f"{case}: {len(wrong)} look-alike actions accepted:\n" + "\n".join(wrong[:5])


def test_a_finished_game_refuses_everything(case):
    states, actions = case.random_game(case.players[-1], seed=32)
    twins, _ = case.random_game(case.players[-1], seed=32)
    for action in [None, actions[-1], actions[0]]:
        err = _rejects(states[-1], twins[-1], action, f"{case}, game over")
        assert err.legal == ()


def test_the_error_survives_pickle(case):
    states, actions = case.random_game(case.players[0], seed=33)
    state = states[-1]
    with pytest.raises(IllegalActionError) as caught:
        state.apply(actions[-1])
    err = caught.value
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is IllegalActionError
    assert (str(back), back.action, back.legal) == (str(err), err.action, err.legal)

    mid = states[len(states) // 2]
    with pytest.raises(IllegalActionError) as caught:
        mid.apply(None)
    back = pickle.loads(pickle.dumps(caught.value))
    assert back.action is None and back.legal == tuple(mid.legal_actions()) and back.legal


def test_the_shared_error_keeps_its_fields():
    err = IllegalActionError("no", action="x", legal=["a", "b"])
    back = pickle.loads(pickle.dumps(err))
    assert (str(back), back.action, back.legal) == ("no", "x", ("a", "b"))
    assert isinstance(back, ValueError)
