"""simulate(): the schema of its three tables, their consistency, and reproducibility."""

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import mogul
from mogul.games.mogul.bots import RandomBot, ValueBot, bot_factory
from mogul.kit.bots import play
from mogul.kit.runner import GAMES_COLUMNS, plan_games
from mogul.kit.simulate import Simulation, seat_bots, simulate
from mogul.kit.spec import resolve

COMPANIES = ["brown", "green", "yellow", "blue", "pink"]
ROUNDS_COLUMNS = (
    ["game", "bot", "round", "card", "seat", "player", "points", "chips", "score"]
    + [f"shares_{c}" for c in COMPANIES]
    + [f"market_{c}" for c in COMPANIES]
)
AUCTIONS_COLUMNS = [
    "game",
    "round",
    "card",
    "company",
    "border",
    "start_player",
    "bids",
    "credits",
    "drop_order",
    "pot_path",
    "steps",
    "winner",
    "runner_up",
    "sold",
    "sale_price",
    "seller",
    "winner_choice",
    "taker",
    "chips_paid",
]


@pytest.fixture(scope="module")
def sim() -> Simulation:
    """The readable engine's tables (the batch engine's are checked equal in test_batch.py)."""
    return simulate(
        "classic",
        ["random", "value", "threshold"],
        games=60,
        seed=3,
        players=4,
        engine="readable",
        progress=False,
    )


def test_games_table_schema(sim):
    g = sim.games
    assert list(g.columns) == [*GAMES_COLUMNS, "points", "chips", "shares", "credits", "rounds"]
    assert len(g) == 60 * 4
    assert g["game"].tolist() == [n for n in range(60) for _ in range(4)]
    assert g["seat"].tolist() == [0, 1, 2, 3] * 60
    assert g["bot"].tolist()[:4] == ["random", "value", "threshold-3", "random"]
    for column in [
        "game",
        "seed",
        "seat",
        "bot_seed",
        "score",
        "rank",
        "points",
        "chips",
        "shares",
        "credits",
        "rounds",
    ]:
        assert pd.api.types.is_integer_dtype(g[column]), column
    assert g["won"].dtype == bool
    assert (g["won"] == (g["rank"] == 1)).all()
    assert (g["score"] == g["points"] + g["chips"] // 5).all()
    assert (g.groupby("game")["won"].sum() >= 1).all()


def test_rounds_table_schema(sim):
    r = sim.rounds
    assert list(r.columns) == ROUNDS_COLUMNS
    assert set(r["card"]) >= {"crash"}
    per_game = r.groupby("game")["round"].max()
    assert (per_game.values == sim.games.groupby("game")["rounds"].first().values).all()
    assert len(r) == 4 * sim.games.groupby("game")["rounds"].first().sum()
    final = r[r["card"] == "crash"].set_index(["game", "seat"])["score"]
    assert (final.values == sim.games.set_index(["game", "seat"])["score"].values).all()


def test_auctions_table_schema(sim):
    a = sim.auctions
    assert list(a.columns) == AUCTIONS_COLUMNS
    # Every round but the crash has one auction.
    counts = a.groupby("game").size()
    assert (counts.values == sim.games.groupby("game")["rounds"].first().values - 1).all()
    assert all(isinstance(b, tuple) and len(b) == 4 for b in a["bids"])
    assert (a["chips_paid"] == a["bids"].map(sum)).all()
    assert set(a["winner_choice"]) <= {"take", "sell"}
    assert (a["winner"] != a["runner_up"]).all()


def test_a_game_replays_from_its_seeds(sim):
    row = sim.games[sim.games["game"] == 7]
    bots = [
        bot_factory(spec)(seed)
        for spec, seed in zip(
            ["random", "value", "threshold", "random"], row["bot_seed"], strict=True
        )
    ]
    final = play(mogul.new_game("classic", players=4, seed=int(row["seed"].iloc[0])), bots).replay()
    assert list(final.final_scores()) == row["score"].tolist()


def test_same_seed_same_tables_on_any_executor(sim):
    with ThreadPoolExecutor(2) as pool:
        again = simulate(
            "classic",
            ["random", "value", "threshold"],
            games=60,
            seed=3,
            players=4,
            executor=pool,
            progress=False,
            chunk_size=7,
            engine="readable",
        )
    pd.testing.assert_frame_equal(again.games, sim.games)
    pd.testing.assert_frame_equal(again.rounds, sim.rounds)
    pd.testing.assert_frame_equal(again.auctions, sim.auctions)


def test_same_seed_same_tables_on_a_process_pool():
    one = simulate(
        "classic",
        ["random", "value"],
        games=12,
        seed=5,
        players=3,
        engine="readable",
        progress=False,
    )
    two = simulate(
        "classic",
        ["random", "value"],
        games=12,
        seed=5,
        players=3,
        workers=2,
        engine="readable",
        progress=False,
    )
    for name in ("games", "rounds", "auctions"):
        pd.testing.assert_frame_equal(getattr(one, name), getattr(two, name))


def test_other_seed_other_games(sim):
    other = simulate(
        "classic",
        ["random", "value", "threshold"],
        games=5,
        seed=4,
        players=4,
        tables=["games"],
        progress=False,
    )
    assert not other.games["seed"].isin(sim.games["seed"]).any()
    assert set(other.tables) == {"games"}


def test_student_classes_play(sim):
    result = simulate("classic", [ValueBot, RandomBot, "random"], games=3, seed=1, progress=False)
    assert result.games["bot"].tolist()[:3] == ["value", "random", "random"]


def test_summary(sim):
    summary = sim.summary()
    assert list(summary.columns) == ["seats", "mean_score", "mean_rank", "win_rate"]
    assert summary.loc["random", "seats"] == 120
    assert summary.index[0] == "value"


def test_save_csv(sim, tmp_path):
    paths = sim.save(tmp_path / "run", format="csv")
    assert [p.name for p in paths] == ["games.csv", "rounds.csv", "auctions.csv"]
    back = pd.read_csv(paths[0])
    assert back["score"].tolist() == sim.games["score"].tolist()
    assert sim.save(tmp_path / "auto")[0].suffix == ".parquet"


def test_plans_are_fixed_by_the_seed():
    assert list(plan_games(1, [(0, 1, 2)] * 3)) == list(plan_games(1, [(0, 1, 2)] * 3))
    assert list(plan_games(1, [(0, 1, 2)] * 3))[:2] == list(plan_games(1, [(0, 1, 2)] * 2))


def test_seat_bots_repeats_the_list():
    assert seat_bots(["a", "b", "c"], 4) == ["a", "b", "c", "a"]
    assert seat_bots(["a"], 3) == ["a", "a", "a"]
    with pytest.raises(ValueError, match="at most one bot per seat"):
        seat_bots(["a", "b", "c"], 2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "games"),
        ({"games": 2**31}, "a run has at most 2,147,483,647 games, got 2,147,483,648"),
        ({"players": 7}, "3 to 6 players"),
        ({"bots": ["nobody"]}, "unknown bot"),
        ({"tables": ["rounds"]}, "tables"),
        ({"workers": 0}, "workers"),
        ({"game": "deluxe"}, "unknown game or edition"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs, message):
    args = {
        "game": "classic",
        "bots": ["random"],
        "games": 2,
        "seed": 0,
        "players": 3,
        "progress": False,
    } | kwargs
    with pytest.raises(ValueError, match=message):
        simulate(**args)


def test_workers_and_executor_together_are_refused():
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="not both"):
        simulate(
            "classic", ["random"], 0, games=2, players=3, executor=pool, workers=2, progress=False
        )


