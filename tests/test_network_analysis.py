"""The 2013 sell right in numbers: its uses in a game, its value as the map fills, and the two
editions side by side (``mogul.analysis``)."""

from __future__ import annotations

import pandas as pd
import pytest

import mogul
import mogul.analysis.mogul as a
from mogul import BID, DROP, TAKE, Branch, Sell
from mogul.kit.bots import play_states


def branch_scenario():
    """Rio Grande, 3 players, one card then the crash. Ann holds 2 blue shares and houses on
    BL1 and BL2; Ben a house on BL-PI. Market value of blue: 4.

        revealed: pink/blue     blue line: YE-BL  BL1  BL2  BL3  BL4  BL5  BL-PI
        Ann: blue/pink, blue/green          Ann  Ann                   Ben
        Ben: blue/yellow   Cai: blue/brown
    """
    return mogul.new_game(
        "rio-grande",
        players=["Ann", "Ben", "Cai"],
        seed=1,
        deck=["pink/blue", "crash"],
        starting_shares=[["blue/pink", "blue/green"], ["blue/yellow"], ["blue/brown"]],
        start_player=0,
        houses=[["BL1", "BL2"], ["BL-PI"], []],
    )


def test_a_branch_use_worked_by_hand():
    states = [branch_scenario()]
    actions = [BID, DROP, DROP]  # Ann bids, Ben drops (takes 1), Cai drops: Ann wins, Cai second
    for action in actions:
        states.append(states[-1].apply(action))
    assert Sell(2) in states[-1].legal_actions()
    actions += [Branch("YE-BL"), TAKE]  # Ann founds a branch; Cai takes the card; the crash
    for action in actions[3:]:
        states.append(states[-1].apply(action))
    assert states[-1].is_over
    (row,) = a.sell_right_uses(states, actions, game=5).to_dict("records")
    # a sale: 2 shares x 4 points, less their end bonus of 1 each = 6;
    # a branch: BL3/BL4/BL5 make 3 blue houses (9 - 4 = 5), YE-BL also starts yellow: 5 + 1 = 6
    assert row == {
        "game": 5,
        "round": 1,
        "seat": 0,
        "role": "winner",
        "border": "blue",
        "houses_on_map": 3,
        "free": 4,
        "shares": 2,
        "market": 4,
        "sell_value": 6,
        "branch_value": 6,
        "choice": "branch",
        "station": "YE-BL",
        "won_game": True,
    }
    # Ann: 5 chips (1) + branches 9 + 1 + 2 shares = 13; Ben 1 + 2 + 1 = 4; Cai 1 + 2 = 3
    assert states[-1].final_scores() == (13, 4, 3)


def test_a_runner_up_use_and_a_classic_sale():
    s = branch_scenario()
    states, actions = [s], [BID, DROP, DROP, TAKE, Sell(0)]  # Ann takes; Cai keeps his blue share
    for action in actions:
        states.append(states[-1].apply(action))
    (row,) = a.sell_right_uses(states, actions).to_dict("records")
    assert (row["seat"], row["role"], row["shares"], row["sell_value"], row["choice"]) == (
        2,
        "runner-up",
        1,
        3,
        "nothing",
    )
    assert row["branch_value"] == 2 and row["free"] == 4  # a first house: 1 per line, YE-BL has two
    assert row["won_game"] is False
    classic = mogul.new_game("classic", players=3, seed=4)
    states, actions = play_states(classic, [mogul.ValueBot(seed=i) for i in range(3)])
    uses = a.sell_right_uses(states, actions)
    assert set(uses["choice"]) <= {"sell", "nothing"} and (uses["branch_value"] == 0).all()
    assert (uses.loc[uses["choice"] == "sell", "sell_value"] > 0).all()
    auctions = mogul.GameRecord.of(classic, actions).table("auctions")
    assert len(uses) == len(auctions)  # the sell right is used once per auction
    assert (uses["sell_value"] == uses["shares"] * uses["market"]).all()  # no end bonus for shares
    sold = auctions.loc[auctions["sold"] > 0, "round"].tolist()
    assert uses.loc[uses["choice"] == "sell", "round"].tolist() == sold and sold


