"""Every number and statement of fact in notebook 06's prose, pinned (issue 28, points 3 and 4).

The rules and the worked examples are exact; the simulated numbers use the notebook's seeds
and samples (200 games of four ValueBots from seed 1 for the sell right as the map fills, and
200 games of each edition from seed 1) and are looked up in the prose as it writes them.
"""

from __future__ import annotations

import re

import pytest
from notebook_claims import check_the_exercises, interval, prose, states

import mogul
import mogul.analysis.mogul as analysis
from mogul.games.mogul.cards import CrashCard
from mogul.games.mogul.events import PremiumsPaid
from mogul.games.mogul.network import branch_points

TEXT = prose("06-rio-grande-edition.ipynb")


def test_the_rules_of_2013():
    ed = mogul.edition("rio-grande")
    assert len(ed.cards) == 37 and ed.crash_shuffled_into_last == 3 and ed.share_bonus == 1
    assert (ed.credit_chips, ed.credit_points, ed.credit_limit) == (3, 3, "once per game")
    assert ed.houses_per_player == 6 and len(ed.stations) == 30 and len(ed.lines) == 5
    assert all(len(line) == 7 for line in ed.lines.values())
    states(
        TEXT,
        "37 shares",
        "+3 chips for −3 points",
        "the crash is shuffled into the last 3 cards (so it lies in the last 4 positions)",
        "five lines of seven stations",
        "30 stations in all",
        "one of your six houses",
    )


def worked(houses, shares=("blue/pink", "blue/green")):
    table = mogul.new_game(
        "rio-grande",
        players=["Ann", "Ben", "Cai"],
        seed=1,
        deck=["pink/blue", "crash"],
        start_player=0,
        starting_shares=[list(shares), ["blue/yellow"], ["blue/brown"]],
        houses=[houses, ["BL-PI"], []],
    )
    return table.apply(mogul.BID).apply(mogul.DROP).apply(mogul.DROP)


def options(won):
    return analysis.sell_right_options(won).set_index("action")["value"]


def test_the_worked_decision_and_the_exercise():
    two = options(worked(["BL1", "BL2"]))
    assert two["sell 2"] == 6 and two["branch BL3"] == two["branch BL4"] == two["branch BL5"] == 5
    assert two["branch YE-BL"] == 6 and two["sell 0"] == 0
    states(
        TEXT,
        "2 × 4 = 8 points now",
        "8 − 2 = **6**",
        "3 × 3 = 9: **5**",
        "plus a first house on the yellow line: **6**",
        "a fourth blue house would add 7",
        "four are on the table, so a blue share sells for 4 points",
    )
    three = options(worked(["BL1", "BL2", "BL3"]))
    assert (three["branch YE-BL"], three["branch BL4"], three["sell 2"]) == (8, 7, 6)
    assert sorted(three, reverse=True)[:2] == [8, 7]  # the margin over the next option is 1
    states(
        TEXT,
        "So the branch on the interchange is best, by 1 point over a branch at BL4 or BL5, and by 2 over selling",
        "BL4 or BL5 adds **7**",
        "7 + 1 = **8**",
        "2 × (4 − 1) = **6**",
    )
    assert "best, by 2 points" not in TEXT


def test_the_shares_ann_keeps_earn_no_premium_when_the_crash_comes_next():
    won = worked(["BL1", "BL2"])
    assert [type(c) for c in won.deck] == [CrashCard]  # the next card is the crash
    end = won
    while not end.is_over:  # whatever is chosen, the game ends with no premiums paid
        end = end.apply(end.legal_actions()[0])
        assert not any(isinstance(e, PremiumsPaid) for e in end.events)
    states(
        TEXT,
        "Here the crash is the next card, so the shares Ann keeps earn no more premiums: the game "
        "ends the moment the crash is revealed",
    )
    assert "the shares Ann keeps still earn premiums" not in TEXT


