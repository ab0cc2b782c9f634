"""The state contract, for every registered game and edition and the toy game.

Random games are played to the end (within a step bound) at every player count; at every
state the contract's questions get consistent answers: whose turn it is, the legal actions
and their text form, views, events, the HTML table, the spec's labels, stages and tables,
final scores, winners and standings. ``deal(setup)`` gives the first state again and
``new_game`` refuses player counts outside the edition's range.
"""

from __future__ import annotations

import pandas as pd
import pytest
from kit_cases import MAX_STEPS

from mogul.kit import contract
from mogul.kit.spec import names, resolve, spec_for


def test_every_game_registers_its_editions(case):
    spec = case.spec
    assert resolve(case.edition) == (spec, case.edition)
    assert resolve(spec.name)[1] == spec.editions[0], "a game's name stands for its first edition"
    assert case.edition in names() and spec.name in names()
    for alias, edition in spec.aliases.items():
        assert resolve(alias) == (spec, edition), f"alias {alias!r} should resolve to {edition!r}"
    low, high = spec.player_range(case.edition)
    assert 1 <= low <= high, f"{case}: player range {low}..{high} is empty"


def test_random_games_reach_the_end_at_every_player_count(case):
    for players in case.players:
        states, actions = case.random_game(players, seed=players)
        final = states[-1]
        assert final.is_over and final.current_player is None and final.legal_actions() == []
        assert 0 < len(actions) < MAX_STEPS
        assert len(final.names) == players == len(final.setup.players)
        scores, winners = final.final_scores(), final.winners()
        assert len(scores) == players and all(isinstance(s, int) for s in scores)
        assert (
            winners
            and set(winners) <= set(range(players))
            and list(winners) == sorted(set(winners))
        )


def test_every_state_answers_the_contract(case):
    spec = case.spec
    players = case.players[0]
    states, actions = case.random_game(players, seed=11)
    first = states[0]
    assert spec.deal(first.setup) == first, "deal(state.setup) must give the first state again"
    assert first.setup.edition == case.edition and spec_for(first) is spec
    stages = []
    for step, state in enumerate(states):
        where = f"{case}, {players} players, state {step}"
        assert isinstance(state, contract.GameState), (
            f"{where}: {type(state).__name__} misses a contract member"
        )
        assert isinstance(state, spec.state_type)
        legal = state.legal_actions()
        assert (state.current_player is None) == state.is_over == (legal == []), where
        if step < len(actions):
            assert actions[step] in legal, f"{where}: the bot's action {actions[step]} is not legal"
            assert state.current_player in range(players), where
        assert len(set(map(str, legal))) == len(legal), (
            f"{where}: two legal actions share a text {legal}"
        )
        for action in legal:
            assert spec.parse_action(str(action)) == action, (
                f"{where}: {action!r} does not read back from {str(action)!r}"
            )
            label = spec.action_label(state, action)
            assert isinstance(label, str) and label, f"{where}: empty button label for {action}"
        for seat in range(players):
            view = state.view(seat)
            assert getattr(view, "seat", seat) == seat, (
                f"{where}: view({seat}) is for seat {view.seat}"
            )
        events = state.describe_events()
        assert isinstance(events, list) and all(isinstance(e, str) and e for e in events), where
        assert step == 0 or events, f"{where}: the step that made this state reported no event"
        stages.append(spec.stage(state))
    assert all(isinstance(s, int) for s in stages)
    assert stages == sorted(stages), f"{case}: stage() went backwards: {stages}"
    assert stages[-1] > stages[0], f"{case}: stage() never advanced over a whole game"


def test_html_shows_every_player(case):
    states, _ = case.random_game(case.players[-1], seed=2)
    for state in (states[0], states[len(states) // 2], states[-1]):
        page = state._repr_html_()
        drawn = case.spec.table_html(
            state, log=["a <logged> line"], labels=["you"] + [""] * (len(state.names) - 1)
        )
        for name in state.names:
            assert name in page and name in drawn, f"{case}: {name} missing from the HTML table"
        assert "a &lt;logged&gt; line" in drawn and "<logged>" not in drawn, (
            "log lines must be escaped"
        )
        assert "you" in drawn


def test_winners_agree_with_standings_and_result_rows(case):
    """The runner ranks seats by ``standings``; ``winners()`` must name exactly its top seats."""
    spec = case.spec
    for players in case.players:
        for seed in range(3):
            final = case.random_game(players, seed)[0][-1]
            keys = spec.standings(final)
            assert len(keys) == players
            top = tuple(seat for seat, key in enumerate(keys) if key == max(keys))
            assert final.winners() == top, (
                f"{case} seed {seed}: winners {final.winners()} but standings {keys}"
            )
            for seat in range(players):
                row = spec.result_row(final, seat)
                assert tuple(row) == spec.result_columns, f"{case}: result_row keys {tuple(row)}"


def test_tables_are_built_from_a_games_states(case):
    states, actions = case.random_game(case.players[0], seed=4)
    assert case.spec.tables, f"{case}: a game should offer at least one tidy table"
    for name, build in case.spec.tables.items():
        rows = build(states)
        assert isinstance(rows, list) and all(isinstance(r, dict) for r in rows), (
            f"{case}: table {name!r}"
        )
        table = pd.DataFrame(rows)
        assert len(table.columns) > 0, f"{case}: table {name!r}"
        assert len(table) > 0, f"{case}: table {name!r} is empty after {len(actions)} actions"
        if "seat" in table:
            assert set(table["seat"]) <= set(range(len(states[0].names)))


def test_apply_returns_a_new_state_and_leaves_the_old_one(case):
    states, actions = case.random_game(case.players[0], seed=5)
    twins, _ = case.random_game(case.players[0], seed=5)  # the same game, built again
    for step, action in enumerate(actions):
        before = states[step]
        after = before.apply(action)
        assert after is not before and after == states[step + 1]
        assert before == twins[step], f"{case}: applying {action} changed state {step}"


@pytest.mark.parametrize("offset", [-1, +1])
def test_new_game_refuses_player_counts_outside_the_range(case, offset):
    low, high = case.spec.player_range(case.edition)
    count = low - 1 if offset < 0 else high + 1
    with pytest.raises(ValueError):
        case.new_game(count, seed=0)
    with pytest.raises(ValueError, match=str(count)):
        case.spec.check_players(case.edition, count)