def test_sell_right_by_fill_groups_by_houses_on_the_map():
    uses = pd.DataFrame(
        {
            "houses_on_map": [0, 2, 3, 7],
            "sell_value": [0, 4, 6, 9],
            "branch_value": [3, 1, 5, 2],
            "free": [7, 6, 5, 2],
            "choice": ["branch", "sell", "branch", "nothing"],
        }
    )
    table = a.sell_right_by_fill(uses, step=3)
    assert list(table.index) == [0, 3, 6]
    first = {k: v for k, v in table.loc[0].to_dict().items() if not k.endswith(("_low", "_high"))}
    assert first == {
        "uses": 2,
        "games": 2,  # no game column: every use its own game
        "sell": 2,
        "branch": 2,
        "gap": 0,  # sell - branch, use by use: 0 - 3 and 4 - 1
        "best": 3.5,
        "free": 6.5,
        "chose_branch": 0.5,
        "chose_sell": 0.5,
    }
    assert table.loc[6, "best"] == 9 and table.loc[3, "chose_branch"] == 1
    # sell values 0 and 4: mean 2, standard deviation 2.83, 95% interval 2 -+ 1.96 * 2.83 / sqrt(2)
    assert table.loc[0, "sell_low"] == pytest.approx(2 - 1.959964 * 8**0.5 / 2**0.5, abs=1e-4)
    assert table.loc[3, "branch_high"] == 5  # one use: no spread to measure
    assert list(a.sell_right_by_fill(uses, step=3, min_uses=2).index) == [
        0
    ]  # groups of one use left out
    with pytest.raises(ValueError, match="step must be a whole number >= 1, got 0"):
        a.sell_right_by_fill(uses, step=0)
    with pytest.raises(ValueError, match="min_uses must be a whole number >= 1, got 0"):
        a.sell_right_by_fill(uses, min_uses=0)


def test_chose_the_better_counts_ties_as_the_better():
    uses = pd.DataFrame(
        {
            "sell_value": [6, 6, 0, 4, -1],
            "branch_value": [6, 5, 0, 7, 0],
            "choice": ["branch", "branch", "nothing", "sell", "nothing"],
        }
    )
    # a tie (branch 6 = sell 6) is the better; branch 5 < sell 6 is not; nothing when both are
    # worth 0 is; a sale worth 4 against a branch worth 7 is not; nothing beats a sale at -1
    got = a.chose_the_better(uses)
    assert (got["uses"], got["better"], got["share"]) == (5, 3, 0.6)
    assert (got["sell_not_better"], got["branch_not_better"], got["nothing_not_better"]) == (
        1,
        1,
        0,
    )
    assert got["low"] == pytest.approx(0.6 - 1.959964 * (0.3 / 5) ** 0.5, abs=1e-4)


@pytest.fixture(scope="module")
def compared():
    return a.compare_editions(["value"], games=12, seed=1, players=4)


def test_compare_editions_same_bots_both_editions(compared):
    games, auctions, uses = compared["games"], compared["auctions"], compared["uses"]
    assert list(games.groupby("edition", sort=False).size().items()) == [
        ("classic", 12),
        ("rio-grande", 12),
    ]
    # every game ends with the crash: one auction per card before it
    assert (games["auctions"] == games["cards"] - 1).all()
    assert len(uses) == len(auctions) == games["auctions"].sum()
    assert set(uses.loc[uses["edition"] == "classic", "choice"]) <= {"sell", "nothing"}
    assert (uses.loc[uses["edition"] == "rio-grande", "choice"] == "branch").any()
    sim = mogul.simulate("rio-grande", ["value"], games=12, seed=1, players=4, progress=False)
    rg = games[games["edition"] == "rio-grande"]
    assert rg["winning_score"].tolist() == sim.games.groupby("game")["score"].max().tolist()
    assert (
        compared["auctions"].query("edition == 'rio-grande'")["steps"].tolist()
        == sim.auctions["steps"].tolist()
    )