def test_the_three_exercises_and_their_hidden_checks():
    check_the_exercises("06-rio-grande-edition.ipynb", 3)
    five = options(worked(["BL1", "BL2"], ("blue/pink", "blue/green", "blue/yellow")))
    assert (five["sell 3"], five["branch YE-BL"], five["branch BL3"]) == (12, 6, 5)
    states(
        TEXT,
        "3 × 5 = 15 now, minus the 3 end points the shares would have scored: **12**",
        "the interchange YE-BL **6**, BL3 to BL5 **5** each",
        "The sale is worth twice the best branch",
    )
    rio, houses = mogul.edition("rio-grande"), ["BL1", "BL2", "YE-BL", "YE1"]
    added = {
        s: branch_points(rio, [*houses, s]) - branch_points(rio, houses)
        for s in ("BL3", "YE2", "BR-YE")
    }
    assert branch_points(rio, houses) == 13 and added == {"BL3": 7, "YE2": 5, "BR-YE": 6}
    states(
        TEXT,
        "3 × 3 = 9; two on the yellow line (YE-BL and YE1): 2 × 2 = 4; in all **13** points",
        "16 instead of 9: **+7**",
        "9 instead of 4: **+5**",
        "5 + 1 = **+6**. BL3 adds the most",
    )


@pytest.fixture(scope="module")
def uses():
    return analysis.sell_right_table("rio-grande", ["value"], games=200, seed=1, players=4)


def less(row, column="gap"):
    """A negative difference as the prose writes it: "1.47 points less than a branch (1.24 to 1.70 less)"."""
    return f"{-row[column]:.2f} points less than a branch ({interval(-row[f'{column}_high'], -row[f'{column}_low'])} less)"


@pytest.mark.slow
def test_the_sell_right_as_the_map_fills(uses):
    fill = analysis.sell_right_by_fill(uses, min_uses=30).round(2)
    everything = analysis.sell_right_by_fill(uses)
    assert everything.loc[18, "uses"] == 6 and 18 not in fill.index
    assert (fill.loc[:9, "games"] == 200).all()  # intervals over the games, not the uses
    states(
        TEXT, "Groups of fewer than 30 uses are left out (the last, with 18 houses or more, had 6)"
    )
    three, six, nine, twelve = fill.loc[3], fill.loc[6], fill.loc[9], fill.loc[12]
    assert three["gap_high"] < 0 < nine["gap_low"]  # paired: a branch ahead, then a sale
    assert six["gap_low"] <= 0 <= six["gap_high"] and abs(six["gap"]) < 0.5  # too close to call
    states(
        TEXT,
        "each mean with its 95% interval over the games (the uses within one game hang together",
        f"with 3 to 5 houses on the map a sale is worth {less(three)}: {three['sell']:.2f} against "
        f"{three['branch']:.2f}",
        f"From 9 houses on it is worth more: by {nine['gap']:.2f} points "
        f"({interval(nine['gap_low'], nine['gap_high'])}) with 9 to 11 houses",
        f"With 6 to 8 houses the two lie within half a point of each other, {six['gap']:.2f} "
        f"({interval(six['gap_low'], six['gap_high'])}): too close to call on this sample",
        f"From 12 houses on the bots sell more often than they build ({twelve['chose_sell']:.0%} of uses against "
        f"{twelve['chose_branch']:.0%})",
    )
    assert "the two intervals overlap" not in TEXT
    assert (fill.loc[12:, "chose_sell"] > fill.loc[12:, "chose_branch"]).all()
    assert (fill.loc[:9, "chose_sell"] < fill.loc[:9, "chose_branch"]).all()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5001, 9001])
def test_the_order_holds_on_other_samples(seed):
    # "On two other samples of 100 games each the order is the same": enough games for the
    # paired differences at 3 to 5 and from 9 houses (their intervals end over a point from 0
    # on the notebook's sample of 200).
    uses = analysis.sell_right_table("rio-grande", ["value"], games=100, seed=seed, players=4)
    fill = analysis.sell_right_by_fill(uses, min_uses=30)
    assert fill.loc[3, "gap_high"] < 0 < fill.loc[9, "gap_low"]
    assert (fill.loc[9:, "gap_low"] > 0).all() and (fill.loc[:3, "gap_high"] < 0).all()
    assert abs(fill.loc[6, "gap"]) < 1
    better = analysis.chose_the_better(uses)
    assert 0.85 < better["share"] < 0.9  # "87.7%" on the notebook's sample
    states(TEXT, "On two other samples of 100 games each the order is the same")


