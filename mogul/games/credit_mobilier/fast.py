"""Credit Mobilier's batch engine: many games at once, compiled, with a generator of its own.

``rules.py`` is the reference, readable beside the rulebook; this module plays the same rules
on numpy records in compiled loops (``fast_kernels.py``), for studies and bots that need
tens of thousands of games:

    >>> from mogul.games.credit_mobilier import fast
    >>> result = fast.play_fresh(games=1000, players=4, bots="random", seed=1)
    >>> result.money.shape, bool((result.turns > 10).all())
    ((1000, 4), True)

It plays ``RandomBot`` and ``DividendBot`` (any ``rival_weight``). Chance is its own:
splitmix64 streams (``fast_kernels``), one per game for the deal and the dice and one per
seat for a random bot, so a game depends only on its seeds. ``CreditMobilierBatch`` is the
kit's batch engine (``simulate``); its ``record`` writes any game it plays as a
``GameRecord`` (the deal and every roll scripted) that the readable engine replays to the
same end. ``play_states`` plays on from any states, ``play_after`` plays each of a few actions
on each of a few futures of one table up to a turn, rolling the readable engine's dice (the
rollouts of ``MonteCarloBot`` and ``analyse_position``), and ``worths`` reads what each seat
is worth there. The first call in a fresh checkout compiles the kernels (a few seconds);
numba caches the machine code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from mogul.games.credit_mobilier.actions import END as END_TURN
from mogul.games.credit_mobilier.actions import Action, Build, Buy, Move, PayRound
from mogul.games.credit_mobilier.board import WEST, board, moves_from, space_order
from mogul.games.credit_mobilier.components import COMPANIES, RAILROADS, components
from mogul.games.credit_mobilier.dice import KINDS, roll_of
from mogul.games.credit_mobilier.fast_kernels import (  # noqa: F401 - the codes are part of the API
    BOARD,
    BUILD,
    BUY,
    DIVIDEND,
    DIVIDEND_BOT,
    END,
    FACES,
    MAX_OPTIONS,
    MAX_SEATS,
    MOVE,
    NO_KIND,
    RANDOM,
    SEATS,
    SECTIONS,
    SPACES,
    TABLE,
    deal_and_play,
    deal_tables,
    legal_of,
    play_tables,
)
from mogul.games.credit_mobilier.fast_kernels import play_after as play_after_kernel
from mogul.games.credit_mobilier.rules import (
    GameState,
    buildable_sections,
    markers_on_board,
    next_roll,
)
from mogul.games.credit_mobilier.setup import DEFAULT_NAMES, new_game
from mogul.games.credit_mobilier.simple_bots import DividendBot
from mogul.kit import batch as kit_batch
from mogul.kit.batch import seed_stream
from mogul.kit.bots import RandomBot, whole_number
from mogul.kit.checks import is_whole
from mogul.kit.columns import WHOLE, Coded, Columns, game_numbers, narrowed

if TYPE_CHECKING:
    from mogul.kit.record import GameRecord

LOG_ROOM = 4096
"""Actions (and rolls) a record's log holds at first; a longer game is played again with more."""


@cache
def board_record() -> np.ndarray:
    """The board and the box as the kernels read them: one ``BOARD`` record (an array of one),
    built from ``board.json`` and ``components.json``."""
    b, box = board(), components()
    spaces = space_order(b)
    sections = {s.id: i for i, s in enumerate(b.sections)}
    if len(spaces) != SPACES or len(sections) != SECTIONS or len(box.dice_faces) != FACES:
        raise ValueError(
            "the batch simulator is compiled for the board of 24 squares and 42 track spaces"
        )
    out = np.zeros(1, BOARD)
    r = out[0]
    r["ends"] = [(spaces[s.a], spaces[s.b]) for s in b.sections]
    r["eastern"] = sum(1 << spaces[space] for space in b.eastern)
    r["ways"] = -1
    for space in b.spaces:
        for way, (sid, there, direction) in enumerate(moves_from(b, space)):
            r["ways"][spaces[space], way] = (sections[sid], spaces[there], int(direction == WEST))
            r["exits"][spaces[space]] |= 1 << sections[sid]
    for i, s in enumerate(b.sections):  # per space: a bit for each track space at its ends
        r["touching"][spaces[s.a]] |= 1 << i
        r["touching"][spaces[s.b]] |= 1 << i
    r["track_per_colour"] = box.track_per_colour
    r["stock_cap"] = -1 if box.stock_per_company is None else box.stock_per_company
    r["goods_per_colour"] = box.goods_per_colour
    r["start_money"] = box.start_money
    stock = dict(box.start_stock)
    r["start_stock"] = [stock.get(c, 0) for c in COMPANIES]
    r["pawns"] = len(RAILROADS) * box.goods_per_colour
    out.flags.writeable = False
    return out