def test_what_the_editions_differences_are_made_of(compared):
    games = compared["games"]
    # the winning score in parts adds up, and classic has no end bonuses
    parts = games[["winner_track", "winner_chips", "winner_shares", "winner_branches"]].sum(axis=1)
    assert (parts == games["winning_score"]).all()
    classic = games[games["edition"] == "classic"]
    assert (classic[["winner_shares", "winner_branches"]] == 0).all().all()
    gap = a.score_gap(compared)
    assert list(gap.index) == ["score track", "chips", "shares held", "houses (branches)", "total"]
    assert gap.loc[gap.index[:4], "gap"].sum() == pytest.approx(gap.loc["total", "gap"])
    rg = games[games["edition"] == "rio-grande"]
    assert gap.loc["total", "gap"] == pytest.approx(
        rg["winning_score"].mean() - classic["winning_score"].mean()
    )
    half = 1.959964 * (rg["winning_score"].var() / 12 + classic["winning_score"].var() / 12) ** 0.5
    assert gap.loc["total", "high"] - gap.loc["total", "gap"] == pytest.approx(half, abs=1e-3)
    # the length: a pile of P cards with the crash uniform in the last w gives P - (w - 1) / 2
    length = a.length_parts(compared)
    assert length[["pile", "window", "model"]].values.tolist() == [[28, 5, 26.0], [26, 4, 24.5]]
    assert length["pile_effect"].tolist() == [0, -2] and length["window_effect"].tolist() == [
        0,
        0.5,
    ]
    assert length.loc["classic", "cards"] == pytest.approx(classic["cards"].mean())
    # who used the sell right to do nothing: in the classic game, runners-up only
    nothing = a.sell_nothing(compared["uses"])
    uses = compared["uses"]
    cl = uses[(uses["edition"] == "classic") & (uses["choice"] == "nothing")]
    assert nothing.loc["classic", "nothing"] == len(cl) and nothing.loc["classic", "by_winner"] == 0
    assert nothing.loc["classic", "held_none"] == (cl["held"] == 0).sum() > 0
    # held: the user's shares of the border colour as the round began
    sim = mogul.simulate(
        "classic",
        ["value"],
        games=12,
        seed=1,
        players=4,
        tables=("games", "rounds", "auctions"),
        progress=False,
    )
    first = sim.auctions.iloc[0]
    user = first["runner_up"] if first["winner_choice"] == "take" else first["winner"]
    row = sim.rounds[
        (sim.rounds["game"] == 0)
        & (sim.rounds["round"] == first["round"])
        & (sim.rounds["seat"] == user)
    ]
    assert uses.iloc[0]["held"] == row[f"shares_{first['border']}"].iloc[0]
    # the comparison table: each measure with its interval, the difference with its own
    table = a.edition_comparison(compared)
    assert list(table.index) == [
        "cards",
        "auction_moves",
        "winning_score",
        "winner_sells",
        "winner_branches",
    ]
    assert table.loc["cards", "classic"] == pytest.approx(classic["cards"].mean())
    assert table.loc["winning_score", "difference"] == pytest.approx(gap.loc["total", "gap"])
    rgw = uses[(uses["edition"] == "rio-grande") & uses["won_game"] & (uses["choice"] == "branch")]
    per_game = (
        rgw.groupby("game").size().reindex(rg["game"], fill_value=0)
        / rg.set_index("game")["winners"]
    )
    assert table.loc["winner_branches", "rio-grande"] == pytest.approx(per_game.mean())
    with pytest.raises(ValueError, match="compares two editions"):
        a.edition_comparison({k: v[v["edition"] == "classic"] for k, v in compared.items()})