@pytest.mark.slow
def test_how_often_the_bots_take_the_better_option(uses):
    better = analysis.chose_the_better(uses)
    assert (
        better["uses"],
        better["branch_not_better"],
        better["nothing_not_better"],
        better["sell_not_better"],
    ) == (4686, 567, 9, 0)
    states(
        TEXT,
        f"in 4,686 uses in 200 games they took it (or one as good) in {better['share']:.1%} (95% "
        f"interval over the games {100 * better['low']:.1f} to {100 * better['high']:.1f})",
        "the other uses were 567 branches founded where a sale was worth more, and 9 uses that did nothing",
    )
    states(TEXT, "mostly (not always: how often is measured below)")
    assert better["high"] < 1  # "not always"


@pytest.fixture(scope="module")
def tables():
    return analysis.compare_editions(["value"], games=200, seed=1, players=4)


@pytest.mark.slow
def test_what_makes_games_shorter(tables):
    table = analysis.edition_comparison(tables).round(2)
    cards = table.loc["cards"]
    assert cards["high"] < 0  # shorter: the interval excludes 0
    states(
        TEXT,
        f"Rio Grande games are shorter: {cards['rio-grande']:.2f} cards against {cards['classic']:.2f} (a "
        f"difference of {cards['difference']:.2f}, 95% interval {interval(cards['low'], cards['high'])})",
    )
    parts = analysis.length_parts(tables)
    assert parts["pile"].tolist() == [28, 26] and parts["window"].tolist() == [5, 4]
    assert parts["pile_effect"].tolist() == [0, -2] and parts["window_effect"].tolist() == [0, 0.5]
    assert parts["model"].tolist() == [26.0, 24.5]
    assert ((parts["low"] <= parts["model"]) & (parts["model"] <= parts["high"])).all()
    states(
        TEXT,
        "26 cards once the setup card has dealt its shares, against 28, and that makes games 2 cards shorter",
        "0.5 card *longer*",
        "1.5 cards from the end of the pile instead of 2",
        "gives 26.0 and 24.5 cards, inside "
        f"both intervals ({interval(parts.loc['classic', 'low'], parts.loc['classic', 'high'])} and "
        f"{interval(parts.loc['rio-grande', 'low'], parts.loc['rio-grande', 'high'])})",
    )
    assert "a little shorter" not in TEXT


@pytest.mark.slow
def test_how_the_winning_score_gap_splits(tables):
    gap = analysis.score_gap(tables).round(2)  # as the notebook prints it
    total, track, houses, shares, chips = (
        gap.loc[p] for p in ("total", "score track", "houses (branches)", "shares held", "chips")
    )
    assert -0.5 < chips["low"] < 0 < chips["high"] < 0.5  # next to no difference
    bonuses = houses["gap"] + shares["gap"]
    states(
        TEXT,
        f"The winning score is {total['gap']:.2f} points higher ({interval(total['low'], total['high'])})",
        f"The 2013 end bonuses make up {bonuses:.2f} of them: {houses['gap']:.2f} "
        f"({interval(houses['low'], houses['high'])}) for houses and {shares['gap']:.2f} "
        f"({interval(shares['low'], shares['high'])}) for shares held",
        f"{track['gap']:.2f} points more ({interval(track['low'], track['high'])})",
        f"Full 5 chips make next to no difference ({chips['gap']:.2f}, {interval(chips['low'], chips['high'])}): "
        "less than half a point either way",
    )