# --- bots ----------------------------------------------------------------------------------


PLAYED = {
    "random": (RandomBot, RANDOM, "", 0.0),
    "dividend": (DividendBot, DIVIDEND_BOT, "rival_weight", 0.5),
}
"""The bots the kernels play, by name: (class, kernel code, the parameter it takes, its default)."""


def bot_policy(spec: Any) -> tuple[int, float] | None:
    """``(kind, rival_weight)`` for a bot the batch simulator plays (random, dividend), else None."""
    return kit_batch.bot_policy(spec, PLAYED)


def policies(bots: Any, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat bot kinds and parameters from one bot for every seat or one per seat."""
    return kit_batch.seat_policies(bots, players, PLAYED, MAX_SEATS, "batch simulator")


def seats_record(bots: Any, players: int) -> np.ndarray:
    """The bots in their seats as the kernels read them: one ``SEATS`` record (an array of one)."""
    kinds, params = policies(bots, players)
    out = np.zeros(1, SEATS)
    out[0]["kind"], out[0]["rival_weight"] = kinds, params
    return out


# --- states as tables ------------------------------------------------------------------------


def encode(state: GameState) -> np.ndarray:
    """A running game's state as a one-record ``TABLE`` array."""
    if state.is_over:
        raise ValueError("the game is over: there is nothing left to play")
    b = board()
    spaces = space_order(b)
    sections = {s.id: i for i, s in enumerate(b.sections)}
    colour = {c: i for i, c in enumerate(COMPANIES)}
    out = np.zeros(1, TABLE)
    t = out[0]
    t["players"] = len(state.names)
    for seat, (money, stock) in enumerate(zip(state.money, state.stocks, strict=True)):
        t["money"][seat], t["stocks"][seat] = money, tuple(stock)
    t["treasuries"] = tuple(state.treasuries)
    for space, pawn in state.goods:
        t["pawns"][spaces[space], colour[pawn]] += 1
        t["occupied"][colour[pawn]] |= 1 << spaces[space]
    t["owner"] = -1
    for section, owner in state.track:
        t["owner"][sections[section]] = colour[owner]
        t["built"] |= 1 << sections[section]
    t["buildable"] = sum(1 << sections[s] for s in buildable_sections(state.track))
    t["markers"] = [markers_on_board(state.track, c) for c in RAILROADS]
    t["start_player"], t["current"], t["turn"] = state.start_player, state.current, state.turn
    t["dice"] = face_counts(state.dice)
    t["colour"] = NO_KIND if state.colour is None else colour[state.colour]
    t["kind"] = NO_KIND if state.kind is None else KINDS.index(state.kind)
    t["used"] = state.used
    t["chance"] = state.setup.seed % 2**64  # the dice past the scripted ones (fast_kernels)
    return out


def face_counts(dice: Sequence[str]) -> list[int]:
    """A roll as the batch engine holds it: how many dice show each face, in dice-face order."""
    return [list(dice).count(face) for face in components().dice_faces]


def rolls_of(state: GameState, first: int, count: int) -> np.ndarray:
    """Rolls ``first`` to ``count - 1`` (0 = the first turn's) of ``state``'s game as the readable
    engine rolls them (``rules.next_roll``), in counts per face; rows before ``first`` are 0."""
    out = np.zeros((count, FACES), np.int8)
    for number in range(first, count):
        out[number] = face_counts(next_roll(state.setup, number))
    return out


def _words(seeds: Any) -> np.ndarray:
    """Seeds (int64, any shape) as the kernels' uint64 words."""
    return np.ascontiguousarray(seeds, np.int64).view(np.uint64)


def action_of(code: int) -> Action:
    """The readable action an action number of the kernels stands for."""
    if code == END:
        return END_TURN
    b = board()
    kind, colour, x = code >> 12, COMPANIES[(code >> 9) & 7], code & 511
    if KINDS[kind] == "build":
        return Build(colour, b.sections[x].id)
    if KINDS[kind] == "move":
        space = b.spaces[x // 3]
        return Move(colour, space, moves_from(b, space)[x % 3][1])
    return Buy(colour) if KINDS[kind] == "buy" else PayRound(colour)


@cache
def _action_codes() -> dict[Action, int]:
    """Every action's number in the kernels (``action_of`` read backwards)."""
    b = board()
    codes = [END]
    for colour in range(len(RAILROADS)):
        codes += [BUILD << 12 | colour << 9 | x for x in range(SECTIONS)]
        for s, space in enumerate(b.spaces):
            codes += [
                MOVE << 12 | colour << 9 | 3 * s + w for w in range(len(moves_from(b, space)))
            ]
    for colour in range(len(COMPANIES)):
        codes += [BUY << 12 | colour << 9, DIVIDEND << 12 | colour << 9]
    return {action_of(code): code for code in codes}


def code_of(action: Action) -> int:
    """The kernels' number for a readable action (``action_of`` read backwards)."""
    return _action_codes()[action]


def legal_actions(state: GameState) -> list[Action]:
    """The legal actions as the kernels list them (they must be ``state.legal_actions()``)."""
    out = np.zeros((1, MAX_OPTIONS), np.int64)
    count = legal_of(encode(state), board_record(), out)[0]
    return [action_of(int(code)) for code in out[0, :count]]


# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchResult:
    """Final tables of a batch of games, as arrays with one row per game (seat columns)."""

    tables: np.ndarray  # the final TABLE records

    @property
    def players(self) -> int:
        """Seats per game."""
        return int(self.tables["players"][0])

    @property
    def money(self) -> np.ndarray:
        """Cash per game and seat: the score."""
        return self.tables["money"][:, : self.players]

    @property
    def stock(self) -> np.ndarray:
        """Shares held in total per game and seat (the tie-break)."""
        return self.tables["stocks"][:, : self.players].sum(axis=2)

    @property
    def turns(self) -> np.ndarray:
        """Turns begun per game."""
        return self.tables["turn"]

    @property
    def decisions(self) -> np.ndarray:
        """Decisions (actions) per game."""
        return self.tables["decisions"]

    @property
    def ranks(self) -> np.ndarray:
        """1 = best, by cash then shares held (rules.standings); tied seats share a rank."""
        keys = self.money * 100_000 + self.stock
        return 1 + (keys[:, None, :] > keys[:, :, None]).sum(axis=2)


def play_fresh(games: int, players: int = 4, bots: Any = "random", seed: int = 0) -> BatchResult:
    """Deal ``games`` fresh games and let ``bots`` play them to the end, every game and random
    seat on a stream of its own drawn from ``seed`` (``kit.batch.seed_stream``).

    ``bots``: "random" or "dividend[:rival_weight=w]" (or their classes) for every seat, or one per seat.
    """
    whole_number("games", games)
    _check_players(players)
    seeds = seed_stream(seed, games * (1 + players)).reshape(games, 1 + players)
    return play_games(bots, seeds[:, 0], seeds[:, 1:])


def play_games(bots: Any, seeds: Sequence[int], bot_seeds: Any) -> BatchResult:
    """Deal and play game ``g`` from ``seeds[g]`` (its deal and dice) and ``bot_seeds[g]`` (a
    row with one per seat: its random bot's stream), as ``CreditMobilierBatch.play`` does;
    ``bots``: one for every seat or one per seat."""
    seeds, bot_seeds = np.asarray(seeds, np.int64), np.asarray(bot_seeds, np.int64)
    if bot_seeds.ndim != 2 or len(bot_seeds) != len(seeds):
        raise ValueError(
            f"give a row of bot seeds (one per seat) for each of the {len(seeds)} games, "
            f"got shape {bot_seeds.shape}"
        )
    players = bot_seeds.shape[1]
    _check_players(players)
    return _play(seats_record(bots, players), players, seeds, bot_seeds)[0]


def _check_players(players: Any) -> None:
    box = components()
    if not is_whole(players):
        raise ValueError(f"players must be a whole number, got {players!r}")
    if not box.min_players <= players <= box.max_players:
        raise ValueError(
            f"Credit Mobilier is for {box.min_players} to {box.max_players} players; got {players}"
        )


def _play(
    seats: np.ndarray, players: int, seeds: np.ndarray, bot_seeds: np.ndarray, room: int = 0
) -> tuple[BatchResult, np.ndarray]:
    """Deal and play one game per seed; the log (``fast_kernels.play_out``) holds ``room``
    actions and rolls (room for one game: ``record``)."""
    tables = np.zeros(len(seeds), TABLE)
    tables["players"] = players
    log = np.zeros((2, room), np.int64)
    deal_and_play(tables, board_record(), seats, _words(seeds), _words(bot_seeds), log)
    return BatchResult(tables), log


def play_states(states: Sequence[GameState], bots: Any = "random", seed: int = 0) -> BatchResult:
    """Play each state on to the end with ``bots``; all with as many seats.

    A game rolls its scripted rolls (``setup.dice``) first and then from its own generator:
    roll ``n`` is draw ``pawns + n`` of the stream seeded by ``setup.seed`` (``fast_kernels``),
    so the states of one game roll the same dice, but not the readable engine's dice (script
    them, as ``GameRecord``s of the batch engine do, for the readable engine's games).
    Random seats draw from streams drawn from ``seed``, one per state and seat.
    """
    if not states:
        raise ValueError("give at least one state")
    players = len(states[0].names)
    if any(len(s.names) != players for s in states):
        raise ValueError("all states must have the same number of players")
    seats = seats_record(bots, players)
    tables = np.concatenate([encode(s) for s in states])
    tables["bots"][:, :players] = _words(seed_stream(seed, len(states) * players)).reshape(
        len(states), players
    )
    scripted = np.array([len(s.setup.dice or ()) for s in states], np.int64)
    rolls = np.zeros((len(states), max(1, scripted.max()), FACES), np.int8)
    for g, state in enumerate(states):
        for number in range(state.turn, scripted[g]):
            rolls[g, number] = face_counts(state.setup.dice[number])
    play_tables(tables, board_record(), seats, rolls, scripted)
    return BatchResult(tables)


def play_after(
    futures: Sequence[GameState],
    actions: Sequence[Action],
    until_turn: int,
    bots: Any = "dividend",
    seed: int = 0,
) -> np.ndarray:
    """Each future after each of ``actions``, played on by ``bots`` until turn ``until_turn``
    begins or the game ends: the final ``TABLE`` records, one row per future, one column per action.

    The futures show one table (states determinised from one view: only the dice to come
    differ); each rolls its own dice as the readable engine would (``rolls_of``: a rollout
    rolls a few), so dividend bots end every rollout in the readable engine's table
    (``MonteCarloBot.rollout``). Random seats draw from streams drawn from ``seed``.
    """
    if not futures or not actions:
        return np.zeros((len(futures), len(actions)), TABLE)
    state = futures[0]
    if until_turn <= state.turn:
        raise ValueError(f"until_turn must come after turn {state.turn}, got {until_turn}")
    root = encode(state)
    root["until"] = until_turn
    tables = np.repeat(root, len(futures) * len(actions))
    codes = np.tile(np.array([code_of(a) for a in actions], np.int64), len(futures))
    which = np.repeat(np.arange(len(futures), dtype=np.int64), len(actions))
    rolls = np.stack([rolls_of(f, state.turn, until_turn) for f in futures])
    players = len(state.names)
    seats = seats_record(bots, players)
    tables["bots"][:, :players] = _words(seed_stream(seed, len(tables) * players)).reshape(
        -1, players
    )
    play_after_kernel(tables, board_record(), seats, codes, which, rolls)
    return tables.reshape(len(futures), len(actions))


def worths(tables: np.ndarray, treasury_weight: float) -> np.ndarray:
    """``bots.worth`` of every seat at each table (a last axis of seats), float for float:
    cash plus ``treasury_weight`` times the seat's stake in every treasury."""
    players = int(tables.reshape(-1)[0]["players"])
    stocks = tables["stocks"][..., :players, :]
    held = stocks.sum(axis=-2, keepdims=True)
    stake = np.divide(stocks, held, out=np.zeros(stocks.shape), where=held > 0)
    treasuries = tables["treasuries"]
    part = np.zeros(stake.shape[:-1])
    for company in range(len(COMPANIES)):  # summed company by company, as bots.worth does
        part = part + stake[..., company] * treasuries[..., None, company]
    return tables["money"][..., :players] + treasury_weight * part


# --- the kit's batch engine ----------------------------------------------------------------------


def batch_engine(edition: str, bots: Sequence[Any], names: Sequence[str]) -> CreditMobilierBatch:
    """The batch engine for one bot per seat; ``ValueError`` (why) if it cannot play them."""
    from mogul.kit.spec import get_game  # the registry: the spec is registered by now

    get_game("credit-mobilier").edition(edition)  # raises for another edition's name
    policies(list(bots), len(bots))  # raises for bots it does not play
    return CreditMobilierBatch(tuple(bots), tuple(names))


@dataclass(frozen=True)
class CreditMobilierBatch:
    """Credit Mobilier's bots in their seats, ready to play chunks of games (``simulate``)."""

    bots: tuple[Any, ...]
    names: tuple[str, ...]  # the bots' names, one per seat
    tables: tuple[str, ...] = ("games",)  # the tables it makes

    @property
    def players(self) -> int:
        """Seats at each table."""
        return len(self.bots)

    def deal_and_play(self, games: int, seed: int) -> BatchResult:
        """``games`` games played to the end from ``seed``: the engine at its own speed."""
        return play_fresh(games, self.players, list(self.bots), seed)

    def play(
        self, first: int, seeds: np.ndarray, bot_seeds: np.ndarray, tables: Sequence[str]
    ) -> dict[str, Columns]:
        """Games ``first``, ``first + 1``...: game ``g`` dealt and rolled from ``seeds[g]``, its
        random seat ``s`` drawing from ``bot_seeds[g, s]``; the games table, as columns."""
        if set(tables) - set(self.tables):
            raise ValueError(f"the batch engine makes only the games table, not {list(tables)}")
        games, players = len(seeds), self.players
        result = play_games(self.bots, seeds, bot_seeds)
        money, ranks = narrowed(result.money.ravel()), narrowed(result.ranks.ravel())
        seat = np.tile(np.arange(players, dtype=WHOLE), games)
        return {
            "games": {
                "game": np.repeat(game_numbers(first, games), players),
                "seed": np.repeat(np.asarray(seeds, np.int64), players),
                "seat": seat,
                "player": Coded(seat, DEFAULT_NAMES[:players]),
                "bot": Coded(seat, tuple(self.names)),
                "bot_seed": np.asarray(bot_seeds, np.int64).reshape(-1),
                "score": money,
                "rank": ranks,
                "won": ranks == 1,
                "money": money,
                "stock": narrowed(result.stock.ravel()),
                "turns": narrowed(np.repeat(result.turns, players)),
            }
        }

    def record(self, seed: int, bot_seeds: Sequence[int]) -> GameRecord:
        """The game ``play`` plays from these seeds, as a record the readable engine replays:
        the deal and every roll scripted, the actions as the compiled code played them."""
        from mogul.kit.record import GameRecord

        players = self.players
        seats = seats_record(list(self.bots), players)
        seeds, bots = np.array([seed], np.int64), np.array([bot_seeds], np.int64)
        if bots.shape != (1, players):
            raise ValueError(f"give one bot seed per seat ({players}), got {list(bot_seeds)!r}")
        room = LOG_ROOM
        while True:  # the same kernel as ``play``, with a log
            result, log = _play(seats, players, seeds, bots, room)
            if result.decisions[0] <= room and result.turns[0] <= room:
                break
            room *= 4
        dealt = np.zeros(1, TABLE)
        dealt["players"] = players
        deal_tables(dealt, board_record(), _words(seeds), _words(bots))
        squares = space_order(board())  # space name -> number (0: the coast)
        pawns = dealt["pawns"][0]
        goods = {space: RAILROADS[int(pawns[n].argmax())] for space, n in squares.items() if n}
        first = new_game(
            players,
            seed,
            goods=goods,
            start_player=int(dealt["start_player"][0]),
            dice=[roll_of(int(v)) for v in log[1, : result.turns[0]]],
        )
        actions = [action_of(int(code)) for code in log[0, : result.decisions[0]]]
        return GameRecord.of(first, actions)