def test_uses_from_auctions_worked_by_hand():
    # four auctions of game 0: the winner sells; takes and the runner-up branches; branches;
    # takes and the runner-up sells none. Seat 2 won the game.
    auctions = pd.DataFrame(
        {
            "game": [0, 0, 0, 0],
            "round": [1, 2, 3, 4],
            "winner": [1, 2, 3, 0],
            "runner_up": [2, 0, 1, 3],
            "winner_choice": ["sell", "take", "branch", "take"],
            "sold": [2, None, None, 0],
            "branch": [None, "BL1", "YE2", None],
        }
    )
    games = pd.DataFrame(
        {"game": [0, 0, 0, 0], "seat": [0, 1, 2, 3], "won": [False, False, True, False]}
    )
    uses = a.uses_from_auctions(auctions, games)
    assert uses[["seat", "role", "choice", "won_game"]].values.tolist() == [
        [1, "winner", "sell", False],
        [0, "runner-up", "branch", False],
        [3, "winner", "branch", False],
        [3, "runner-up", "nothing", False],
    ]
    auctions.loc[0, "winner"] = 2
    assert a.uses_from_auctions(auctions, games)["won_game"].tolist() == [True, False, False, False]


def test_sell_right_table_plays_the_same_games_again():
    first = a.sell_right_table("rio-grande", ["value"], games=3, seed=5, players=3)
    assert first.equals(a.sell_right_table("rio-grande", ["value"], games=3, seed=5, players=3))
    assert first["game"].unique().tolist() == [0, 1, 2]
    assert (first.loc[first["choice"] == "branch", "free"] > 0).all()
    assert (first["houses_on_map"] <= 18).all()  # 3 players x 6 houses


def test_edition_summary_real_values(compared):
    summary = a.edition_summary(compared)
    assert list(summary.index) == ["classic", "rio-grande"]
    assert list(summary.columns) == [
        "games",
        "cards",
        "auction_moves",
        "winning_score",
        "sell",
        "branch",
        "nothing",
        "winner_sells",
        "winner_branches",
    ]
    shares = summary[["sell", "branch", "nothing"]].sum(axis=1)
    assert shares.tolist() == pytest.approx([1, 1])
    assert summary.loc["classic", "branch"] == 0 and summary.loc["classic", "winner_branches"] == 0
    games = compared["games"]
    assert (
        summary.loc["rio-grande", "cards"]
        == games.loc[games["edition"] == "rio-grande", "cards"].mean()
    )
    # the winners' uses, counted by hand from the uses table
    uses = compared["uses"]
    rg = uses[(uses["edition"] == "rio-grande") & uses["won_game"]]
    winners = games.loc[games["edition"] == "rio-grande", "winners"].sum()
    assert (
        summary.loc["rio-grande", "winner_branches"]
        == (rg["choice"] == "branch").sum() / winners
        > 0
    )
    assert summary.loc["rio-grande", "winner_sells"] == (rg["choice"] == "sell").sum() / winners
    moves = compared["auctions"].groupby("edition")["steps"].mean()
    assert summary["auction_moves"].to_dict() == moves.to_dict()


def test_bad_arguments_say_what_is_allowed():
    with pytest.raises(ValueError, match="games must be a whole number >= 1, got 0"):
        next(a.play_games("rio-grande", ["value"], games=0))
    with pytest.raises(ValueError, match="unknown game or edition 'rio'"):
        next(a.play_games("rio", ["value"], games=1))


