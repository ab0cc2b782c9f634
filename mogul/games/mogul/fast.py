"""A batch simulator of Mogul: many games at once, compiled, checked against ``rules.py``.

``rules.py`` is the reference: readable, one helper per rulebook phase, about a thousand random
games a second. This module plays the same rules a hundred times faster, for Monte-Carlo
bots and analyses that need tens of thousands of games while a student waits:

    >>> from mogul.games.mogul import fast
    >>> result = fast.play_fresh(games=1000, players=4, bots="random", seed=1)
    >>> result.scores.shape, int(result.rounds.min()) >= 20
    ((1000, 4), True)

The compiled rules, bots and play loops are in ``fast_kernels.py`` (classic) and
``fast_rio_kernels.py`` (what Rio Grande does otherwise); a game's table is one numpy
record (``fast_table.TABLE``, ``RIO_TABLE``), actions and bots are small integers. This
module is what Python calls: it checks the edition and the bots, turns states into tables
(``encode``) and back into results (``BatchResult``). ``simulate``'s batch engine is
``fast_batch``. The first call in a fresh checkout compiles the kernels (about 4 s); numba
caches the machine code, so later processes load it in a fraction of a second.

What it covers: the classic (2002) edition, 3-6 players, from a fresh deal or from any
state (its hidden pile re-dealt as ``determinize`` does, or given). The quick start only
changes the deal, so states of a quick-start game are covered but fresh deals are not.
The Rio Grande (2013) edition, 3-5 players (classic's kernels where the rules are the same,
its own for credit once per game, the sell-all-or-branch right, houses on the map, the end
bonuses and the deal by the setup card): every function takes it; ``check_edition`` accepts
it when asked with ``rio_grande=True``.

    >>> result = fast.play_fresh(1000, 4, "value", seed=1, edition="rio-grande")
    >>> bool((result.scores >= result.points).all())  # the end bonuses count
    True

Fresh games (``play_fresh``, and ``simulate``'s batch engine) draw from splitmix64 streams
of their own, one per game for the deal and one per seat for a random bot (``stream_seeds``
derives them from one seed): a seed gives the same games again, other games than the
readable engine deals from that seed. The rollouts from a position draw from numpy's
generator, seeded per call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from mogul.games.mogul import fast_kernels, fast_rio_kernels
from mogul.games.mogul.actions import BID, CREDIT, DROP, TAKE, Action, Branch, Sell
from mogul.games.mogul.cards import parse_card
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.editions import edition as load_edition
from mogul.games.mogul.fast_kernels import (  # noqa: F401 - the kernels are part of the API
    AUCTION_FIELDS,
    _seed,
    deal_hidden_pile,
)
from mogul.games.mogul.fast_table import (  # noqa: F401 - TABLE and its codes are part of the API
    AUCTION,
    BRANCH,
    COMPANIES,
    CRASH,
    MAX_HOUSES,
    MAX_LINE,
    MAX_SEATS,
    MAX_STATIONS,
    NO_ACTION,
    NO_STATION,
    OVER,
    PILE,
    RANDOM,
    RIO_PILE,
    RIO_TABLE,
    RUNNER_UP,
    SELL,
    TABLE,
    THRESHOLD,
    VALUE,
    WINNER,
    branch_code,
    branch_of,
)
from mogul.games.mogul.fast_table import BID as BID_CODE
from mogul.games.mogul.fast_table import CREDIT as CREDIT_CODE
from mogul.games.mogul.fast_table import DROP as DROP_CODE
from mogul.games.mogul.fast_table import TAKE as TAKE_CODE
from mogul.games.mogul.rules import AUCTION as AUCTION_PHASE
from mogul.games.mogul.rules import OVER as OVER_PHASE
from mogul.games.mogul.rules import RUNNER_UP as RUNNER_UP_PHASE
from mogul.games.mogul.rules import WINNER as WINNER_PHASE
from mogul.games.mogul.rules import GameState, PlayerView
from mogul.games.mogul.simple_bots import ThresholdBot, ValueBot
from mogul.kit import batch as kit_batch
from mogul.kit.batch import seed_stream
from mogul.kit.bots import RandomBot, whole_number

# --- editions, bots --------------------------------------------------------------------------


def check_edition(ed: Edition | str, *, rio_grande: bool = False) -> Edition:
    """The edition if the fast simulator plays its rules; else a ``ValueError`` saying why.

    ``rio_grande=True``: the Rio Grande edition too; without it, the classic edition only.
    """
    ed = load_edition(ed)
    if rio_grande and ed.name == "rio-grande":
        if not plays_rio_grande(ed):
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


def plays_rio_grande(ed: Edition) -> bool:
    """True for an edition with the 2013 rules this module plays (Rio Grande's data fits)."""
    return (
        ed.name == "rio-grande"
        and ed.sale == "all or none"
        and ed.credit_limit == "once per game"
        and len(ed.cards) + 1 <= RIO_PILE
        and len(ed.cards) + SELL < BRANCH
        and 0 < ed.houses_per_player <= MAX_HOUSES
        and len(ed.stations) <= MAX_STATIONS
        and ed.max_players <= MAX_SEATS
        and all(len(s.lines) <= 2 for s in ed.stations.values())
        and all(len(line) <= MAX_LINE for line in ed.lines.values())
        and len(ed.company_ids) == COMPANIES
    )


def kernels(ed: Edition) -> ModuleType:
    """The edition's compiled module: ``fast_rio_kernels`` for Rio Grande, else ``fast_kernels``
    (each has ``_play_games``, ``_play_tables`` and ``_play_branches``)."""
    return fast_rio_kernels if ed.name == "rio-grande" else fast_kernels


def pile_slots(ed: Edition) -> int:
    """Cards a table's pile has room for: ``RIO_PILE`` in Rio Grande, else ``PILE``."""
    return RIO_PILE if ed.name == "rio-grande" else PILE


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


# --- states as tables and actions as codes ----------------------------------------------------

PHASES = {
    AUCTION_PHASE: AUCTION,
    WINNER_PHASE: WINNER,
    RUNNER_UP_PHASE: RUNNER_UP,
    OVER_PHASE: OVER,
}
"""The state's phase names as the kernels' phase codes."""


def new_tables(ed: Edition, count: int, players: int) -> np.ndarray:
    """``count`` empty tables of ``players`` seats holding the edition's numbers (and, in Rio
    Grande, its map: a ``RIO_TABLE``)."""
    rio = ed.name == "rio-grande"
    tables = np.zeros(count, RIO_TABLE if rio else TABLE)
    tables["players"] = players
    tables["credit_chips"] = ed.credit_chips
    tables["credit_points"] = ed.credit_points
    tables["chips_per_point"] = ed.chips_per_point
    tables["crash_window"] = ed.crash_shuffled_into_last + 1
    if not rio:
        return tables
    tables["houses_per_player"] = ed.houses_per_player
    tables["share_bonus"] = ed.share_bonus
    tables["branch_bonus"] = ed.branch_bonus
    stations = list(ed.stations)
    companies = ed.company_ids
    tables["stations"] = len(stations)
    station_lines = np.full((MAX_STATIONS, 2), -1, np.int64)
    for i, sid in enumerate(stations):
        for k, line in enumerate(ed.stations[sid].lines):
            station_lines[i, k] = companies.index(line)
    line_stations = np.full((COMPANIES, MAX_LINE), -1, np.int64)
    for line, ids in ed.lines.items():
        line_stations[companies.index(line), : len(ids)] = [stations.index(s) for s in ids]
    tables["station_lines"] = station_lines
    tables["line_stations"] = line_stations
    tables["line_length"] = (line_stations >= 0).sum(axis=1)
    tables["owner"] = NO_STATION
    tables["houses"] = NO_STATION
    return tables


def encode(table: GameState | PlayerView) -> np.ndarray:
    """A state (or one seat's view) as a one-record ``TABLE`` array (Rio Grande: ``RIO_TABLE``).

    A ``GameState`` keeps its pile as it lies. A ``PlayerView`` has no pile: its unseen shares
    are put in sorted order with the crash card last, to be re-dealt (``deal_hidden_pile``).
    The pile sits at the end of the table's pile arrays.
    """
    ed = check_edition(table.edition, rio_grande=True)
    if table.phase == OVER_PHASE:
        raise ValueError("the game is over: there is nothing left to play")
    out = new_tables(ed, 1, len(table.players))
    t = out[0]
    index = {c: i for i, c in enumerate(ed.company_ids)}
    for seat, p in enumerate(table.players):
        t["chips"][seat], t["points"][seat], t["credits"][seat] = p.chips, p.points, p.credits
        t["shares"][seat, :COMPANIES] = p.shares.counts
    t["bank"] = table.bank
    pile = table.deck if isinstance(table, GameState) else (*table.unseen, None)
    slots = pile_slots(ed)
    top = slots - len(pile)
    for i, card in enumerate(pile):
        crash = card is None or card.is_crash
        t["pile_company"][top + i] = CRASH if crash else index[card.company]
        t["pile_border"][top + i] = CRASH if crash else index[card.border]
    t["pile_size"], t["top"] = slots, top
    for card in table.unseen:
        t["unseen"][index[card.company]] += 1
    t["round"], t["phase"] = table.round, PHASES[table.phase]
    t["current"], t["start_player"], t["pot"] = table.current, table.start_player, table.pot
    t["company"], t["border"] = index[table.revealed.company], index[table.revealed.border]
    for seat in table.in_auction:
        t["in_auction"][seat] = 1
    for seat in table.credited:
        t["credited"][seat] = 1
    t["seats_in"] = len(table.in_auction)
    t["winner"] = -1 if table.winner is None else table.winner
    t["runner_up"] = -1 if table.runner_up is None else table.runner_up
    t["winner_took"] = table.winner_choice == "take"
    stations = {sid: i for i, sid in enumerate(ed.stations)}
    for seat, p in enumerate(table.players):  # Rio Grande's houses
        for k, station in enumerate(p.houses):
            t["houses"][seat, k] = stations[station]
            t["owner"][stations[station]] = seat
            t["house_count"][seat] = k + 1
    return out


def pile_codes(state: GameState) -> np.ndarray:
    """The pile of a full state as (2, ``pile_slots``) company and border codes, at the end
    (for ``rollouts(piles=)``)."""
    slots = pile_slots(state.edition)
    index = {c: i for i, c in enumerate(state.edition.company_ids)}
    out = np.full((2, slots), CRASH, np.int64)
    top = slots - len(state.deck)
    for i, card in enumerate(state.deck):
        if not card.is_crash:
            out[0, top + i], out[1, top + i] = index[card.company], index[card.border]
    return out


def action_code(action: Action, ed: Edition) -> int:
    """An action's number in the kernels: Sell(n) is SELL + n, a branch ``branch_code``."""
    if type(action) is Branch:
        stations = list(ed.stations)
        if action.station not in ed.stations or (
            action.move_from is not None and action.move_from not in ed.stations
        ):
            raise ValueError(f"{action} names a station that is not on the map")
        old = NO_STATION if action.move_from is None else stations.index(action.move_from)
        return branch_code(stations.index(action.station), old)
    codes = {BID: BID_CODE, DROP: DROP_CODE, CREDIT: CREDIT_CODE, TAKE: TAKE_CODE}
    if action in codes:
        return codes[action]
    if isinstance(action, Sell):
        return SELL + action.count
    raise ValueError(
        f"the fast simulator knows Bid, Drop, Credit, Take, Sell (and Branch in Rio Grande), "
        f"not {action!r}"
    )


def action_of(code: int, ed: Edition) -> Action:
    """The action a kernel code stands for (the inverse of ``action_code``)."""
    if code >= BRANCH:
        stations = list(ed.stations)
        station, old = branch_of(code)
        return Branch(stations[station], None if old == NO_STATION else stations[old])
    if code >= SELL:
        return Sell(code - SELL)
    return {BID_CODE: BID, DROP_CODE: DROP, CREDIT_CODE: CREDIT, TAKE_CODE: TAKE}[code]


def rio_legal_actions(table: GameState | PlayerView) -> list[Action]:
    """The legal actions as the kernels see them (for checking them against ``rules.py``)."""
    codes = fast_rio_kernels.legal_codes(encode(table)[0])
    return [action_of(int(c), table.edition) for c in codes]


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


# --- fresh games ----------------------------------------------------------------------------------


def box(ed: Edition, players: int) -> tuple[np.ndarray, ...]:
    """The box as the edition's ``deal`` kernel takes it, (chips in the box, chips per player)
    last. Classic: each card's company and border, the S cards and the others (card numbers).
    Rio Grande: the pile's companies and borders (the box less the setup card's shares) and
    the setup card's companies by position."""
    companies = ed.company_ids
    chips = np.array([ed.chips_total, ed.chips_per_player], np.int64)
    pile = list(ed.cards)
    if ed.name != "rio-grande":
        starting = np.array([c.starting for c in pile], bool)
        return (
            np.array([companies.index(c.company) for c in pile], np.int64),
            np.array([companies.index(c.border) for c in pile], np.int64),
            np.flatnonzero(starting),
            np.flatnonzero(~starting),
            chips,
        )
    card = [[parse_card(text, companies) for text in hand] for hand in ed.setup_card[players]]
    hands = np.array([[companies.index(c) for c, _ in hand] for hand in card], np.int64)
    for hand in card:  # the setup card's shares are set aside from the box
        for share in hand:
            pile.remove(next(c for c in pile if (c.company, c.border) == share))
    return (
        np.array([companies.index(c.company) for c in pile], np.int64),
        np.array([companies.index(c.border) for c in pile], np.int64),
        hands,
        chips,
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


NO_RECORD = recording(0, 1)
"""``play_games``' ``out`` when no rounds or auctions are recorded."""
NO_LOG = np.zeros(0, np.int64)
"""``play_games``' ``log`` and ``path`` when no actions or pots are written down."""


def play_games(
    ed: Edition,
    tables: np.ndarray,
    seeds: np.ndarray,
    bot_seeds: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    *,
    first: int = 0,
    out: tuple[np.ndarray, ...] = NO_RECORD,
    path: np.ndarray = NO_LOG,
    used: int = 0,
    log: np.ndarray = NO_LOG,
    dealt: np.ndarray | None = None,
) -> tuple[int, int]:
    """Deal and play ``tables`` (``new_tables``) from their seeds by the edition's rules, as
    ``fast_kernels.play_games`` says (its records, action log and dealt tables where given):
    returns (the first game not played, the length of ``path`` used)."""
    dealt = tables[:0] if dealt is None else dealt
    return kernels(ed)._play_games(
        tables, box(ed, bot_seeds.shape[1]), seeds, bot_seeds, kinds, params,
        first, out, path, used, log, dealt,
    )  # fmt: skip


def stream_seeds(seed: int, games: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Seeds for ``games`` games from one whole number: (deal seeds (games,), bot seeds
    (games, players)), in turn from ``seed``'s splitmix64 stream (``kit.batch.seed_stream``)."""
    words = seed_stream(seed, games * (1 + players)).reshape(games, 1 + players)
    return np.ascontiguousarray(words[:, 0]), np.ascontiguousarray(words[:, 1:])


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
    whole_number("games", games)
    kinds, params = policies(bots, players)
    seeds, bot_seeds = stream_seeds(seed, games, players)
    tables = new_tables(ed, games, players)
    play_games(ed, tables, seeds, bot_seeds, kinds, params)
    return BatchResult(tables)


# --- from a position ---------------------------------------------------------------------------


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
    tables = np.concatenate([encode(s) for s in states])
    kinds, params = policies(bots, players)
    kernels(states[0].edition)._play_tables(tables, kinds, params, seed)
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
    array (rollouts, 2, ``pile_slots``) of company and border codes) and plays every branch
    on it: the table, settled as ``settle[b] = (winner, runner_up)`` if given, then the action
    ``first[b]`` if not None, then ``bots`` to the crash. Returns two arrays of shape
    (rollouts, branches, players): scores and keys (higher key = better rank).
    """
    whole_number("rollouts", rollouts)
    ed, players = table.edition, len(table.players)
    kinds, params = policies(bots, players)
    settle = [None] * len(first) if settle is None else list(settle)
    if len(settle) != len(first):
        raise ValueError("give one settle entry per branch")
    starts = np.repeat(encode(table), len(first))
    codes = np.array([NO_ACTION if a is None else action_code(a, ed) for a in first], np.int64)
    settled = np.array([(-1, -1) if s is None else s for s in settle], np.int64).reshape(
        len(first), 2
    )
    slots = pile_slots(ed)
    given = np.zeros((0, 2, slots), np.int64) if piles is None else np.asarray(piles, np.int64)
    if piles is not None and given.shape != (rollouts, 2, slots):
        raise ValueError(f"piles must have shape ({rollouts}, 2, {slots}), got {given.shape}")
    scores = np.zeros((rollouts, len(first), players), np.int64)
    keys = np.zeros_like(scores)
    kernels(ed)._play_branches(starts, codes, settled, given, kinds, params, seed, scores, keys)
    return scores, keys
