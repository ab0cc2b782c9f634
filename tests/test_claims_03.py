"""Every number notebook 03 (play against the bots) states, computed and pinned.

The games are seeded (watch: seed 7; your seat and the exercise: seed 3; the 200-game
simulation: seed 1), so the numbers are exact. Each test computes a number and checks that
the prose states it; ``test_every_number_in_the_prose_is_pinned`` fails when any number in
the prose changes.
"""

import json
import re

from test_auction_claims import NOTEBOOKS, prose_numbers, stated

import mogul
from mogul import BID, DROP, GameSession
from mogul.games.mogul.bots import bot_factory

NB = "03-play-against-bots"


def code(name: str) -> str:
    cells = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def test_the_watched_table_four_bots_two_of_them_value_bots():
    lineup = ["value", "threshold:drop_at=2", "random", "value"]
    assert f'player("classic", {lineup!r}'.replace("'", '"') in code(NB)
    assert bot_factory("threshold:drop_at=2")(0).drop_at == 2
    stated(
        NB, "Four bots play: two `ValueBot`s", "a `ThresholdBot` that drops when the pot reaches 2"
    )
    assert 'player("classic", ["human", "value", "value", "value"], seed=3' in code(NB)
    stated(NB, "Now you are **Ann**, seat 0", "against three `ValueBot`s")


def test_a_score_is_points_plus_one_per_five_chips_and_the_track_has_32_spaces():
    import pandas as pd

    from mogul.plots.mogul.game import score_data

    s = mogul.play(mogul.new_game("classic", players=4, seed=7), [mogul.ValueBot()] * 4).replay()
    assert s.final_scores() == tuple(p.points + p.chips // 5 for p in s.players)
    rounds = pd.DataFrame(
        {
            "seat": [0, 0],
            "player": ["Ann", "Ann"],
            "round": [1, 2],
            "points": [3, 35],
            "score": [3, 35],
        }
    )
    assert score_data(rounds)[0]["space"] == [3, 3]  # 35 points and 3 points: the same space
    stated(
        NB,
        "A score is points plus one per 5 chips",
        "round a 32-space track, so 35 points and 3 points share a space",
    )


def test_two_hundred_games_of_the_same_four_bots():
    assert re.search(
        r'simulate\("classic", \["value", "threshold:drop_at=2", "random", "value"\], '
        r"games=200, seed=1",
        code(NB),
    )
    stated(NB, "200 games, the same four bots in the same seats")


def chips_after_first_auction(session: GameSession, first_round: int) -> int:
    return (
        next(s for s in session.history if s.round == first_round and s.phase != "auction")
        .players[0]
        .chips
    )


def test_exercise_drop_at_once_keeps_seven_bid_then_drop_keeps_five():
    game = GameSession("classic", ["human", "value", "value", "value"], seed=3)
    first = game.state
    assert first.pot == 1 and first.players[0].chips == 6
    game.act(DROP)
    assert chips_after_first_auction(game, first.round) == 7 == 6 + 1
    game.undo()
    game.act(BID)
    if game.state.round == first.round and game.state.phase == "auction":
        game.act(DROP)
    assert chips_after_first_auction(game, first.round) == 5
    said = [line for s in game.history if s.round == first.round for line in s.describe_events()]
    assert "Dee drops and collects 4 chips." in said
    assert "Ann drops out and the pot is empty." in said
    stated(
        NB,
        "Start a fresh game with seed 3 against the three value bots",
        "Dropping at once collects the one chip in the pot: 6 + 1 = 7",
        "the pot it built went to Dee, who dropped just before Ann's next turn and took all 4 chips",
        "Ann then drops at an empty pot and keeps 5",
    )


PROSE_NUMBERS_03 = """
03 three one
Four two 2 one
0 three one
02
95% Once one
once
one two
one
one 5 32 35 3 one
one two two
200 four
3 three once once once
once one 6 1 7 4 5 02
04
"""


def test_every_number_in_the_prose_is_pinned():
    # One line per markdown cell; the tests above compute the numbers that are claims.
    assert prose_numbers(NB) == PROSE_NUMBERS_03.strip()