def test_the_sell_right_figures_show_the_tables():
    from mogul.plots.mogul.game import sell_right_figure, sell_right_use_figure

    uses = pd.DataFrame(
        {
            "houses_on_map": [0, 2, 3, 7],
            "sell_value": [0, 4, 6, 9],
            "branch_value": [3, 1, 5, 2],
            "free": [7, 6, 5, 2],
            "choice": ["branch", "sell", "branch", "nothing"],
        }
    )
    fig = sell_right_figure(a.sell_right_by_fill(uses))
    sell, branch, best = fig.data
    assert (sell.name, branch.name, best.name) == (
        "sell all",
        "best branch",
        "the better of the two",
    )
    assert (
        sell.x == (0, 3, 6)
        and sell.y == (2, 6, 9)
        and branch.y == (2, 5, 2)
        and best.y == (3.5, 6, 9)
    )
    assert sell.text[0] == "2 uses, branch chosen 50%"
    shares = a.use_shares(
        pd.DataFrame(
            {
                "edition": ["classic"] * 4 + ["rio-grande"] * 3,
                "game": [0, 0, 1, 1, 0, 1, 1],
                "choice": ["sell", "nothing", "nothing", "nothing", "branch", "branch", "sell"],
            }
        )
    )
    bars = sell_right_use_figure(shares)
    assert [t.name for t in bars.data] == ["classic", "rio-grande"]
    classic, rio = bars.data
    assert classic.y == ("sell", "branch", "nothing") and classic.x == (0.25, 0.0, 0.75)
    assert rio.x == (0.3333, 0.6667, 0.0)
    # each bar's error bar is its interval over games
    # each bar's error bar is its interval over games: 1.96 x 0.25 (residuals +-0.5 in two
    # games: 2/1 x 0.5 / 4^2 = 0.0625), cut at 0 and 1
    assert classic.error_x.array == (0.49, 0.0, 0.25)
    assert classic.error_x.arrayminus == (0.25, 0.0, 0.49)
    assert bars.layout.barmode == "group"


def test_use_shares_are_clustered_by_game():
    # Game 0: 3 uses, all sales; game 1: 1 use, nothing. Share of sales 3/4. Over games the
    # residuals are 3 - 0.75 * 3 = 0.75 and 0 - 0.75 * 1 = -0.75: variance
    # 2/1 * (0.5625 + 0.5625) / 16 = 0.140625, standard error 0.375 (uses as if independent
    # would say sqrt(0.75 * 0.25 / 4) = 0.2165: too narrow, the game's uses hang together).
    uses = pd.DataFrame(
        {"edition": "x", "game": [0, 0, 0, 1], "choice": ["sell", "sell", "sell", "nothing"]}
    )
    shares = a.use_shares(uses).loc["x"]
    assert shares.loc["sell", "share"] == 0.75 and shares.loc["sell", "uses"] == 3
    assert shares.loc["sell", "se"] == pytest.approx(0.375)
    assert shares.loc["sell", "low"] == pytest.approx(0.75 - 1.959964 * 0.375, abs=1e-6)
    assert shares.loc["sell", "high"] == 1.0  # the interval is cut to 0..1
    assert shares.loc["nothing", "high"] == pytest.approx(0.25 + 1.959964 * 0.375, abs=1e-6)
    assert shares.loc["branch"].tolist()[:3] == [0.0, 0.0, 0.0]
    assert (shares["games"] == 2).all()


def test_use_share_table_calls_a_difference_only_outside_its_interval():
    uses = pd.DataFrame(
        {
            "edition": ["a"] * 6 + ["b"] * 6,
            "game": [0, 0, 1, 1, 2, 2] * 2,
            "choice": ["sell", "nothing"] * 3
            + ["sell", "nothing", "sell", "sell", "nothing", "nothing"],
        }
    )
    table = a.use_share_table(uses)
    assert list(table.columns) == ["a", "b", "difference (points)", "differs"]
    assert table.loc["sell", "a"] == "50.0% (50.0 to 50.0)"
    assert table.loc["sell", "b"].startswith("50.0% (")
    assert table.loc["sell", "difference (points)"].startswith("+0.0 (")
    assert table["differs"].tolist() == [False, False, False]
    with pytest.raises(ValueError, match="compares two editions"):
        a.use_share_table(uses[uses["edition"] == "a"])


