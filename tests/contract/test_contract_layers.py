"""The generic layers run the toy game with no special case: runner, simulate, tournament,
GameSession and the command line (in-process, writing to a temporary folder).

Values are checked, not just shapes: row counts, column order, that every row's seeds deal
and replay the game whose score it reports, that a seed reproduces its tables on any
executor, and that the toy's perfect player wins every 2-player game it starts in a won
position (a known result for this subtraction game).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest
import toy_game
from pandas.testing import assert_frame_equal

from mogul.cli import main
from mogul.kit.bots import RandomBot, play_states
from mogul.kit.contract import IllegalActionError
from mogul.kit.runner import GAMES_COLUMNS, RunOptions, entrants, plan_games, run_plans
from mogul.kit.session import GameSession
from mogul.kit.simulate import simulate
from mogul.kit.tournament import tournament

BOTS = {"random": RandomBot, "perfect": toy_game.PerfectBot}


def test_simulate_the_toy_game(toy):
    sim = simulate("toy", ["random", "perfect"], games=6, seed=3, progress=False)
    assert (sim.game, sim.edition) == ("toy", "toy-race")
    assert sorted(sim.tables) == ["games", "turns"]
    games = sim.games
    assert list(games.columns) == [*GAMES_COLUMNS, "target", "turns"]
    assert len(games) == 12 and list(games["game"]) == [g for g in range(6) for _ in range(2)]
    assert list(games["bot"]) == ["random", "perfect"] * 6
    assert (games.groupby("game")["won"].sum() == 1).all(), "one winner per race"
    assert (games["score"] == games["won"].astype(int)).all()
    # Every row's seeds deal and replay the very game it reports.
    for _, pair in games.groupby("game"):
        first = toy_game.new_game("toy-race", 2, int(pair["seed"].iloc[0]))
        bots = [BOTS[b](seed=int(s)) for b, s in zip(pair["bot"], pair["bot_seed"], strict=True)]
        final = play_states(first, bots)[0][-1]
        assert list(pair["score"]) == list(final.final_scores())
        assert set(pair["turns"]) == {final.turn} and set(pair["target"]) == {final.target}
    turns = sim.turns
    assert list(turns.columns) == ["game", "bot", "turn", "seat", "added", "total"]
    assert len(turns) == games.groupby("game")["turns"].first().sum()
    assert (turns.groupby("game")["added"].sum() == games.groupby("game")["target"].first()).all()
    summary = sim.summary()
    assert set(summary.index) == {"random", "perfect"} and (summary["seats"] == 6).all()


def test_the_runner_seats_entrants_as_planned(toy):
    seated_bots = entrants(["random", "perfect"], toy.bots, unique=True)
    plans = list(plan_games(8, [(0, 1), (1, 0), (1, 1)]))
    assert [p.game for p in plans] == [0, 1, 2] and len({p.seed for p in plans}) == 3
    run = run_plans(
        "toy",
        "toy-race",
        seated_bots,
        plans,
        len(plans),
        ["games", "turns"],
        RunOptions(progress=False),
    )
    tables = run.tables
    assert not run.partial and tables["failures"].empty
    games = tables["games"]
    assert games["bot"].tolist() == ["random", "perfect", "perfect", "random", "perfect", "perfect"]
    assert games["seed"].tolist() == [p.seed for p in plans for _ in range(2)]
    assert games["bot_seed"].tolist() == [s for p in plans for s in p.bot_seeds]
    assert games.groupby("game")["rank"].apply(sorted).tolist() == [[1, 2]] * 3
    seated = {0: ["random", "perfect"], 1: ["perfect", "random"], 2: ["perfect", "perfect"]}
    turns = tables["turns"]
    assert set(turns["game"]) == {0, 1, 2}
    assert turns["bot"].tolist() == [
        seated[g][s] for g, s in zip(turns["game"], turns["seat"], strict=True)
    ]


def test_a_seed_reproduces_the_tables_on_any_executor(toy):
    one = simulate("toy", ["random", "random", "perfect"], games=8, seed=5, progress=False)
    with ThreadPoolExecutor(2) as pool:
        two = simulate(
            "toy",
            ["random", "random", "perfect"],
            games=8,
            seed=5,
            progress=False,
            executor=pool,
            chunk_size=3,
        )
    for name in ("games", "turns"):
        assert_frame_equal(one.tables[name], two.tables[name])
    other = simulate("toy", ["random", "random", "perfect"], games=8, seed=6, progress=False)
    assert not one.games["seed"].equals(other.games["seed"])


def test_the_perfect_player_wins_every_won_position(toy):
    sim = simulate("toy", ["perfect", "random"], games=30, seed=1, progress=False, tables=["games"])
    won_positions = 0
    for _, pair in sim.games.groupby("game"):
        first = toy_game.new_game("toy-race", 2, int(pair["seed"].iloc[0]))
        if first.current_player == 0 and first.target % 4 != 0:
            won_positions += 1
            assert pair["won"].tolist() == [True, False], f"perfect lost a won race: {first}"
    assert won_positions >= 5, "too few won positions among 30 games to test anything"


def test_a_tournament_of_the_toy_game(toy):
    result = tournament(
        "toy", ["random", "perfect", "random"], players=2, repetitions=2, seed=4, progress=False
    )
    assert (result.game, result.edition) == ("toy", "toy-race")
    assert result.entrants == ("random", "perfect", "random 2")
    assert len(result.games) == 3 * 2 * 2 * 2  # 6 seatings x 2 repetitions x 2 seats
    summary = result.summary()
    assert set(summary.index) == set(result.entrants) and (summary["games"] == 8).all()
    assert summary["wins"].sum() == 12, "one winner in each of the 12 games"
    h2h = result.head_to_head()
    assert h2h.shape == (3, 3)
    for a in result.entrants:
        for b in result.entrants:
            if a != b:
                assert h2h.loc[a, b] + h2h.loc[b, a] == pytest.approx(1.0)
    again = tournament(
        "toy-race",
        ["random", "perfect", "random"],
        players=2,
        repetitions=2,
        seed=4,
        progress=False,
    )
    assert_frame_equal(result.games, again.games)


def test_a_session_of_the_toy_game(toy):
    session = GameSession("toy", seats=["human", "perfect"], seed=7)
    assert session.edition == "toy-race" and session.state.setup.seed == 7
    changes = []
    session.on_change(lambda s: changes.append(s.state.total))
    assert session.human_to_act(), "the bot moved for itself until the human's turn"
    start = session.state.total
    legal = session.state.legal_actions()
    assert session.action_label(legal[0]) == f"Add 1 (to {start + 1})"
    with pytest.raises(IllegalActionError):
        session.act(toy_game.Add(4))
    session.act(legal[0])
    assert changes and session.state.total >= start + 1
    assert session.human_to_act() or session.state.is_over
    session.undo()
    assert session.state.total == start and session.human_to_act()
    while not session.state.is_over:
        session.act(session.state.legal_actions()[-1])
    assert "Game over" in session.status() and session.record().replay() == session.state
    last_two = session.event_log(lines=2)
    assert len(last_two) == 2 and last_two[-1] == session.state.describe_events()[-1]
    assert last_two[-1].endswith(f"total {session.state.target} = target.")


def test_a_session_of_bots_plays_to_the_end_and_by_rounds(toy):
    session = GameSession("toy-race", seats=["random", "perfect", "random"], seed=2)
    assert not session.human_to_act() and session.state.turn == 0, "bots wait to be asked"
    session.next_round()
    assert session.state.is_over or session.state.turn == 3, "a round is one move per seat"
    session.play_to_end()
    final = session.state
    assert final.is_over and final.total == final.target
    record = session.record()
    assert record.game == "toy" and record.replay() == final
    assert len(record.actions) == final.turn
    assert session.labels() == ["random bot", "perfect bot", "random bot"]


def test_the_command_line_simulates_the_toy_game(toy, tmp_path, capsys):
    out = tmp_path / "runs"
    argv = [
        "simulate",
        "--game",
        "toy",
        "--bots",
        "random,perfect",
        "--games",
        "5",
        "--seed",
        "9",
        "--out",
        str(out),
        "--format",
        "csv",
        "--no-progress",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "5 games, 2 players, seed 9" in printed
    assert sorted(p.name for p in out.iterdir()) == ["games.csv", "manifest.json", "turns.csv"]
    games = pd.read_csv(out / "games.csv")
    assert list(games.columns) == [*GAMES_COLUMNS, "target", "turns"] and len(games) == 10
    same = simulate("toy", ["random", "perfect"], games=5, seed=9, progress=False).games
    assert games["seed"].tolist() == same["seed"].tolist()
    assert games["score"].tolist() == same["score"].tolist()


def test_the_command_line_runs_a_toy_tournament(toy, tmp_path, capsys):
    argv = [
        "tournament",
        "--game",
        "toy-race",
        "--bots",
        "random,perfect",
        "--repetitions",
        "3",
        "--seed",
        "1",
        "--out",
        str(tmp_path),
        "--no-progress",
    ]
    assert main(argv) == 0
    assert "6 games, 2 players, seed 1" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "games.csv",
        "head_to_head.csv",
        "manifest.json",
        "summary.csv",
    ]
    assert len(pd.read_csv(tmp_path / "games.csv")) == 12


def test_the_command_line_refuses_a_toy_bot_for_mogul(toy, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--game", "classic", "--bots", "perfect", "--games", "1"])
    assert stop.value.code == 2
    assert "unknown bot 'perfect'" in capsys.readouterr().err


def test_every_default_game_comes_from_the_registry(toy, monkeypatch, tmp_path, capsys):
    """Make the toy the registry's default game: every generic default follows, none names a game."""
    from mogul.classroom.store import TableStore
    from mogul.kit import spec as registry

    monkeypatch.setattr(registry, "_ANNOUNCED", {"toy": toy_game.__name__, **registry._ANNOUNCED})
    assert registry.default_game() == "toy"
    session = GameSession(seats=["human", "perfect"])
    assert (session.spec.name, session.edition) == ("toy", "toy-race")
    store = TableStore("sqlite://")
    assert store.create_table(seats=["random", "perfect"], seed=1).game == "toy"
    assert [t.edition for t in store.create_tables(2, seats=["human", "random"])] == [
        "toy-race"
    ] * 2
    assert main(["simulate", "--bots", "random,perfect", "--games", "3", "--no-progress"]) == 0
    assert "3 games, 2 players, seed 0" in capsys.readouterr().out
    with pytest.raises(
        TypeError, match=r"takes the game first, e\.g\. simulate\('toy', \['random'\]"
    ):
        simulate(["random"], 3)