@pytest.mark.slow
def test_who_sells_nothing(tables):
    nothing = analysis.sell_nothing(tables["uses"]).loc["classic"]
    assert nothing["by_winner"] == 0 and nothing["held_none"] < nothing["nothing"] < nothing["uses"]
    states(
        TEXT,
        f"In the classic game {int(nothing['nothing']):,} of the {int(nothing['uses']):,} uses of the sell right "
        f"({nothing['nothing'] / nothing['uses']:.0%}) did nothing. No winner chose it: every one was a runner-up",
        f"in {int(nothing['held_none']):,} of them ({nothing['held_none_share']:.0%}) the runner-up held no share of the "
        "border colour",
        f"the other {int(nothing['nothing'] - nothing['held_none'])} kept the shares they held",
    )
    assert "blocks the runner-up" not in TEXT
    summary = analysis.edition_summary(tables)
    table = analysis.edition_comparison(tables).round(2)
    branches, sells = table.loc["winner_branches"], table.loc["winner_sells"]
    assert branches["rio-grande low"] > sells["rio-grande high"]
    shares = analysis.use_shares(tables["uses"])
    build = shares.loc[("rio-grande", "branch")]
    assert build["share"] == summary.loc["rio-grande", "branch"]
    states(
        TEXT,
        f"mostly used to build ({build['share']:.1%} of uses, {100 * build['low']:.1f} to "
        f"{100 * build['high']:.1f})",
        f"a winner founds {branches['rio-grande']:.2f} branches per game "
        f"({interval(branches['rio-grande low'], branches['rio-grande high'])}) against {sells['rio-grande']:.2f} sales "
        f"({interval(sells['rio-grande low'], sells['rio-grande high'])})",
    )


def test_what_the_sell_right_was_used_for_with_intervals_over_games(tables):
    # Each share with its 95% interval over games (the games are the units); a difference
    # between the editions only where its interval leaves out 0: here all three.
    shares = analysis.use_shares(tables["uses"]).round(4)
    assert shares.loc["classic", "share"].tolist() == [0.4461, 0.0, 0.5539]
    assert shares.loc["rio-grande", "share"].tolist() == [0.3221, 0.6692, 0.0088]
    assert (shares["games"] == 200).all()
    table = analysis.use_share_table(tables["uses"])
    assert table["differs"].tolist() == [True, True, True]
    sell = re.fullmatch(
        r"-([\d.]+) \(-([\d.]+) to -([\d.]+)\)", table.loc["sell", "difference (points)"]
    )
    assert sell, table.loc["sell", "difference (points)"]  # fewer sales, the whole interval below 0
    fewer, most, least = sell.groups()
    states(
        TEXT,
        "Each share of the sell right's uses comes with its 95% interval over games",
        "so the games are the independent units (`use_shares`)",
        f"Every difference between the editions lies outside its interval: Rio Grande sells in {fewer} "
        f"percentage points fewer of the uses ({least} to {most} fewer)",
        f"founds a branch in {table.loc['branch', 'rio-grande'].split()[0]} of them (the classic game has no "
        f"branches), and does nothing in {table.loc['nothing', 'rio-grande']} against "
        f"{table.loc['nothing', 'classic']}",
    )


@pytest.fixture(scope="module")
def other_samples():
    """200 games of each edition on seeds 2 and 3, as the notebook plays them on seed 1."""
    return {
        seed: analysis.compare_editions(["value"], games=200, seed=seed, players=4)
        for seed in (2, 3)
    }


@pytest.mark.slow
def test_the_comparison_holds_on_three_samples(tables, other_samples):
    """Issue 40: every statement in words of "Classic or Rio Grande?" holds on seeds 1, 2 and 3
    (about 10 s for the two other samples)."""
    gaps = []
    for seed, sample in {1: tables, **other_samples}.items():
        table = analysis.edition_comparison(sample)
        assert table.loc["cards", "high"] < 0, seed  # shorter
        parts = analysis.length_parts(sample)
        assert ((parts["low"] <= parts["model"]) & (parts["model"] <= parts["high"])).all(), seed
        gap = analysis.score_gap(sample)
        assert gap.loc["total", "low"] > 0, seed
        assert gap.loc["houses (branches)", "low"] > 0 and gap.loc["shares held", "low"] > 0, seed
        assert gap.loc["chips", "low"] > -0.5 and gap.loc["chips", "high"] < 0.5, seed
        assert (analysis.sell_nothing(sample["uses"])["by_winner"] == 0).all(), seed
        assert analysis.use_share_table(sample["uses"])["differs"].all(), seed
        branches, sells = table.loc["winner_branches"], table.loc["winner_sells"]
        assert branches["rio-grande low"] > sells["rio-grande high"], seed
        gaps.append(gap.loc["total", "gap"])
    states(
        TEXT,
        "All of this is one sample, 200 games of each edition from seed 1. The claims tests play two more "
        "(seeds 2 and 3), and every statement above in words holds on each",
        f"the winning score is higher (by {min(gaps):.2f} to {max(gaps):.2f} points on the three samples)",
    )
