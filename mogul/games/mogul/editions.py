"""Editions: the rule options and components of one printing, loaded from ``data/editions``.

Rules are code (``mogul.games.mogul.rules``); the facts that differ between printings (cards, chips,
player range, crash placement, credit size, the 2013 setup card and railway map) are data, so a
user who owns a different printing can correct a JSON file without touching code. Facts no
rulebook prints are marked ``"modeled": true`` in the file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, get_args

from mogul.games.mogul.cards import Card
from mogul.kit.data import data_path

# Edition name -> data file. Aliases let people type either the short or the long name.
EDITION_FILES = {
    "classic": "classic-2002.json",
    "classic-2002": "classic-2002.json",
    "rio-grande": "rio-grande-2013.json",
    "rio-grande-2013": "rio-grande-2013.json",
}


CreditLimit = Literal["once per auction", "once per game"]
SaleRule = Literal["any number", "all or none"]


@dataclass(frozen=True)
class Company:
    """A railroad company: its colour id (used in card notation), printed name and plot colour."""

    id: str
    name: str
    colour: str


class Station(NamedTuple):
    """A station of the 2013 railway map: its id, the lines (companies) it lies on, a drawing place.

    An interchange lies on two lines. ``x`` and ``y`` only place the station in a drawing.
    """

    id: str
    lines: tuple[str, ...]
    x: float
    y: float


_EMPTY: Mapping[Any, Any] = MappingProxyType({})


@dataclass(frozen=True, eq=False)
class Edition:
    """One rule system's facts. Editions are compared by identity; load them with ``edition()``."""

    name: str
    title: str
    min_players: int
    max_players: int
    chips_total: int
    chips_per_player: int
    chips_per_point: int
    score_track: int
    crash_shuffled_into_last: int
    credit_chips: int
    credit_points: int
    credit_limit: CreditLimit
    sale: SaleRule
    companies: tuple[Company, ...]
    cards: tuple[Card, ...]
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))  # read-only
    # End bonuses (2013): points per share still held; whether branches score.
    share_bonus: int = 0
    branch_bonus: bool = False
    # 2013: houses each player may place as branches, the map, and the setup card
    # (player count -> the starting shares of each position, counted from the start player).
    houses_per_player: int = 0
    stations: Mapping[str, Station] = field(default_factory=lambda: _EMPTY)
    lines: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _EMPTY)
    setup_card: Mapping[int, tuple[tuple[str, ...], ...]] = field(default_factory=lambda: _EMPTY)

    @cached_property  # asked for every card dealt: worked out once per edition
    def company_ids(self) -> tuple[str, ...]:
        """Company colour ids in the edition's order (the order of every per-company table)."""
        return tuple(c.id for c in self.companies)

    def company(self, company_id: str) -> Company:
        """The company with this colour id."""
        for c in self.companies:
            if c.id == company_id:
                return c
        raise KeyError(company_id)

    def colours(self) -> dict[str, str]:
        """Plot colour per company id."""
        return {c.id: c.colour for c in self.companies}

    def __repr__(self) -> str:
        return f"Edition({self.name!r})"

    # An edition is a shared constant: copies and pickles are the loaded edition itself.
    def __reduce__(self) -> tuple[Any, ...]:
        return (edition, (self.name,))

    def __copy__(self) -> Edition:
        return self

    def __deepcopy__(self, memo: dict) -> Edition:
        return self


