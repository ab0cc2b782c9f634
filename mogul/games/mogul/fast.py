"""A batch simulator of classic Mogul: many games at once, compiled, checked against ``rules.py``.

``rules.py`` is the reference: readable, one helper per rulebook phase, about a thousand random
games a second. This module plays the same rules a hundred times faster, for Monte-Carlo
bots and analyses that need tens of thousands of games while a student waits:

    >>> from mogul.games.mogul import fast
    >>> result = fast.play_fresh(games=1000, players=4, bots="random", seed=1)
    >>> result.scores.shape, int(result.rounds.min()) >= 20
    ((1000, 4), True)

The compiled rules, bots and batch loops are in ``fast_kernels.py`` (a game's table is one
numpy record, ``TABLE``; actions and bots are small integers). This module is what Python
calls: it checks the edition and the bots, turns states into tables (``encode``) and back
into results (``BatchResult``). The first call in a fresh checkout compiles the kernels
(about 4 s); numba caches the machine code, so later processes load it in a fraction of a second.

What it covers: the classic (2002) edition, 3-6 players, from a fresh deal or from any
state (its hidden pile re-dealt as ``determinize`` does, or given). The quick start only
changes the deal, so states of a quick-start game are covered but fresh deals are not.
The Rio Grande (2013) edition, 3-5 players, is played by ``fast_rio`` (classic's kernels
where the rules are the same, its own for credit once per game, the sell-all-or-branch
right, houses on the map and the end bonuses): ``play_fresh``, ``play_states``,
``rollouts``, ``encode`` and ``pile_codes`` hand it over; ``check_edition`` accepts it when
asked with ``rio_grande=True``. Fresh games (``play_fresh``, and ``simulate``'s batch engine
in ``fast_batch``) draw from splitmix64 streams of their own, one per game for the deal and
one per seat for a random bot (``stream_seeds`` derives them from one seed): a seed gives
the same games again, other games than the readable engine deals from that seed. The
rollouts from a position draw from numpy's generator, seeded per call.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from mogul.games.mogul.actions import Action
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.editions import edition as load_edition
from mogul.games.mogul.fast_encode import (  # noqa: F401 - PHASES and action_code are part of the API
    PHASES,
    action_code,
    fill_table,
    new_tables,
)
from mogul.games.mogul.fast_encode import pile_codes as pile_codes_of
from mogul.games.mogul.fast_kernels import (  # noqa: F401 - the kernels are part of the API
    AUCTION_FIELDS,
    _play_branches,
    _play_tables,
    _seed,
    deal_hidden_pile,
    play_games,
)
from mogul.games.mogul.fast_table import (  # noqa: F401 - TABLE and its codes are part of the API
    COMPANIES,
    CRASH,
    MAX_SEATS,
    NO_ACTION,
    PILE,
    RANDOM,
    TABLE,
    THRESHOLD,
    VALUE,
)
from mogul.games.mogul.rules import GameState, PlayerView
from mogul.games.mogul.simple_bots import ThresholdBot, ValueBot
from mogul.kit import batch as kit_batch
from mogul.kit.bots import RandomBot

# --- from Python: editions, bots, states ------------------------------------------------------


def check_edition(ed: Edition | str, *, rio_grande: bool = False) -> Edition:
    """The edition if the fast simulator plays its rules; else a ``ValueError`` saying why.

    ``rio_grande=True``: the Rio Grande edition too (``play_fresh``, ``play_states``,
    ``rollouts``, ``simulate``'s batch engine); without it, the classic edition only.
    """
    ed = load_edition(ed)
    if rio_grande and ed.name == "rio-grande":
        from mogul.games.mogul import fast_rio

        if not fast_rio.plays(ed):
            raise ValueError(
                "the fast simulator plays the Rio Grande rules as printed; this data differs"
            )
        return ed
    if ed.name != "classic":
        raise ValueError(
            f"the fast simulator plays the classic edition only, not {ed.name!r}; "
            "use the readable engine (mogul.kit.bots.play_out) for it"
        )
    if ed.sale != "any number" or ed.credit_limit != "once per auction" or len(ed.cards) + 1 > PILE:
        raise ValueError(
            "the fast simulator plays the classic rules as printed; this classic edition data differs"
        )
    return ed


PLAYED = {
    "random": (RandomBot, RANDOM, "", 0.0),
    "threshold": (ThresholdBot, THRESHOLD, "drop_at", 3),
    "value": (ValueBot, VALUE, "chip_value", 1.0),
}
"""The bots the kernels play, by their names in ``bots.REGISTRY``: (class, kernel code,
the parameter the kernel takes and its default)."""


def bot_policy(spec: Any) -> tuple[int, float] | None:
    """``(kind, parameter)`` for a bot the fast simulator can play, else None.

    ``spec`` is a bot name (``"threshold:drop_at=2"``), class, factory or instance of
    ``RandomBot``, ``ThresholdBot`` or ``ValueBot``.
    """
    return kit_batch.bot_policy(spec, PLAYED)


def policies(bots: Any, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat bot kinds and parameters from one bot for every seat or one per seat."""
    return kit_batch.seat_policies(bots, players, PLAYED, MAX_SEATS, "fast simulator")


def encode(table: GameState | PlayerView) -> np.ndarray:
    """A state (or one seat's view) as a one-record ``TABLE`` array.

    A ``GameState`` keeps its pile as it lies. A ``PlayerView`` has no pile: its unseen shares
    are put in sorted order with the crash card last, to be re-dealt (``deal_hidden_pile``).
    A Rio Grande table is a ``fast_rio.RIO_TABLE`` record.
    """
    ed = check_edition(table.edition, rio_grande=True)
    if ed.name == "rio-grande":
        from mogul.games.mogul import fast_rio

        return fast_rio.encode(table)
    out = new_tables(ed, 1, len(table.players))
    fill_table(out[0], table, PILE)
    return out


# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchResult:
    """Final tables of a batch of games, as arrays with one row per game (seat columns)."""

    tables: np.ndarray  # the final TABLE records

    @property
    def players(self) -> int:
        """Seats per game."""
        return int(self.tables["players"][0])

    def _seats(self, field: str) -> np.ndarray:
        return self.tables[field][:, : self.players]

    @property
    def points(self) -> np.ndarray:
        """Points per game and seat."""
        return self._seats("points")

    @property
    def chips(self) -> np.ndarray:
        """Chips per game and seat."""
        return self._seats("chips")

    @property
    def shares(self) -> np.ndarray:
        """Shares held at the end, per game and seat."""
        return self.tables["shares"][:, : self.players].sum(axis=2)

    @property
    def credits(self) -> np.ndarray:
        """Credits taken, per game and seat."""
        return self._seats("credits")

    @property
    def scores(self) -> np.ndarray:
        """Final scores: points + 1 per full 5 chips (+ the end bonuses in Rio Grande)."""
        scores = self.points + self.chips // self.tables["chips_per_point"][:, None]
        if "end_bonus" in self.tables.dtype.names:
            scores = scores + self._seats("end_bonus")
        return scores

    @property
    def houses(self) -> np.ndarray:
        """Rio Grande: houses on the map at the end, per game and seat."""
        return self._seats("house_count")

    @property
    def rounds(self) -> np.ndarray:
        """Cards revealed per game, the crash included."""
        return self.tables["round"]

    @property
    def bids(self) -> np.ndarray:
        """Chips bid per game."""
        return self.tables["bids"]

    @property
    def ranks(self) -> np.ndarray:
        """1 = best, by score then shares held (rules.standings); tied seats share a rank."""
        keys = self.scores * 100 + self.shares
        return 1 + (keys[:, None, :] > keys[:, :, None]).sum(axis=2)


def play_fresh(
    games: int,
    players: int = 4,
    bots: Any = "random",
    seed: int = 0,
    edition: str | Edition = "classic",
) -> BatchResult:
    """Deal ``games`` fresh games and let ``bots`` play them to the crash.

    ``bots``: one of "random", "threshold[:drop_at=k]", "value[:chip_value=x]" (or their
    classes) for every seat, or one per seat. ``edition="rio-grande"`` deals by its setup card.
    """
    ed = check_edition(edition, rio_grande=True)
    if not ed.min_players <= players <= ed.max_players:
        raise ValueError(
            f"the {ed.name} edition is for {ed.min_players} to {ed.max_players} players; got {players}"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {games!r}")
    kinds, params = policies(bots, players)
    seeds, bot_seeds = stream_seeds(seed, games, players)
    if ed.name == "rio-grande":
        from mogul.games.mogul import fast_rio

        return BatchResult(fast_rio.play_fresh(ed, kinds, params, seeds, bot_seeds))
    tables = new_tables(ed, games, players)
    play_games(tables, boxes(ed), seeds, bot_seeds, kinds, params, 0, *NO_RECORD, 0, *NO_LOG)
    return BatchResult(tables)


def boxes(ed: Edition) -> tuple[np.ndarray, ...]:
    """The classic box for ``fast_kernels.play_games``: each card's company, border and S mark
    (codes), and (chips in the box, chips per player)."""
    companies = ed.company_ids
    return (
        np.array([companies.index(c.company) for c in ed.cards], np.int64),
        np.array([companies.index(c.border) for c in ed.cards], np.int64),
        np.array([c.starting for c in ed.cards], np.int64),
        np.array([ed.chips_total, ed.chips_per_player], np.int64),
    )


def recording(games: int, players: int) -> tuple[np.ndarray, ...]:
    """Zeroed arrays ``play_games`` records ``games`` classic games into (its ``out``): each
    round's card, the market values, every seat's points, chips and shares, the auctions, and
    the chips bid, credit seats and drop seats of each auction."""
    return (
        np.zeros((games, PILE, 2), np.int64),
        np.zeros((games, PILE, COMPANIES), np.int16),
        np.zeros((games, PILE, players, 2 + COMPANIES), np.int16),
        np.zeros((games, PILE, AUCTION_FIELDS), np.int64),
        np.zeros((games, PILE, 3, players), np.int16),
    )


NO_RECORD = (recording(0, 1), np.zeros(0, np.int64))
"""``play_games``' ``out`` and ``path`` when no rounds or auctions are recorded."""
NO_LOG = (np.zeros(0, np.int64), np.zeros(0, TABLE))
"""``play_games``' ``log`` and ``dealt`` when no game is written down."""

GOLDEN, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def stream_seeds(seed: int, games: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Seeds for ``games`` games from one whole number: (deal seeds (games,), bot seeds
    (games, players)), non-negative 63-bit numbers drawn from a splitmix64 sequence."""
    count = games * (1 + players)
    with np.errstate(over="ignore"):
        z = np.uint64(seed % 2**64) + np.uint64(GOLDEN) * np.arange(1, count + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
        z ^= z >> np.uint64(31)
    words = (z >> np.uint64(1)).astype(np.int64).reshape(games, 1 + players)
    return np.ascontiguousarray(words[:, 0]), np.ascontiguousarray(words[:, 1:])


def play_states(states: Sequence[GameState], bots: Any = "random", seed: int = 0) -> BatchResult:
    """Play each state (its pile as it lies) to the crash with ``bots``; all with as many seats."""
    if not states:
        raise ValueError("give at least one state")
    players = len(states[0].players)
    if any(len(s.players) != players for s in states):
        raise ValueError("all states must have the same number of players")
    editions = {check_edition(s.edition, rio_grande=True).name for s in states}
    if len(editions) > 1:
        raise ValueError("all states must be of the same edition")
    if editions == {"rio-grande"}:
        from mogul.games.mogul import fast_rio

        kinds, params = policies(bots, players)
        return BatchResult(fast_rio.play_states(states, kinds, params, seed))
    tables = np.concatenate([encode(s) for s in states])
    kinds, params = policies(bots, players)
    _play_tables(tables, kinds, params, seed)
    return BatchResult(tables)


def rollouts(
    table: GameState | PlayerView,
    first: Sequence[Action | None] = (None,),
    rollouts: int = 1000,
    bots: Any = "random",
    seed: int = 0,
    settle: Sequence[tuple[int, int] | None] | None = None,
    piles: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Final scores and ranking keys of ``rollouts`` games per branch from ``table``.

    Each rollout deals one hidden pile consistent with the table (or takes ``piles[r]``, an
    array (rollouts, 2, PILE) of company and border codes; Rio Grande's: ``RIO_PILE``) and
    plays every branch on it: the table, settled as ``settle[b] = (winner, runner_up)`` if
    given, then the action ``first[b]`` if not None, then ``bots`` to the crash. Returns two
    arrays of shape (rollouts, branches, players): scores and keys (higher key = better rank).
    """
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be a whole number >= 1, got {rollouts!r}")
    players = len(table.players)
    kinds, params = policies(bots, players)
    settle = [None] * len(first) if settle is None else list(settle)
    if len(settle) != len(first):
        raise ValueError("give one settle entry per branch")
    start, slots, code, play_branches = encode(table), PILE, action_code, _play_branches
    if table.edition.name == "rio-grande":
        from mogul.games.mogul import fast_rio

        slots, play_branches = fast_rio.RIO_PILE, fast_rio._play_branches
        code = partial(fast_rio.action_code, ed=table.edition)
    starts = np.repeat(start, len(first))
    codes = np.array([NO_ACTION if a is None else code(a) for a in first], np.int64)
    settled = np.array([(-1, -1) if s is None else s for s in settle], np.int64).reshape(
        len(first), 2
    )
    given = np.zeros((0, 2, slots), np.int64) if piles is None else np.asarray(piles, np.int64)
    if piles is not None and given.shape != (rollouts, 2, slots):
        raise ValueError(f"piles must have shape ({rollouts}, 2, {slots}), got {given.shape}")
    scores = np.zeros((rollouts, len(first), players), np.int64)
    keys = np.zeros_like(scores)
    play_branches(starts, codes, settled, given, kinds, params, seed, scores, keys)
    return scores, keys


def pile_codes(state: GameState) -> np.ndarray:
    """The pile of a full state as (2, PILE) company and border codes (for ``rollouts(piles=)``);
    Rio Grande's: (2, ``fast_rio_table.RIO_PILE``)."""
    if state.edition.name == "rio-grande":
        from mogul.games.mogul import fast_rio

        return pile_codes_of(state, fast_rio.RIO_PILE)
    return pile_codes_of(state, PILE)


def new_seed(rng: random.Random) -> int:
    """A seed for numba's generator drawn from a Python generator."""
    return rng.getrandbits(31)