def test_tables_too_big_for_memory_are_refused_before_playing(monkeypatch):
    import mogul.kit.simulate as simulation

    def played(*args, **kwargs):
        raise AssertionError("no game may be played")

    monkeypatch.setattr(simulation, "free_memory", lambda: 100 * 2**20)  # 100 MB free
    monkeypatch.setattr(simulation, "run_chunks", played)
    with pytest.raises(ValueError) as refused:
        simulate("classic", ["random"], games=200_000, players=4, progress=False)
    said = str(refused.value)
    assert said.startswith("200,000 games' games, rounds, auctions tables would take about ")
    assert "GB of memory, more than 50% of the 100 MB this machine has free" in said
    assert "out='folder'" in said and "tables=['games']" in said
    fit = int(said.split("play fewer games (about ")[1].split(" fit")[0].replace(",", ""))
    assert 100 < fit < 20_000
    with pytest.raises(ValueError, match="play fewer games"):
        simulate("classic", ["random"], games=10**6, players=4, tables=["games"], progress=False)


def test_the_memory_estimate_is_what_the_tables_take():
    from mogul.kit.batch import engine_for
    from mogul.kit.simulate import memory_needed
    from mogul.kit.spec import resolve

    tables = ("games", "rounds", "auctions")
    engine = engine_for(*resolve("classic"), ["random"] * 4, ["random"] * 4, tables)
    sim = simulate("classic", ["random"], games=1000, players=4, seed=1, progress=False)
    need = memory_needed(engine, 1, 1000, tables)
    for name in tables:
        kept = sim.tables[name].memory_usage(deep=True, index=False).sum()
        assert kept < need[name] < 4 * kept  # the frame, and the arrays it is built from