def _from_json(raw: dict[str, Any]) -> Edition:
    companies = tuple(Company(c["id"], c["name"], c["colour"]) for c in raw["companies"])
    ids = {c.id for c in companies}
    cards = []
    for c in raw["cards"]:
        if c["company"] not in ids or c["border"] not in ids:
            raise ValueError(f"edition {raw['name']!r}: card {c} names an unknown company")
        cards.append(Card(c["company"], c["border"], bool(c.get("starting", False))))
    for key, allowed in (("limit", CreditLimit), ("sale", SaleRule)):
        value = raw["credit"]["limit"] if key == "limit" else raw["sale"]
        if value not in get_args(allowed):
            raise ValueError(
                f"edition {raw['name']!r}: {key} must be one of {get_args(allowed)}, got {value!r}"
            )
    end_bonus = raw.get("end_bonus", {})
    stations, lines = _map(raw, ids)
    return Edition(
        name=raw["name"],
        title=raw["title"],
        min_players=raw["players"]["min"],
        max_players=raw["players"]["max"],
        chips_total=raw["chips"]["total"],
        chips_per_player=raw["chips"]["per_player"],
        chips_per_point=raw["chips"]["per_point_at_end"],
        score_track=_value(raw["score_track"], "spaces"),
        crash_shuffled_into_last=raw["crash"]["shuffled_into_last"],
        credit_chips=raw["credit"]["chips"],
        credit_points=raw["credit"]["points"],
        credit_limit=raw["credit"]["limit"],
        sale=raw["sale"],
        companies=companies,
        cards=tuple(cards),
        options=_frozen(raw.get("options", {})),
        share_bonus=end_bonus.get("per_share", 0),
        branch_bonus=bool(end_bonus.get("branches", False)),
        houses_per_player=raw.get("houses", {}).get("per_player", 0),
        stations=stations,
        lines=lines,
        setup_card=_setup_card(raw),
    )


def _value(entry: Any, key: str) -> Any:
    """A plain value, or the ``key`` of a ``{key: value, "modeled": true, ...}`` entry."""
    return entry[key] if isinstance(entry, dict) else entry


def _map(
    raw: dict[str, Any], companies: set[str]
) -> tuple[Mapping[str, Station], Mapping[str, tuple[str, ...]]]:
    """The stations and lines of the railway map, checked against each other."""
    if "map" not in raw:
        return _EMPTY, _EMPTY
    where = f"edition {raw['name']!r} map"
    stations: dict[str, Station] = {}
    for s in raw["map"]["stations"]:
        if s["id"] in stations:
            raise ValueError(f"{where}: station {s['id']!r} is listed twice")
        stations[s["id"]] = Station(s["id"], tuple(s["lines"]), float(s["x"]), float(s["y"]))
    lines = {company: tuple(ids) for company, ids in raw["map"]["lines"].items()}
    for company, ids in lines.items():
        if company not in companies:
            raise ValueError(f"{where}: line {company!r} is not a company")
        for sid in ids:
            if sid not in stations or company not in stations[sid].lines:
                raise ValueError(
                    f"{where}: line {company!r} runs through {sid!r}, which does not list that line"
                )
    for station in stations.values():
        for company in station.lines:
            if station.id not in lines.get(company, ()):
                raise ValueError(
                    f"{where}: station {station.id!r} lists line {company!r}, which does not run through it"
                )
    return MappingProxyType(stations), MappingProxyType(lines)


def _setup_card(raw: dict[str, Any]) -> Mapping[int, tuple[tuple[str, ...], ...]]:
    """The setup card: for each player count, the starting shares of each position."""
    if "setup_card" not in raw:
        return _EMPTY
    card = {}
    for count, positions in raw["setup_card"]["by_players"].items():
        n = int(count)
        if len(positions) != n:
            raise ValueError(
                f"edition {raw['name']!r} setup card: {n} players need {n} positions, got {len(positions)}"
            )
        card[n] = tuple(tuple(hand) for hand in positions)
    return MappingProxyType(card)


def _frozen(value: Any) -> Any:
    """Read-only copies of nested dicts and lists: editions are shared by every game."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def edition(name: str | Edition) -> Edition:
    """Load an edition by name (``"classic"``); raises ``ValueError`` listing the known names."""
    if isinstance(name, Edition):
        return name
    if not isinstance(name, str) or name.lower() not in EDITION_FILES:
        known = ", ".join(sorted(EDITION_FILES))
        raise ValueError(f"unknown edition {name!r}; known editions: {known}")
    return _load(EDITION_FILES[name.lower()])


@cache
def _load(filename: str) -> Edition:
    with open(data_path("editions", filename), encoding="utf-8") as f:
        return _from_json(json.load(f))
