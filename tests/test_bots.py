"""Bots: the contract every registered bot keeps, each bot's own moves, and determinisation.

The contract (as Axelrod's base test class does for its strategies): for every bot in
``REGISTRY``, at 3 to 6 players, the bot only plays legal moves, replays exactly from its
seed, and decides the same whatever order the hidden pile is in.
"""

import random

import pytest

import mogul
from mogul.games.mogul.bots import (
    REGISTRY,
    BotFactory,
    MonteCarloBot,
    RandomBot,
    ThresholdBot,
    ValueBot,
    bot_factory,
    expected_reveals,
    premium_outlook,
)
from mogul.games.mogul.determinize import crash_window, deal_hidden_pile, determinize
from mogul.kit.bots import bot_name, parse_bot_spec, play, play_out

# Small settings so the contract runs fast; every other argument is the bot's default.
FAST = {"mc": {"rollouts": 2}}


def build(name: str, seed: int):
    return REGISTRY[name](seed=seed, **FAST.get(name, {}))


def game_with(name: str, players: int, seed: int):
    """The bot under test in one seat (which one depends on the seed), RandomBots elsewhere."""
    seat = seed % players
    bots = [
        build(name, seed * 10 + i) if i == seat else RandomBot(seed * 10 + i)
        for i in range(players)
    ]
    return play(mogul.new_game("classic", players=players, seed=seed), bots)


