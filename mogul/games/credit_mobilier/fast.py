"""A batch simulator of Credit Mobilier: many games at once, compiled, checked against ``rules.py``.

``rules.py`` is the reference, readable beside the rulebook; this module plays the same rules
on numpy records in compiled loops (``fast_kernels.py``), for studies and bots that need
tens of thousands of games:

    >>> from mogul.games.credit_mobilier import fast
    >>> result = fast.play_fresh(games=1000, players=4, bots="random", seed=1)
    >>> result.money.shape, bool((result.turns > 10).all())
    ((1000, 4), True)

It plays ``RandomBot`` and ``DividendBot`` (any ``rival_weight``), from a fresh deal or from
any state. From a state it rolls the dice the readable engine would roll (the scripted rolls
and those drawn from the seed, ``rules.next_roll``), so deterministic bots end every game in
exactly the readable engine's final table; random bots and fresh deals draw from numba's
generator, seeded per call (the same distribution, other games). ``play_after`` plays each
of a few actions on each of a few futures of one table up to a turn (the rollouts of
``MonteCarloBot`` and ``analyse_position``), and ``worths`` reads what each seat is worth there. The first call in a fresh
checkout compiles the kernels (a few seconds); numba caches the machine code.
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
from mogul.games.credit_mobilier.dice import KINDS
from mogul.games.credit_mobilier.fast_dice import LARGEST_SEED, face_counts, rolled
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
from mogul.games.credit_mobilier.simple_bots import DividendBot
from mogul.kit import batch as kit_batch
from mogul.kit.bots import RandomBot

if TYPE_CHECKING:
    import pandas as pd

ROLLS_AT_ONCE = 160
"""Rolls worked out at a time for a game played from a state (a game waits for more when it
runs out; random 4-player games last about 146 turns)."""


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
    return out


def rolls_of(state: GameState, first: int, count: int) -> np.ndarray:
    """Rolls ``first`` to ``count - 1`` (0 = the first turn's) of ``state``'s game, as the readable
    engine rolls them, in counts per face (rows before ``first`` are left 0): the scripted
    rolls as written, those drawn from the seed hashed compiled (``fast_dice``)."""
    out = np.zeros((count, FACES), np.int8)
    compiled = 0 <= state.setup.seed <= LARGEST_SEED
    drawn = max(first, len(state.setup.dice or ())) if compiled else count  # hashed from here on
    for number in range(first, min(drawn, count)):
        out[number] = face_counts(next_roll(state.setup, number))
    if drawn < count:
        out[drawn:] = rolled(state.setup.seed, drawn, count)
    return out


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
    """Deal ``games`` fresh games (from numba's generator) and let ``bots`` play them to the end.

    ``bots``: "random" or "dividend[:rival_weight=w]" (or their classes) for every seat, or one per seat.
    """
    box = components()
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number, got {players!r}")
    if not box.min_players <= players <= box.max_players:
        raise ValueError(
            f"Credit Mobilier is for {box.min_players} to {box.max_players} players; got {players}"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {games!r}")
    seats = seats_record(bots, players)
    tables = np.zeros(games, TABLE)
    tables["players"] = players
    deal_and_play(tables, board_record(), seats, seed)
    return BatchResult(tables)


def play_states(states: Sequence[GameState], bots: Any = "random", seed: int = 0) -> BatchResult:
    """Play each state on to the end with ``bots``, rolling the dice its game would roll; all with as many seats."""
    if not states:
        raise ValueError("give at least one state")
    players = len(states[0].names)
    if any(len(s.names) != players for s in states):
        raise ValueError("all states must have the same number of players")
    seats = seats_record(bots, players)
    tables = np.concatenate([encode(s) for s in states])
    count = max(s.turn for s in states) + ROLLS_AT_ONCE
    rolls = np.stack([rolls_of(s, s.turn, count) for s in states])
    scripted = np.full(len(states), count, np.int64)
    play_tables(tables, board_record(), seats, rolls, scripted, seed)
    while (waiting := np.flatnonzero(tables["waiting"])).size:  # more rolls for the long games
        more = count + ROLLS_AT_ONCE
        grown = np.zeros((len(states), more, FACES), np.int8)
        grown[:, :count] = rolls
        for g in waiting:
            grown[g, count:] = rolls_of(states[g], count, more)[count:]
        rolls, count = grown, more
        scripted[:] = count
        play_tables(tables, board_record(), seats, rolls, scripted, seed + count)
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
    differ); each rolls its own dice as the readable engine would, so dividend bots end
    every rollout in the readable engine's table (``MonteCarloBot.rollout``).
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
    seats = seats_record(bots, len(state.names))
    play_after_kernel(tables, board_record(), seats, codes, which, rolls, seed)
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


def games_table(
    edition: str, bots: Sequence[Any], plans: Sequence[Any], names: Sequence[str]
) -> pd.DataFrame | None:
    """The games table (``mogul.kit.runner``'s columns) of ``plans``, or None for bots it does not play.

    Each game is dealt by the readable engine from its planned seed and rolls its dice, so
    deterministic bots play the readable engine's games, row for row.
    """
    import pandas as pd

    from mogul.games.credit_mobilier.setup import new_game

    try:
        policies(list(bots), len(bots))
    except ValueError:
        return None
    players = len(bots)
    starts = [new_game(players, plan.seed) for plan in plans]
    result = play_states(starts, list(bots), plans[0].bot_seeds[0] if plans else 0)
    seats = np.tile(np.arange(players), len(plans))
    ranks = result.ranks.ravel()
    return pd.DataFrame(
        {
            "game": np.repeat([p.game for p in plans], players),
            "seed": np.repeat([p.seed for p in plans], players),
            "seat": seats,
            "player": [starts[0].names[s] for s in seats],
            "bot": [names[s] for s in seats],
            "bot_seed": [seed for p in plans for seed in p.bot_seeds],
            "score": result.money.ravel(),
            "rank": ranks,
            "won": ranks == 1,
            "money": result.money.ravel(),
            "stock": result.stock.ravel(),
            "turns": np.repeat(result.turns, players),
        }
    )
