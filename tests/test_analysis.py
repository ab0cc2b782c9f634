"""Share-value analysis: hand-computed values on small scripted decks, and brute force."""

import itertools
from fractions import Fraction
from math import isclose

import pandas as pd
import pytest

import mogul
import mogul.analysis.mogul as analysis
from mogul.games.mogul.bots import ValueBot
from mogul.kit.bots import play
from mogul.kit.record import GameRecord
from mogul.kit.simulate import simulate


def short_game():
    """Three players; after the first reveal the pile is pink/blue, blue/pink, crash.

    Ann: pink/green   Ben: pink/yellow   Cai: blue/green
    revealed: green/brown     pile: [pink/blue, blue/pink, crash]   (L = 3, U = 2)
    """
    return mogul.new_game(
        "classic",
        players=3,
        seed=1,
        deck=["green/brown", "pink/blue", "blue/pink", "crash"],
        starting_shares=[["pink/green"], ["pink/yellow"], ["blue/green"]],
        start_player=0,
    )


def long_game():
    """After the first reveal 7 cards are left (6 shares + crash): the window of 5 fits inside.

    Unseen: brown x3, pink x2, blue x1. The crash is one of the last 5 cards, so 2 to 6
    shares are still revealed: E[R] = 4.
    """
    return mogul.new_game(
        "classic",
        players=3,
        seed=1,
        deck=[
            "green/brown",
            "brown/green",
            "brown/yellow",
            "brown/blue",
            "pink/blue",
            "pink/yellow",
            "blue/pink",
            "crash",
        ],
        starting_shares=[[], [], []],
        start_player=0,
    )


def test_crash_hazard_on_a_three_card_pile():
    h = analysis.crash_hazard(short_game())
    assert h["card"].tolist() == [1, 2, 3]
    assert h["round"].tolist() == [2, 3, 4]
    assert h["p_crash"].tolist() == pytest.approx([1 / 3] * 3)
    assert h["p_reached"].tolist() == pytest.approx([1, 2 / 3, 1 / 3])
    assert h["hazard"].tolist() == pytest.approx([1 / 3, 1 / 2, 1])


def test_crash_hazard_when_the_window_is_inside_the_pile():
    h = analysis.crash_hazard(long_game())
    assert h["p_crash"].tolist() == pytest.approx([0, 0, 0.2, 0.2, 0.2, 0.2, 0.2])
    assert h["p_reached"].tolist() == pytest.approx([1, 1, 1, 0.8, 0.6, 0.4, 0.2])
    assert h["hazard"].tolist() == pytest.approx([0, 0, 1 / 5, 1 / 4, 1 / 3, 1 / 2, 1])
    assert h["p_crash"].sum() == pytest.approx(1)


def test_a_fresh_classic_game_has_the_rulebook_hazards():
    s = mogul.new_game("classic", players=4, seed=7)
    h = analysis.crash_hazard(s)
    assert len(h) == s.cards_left == 27
    assert h["hazard"].tail(5).tolist() == pytest.approx([1 / 5, 1 / 4, 1 / 3, 1 / 2, 1])
    assert h["hazard"].iloc[0] == analysis.next_crash_chance(s) == 0.0
    late = mogul.new_game(
        "classic",
        players=3,
        seed=1,
        deck=["green/brown", "pink/blue", "crash"],
        starting_shares=[[], [], []],
    )
    assert analysis.next_crash_chance(late) == 0.5


def test_reveals_and_premiums_by_hand():
    s = short_game()
    assert analysis.reveal_distribution(s) == pytest.approx({0: 1 / 3, 1: 1 / 3, 2: 1 / 3})
    assert analysis.expected_reveals(s) == 1.0
    # each of the two unseen shares comes up in half of the reveals: (0 + 1/2 + 1) / 3
    assert analysis.expected_premiums(s) == pytest.approx(
        {"brown": 0, "green": 0, "yellow": 0, "blue": 0.5, "pink": 0.5}
    )
    t = long_game()
    assert analysis.expected_reveals(t) == 4.0
    assert analysis.expected_premiums(t) == pytest.approx(
        {"brown": 4 * 3 / 6, "green": 0, "yellow": 0, "blue": 4 * 1 / 6, "pink": 4 * 2 / 6}
    )


