"""Rio Grande (2013) Mogul in the batch simulator: its states as tables, and its batch loops.

``mogul.games.mogul.fast`` is the one door: its ``play_fresh``, ``play_states`` and
``encode`` hand a Rio Grande game to the functions here, which read the edition's data (the
pile, the setup card, credit, houses, the map, the end bonuses) into ``RIO_TABLE`` records
and run ``fast_rio_kernels`` on them; its ``rollouts`` takes the action codes
(``action_code``) and the rollout kernel from here. The bots come in as the kernel
codes ``fast.policies`` makes (random, threshold, value).

    >>> import mogul
    >>> from mogul.games.mogul import fast
    >>> result = fast.play_fresh(1000, 4, "value", seed=1, edition="rio-grande")
    >>> bool((result.scores >= result.points).all())  # the end bonuses count
    True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mogul.games.mogul.actions import BID, CREDIT, DROP, TAKE, Action, Branch, Sell
from mogul.games.mogul.cards import parse_card
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.fast_encode import action_code as classic_action_code
from mogul.games.mogul.fast_encode import fill_table, new_tables
from mogul.games.mogul.fast_rio_kernels import (  # noqa: F401 - fast.rollouts plays branches here
    _play_branches,
    _play_tables,
    legal_codes,
    play_games,
)
from mogul.games.mogul.fast_rio_table import (
    BRANCH,
    MAX_HOUSES,
    MAX_LINE,
    MAX_STATIONS,
    NO_STATION,
    RIO_PILE,
    RIO_TABLE,
    branch_code,
    branch_of,
)
from mogul.games.mogul.fast_table import BID as BID_CODE
from mogul.games.mogul.fast_table import COMPANIES, MAX_SEATS, SELL
from mogul.games.mogul.fast_table import CREDIT as CREDIT_CODE
from mogul.games.mogul.fast_table import DROP as DROP_CODE
from mogul.games.mogul.fast_table import TAKE as TAKE_CODE
from mogul.games.mogul.rules import GameState, PlayerView


def plays(ed: Edition) -> bool:
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


def empty_tables(ed: Edition, count: int, players: int) -> np.ndarray:
    """``count`` tables of ``players`` seats holding the edition's numbers and its map."""
    tables = new_tables(ed, count, players, RIO_TABLE)
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
    """A Rio Grande state (or one seat's view) as a one-record ``RIO_TABLE`` array; a view's
    unseen shares are put in sorted order with the crash card last, to be re-dealt."""
    ed = table.edition
    stations = {sid: i for i, sid in enumerate(ed.stations)}
    out = empty_tables(ed, 1, len(table.players))
    t = out[0]
    fill_table(t, table, RIO_PILE)
    for seat, p in enumerate(table.players):
        t["house_count"][seat] = len(p.houses)
        for k, station in enumerate(p.houses):
            t["houses"][seat, k] = stations[station]
            t["owner"][stations[station]] = seat
    return out


def action_code(action: Action, ed: Edition) -> int:
    """An action's number in the Rio Grande kernels (a branch: ``branch_code``)."""
    if type(action) is Branch:
        stations = list(ed.stations)
        if action.station not in ed.stations or (
            action.move_from is not None and action.move_from not in ed.stations
        ):
            raise ValueError(f"{action} names a station that is not on the map")
        old = NO_STATION if action.move_from is None else stations.index(action.move_from)
        return branch_code(stations.index(action.station), old)
    return classic_action_code(action)


def action_of(code: int, ed: Edition) -> Action:
    """The action a kernel code stands for (the inverse of ``action_code``)."""
    if code >= BRANCH:
        stations = list(ed.stations)
        station, old = branch_of(code)
        return Branch(stations[station], None if old == NO_STATION else stations[old])
    if code >= SELL:
        return Sell(code - SELL)
    return {BID_CODE: BID, DROP_CODE: DROP, CREDIT_CODE: CREDIT, TAKE_CODE: TAKE}[code]


def legal_actions(table: GameState | PlayerView) -> list[Action]:
    """The legal actions as the kernels see them (for checking them against ``rules.py``)."""
    return [action_of(int(c), table.edition) for c in legal_codes(encode(table)[0])]


def box(ed: Edition, players: int) -> tuple[np.ndarray, ...]:
    """The 2013 box for ``fast_rio_kernels.play_games``: the pile's companies and borders (the
    box less the setup card's shares), the setup card's companies by position, and (chips in
    the box, chips per player)."""
    companies = ed.company_ids
    pile = list(ed.cards)
    card = [[parse_card(text, companies) for text in hand] for hand in ed.setup_card[players]]
    hands = np.array([[companies.index(c) for c, _ in hand] for hand in card], np.int64)
    for hand in card:  # the setup card's shares are set aside from the box
        for share in hand:
            pile.remove(next(c for c in pile if (c.company, c.border) == share))
    return (
        np.array([companies.index(c.company) for c in pile], np.int64),
        np.array([companies.index(c.border) for c in pile], np.int64),
        hands,
        np.array([ed.chips_total, ed.chips_per_player], np.int64),
    )


def play_fresh(
    ed: Edition, kinds: np.ndarray, params: np.ndarray, seeds: np.ndarray, bot_seeds: np.ndarray
) -> np.ndarray:
    """Fresh deals by the 2013 setup card, one per row of ``seeds`` and ``bot_seeds`` (the
    games' streams), played to the crash: the final tables."""
    tables = empty_tables(ed, *bot_seeds.shape)
    play_games(tables, box(ed, bot_seeds.shape[1]), seeds, bot_seeds, kinds, params, *NO_LOG)
    return tables


NO_LOG = (np.zeros(0, np.int64), np.zeros(0, RIO_TABLE))
"""``play_games``' ``log`` and ``dealt`` when no game is written down."""


def play_states(
    states: Sequence[GameState], kinds: np.ndarray, params: np.ndarray, seed: int
) -> np.ndarray:
    """Each state (its pile as it lies) played to the crash: the final tables."""
    tables = np.concatenate([encode(s) for s in states])
    _play_tables(tables, kinds, params, seed)
    return tables