def test_the_readable_engine_refuses_tables_too_big_for_memory_too(monkeypatch):
    import mogul.kit.simulate as simulation

    def played(*args, **kwargs):
        raise AssertionError("no game but the sample may be played")

    sampled = simulation.run_plans
    monkeypatch.setattr(simulation, "free_memory", lambda: 10 * 2**20)  # 10 MB free
    monkeypatch.setattr(
        simulation, "run_plans", lambda *a, **k: sampled(*a, **k) if a[4] <= 5 else played()
    )
    with pytest.raises(ValueError) as refused:
        simulate("classic", ["random", "value"], games=50_000, players=3, engine="readable")
    said = str(refused.value)
    assert said.startswith("50,000 games' games, rounds, auctions tables would take about ")
    assert "out='folder'" not in said  # the readable engine keeps its tables until the end
    assert "tables=['games']" in said and "play fewer games" in said


def test_a_classs_settings_deal_every_game():
    """A lecturer previews the auction lab with the class's settings: 3 rounds, budget 3."""
    run = dict(games=6, seed=4, players=3, progress=False)
    bots = ["random", "equilibrium", "naive"]
    sim = simulate("first-price-auction", bots, setup={"rounds": 3, "budget": 3}, **run)
    assert sim.engine == "readable" and sim.setup == {"rounds": 3, "budget": 3}
    assert sim.games["rounds"].eq(3).all()
    assert sim.rounds.groupby("game")["round"].max().tolist() == [3] * 6
    assert sim.rounds["bid"].between(0, 3).all() and sim.rounds["bid"].eq(3).any()
    record = sim.record(5)  # the game again, dealt with the same settings
    assert record.replay().setup.budget == 3
    final = sim.games[sim.games["game"] == 5]["score"].tolist()
    assert list(record.replay().final_scores()) == final


def test_a_setup_runs_on_the_readable_engine_only():
    quick = dict(players=4, setup={"quick_start": True}, progress=False)
    sim = simulate("classic", ["random"], games=3, **quick)
    assert sim.engine == "readable" and len(sim.games) == 12
    assert sim.record(2).replay().setup.quick_start
    with pytest.raises(ValueError, match="engine='fast' deals every game without setup"):
        simulate("classic", ["random"], engine="fast", **quick)


@pytest.mark.parametrize(
    "game, setup, message",
    [
        (
            "auction-lab",
            {"round": 3},
            "the mogul-auction edition has no such setup keyword .*'round'.*; it takes "
            "mechanism, rounds, values, budget, second, drawn, start_player",
        ),
        ("auction-lab", {"budget": 0}, "budget must be a whole number of chips from 1 to 1000"),
        ("auction-lab", {"seed": 1}, "setup may not hold seed"),
        ("auction-lab", ["rounds", 3], "setup maps the game's setup keywords to values"),
        ("classic", {"quick_start": "yes"}, "quick_start must be True or False"),
        ("credit-mobilier", {"rounds": 3}, "no such setup keyword .*'rounds'"),
    ],
)
def test_a_bad_setup_is_the_games_error_before_anything_plays(game, setup, message):
    built = []

    def bot(seed):  # a bot of the game's, counted: none may be built
        built.append(seed)
        return resolve(game)[0].bots["random"](seed)

    with pytest.raises(ValueError, match=message):
        simulate(game, [bot], games=2, players=3, setup=setup, sandbox=False, progress=False)
    assert built == []


def test_the_command_line_takes_the_setup_too(tmp_path, capsys):
    import json

    from mogul.cli import main

    argv = ["simulate", "--game", "first-price-auction", "--bots", "random,naive,equilibrium"]
    argv += ["--games", "4", "--no-progress", "--out", str(tmp_path)]
    assert main([*argv, "--setup", "rounds=2", "--setup", "values=uniform 0..20"]) == 0
    rounds = pd.read_csv(tmp_path / "rounds.csv")
    assert rounds["round"].max() == 2 and rounds["value"].max() > 10
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["setup"] == {"rounds": 2, "values": "uniform 0..20"}
    with pytest.raises(SystemExit):
        main([*argv, "--overwrite", "--setup", "round=2"])
    assert "no such setup keyword" in capsys.readouterr().err