def test_next_sale_chance_by_hand():
    s = short_game()
    # one blue border (pink/blue) among two unseen: seen before the crash if R = 2 (1/3)
    # or R = 1 and it comes first (1/3 * 1/2): 1/2
    chances = analysis.next_sale_chance(s)
    assert chances["blue"] == pytest.approx(0.5) and chances["pink"] == pytest.approx(0.5)
    assert chances["brown"] == 0.0


def test_hold_or_sell_by_hand():
    table = analysis.hold_or_sell(short_game().view(0))  # Ann holds pink/green
    assert table.loc["pink"].to_dict() == pytest.approx(
        {
            "held": 1,
            "market_value": 2,
            "premiums_to_come": 0.5,
            "sell_gain": 1.5,
            "next_sale_chance": 0.5,
            "advice": "sell",
        }
    )
    assert table.loc["blue", "held"] == 0 and table.loc["blue", "sell_gain"] == 0.5
    assert table.loc["green", "advice"] == "hold"  # nothing to sell, nothing to earn
    assert analysis.hold_or_sell(short_game(), seat=2).loc["blue", "held"] == 1


def brute_force(state):
    """Average over every pile order the seat cannot rule out, each as likely as it is."""
    unseen = list(state.unseen)
    left = state.cards_left
    w = min(state.edition.crash_shuffled_into_last + 1, left)
    premiums = dict.fromkeys(state.edition.company_ids, Fraction(0))
    sale = dict.fromkeys(state.edition.company_ids, Fraction(0))
    orders = list(itertools.permutations(range(len(unseen))))
    weight = Fraction(1, len(orders) * w)
    for order in orders:
        for crash in range(left - w, left):  # index of the crash card in the pile
            before = [unseen[i] for i in order[:crash]]
            for c in premiums:
                premiums[c] += weight * sum(card.company == c for card in before)
                sale[c] += weight * any(card.border == c for card in before)
    return premiums, sale


@pytest.mark.parametrize("make", [short_game, long_game])
def test_premiums_and_sale_chances_match_brute_force(make):
    state = make()
    premiums, sale = brute_force(state)
    got_premiums = analysis.expected_premiums(state)
    got_sale = analysis.next_sale_chance(state)
    for c in premiums:
        assert isclose(got_premiums[c], float(premiums[c]), abs_tol=1e-12)
        assert isclose(got_sale[c], float(sale[c]), abs_tol=1e-12)


def test_game_share_values_on_the_rulebook_opening():
    states = list(GameRecord.load("rulebook-opening").states())
    rows = analysis.game_share_values(states, game=3)
    brown = rows[rows["company"] == "brown"]
    assert brown["round"].tolist() == [1, 2, 3]
    assert brown["market_value"].tolist() == [4, 5, 3]  # Ann takes brown/green, then sells two
    assert brown["premiums_realized"].tolist() == [0, 0, 0]  # no brown card comes up again
    green = rows[rows["company"] == "green"]
    assert green["premiums_realized"].tolist() == [1, 0, 0]  # green/brown in round 2
    assert (rows["game"] == 3).all()
    # round 3: pile = [crash], nothing left to earn
    assert rows[rows["round"] == 3]["premiums_to_come"].eq(0).all()


def test_share_values_from_rounds_tables_match_the_states():
    record = play(mogul.new_game("classic", players=4, seed=21), [ValueBot() for _ in range(4)])
    exact = analysis.game_share_values(list(record.states()))
    from_table = analysis.share_values(record.table("rounds"))
    pd.testing.assert_frame_equal(from_table, exact)