def decision_points(players: int, seed: int, every: int = 7):
    """Some states from a random game, each waiting for a decision."""
    state = mogul.new_game("classic", players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_over:
        if len(out) < 40 and rng.randrange(every) == 0:
            out.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    return out


def reshuffled(state, rng):
    """The same table with the hidden pile in another order (crash kept in its window)."""
    return state._replace(deck=deal_hidden_pile(state.view(0), rng))


# --- the contract -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_registered_bot_is_documented(name):
    cls = REGISTRY[name]
    bot = build(name, 0)
    assert cls.__doc__ and cls.choose.__doc__
    assert isinstance(bot, mogul.kit.bots.Bot)
    assert isinstance(bot.name, str) and bot.name
    assert set(bot.traits) == {"stochastic", "lookahead"}
    assert all(isinstance(v, bool) for v in bot.traits.values())


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_registered_bot_plays_legally_and_reproducibly(name, players):
    # play() applies every choice through the engine, which refuses any illegal action.
    first = game_with(name, players, seed=players)
    assert first.replay().is_over
    assert game_with(name, players, seed=players).actions == first.actions


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_registered_bot_never_sees_the_pile_order(name):
    rng = random.Random(5)
    for players in (3, 6):
        for state in decision_points(players, seed=players):
            other = reshuffled(state, rng)
            seat = state.current
            a = build(name, 99).choose(state.view(seat), state.legal_actions())
            b = build(name, 99).choose(other.view(seat), other.legal_actions())
            assert a == b


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_stochastic_trait_is_honest(name):
    """A bot that says it is deterministic decides the same with any seed."""
    if build(name, 0).traits["stochastic"]:
        return
    for state in decision_points(4, seed=11):
        legal = state.legal_actions()
        view = state.view(state.current)
        assert build(name, 1).choose(view, legal) == build(name, 2).choose(view, legal)


# --- one scripted table for the moves of each bot ---------------------------------------------
#
#   deck: green/brown, crash        (the crash comes next for sure)
#   Ann  6 chips  brown/green       <- start player
#   Ben  6 chips  brown/blue, pink/yellow
#   Cai  0 chips  -
#   Revealed green/brown: taking is worthless now, selling brown pays 2 a share.


def last_round():
    return mogul.new_game(
        "classic",
        players=3,
        seed=1,
        deck=["green/brown", "crash"],
        starting_shares=[["brown/green"], ["brown/blue", "pink/yellow"], []],
        start_player=0,
        chips=[6, 6, 0],
    )


def after(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def test_outlook_when_the_crash_is_next():
    view = last_round().view(0)
    assert expected_reveals(view) == 0
    assert premium_outlook(view, "brown") == 0


def test_outlook_counts_unseen_shares_and_the_crash_window():
    state = mogul.new_game("classic", players=4, seed=3)
    view = state.view(0)
    # 31 shares - 4 starting - 1 revealed = 26 unseen; crash in the last 5 of 27 cards.
    assert view.cards_left == 27 and len(view.unseen) == 26
    assert expected_reveals(view) == 22 + 2
    brown = sum(c.company == "brown" for c in view.unseen)
    assert premium_outlook(view, "brown") == pytest.approx(brown * 24 / 26)


@pytest.mark.parametrize(
    "pot, chips, expected",
    [
        (0, 6, mogul.BID),
        (2, 6, mogul.BID),
        (3, 6, mogul.DROP),
        (5, 6, mogul.DROP),
        (0, 0, mogul.DROP),
    ],
)
def test_threshold_bot_bids_until_the_pot_reaches_its_threshold(pot, chips, expected):
    state = last_round()
    players = (state.players[0]._replace(chips=chips),) + state.players[1:]
    state = state._replace(pot=pot, players=players)
    assert ThresholdBot(drop_at=3).choose(state.view(0), state.legal_actions()) == expected


def test_threshold_bot_takes_as_winner_and_sells_all_as_runner_up():
    won = after(last_round(), mogul.BID, mogul.DROP, mogul.DROP)  # Ann wins, Cai runner-up
    assert ThresholdBot().choose(won.view(0), won.legal_actions()) == mogul.TAKE
    second = after(last_round(), mogul.DROP, mogul.BID, mogul.DROP)  # Ben wins, Cai second
    second = second.apply(mogul.TAKE)
    assert ThresholdBot().choose(second.view(2), second.legal_actions()) == mogul.Sell(0)


def test_value_bot_values_the_last_round():
    view = last_round().view(0)
    assert ValueBot().option_values(view) == (0.0, 2.0)
    assert ValueBot().place_values(view) == (2.0, 0.0, 0.0)


def test_value_bot_bids_while_the_pot_is_worth_less_than_the_gain():
    state = last_round()
    bot = ValueBot(chip_value=1.0)
    assert bot.choose(state.view(0), state.legal_actions()) == mogul.BID  # gain 2 > pot 0
    state = state._replace(pot=2)
    assert bot.choose(state.view(0), state.legal_actions()) == mogul.DROP  # gain 2 - 2 = 0


def test_value_bot_without_chips_takes_no_credit_for_a_worthless_card():
    state = after(last_round(), mogul.BID, mogul.BID)  # Cai to act with no chips
    assert state.legal_actions() == [mogul.DROP, mogul.CREDIT]
    assert ValueBot().choose(state.view(2), state.legal_actions()) == mogul.DROP


@pytest.mark.parametrize("bot", [ValueBot(), MonteCarloBot(rollouts=4, seed=1)])
def test_winner_sells_before_the_crash(bot):
    won = after(last_round(), mogul.BID, mogul.DROP, mogul.DROP)
    assert won.legal_actions() == [mogul.TAKE, mogul.Sell(0), mogul.Sell(1)]
    assert bot.choose(won.view(0), won.legal_actions()) == mogul.Sell(1)


def test_monte_carlo_bot_values_actions_by_margin():
    won = after(last_round(), mogul.BID, mogul.DROP, mogul.DROP)
    values = MonteCarloBot(rollouts=3, seed=0).action_values(won.view(0), won.legal_actions())
    # Ann: 0 points + 5 chips (1 point); Ben: 0 points + 7 chips (1 point). Selling adds 2.
    assert values == [0.0, 0.0, 2.0]


def test_monte_carlo_bot_tries_a_credit_only_without_chips():
    state = last_round()
    bot = MonteCarloBot(rollouts=1, seed=0)
    assert bot.candidates(state.view(0), state.legal_actions()) == [mogul.BID, mogul.DROP]
    broke = after(state, mogul.BID, mogul.BID)
    assert bot.candidates(broke.view(2), broke.legal_actions()) == [mogul.DROP, mogul.CREDIT]


def test_monte_carlo_bot_name_and_policy():
    assert MonteCarloBot(rollouts=8).name == "mc-8"
    assert MonteCarloBot(rollouts=8, rollout_policy="random").name == "mc-8-random"
    with pytest.raises(ValueError, match="rollouts"):
        MonteCarloBot(rollouts=0)


# --- specs and factories ------------------------------------------------------------------------


class PlainBot:
    """A student's bot: no __init__, no seed."""

    def choose(self, view, legal_actions):
        return legal_actions[0]


class SeededBot:
    name = "seeded"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, view, legal_actions):
        return self.rng.choice(legal_actions)


def test_bot_factory_accepts_names_classes_and_factories():
    assert bot_factory("threshold:drop_at=2")(0).drop_at == 2
    assert bot_factory("mc:rollouts=3:rollout_policy=random")(0).name == "mc-3-random"
    assert bot_factory(ValueBot)(0).name == "value"
    assert bot_factory(PlainBot) == BotFactory(PlainBot, (), False)
    assert bot_name(bot_factory(PlainBot)(5)) == "PlainBot"
    assert bot_factory(SeededBot)(5).rng.random() == random.Random(5).random()


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nobody", "unknown bot"),
        ("threshold:3", "key=value"),
        ("threshold:drop_at=-1", "drop_at"),
        ("value:seed=3", "key=value"),
        ("mc:rollouts=0", "rollouts"),
    ],
)
def test_bad_bot_specs_say_what_is_wrong(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_bot_spec(spec, REGISTRY)


def test_a_bot_instance_is_refused():
    with pytest.raises(TypeError, match="pass a registry name, a bot class"):
        bot_factory(ValueBot())


def test_play_out_finishes_from_any_state():
    for state in decision_points(5, seed=2)[::5]:
        end = play_out(state, [RandomBot(i) for i in range(5)])
        assert end.is_over


# --- determinisation ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 6])
def test_determinize_keeps_the_visible_table(players):
    rng = random.Random(players)
    for state in decision_points(players, seed=players, every=3):
        for seat in range(players):
            view = state.view(seat)
            dealt = determinize(view, rng)
            assert dealt.view(seat) == view
            assert sorted(c for c in dealt.deck if not c.is_crash) == list(view.unseen)
            crash_at = [i for i, c in enumerate(dealt.deck) if c.is_crash]
            assert len(crash_at) == 1
            assert crash_at[0] >= view.cards_left - crash_window(view)
            assert dealt.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("cards_left, window", [(12, 5), (5, 5), (3, 3), (1, 1)])
def test_crash_is_uniform_over_the_remaining_window(cards_left, window):
    state = mogul.new_game("classic", players=4, seed=8)
    deck = [c for c in state.deck if not c.is_crash][: cards_left - 1] + [mogul.CRASH]
    state = state._replace(deck=tuple(deck), unseen=tuple(sorted(deck[:-1])))
    view = state.view(0)
    assert crash_window(view) == window
    rng = random.Random(0)
    draws = 2000
    counts = [0] * cards_left
    for _ in range(draws):
        counts[deal_hidden_pile(view, rng).index(mogul.CRASH)] += 1
    expected = draws / window
    assert counts[: cards_left - window] == [0] * (cards_left - window)
    assert all(
        abs(c - expected) < 5 * (expected * (1 - 1 / window)) ** 0.5 + 1 for c in counts[-window:]
    )


def test_determinize_refuses_a_finished_game():
    state = mogul.new_game("classic", players=3, seed=1, deck=["green/brown", "crash"])
    end = play_out(state, [RandomBot(i) for i in range(3)])
    with pytest.raises(ValueError, match="over"):
        determinize(end.view(0), random.Random(0))
