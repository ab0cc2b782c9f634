"""Mogul's batch engine for ``simulate``: games dealt and played in compiled code, as tables.

``batch_engine(edition, bots, names)`` is the game's ``GameSpec.batch`` hook. It refuses
(``ValueError``, saying why) what the compiled simulator does not play: bots other than
random, threshold and value. Each game is dealt and played from streams of its own
(``fast_kernels.play_games``): the deal from the game's seed, a random bot in seat s from
the game's bot seed for s, so a game depends on its own seeds only, whatever the chunks.
These are not the games the readable engine deals from the same seeds; ``record`` writes
any of them down as a ``GameRecord`` (the dealt table as a scripted setup, and every
action), which the readable engine replays to the same end.

``MogulBatch.play`` builds the games table (both editions) and classic's rounds and auctions
tables from the recorded arrays with numpy, as columns (``mogul.kit.columns``): the same
columns, values and dtypes as ``tables.py`` and the runner give. Kept apart from ``fast`` so
that importing the game loads neither numba nor pandas.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mogul.kit.columns import GAME, Coded, Columns, Ragged, game_numbers, narrowed

if TYPE_CHECKING:
    from mogul.kit.record import GameRecord

AUCTION_COLUMNS = (
    *("game", "round", "card", "company", "border", "start_player", "bids", "credits"),
    *("drop_order", "pot_path", "steps", "winner", "runner_up", "sold", "sale_price"),
    *("seller", "winner_choice", "taker", "chips_paid"),
)
"""The auctions table's columns, in ``tables.auction_rows``' order after ``game``."""


def batch_engine(edition: str, bots: Sequence[Any], names: Sequence[str]) -> MogulBatch:
    """The batch engine for one bot per seat; ``ValueError`` (why) if it cannot play them."""
    from mogul.games.mogul import fast  # compiled code: loaded when first needed

    ed = fast.check_edition(edition, rio_grande=True)
    if not ed.min_players <= len(bots) <= ed.max_players:
        raise ValueError(
            f"the {ed.name} edition is for {ed.min_players} to {ed.max_players} players"
        )
    kinds, params = fast.policies(list(bots), len(bots))
    tables = ("games",) if ed.name == "rio-grande" else ("games", "rounds", "auctions")
    return MogulBatch(ed.name, len(bots), kinds, params, tuple(names), tuple(bots), tables)


@dataclass(frozen=True)
class MogulBatch:
    """Mogul's bots in their seats, ready to play chunks of planned games (either edition;
    the rounds and auctions tables are classic's)."""

    edition: str
    players: int
    kinds: np.ndarray
    params: np.ndarray
    names: tuple[str, ...]  # the bots' names, one per seat
    bots: tuple[Any, ...] = ()  # the bots as given, one per seat
    tables: tuple[str, ...] = ("games", "rounds", "auctions")  # the tables it makes

    def deal_and_play(self, games: int, seed: int) -> Any:
        """``games`` games from one seed, played to the crash: the engine at its own speed
        (``fast.BatchResult``)."""
        from mogul.games.mogul import fast

        return fast.play_fresh(games, self.players, list(self.bots), seed, self.edition)

    def play(
        self, first: int, seeds: np.ndarray, bot_seeds: np.ndarray, tables: Sequence[str]
    ) -> dict[str, Columns]:
        """Games ``first``, ``first + 1``... dealt from ``seeds`` with random bots drawing from
        ``bot_seeds`` (one row per game): the ``tables`` asked for, as columns."""
        from mogul.games.mogul import fast
        from mogul.games.mogul.setup import new_game

        if set(tables) - set(self.tables):
            raise ValueError(
                f"the {self.edition} batch engine makes only the tables {list(self.tables)}, "
                f"not {list(tables)}"
            )
        ed = fast.check_edition(self.edition, rio_grande=True)
        games, players = len(seeds), self.players
        companies = ed.company_ids
        seeds, bot_seeds = _checked_seeds(seeds, bot_seeds, players)
        final = fast.new_tables(ed, games, players)
        out, path = _scratch(games, players, recorded=bool(set(tables) - {"games"}))
        args = (ed, final, seeds, bot_seeds, self.kinds, self.params)
        done, used = 0, 0
        while done < games:
            done, used = fast.play_games(*args, first=done, out=out, path=path, used=used)
            if done < games:
                path = _grown_path(path)
        seat_names = new_game(ed, players, 0).names
        numbers = game_numbers(first, games)
        names = (seat_names, self.names)
        result = {"games": _games(final, players, numbers, seeds, bot_seeds, names)}
        card_labels = (*(f"{c}/{b}" for c in companies for b in companies), "crash")
        rounds = final["round"]
        if "rounds" in tables:
            result["rounds"] = self._rounds(
                out, rounds, numbers, (card_labels, seat_names, companies), ed.chips_per_point
            )
        if "auctions" in tables:
            auctions = _auctions(out, rounds, numbers, card_labels, companies)
            auctions["pot_path"] = Ragged(  # a copy: the scratch path is used again
                path[:used].astype(np.int16), auctions["steps"].astype(np.int64)
            )
            result["auctions"] = {name: auctions[name] for name in AUCTION_COLUMNS}
        return result

    def record(self, seed: int, bot_seeds: Sequence[int]) -> GameRecord:
        """The game ``play`` plays from ``seed`` and ``bot_seeds``, played again by the same
        compiled loop with an action log, as a record the readable engine replays."""
        from mogul.games.mogul import fast

        ed = fast.check_edition(self.edition, rio_grande=True)
        seeds, bots = _checked_seeds([seed], [bot_seeds], self.players)
        final = fast.new_tables(ed, 1, self.players)
        dealt, log = final.copy(), _log(ed, self.players)
        fast.play_games(ed, final, seeds, bots, self.kinds, self.params, log=log, dealt=dealt)
        return _written(ed, self.players, seeds[0], dealt[0], log)

    def _rounds(
        self,
        out: tuple[np.ndarray, ...],
        rounds: np.ndarray,
        numbers: np.ndarray,
        labels: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
        chips_per_point: int,
    ) -> Columns:
        """Rows (game, round, seat) for every round played, the crash included."""
        from mogul.games.mogul import fast_kernels

        card_labels, seat_names, companies = labels
        count = int(rounds.sum()) * self.players
        game = np.empty(count, GAME)
        fields = np.empty((6 + 2 * len(companies), count), np.int16)
        crash = len(card_labels) - 1
        cards, market, seats = out[0], out[1], out[2]
        fast_kernels.round_rows(
            cards, market, seats, rounds, chips_per_point, crash, numbers, game, fields
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


def _checked_seeds(seeds: Any, bot_seeds: Any, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Deal seeds (games,) and bot seeds (games, players) as int64 arrays; ``ValueError`` unless
    every one is a whole number in 0 .. 2**63 - 1."""
    seeds, bots = np.asarray(seeds), np.asarray(bot_seeds)
    for name, values in (("seeds", seeds), ("bot seeds", bots)):
        if values.size and (
            values.dtype.kind not in "iu" or values.min() < 0 or values.max() >= 2**63
        ):
            raise ValueError(f"{name} must be whole numbers from 0 to 2**63 - 1, got {values!r}")
    if bots.size != len(seeds) * players:
        raise ValueError(f"give {players} bot seeds per game (one per seat), got {bots.shape}")
    seeds = np.ascontiguousarray(seeds, np.int64)
    return seeds, np.ascontiguousarray(bots, np.int64).reshape(len(seeds), players)


def _log(ed: Any, players: int) -> np.ndarray:
    """An empty action log with room for any game: per round at most every chip in the box
    bid, a credit and a drop per player, and the two rights."""
    from mogul.games.mogul.fast import NO_ACTION

    rounds = len(ed.cards) + 1
    return np.full(rounds * (ed.chips_total + 2 * players + 2), NO_ACTION, np.int64)


def _written(ed: Any, players: int, seed: int, dealt: np.void, log: np.ndarray) -> GameRecord:
    """The record of a game dealt as ``dealt`` and played as ``log`` says: a fully scripted
    setup (the pile, each player's starting shares, the start player) and the actions' texts."""
    from mogul.games.mogul import fast
    from mogul.games.mogul.setup import new_game
    from mogul.kit.record import GameRecord

    companies = ed.company_ids
    size = int(dealt["pile_size"])
    cards = zip(dealt["pile_company"][:size], dealt["pile_border"][:size], strict=True)
    pile = ["crash" if c == fast.CRASH else f"{companies[c]}/{companies[b]}" for c, b in cards]
    start = int(dealt["start_player"])
    if ed.name == "rio-grande":  # the setup card's positions, clockwise from the start player
        card = ed.setup_card[players]
        hands = [list(card[(seat - start) % players]) for seat in range(players)]
    else:  # one S share each: the box's S cards that are not in the pile
        left = Counter(str(c) for c in ed.cards) - Counter(pile)
        hands = []
        for seat in range(players):
            company = companies[int(np.argmax(dealt["shares"][seat]))]
            share = next(c for c in left.elements() if c.startswith(company + "/"))
            left[share] -= 1
            hands.append([share])
    first = new_game(ed, players, int(seed), deck=pile, starting_shares=hands, start_player=start)
    if log[-1] != fast.NO_ACTION:  # cannot happen (``_log``'s bound); never cut a game short
        raise RuntimeError("the action log filled up: the game's record would be cut short")
    codes = log[log >= 0]
    return GameRecord.of(first, [str(fast.action_of(int(c), ed)) for c in codes])


def _games(
    final: np.ndarray,
    players: int,
    numbers: np.ndarray,
    seeds: np.ndarray,
    bot_seeds: np.ndarray,
    names: tuple[tuple[str, ...], tuple[str, ...]],
) -> Columns:
    """The games table, rows (game, seat), from the games' final tables (either edition's) and
    the names of the seats and of the bots in them (``numbers``: the games', as ``GAME``);
    seeds int64, the other whole numbers narrowed to ``WHOLE``."""
    seats = narrowed(np.tile(np.arange(players), len(seeds)))
    points, chips = final["points"][:, :players], final["chips"][:, :players]
    held = final["shares"][:, :players]
    shares = sum(held[..., c] for c in range(held.shape[2]))  # faster than .sum over 5
    scores = points + chips // final["chips_per_point"][:, None]  # as fast.BatchResult's
    if "end_bonus" in final.dtype.names:
        scores += final["end_bonus"][:, :players]
    keys = scores * 100 + shares
    ranks = (1 + sum(keys[:, [seat]] > keys for seat in range(players))).ravel()
    return {
        "game": np.repeat(numbers, players),
        "seed": np.repeat(seeds, players),
        "seat": seats,
        "player": Coded(seats, tuple(names[0])),
        "bot": Coded(seats, tuple(names[1])),
        "bot_seed": bot_seeds.ravel(),
        "score": narrowed(scores.ravel()),
        "rank": narrowed(ranks),
        "won": ranks == 1,
        "points": narrowed(points.ravel()),
        "chips": narrowed(chips.ravel()),
        "shares": narrowed(shares.ravel()),
        "credits": narrowed(final["credits"][:, :players].ravel()),
        "rounds": narrowed(np.repeat(final["round"], players)),
    }


_SCRATCH = threading.local()


def _scratch(games: int, players: int, recorded: bool) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The arrays ``fast_kernels.play_games`` records a chunk of ``games`` into (none unless
    ``recorded``, ``fast.recording``) and the pots before each step. Kept from chunk to chunk
    in each thread (``play_recorded`` clears a game's counters itself): fresh arrays of this
    size cost more in page faults than the recording itself."""
    from mogul.games.mogul import fast

    if not recorded:
        return fast.NO_RECORD, fast.NO_LOG
    out = getattr(_SCRATCH, "out", None)
    if out is None or len(out[0]) < games or out[2].shape[2] != players:
        _SCRATCH.out = fast.recording(games, players)
        _SCRATCH.path = np.zeros(games * 400 + 8192, np.int64)  # grown if a chunk needs more
    return _SCRATCH.out, _SCRATCH.path


def _grown_path(path: np.ndarray) -> np.ndarray:
    """``path`` twice as long (kept for the next chunks of this thread)."""
    _SCRATCH.path = np.concatenate((path, np.zeros(len(path), np.int64)))
    return _SCRATCH.path


def _auctions(
    out: tuple[np.ndarray, ...],
    rounds: np.ndarray,
    numbers: np.ndarray,
    card_labels: tuple[str, ...],
    companies: Sequence[str],
) -> Columns:
    """Rows (game, round) for every auction: every round but the crash."""
    from mogul.games.mogul import fast_kernels

    count = int(rounds.sum()) - len(rounds)
    players = out[4].shape[3]
    game = np.empty(count, GAME)
    fields = np.empty((16, count), np.int16)
    seqs = np.empty((3, count * players), np.int16)
    _, credits, drops = fast_kernels.auction_rows(
        out[0], out[3], out[4], rounds, len(companies), numbers, game, fields, seqs
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
