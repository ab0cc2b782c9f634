"""Mogul's batch engine for ``simulate``: the readable engine's games, at compiled speed, as tables.

``batch_engine(edition, bots, names)`` is the game's ``GameSpec.batch`` hook. It refuses
(``ValueError``, saying why) what the compiled simulator does not play: bots other than
random, threshold and value. The Rio Grande edition gets ``RioGrandeBatch``: the games
table only, each game dealt by the readable engine and played on in ``fast_rio``. ``MogulBatch.play`` deals and plays
a chunk of planned games in ``fast_record`` (the deals and the random bots draw from Python's
generator exactly as the readable engine does, so the games are the same games) and builds
the games, rounds and auctions tables from the recorded arrays with numpy, as columns
(``mogul.kit.columns``): the same columns, values and dtypes as ``tables.py`` and the runner
give. Kept apart from ``fast`` so that importing the game loads neither numba nor pandas.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mogul.kit.columns import Coded, Columns, Ragged

AUCTION_COLUMNS = (
    *("game", "round", "card", "company", "border", "start_player", "bids", "credits"),
    *("drop_order", "pot_path", "steps", "winner", "runner_up", "sold", "sale_price"),
    *("seller", "winner_choice", "taker", "chips_paid"),
)
"""The auctions table's columns, in ``tables.auction_rows``' order after ``game``."""


def batch_engine(
    edition: str, bots: Sequence[Any], names: Sequence[str]
) -> MogulBatch | RioGrandeBatch:
    """The batch engine for one bot per seat; ``ValueError`` (why) if it cannot play them."""
    from mogul.games.mogul import fast  # compiled code: loaded when first needed

    ed = fast.check_edition(edition, rio_grande=True)
    if not ed.min_players <= len(bots) <= ed.max_players:
        raise ValueError(
            f"the {ed.name} edition is for {ed.min_players} to {ed.max_players} players"
        )
    kinds, params = fast.policies(list(bots), len(bots))
    if ed.name == "rio-grande":
        return RioGrandeBatch(ed.name, tuple(bots), tuple(names))
    return MogulBatch(ed.name, len(bots), kinds, params, tuple(names), tuple(bots))


def _deal_and_play(engine: MogulBatch | RioGrandeBatch, games: int, seed: int) -> Any:
    """``games`` games dealt in the compiled code (its own deals, not the readable engine's)
    and played to the crash: the engine at its own speed (``fast.BatchResult``)."""
    from mogul.games.mogul import fast

    return fast.play_fresh(games, engine.players, list(engine.bots), seed, engine.edition)


@dataclass(frozen=True)
class RioGrandeBatch:
    """The 2013 edition's bots in their seats: the games table of chunks of planned games.

    Each game is dealt by the readable engine from its planned seed (``new_game``) and played
    to the crash in ``fast_rio``, so deterministic bots (value, threshold) play the readable
    engine's very games, row for row. Random bots draw from one generator per chunk, seeded
    by its first game's first bot seed: the same distribution as the readable engine's, other
    games, which depend on how the games are cut into chunks.
    """

    edition: str
    bots: tuple[Any, ...]
    names: tuple[str, ...]  # the bots' names, one per seat
    tables: tuple[str, ...] = ("games",)  # the tables it makes

    @property
    def players(self) -> int:
        """Seats at each table."""
        return len(self.bots)

    deal_and_play = _deal_and_play

    def play(
        self, first: int, seeds: np.ndarray, bot_seeds: np.ndarray, tables: Sequence[str]
    ) -> dict[str, Columns]:
        """Games ``first``, ``first + 1``... dealt from ``seeds``: the games table, as columns."""
        from mogul.games.mogul import fast, fast_rio
        from mogul.games.mogul.setup import new_game

        if set(tables) - set(self.tables):
            raise ValueError(f"the batch engine makes only the games table, not {list(tables)}")
        games, players = len(seeds), self.players
        seeds = np.asarray(seeds, np.int64)
        bot_seeds = np.asarray(bot_seeds, np.int64).reshape(games, players)
        names = new_game(self.edition, players, 0).names
        if games:
            starts = [new_game(self.edition, players, int(s)) for s in seeds]
            final = fast.play_states(starts, list(self.bots), int(bot_seeds[0][0])).tables
        else:
            final = np.zeros(0, fast_rio.RIO_TABLE)
        game_numbers = np.arange(first, first + games, dtype=np.int64)
        return {
            "games": _games(final, players, game_numbers, seeds, bot_seeds, (names, self.names))
        }


@dataclass(frozen=True)
class MogulBatch:
    """Classic Mogul's bots in their seats, ready to play chunks of planned games."""

    edition: str
    players: int
    kinds: np.ndarray
    params: np.ndarray
    names: tuple[str, ...]  # the bots' names, one per seat
    bots: tuple[Any, ...] = ()  # the bots as given, one per seat

    deal_and_play = _deal_and_play

    def play(
        self, first: int, seeds: np.ndarray, bot_seeds: np.ndarray, tables: Sequence[str]
    ) -> dict[str, Columns]:
        """Games ``first``, ``first + 1``... dealt from ``seeds`` with bots seeded from
        ``bot_seeds`` (one row per game): the ``tables`` asked for, as columns."""
        from mogul.games.mogul import fast, fast_record
        from mogul.games.mogul.fast_encode import new_tables
        from mogul.games.mogul.setup import new_game

        ed = fast.check_edition(self.edition)
        games, players = len(seeds), self.players
        companies = ed.company_ids
        boxes = (
            np.array([companies.index(c.company) for c in ed.cards], np.int64),
            np.array([companies.index(c.border) for c in ed.cards], np.int64),
            np.array([c.starting for c in ed.cards], np.int64),
            np.array([ed.chips_total, ed.chips_per_player], np.int64),
        )
        record = new_tables(ed, games, players)
        out, path = _scratch(games, players, recorded=bool(set(tables) - {"games"}))
        seeds = np.asarray(seeds, np.int64)
        bot_seeds = np.asarray(bot_seeds, np.int64).reshape(games, players)
        done, used = 0, 0
        while done < games:
            done, used = fast_record.deal_and_record(
                record, boxes, seeds, bot_seeds, self.kinds, self.params, done, out, path, used
            )
            if done < games:
                path = _grown_path(path)
        seat_names = new_game(ed, players, 0).names
        game_numbers = first + np.arange(games)
        names = (seat_names, self.names)
        result = {"games": _games(record, players, game_numbers, seeds, bot_seeds, names)}
        card_labels = (*(f"{c}/{b}" for c in companies for b in companies), "crash")
        rounds = record["round"]
        if "rounds" in tables:
            result["rounds"] = self._rounds(
                out, rounds, game_numbers, (card_labels, seat_names, companies), ed.chips_per_point
            )
        if "auctions" in tables:
            auctions = _auctions(out, rounds, game_numbers, card_labels, companies)
            auctions["pot_path"] = Ragged(  # a copy: the scratch path is used again
                path[:used].astype(np.int16), auctions["steps"].astype(np.int64)
            )
            result["auctions"] = {name: auctions[name] for name in AUCTION_COLUMNS}
        return result

    def _rounds(
        self,
        out: tuple[np.ndarray, ...],
        rounds: np.ndarray,
        game_numbers: np.ndarray,
        labels: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
        chips_per_point: int,
    ) -> Columns:
        """Rows (game, round, seat) for every round played, the crash included."""
        from mogul.games.mogul import fast_record

        card_labels, seat_names, companies = labels
        count = int(rounds.sum()) * self.players
        game = np.empty(count, np.int64)
        fields = np.empty((6 + 2 * len(companies), count), np.int16)
        crash = len(card_labels) - 1
        cards, market, seats = out[0], out[1], out[2]
        fast_record.round_rows(
            cards, market, seats, rounds, chips_per_point, crash, game_numbers, game, fields
        )
        seat = fields[2]
        columns: Columns = {
            "game": game,
            "bot": Coded(seat, self.names),
            "round": fields[0],
            "card": Coded(fields[1], card_labels),
            "seat": seat,
            "player": Coded(seat, seat_names),
            "points": fields[3],
            "chips": fields[4],
            "score": fields[5],
        }
        columns.update({f"shares_{c}": fields[6 + i] for i, c in enumerate(companies)})
        columns.update(
            {f"market_{c}": fields[6 + len(companies) + i] for i, c in enumerate(companies)}
        )
        return columns


def _games(
    final: np.ndarray,
    players: int,
    game_numbers: np.ndarray,
    seeds: np.ndarray,
    bot_seeds: np.ndarray,
    names: tuple[tuple[str, ...], tuple[str, ...]],
) -> Columns:
    """The games table, rows (game, seat), from the games' final tables (either edition's) and
    the names of the seats and of the bots in them."""
    from mogul.games.mogul import fast

    result = fast.BatchResult(final)
    seats = np.tile(np.arange(players), len(seeds))
    scores = result.scores if len(final) else np.zeros((0, players), np.int64)
    ranks = result.ranks.ravel() if len(final) else np.zeros(0, np.int64)
    return {
        "game": np.repeat(game_numbers, players),
        "seed": np.repeat(seeds, players),
        "seat": seats,
        "player": Coded(seats, tuple(names[0])),
        "bot": Coded(seats, tuple(names[1])),
        "bot_seed": bot_seeds.ravel(),
        "score": scores.ravel(),
        "rank": ranks,
        "won": ranks == 1,
        "points": final["points"][:, :players].ravel(),
        "chips": final["chips"][:, :players].ravel(),
        "shares": final["shares"][:, :players].sum(axis=2).ravel(),
        "credits": final["credits"][:, :players].ravel(),
        "rounds": np.repeat(final["round"], players),
    }


_SCRATCH = threading.local()


def _scratch(games: int, players: int, recorded: bool) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The arrays ``fast_record.deal_and_record`` records a chunk of ``games`` into (none
    unless ``recorded``): each round's card, the market values, every seat's points, chips
    and shares, the auctions, and the pots before each step. Kept from chunk to chunk in
    each thread (``play_recorded`` clears a game's counters itself): fresh arrays of this
    size cost more in page faults than the recording itself."""
    from mogul.games.mogul import fast, fast_record

    pile = fast.PILE
    shapes = (
        ((pile, 2), np.int64),  # each round's card: company, border
        ((pile, fast.COMPANIES), np.int16),  # market values
        ((pile, players, 2 + fast.COMPANIES), np.int16),  # points, chips, shares
        ((pile, fast_record.AUCTION_FIELDS), np.int64),
        ((pile, 3, players), np.int16),  # chips bid per seat, credit seats, drop seats
    )
    if not recorded:
        return tuple(np.zeros((0, *shape), dtype) for shape, dtype in shapes), np.zeros(0, np.int64)
    out = getattr(_SCRATCH, "out", None)
    if out is None or len(out[0]) < games or out[2].shape[2] != players:
        _SCRATCH.out = tuple(np.zeros((games, *shape), dtype) for shape, dtype in shapes)
        _SCRATCH.path = np.zeros(games * 400 + 8192, np.int64)  # grown if a chunk needs more
    return _SCRATCH.out, _SCRATCH.path


def _grown_path(path: np.ndarray) -> np.ndarray:
    """``path`` twice as long (kept for the next chunks of this thread)."""
    _SCRATCH.path = np.concatenate((path, np.zeros(len(path), np.int64)))
    return _SCRATCH.path


def _auctions(
    out: tuple[np.ndarray, ...],
    rounds: np.ndarray,
    game_numbers: np.ndarray,
    card_labels: tuple[str, ...],
    companies: Sequence[str],
) -> Columns:
    """Rows (game, round) for every auction: every round but the crash."""
    from mogul.games.mogul import fast_record

    count = int(rounds.sum()) - len(rounds)
    players = out[4].shape[3]
    game = np.empty(count, np.int64)
    fields = np.empty((16, count), np.int16)
    seqs = np.empty((3, count * players), np.int16)
    _, credits, drops = fast_record.auction_rows(
        out[0], out[3], out[4], rounds, len(companies), game_numbers, game, fields, seqs
    )
    companies = tuple(companies)
    return {
        "game": game,
        "round": fields[0],
        "card": Coded(fields[1], card_labels),
        "company": Coded(fields[2], companies),
        "border": Coded(fields[3], companies),
        "start_player": fields[4],
        "bids": Ragged(seqs[0], np.full(count, players)),
        "credits": Ragged(seqs[1, :credits], fields[14].astype(np.int64)),
        "drop_order": Ragged(seqs[2, :drops], fields[15].astype(np.int64)),
        "steps": fields[5],
        "winner": fields[6],
        "runner_up": fields[7],
        "sold": fields[8],
        "sale_price": fields[9],
        "seller": fields[10],
        "winner_choice": Coded(fields[11], ("sell", "take")),
        "taker": fields[12],
        "chips_paid": fields[13],
    }
