"""Credit Mobilier through the kit's generic layers: records, simulations, tournaments, game
sessions and the command line, with no special case for the game; its tables and its bots."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from cm_checks import check_step

from mogul import credit_mobilier as cm
from mogul.cli import main
from mogul.games.credit_mobilier.bots import worth
from mogul.kit.bots import RandomBot, play, play_states
from mogul.kit.record import GameRecord
from mogul.kit.runner import GAMES_COLUMNS
from mogul.kit.session import GameSession
from mogul.kit.simulate import simulate
from mogul.kit.tournament import tournament


def test_a_record_round_trips_and_replays_exactly():
    record = play(cm.new_game(players=3, seed=12), [RandomBot(s) for s in range(3)])
    text = record.to_json()
    data = json.loads(text)
    assert data["game"] == "credit-mobilier" and data["actions"][0] == record.actions[0]
    again = GameRecord.from_json(text)
    assert again == record and again.replay() == record.replay() and again.replay().is_over
    assert data["result"]["scores"] == list(record.replay().money)
    log = record.log()
    assert log[0].startswith("Game set up with goods pawns") and "the game ends" in log[-1]
    data["actions"][3] = "move red A1 A2"
    data.pop("result")
    with pytest.raises(ValueError, match="action 4 of the record"):
        GameRecord.from_dict(data)


def test_the_tables_of_a_game():
    states, actions = play_states(cm.new_game(players=3, seed=5), [RandomBot(s) for s in range(3)])
    final = states[-1]
    turns = cm.turns_table(states)
    assert list(turns["turn"]) == list(range(1, final.turn + 1))
    assert set(turns["kind"].dropna()) <= {"build", "move", "buy", "dividends"}
    assert turns["actions"].sum() == sum(1 for a in actions if not isinstance(a, cm.EndTurn))
    assert turns["built"].sum() == len(final.track)
    assert turns["bought"].sum() == sum(s.total for s in final.stocks) - 3
    dividends = cm.dividends_table(states)
    assert set(dividends.columns) >= {
        "turn",
        "round",
        "company",
        "seat",
        "shares",
        "paid",
        "treasury",
    }
    assert dividends["paid"].sum() == turns["dividends"].sum()
    assert (dividends["paid"] <= dividends["shares"]).all()
    holdings = cm.holdings_table(states)
    last = holdings[holdings["final"]]
    assert list(last["money"]) == list(final.money) and list(last["stock_purple"]) == [
        s.purple for s in final.stocks
    ]
    assert len(holdings) == 3 * (final.turn + 1)
    treasuries = cm.treasuries_table(states)
    end = treasuries[treasuries["final"]].set_index("company")["treasury"]
    assert dict(end) == dict(zip(cm.COMPANIES, final.treasuries, strict=True))


def test_simulate_writes_the_games_tables():
    sim = simulate("credit-mobilier", ["random", "dividend"], games=4, seed=3, progress=False)
    assert sorted(sim.tables) == ["dividends", "games", "holdings", "treasuries", "turns"]
    games = sim.games
    assert list(games.columns) == [*GAMES_COLUMNS, "money", "stock", "turns"]
    assert list(games["bot"]) == ["random", "dividend"] * 4
    assert (games["score"] == games["money"]).all()
    for _, pair in games.groupby("game"):
        first = cm.new_game(players=2, seed=int(pair["seed"].iloc[0]))
        bots = [
            cm.REGISTRY[b](seed=int(s)) for b, s in zip(pair["bot"], pair["bot_seed"], strict=True)
        ]
        final = play_states(first, bots)[0][-1]
        assert list(pair["money"]) == list(final.money) and set(pair["turns"]) == {final.turn}
    assert set(sim.dividends["bot"]) <= {"random", "dividend"}


def test_the_dividend_bot_beats_random_play():
    result = tournament(
        "credit-mobilier", ["dividend", "random"], players=2, repetitions=10, seed=1, progress=False
    )
    summary = result.summary()
    assert summary.index[0] == "dividend" and summary.loc["dividend", "win_rate"] >= 0.8, summary


def test_a_session_with_a_human_and_a_bot():
    session = GameSession("credit-mobilier", seats=["human", "dividend"], seed=4, start_player=0)
    assert session.human_to_act() and "your move (choose an action)" in session.status()
    before = session.state
    session.act(before.legal_actions()[0])
    check_step(before, session.history[1])
    session.undo()
    assert session.state == before and len(session.history) == 1
    session.act(before.legal_actions()[0])
    while session.human_to_act() and session.state.kind is not None:
        session.act(cm.EndTurn())
    assert session.human_to_act() or session.state.is_over, "the bot played its turn on its own"
    assert any(s.current_player == 1 for s in session.history)
    session.undo()
    session.undo()
    assert session.state == before
    session.set_autoplay(False)
    session.act(before.legal_actions()[-1])
    session.next_round()
    assert session.state.turn > before.turn or session.human_to_act()
    assert session.record().replay() == session.state
    assert session.action_label(cm.EndTurn()) in ("End turn", "Pass (nothing possible)")


def test_the_command_line_simulates_credit_mobilier(tmp_path, capsys):
    out = tmp_path / "runs"
    argv = [
        "simulate",
        "--game",
        "credit-mobilier",
        "--bots",
        "random,dividend",
        "--games",
        "3",
        "--seed",
        "2",
        "--out",
        str(out),
        "--format",
        "csv",
        "--no-progress",
    ]
    assert main(argv) == 0
    assert "3 games, 2 players, seed 2" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == [
        "dividends.csv",
        "games.csv",
        "holdings.csv",
        "manifest.json",
        "treasuries.csv",
        "turns.csv",
    ]
    assert len(pd.read_csv(out / "games.csv")) == 6
    with pytest.raises(SystemExit):
        main(argv)  # an earlier run's tables are there: refused without --overwrite
    assert "already holds an earlier run's results" in capsys.readouterr().err
    assert main([*argv, "--overwrite"]) == 0


def test_the_dividend_bot_values_money_for_its_seat():
    s = cm.new_game(
        ["Connie", "Randy", "Aaron"],
        seed=0,
        start_player=0,
        dice=[["orange", "red", "red", "yellow", "purple"]],
        treasuries={"red": 9, "yellow": 1},
        stocks=[{"red": 2}, {"red": 1}, {"yellow": 1}],
    )
    bot = cm.DividendBot()
    view = s.view(0)
    assert bot.value(view, cm.PayRound("red")) == 2 - 0.5 * 1, (
        "Connie gets $2, Randy (half counted) $1"
    )
    assert bot.value(view, cm.Buy("red")) == pytest.approx(9 / 4 - 1)
    assert bot.value(view, cm.Buy("yellow")) == pytest.approx(1 / 2 - 1)
    assert bot.choose(view, s.legal_actions()) == cm.PayRound("red")
    assert cm.DividendBot(rival_weight=1).choose(view, s.legal_actions()) == cm.Buy("red"), (
        "$2 - $1 < $1.25"
    )


def test_the_dividend_bot_pays_out_when_everyone_holds_alike():
    # Everyone holds the one purple share of the start, $3 each, and the purple treasury has $5.
    # Orange, orange, purple x3: buy purple shares or pay up to 3 purple rounds.
    start = cm.new_game(
        ["Connie", "Randy", "Aaron"],
        seed=0,
        start_player=0,
        dice=[["orange", "orange", "purple", "purple", "purple"]],
        treasuries={"purple": 5},
    )
    bot, view = cm.DividendBot(), start.view(0)
    assert bot.value(view, cm.PayRound("purple")) == 1 - 0.5 * 1, "$1 to every seat"
    assert bot.value(view, cm.Buy("purple")) == pytest.approx(5 / 4 - 1)
    s = start
    while s.turn == 1:
        s = s.apply(bot.choose(s.view(0), s.legal_actions()))
    # Round 1 pays $1 a seat ($2 left), round 2 Connie and Randy, then the treasury is empty.
    assert s.money == (5, 5, 4) and s.treasuries.purple == 0
    # Rivals' dollars counted in full (the old rule): paying is worth $0, so it buys instead.
    old = cm.DividendBot(rival_weight=1)
    assert old.name == "dividend-rw1" and old.value(view, cm.PayRound("purple")) == 0
    assert old.choose(view, start.legal_actions()) == cm.Buy("purple")
    with pytest.raises(ValueError, match="rival_weight must be a number from 0 to 1"):
        cm.DividendBot(rival_weight=1.5)


def test_the_monte_carlo_bot_takes_the_dividends_it_owns():
    # Connie holds every red share and the red treasury is rich: paying out beats everything.
    s = cm.new_game(
        ["Connie", "Randy", "Aaron"],
        seed=0,
        start_player=0,
        dice=[["orange", "red", "red", "green", "blue"]],
        treasuries={"red": 12},
        stocks=[{"red": 3}, {"purple": 1}, {"purple": 1}],
    )
    bot = cm.MonteCarloBot(rollouts=2, horizon=1, seed=1)
    assert bot.name == "mc-2"
    assert bot.choose(s.view(0), s.legal_actions()) == cm.PayRound("red")
    with pytest.raises(ValueError, match="rollouts must be a whole number"):
        cm.MonteCarloBot(rollouts=0)
    with pytest.raises(ValueError, match="treasury_weight must be a number from 0 to 1"):
        cm.MonteCarloBot(treasury_weight=2)
    assert cm.MonteCarloBot(treasury_weight=1).name == "mc-8-tw1"


def test_worth_counts_treasuries_by_stake_and_weight():
    s = cm.new_game(
        2,
        seed=0,
        treasuries={"red": 10, "purple": 4},
        stocks=[{"red": 3, "purple": 1}, {"red": 1, "purple": 1}],
    )
    assert worth(s, 0) == 3 + 7.5 + 2 and worth(s, 1, treasury_weight=0.5) == 3 + 0.5 * (2.5 + 2)