def test_simulated_premiums_to_come_are_unbiased():
    sim = simulate(
        "classic",
        ["value"],
        games=80,
        players=4,
        seed=4,
        tables=["games", "rounds"],
        progress=False,
    )
    values = analysis.share_values(sim.rounds)
    assert values["game"].nunique() == 80
    assert list(values.columns) == [
        "game",
        "round",
        "cards_left",
        "company",
        "market_value",
        "premiums_to_come",
        "premiums_realized",
    ]
    # the model's expectation is a conditional mean: on average it matches what happened
    first = values[values["round"] == 1]
    diff = (first["premiums_realized"] - first["premiums_to_come"]).groupby(first["game"]).sum()
    assert abs(diff.mean()) < 3 * diff.std() / len(diff) ** 0.5
    # a company's premiums to come can only shrink as its cards come up and the pile runs out
    assert (values.groupby(["game", "company"])["premiums_to_come"].diff().dropna() <= 1e-12).all()


def test_by_round_averages_over_the_games_still_running():
    one = pd.DataFrame(
        {"game": 0, "round": [1, 1, 2], "company": ["brown", "green", "brown"], "market_value": 4}
    )
    two = pd.concat([one, one.assign(game=1, market_value=6)[:2]])  # game 1 ends after round 1
    avg = analysis.by_round(two)
    assert avg[["round", "company"]].values.tolist() == [[1, "brown"], [1, "green"], [2, "brown"]]
    assert avg["market_value"].tolist() == [5, 5, 4]
    assert avg["games"].tolist() == [2, 2, 1]


def test_chain_payoff_curve_starts_where_the_pot_was_last_empty():
    from mogul.auction import payoff_curve
    from mogul.auction.mogul import chain_payoff_curve, values_from_state

    states = list(GameRecord.load("rulebook-opening").states())[
        :5
    ]  # bid, bid, Cai drops, Dee to act
    first = states[0]
    live = values_from_state(first)
    direct = payoff_curve(live.values, live.chips, seat=0, start=0, chip_value=live.chip_value)
    pd.testing.assert_frame_equal(chain_payoff_curve(states[:1], 0), direct)
    pd.testing.assert_frame_equal(chain_payoff_curve(states[:3], 0), direct)  # pot 2: same chain
    # after Cai's drop the chain restarts among Ann, Ben and Dee, Dee to move
    after = states[3]
    assert after.pot == 0 and after.in_auction == (0, 1, 3) and after.current == 3
    live = values_from_state(after)
    restart = payoff_curve(
        [live.values[i] for i in (0, 1, 3)],
        [live.chips[i] for i in (0, 1, 3)],
        seat=2,
        start=2,
        chip_value=live.chip_value,
    )
    pd.testing.assert_frame_equal(chain_payoff_curve(states[:4], 3), restart)
    assert chain_payoff_curve(states[:4], 2) is None  # Cai has left this auction


def test_nothing_is_left_to_come_once_the_crash_is_revealed():
    final = GameRecord.load("rulebook-opening").replay()
    assert final.is_over
    assert analysis.crash_hazard(final).empty
    assert analysis.expected_reveals(final) == 0.0 and analysis.next_crash_chance(final) == 0.0
    assert set(analysis.expected_premiums(final).values()) == {0.0}
    assert set(analysis.next_sale_chance(final).values()) == {0.0}


def test_model_check_by_hand():
    # two games, one company: realized minus to come is +1, -1 in game 0 (mean 0) and +2 in game 1
    values = pd.DataFrame(
        {
            "game": [0, 0, 1],
            "company": ["blue"] * 3,
            "premiums_to_come": [1.0, 2.0, 1.0],
            "premiums_realized": [2.0, 1.0, 3.0],
        }
    )
    check = analysis.model_check(values).loc["blue"]
    assert check["difference"] == pytest.approx(2 / 3)  # over the rows
    se = pd.Series([0.0, 2.0]).std() / 2**0.5  # over the games' means: 0 and 2
    assert check["low"] == pytest.approx(2 / 3 - 1.959964 * se) and check["games"] == 2
    assert check["z"] == pytest.approx((2 / 3) / se)
    from math import erfc, sqrt

    assert check["chance"] == pytest.approx(
        erfc(abs(check["z"]) / sqrt(2))
    )  # one company: its own p-value
    assert analysis.mean_interval([5, 5, 5]) == (5.0, 5.0, 5.0)