def test_sell_right_options_valued_in_end_points():
    s = branch_scenario().apply(BID).apply(DROP).apply(DROP)  # Ann won: take, sell or branch
    options = a.sell_right_options(s)
    assert options.to_dict("records") == [
        {"action": "sell 2", "kind": "sell", "value": 6},  # 2 x (4 - 1)
        {"action": "branch YE-BL", "kind": "branch", "value": 6},  # blue 3rd house 5 + yellow 1st 1
        {"action": "branch BL3", "kind": "branch", "value": 5},
        {"action": "branch BL4", "kind": "branch", "value": 5},
        {"action": "branch BL5", "kind": "branch", "value": 5},
        {"action": "sell 0", "kind": "nothing", "value": 0},
    ]
    assert a.sell_right_options(branch_scenario()).empty  # an auction turn: no sell right


def test_fill_table_writes_each_value_with_its_interval():
    uses = pd.DataFrame(
        {
            "houses_on_map": [0, 1, 2, 3],
            "sell_value": [1.0, 2.0, 3.0, 6.0],
            "branch_value": [3.0, 3.0, 3.0, 5.0],
            "free": [7, 7, 6, 5],
            "choice": ["branch", "branch", "sell", "sell"],
        }
    )
    by_fill = a.sell_right_by_fill(uses)
    table = a.fill_table(by_fill)
    assert list(table.columns) == [
        "uses",
        "sell",
        "branch",
        "sell - branch",
        "built/sold",
    ]
    first = table.loc[0]
    # sell 1, 2, 3: mean 2, standard deviation 1, half-width 1.96 / sqrt(3) = 1.13
    assert first["sell"] == "2.00 (0.87 to 3.13)" and first["branch"] == "3.00 (3.00 to 3.00)"
    assert (first["uses"], first["built/sold"]) == (3, "67%/33%")
    assert table.loc[3, "sell"] == "6.00 (6.00 to 6.00)"
    width = max(len(line) for line in table.to_string().splitlines())
    assert width <= 88


def test_interval_table_joins_each_value_with_its_bounds():
    frame = pd.DataFrame(
        {
            "classic": [25.945, 1.0],
            "classic low": [25.7465, 0.5],
            "classic high": [26.1435, 1.5],
            "sell": [2.0, 3.0],
            "sell_low": [1.0, 2.5],
            "sell_high": [3.0, 3.5],
            "difference": [-1.55, 0.0],
            "low": [-1.8, -0.1],
            "high": [-1.3, 0.1],
            "z": [1.234, -0.5],
        }
    )
    table = a.interval_table(frame)
    assert list(table.columns) == ["classic", "sell", "difference", "z"]
    # rounded as pandas rounds (25.945 -> 25.94, as the notebooks' prose quotes it)
    assert table.loc[0].tolist() == [
        "25.94 (25.75 to 26.14)",
        "2.00 (1.00 to 3.00)",
        "-1.55 (-1.80 to -1.30)",
        1.23,
    ]
    assert table.loc[1, "difference"] == "0.00 (-0.10 to 0.10)"


def test_the_sell_rights_intervals_are_computed_over_games():
    # Two games of two uses each: the uses of a game hang together, so the interval is over
    # the games' sums (2 and 6: mean 2, half-width 1.96 * sqrt(2 * 8) / 4 = 1.96), not over
    # the four uses (1.96 * 1.155 / 2 = 1.13).
    uses = pd.DataFrame(
        {
            "game": [0, 0, 1, 1],
            "houses_on_map": [0, 0, 1, 1],
            "sell_value": [1.0, 1.0, 3.0, 3.0],
            "branch_value": [2.0, 2.0, 2.0, 2.0],
            "free": [7, 7, 6, 6],
            "choice": ["branch", "branch", "sell", "sell"],
        }
    )
    row = a.sell_right_by_fill(uses).loc[0]
    assert (row["uses"], row["games"]) == (4, 2)
    assert (row["sell"], row["sell_low"], row["sell_high"]) == (2, 0.04, 3.96)
    assert (row["gap"], row["gap_low"], row["gap_high"]) == (0, -1.96, 1.96)  # paired, use by use
    better = a.chose_the_better(uses)  # the branches (2 > 1) and the sales (3 > 2) were better
    assert (better["share"], better["games"], better["low"]) == (1, 2, 1)
