"""The bot contract, for every bot of every registered game and the toy game.

Like Axelrod's base test class for strategies: each bot in ``spec.bots`` has a name, picks
only among the actions it is offered, at every player count of every edition, in a few
games with RandomBots in the other seats (the bot's seat changes from game to game); and a
bot built with the same seed replays the same moves. Slow bots play with small settings
(``kit_cases.FAST``).
"""

from __future__ import annotations

from kit_cases import FAST, MAX_STEPS

from mogul.kit.bots import RandomBot, offered, play_states

GAMES = 2


class Watched:
    """Wraps a bot: checks each choice is one of the options offered, and counts them."""

    def __init__(self, bot, where):
        self.bot, self.where, self.decisions = bot, where, 0
        self.name = bot.name
        if hasattr(bot, "understands"):
            self.understands = bot.understands

    def choose(self, view, legal_actions):
        options = list(legal_actions)
        action = self.bot.choose(view, legal_actions)
        assert action in options, f"{self.where}: {self.name} chose {action!r}, offered {options}"
        assert legal_actions == options, (
            f"{self.where}: {self.name} changed the list it was offered"
        )
        self.decisions += 1
        return action


def build(case, name, seed):
    return case.spec.bots[name](seed=seed, **FAST.get((case.game, name), {}))


def test_bots_have_names_and_play_only_legal_moves(bot_case):
    case, name = bot_case
    bot = build(case, name, seed=0)
    assert isinstance(bot.name, str) and bot.name, f"{case}: bot {name!r} has no name"
    assert callable(bot.choose)
    for players in case.players:
        decisions = 0
        for game in range(GAMES):
            seed = 1000 * players + game
            seat = (players + game) % players
            where = f"{case}, {players} players, seed {seed}, seat {seat}"
            watched = Watched(build(case, name, seed), where)
            bots = [watched if s == seat else RandomBot(seed + s) for s in range(players)]
            states, actions = play_states(case.new_game(players, seed), bots, max_steps=MAX_STEPS)
            assert states[-1].is_over
            mine = [a for s, a in zip(states, actions, strict=False) if s.current_player == seat]
            assert all(a in s.legal_actions() for s, a in zip(states, actions, strict=False))
            asked = [
                s
                for s in states[:-1]
                if s.current_player == seat and offered(watched, s.legal_actions())
            ]
            assert watched.decisions == len(asked) <= len(mine), where
            decisions += watched.decisions
        assert decisions > 0, f"{case}: {name} was never asked to decide at {players} players"


def test_a_bots_seed_replays_its_moves(bot_case):
    case, name = bot_case
    players = case.players[0]
    games = []
    for _ in range(2):
        bots = [build(case, name, seed=7 + s) for s in range(players)]
        games.append(play_states(case.new_game(players, seed=5), bots, max_steps=MAX_STEPS)[1])
    assert games[0] == games[1], f"{case}: {name} with the same seeds played differently"
