"""The box: companies, dice, goods pawns, track markers and stock, read from ``data/credit-mobilier``.

Facts the rulebook gives (four railroads and the Credit Mobilier, five dice, $3 and one purple
share per player) and facts modeled where it is silent (dice faces, pawns and markers per
colour, an unlimited stock) all live in ``components.json``; each modeled field is marked
``"modeled": true`` there, so an owner of the printed game can correct it without code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from mogul.kit.data import data_path

RAILROADS = ("red", "yellow", "green", "blue")
"""The four railroad companies: they own goods pawns, track and a treasury."""
CREDIT_MOBILIER = "purple"
"""The construction company: paid for every section of track; its die colour is also wild."""
COMPANIES = (*RAILROADS, CREDIT_MOBILIER)
"""Every company with stock and a treasury, in the kit's order."""
WILD = "purple"
"""The die colour that may stand for any railroad colour rolled (never for orange)."""
DIVIDENDS = "orange"
"""The die colour that allows paying dividends."""


@dataclass(frozen=True)
class Company:
    """One company: its colour word (``id``), a name, a screen colour and its kind."""

    id: str
    name: str
    colour: str
    kind: str


@dataclass(frozen=True)
class Components:
    """What is in the box and how a game starts (see ``components.json``)."""

    min_players: int
    max_players: int
    companies: tuple[Company, ...]
    dice_count: int
    dice_faces: tuple[str, ...]
    goods_per_colour: int
    track_per_colour: int
    stock_per_company: int | None  # None: unlimited
    start_money: int
    start_stock: tuple[tuple[str, int], ...]

    def company(self, colour: str) -> Company:
        """The company of ``colour``; ``ValueError`` names the companies."""
        for c in self.companies:
            if c.id == colour:
                return c
        raise ValueError(f"no company {colour!r}; the companies are {', '.join(COMPANIES)}")


@cache
def components() -> Components:
    """The components of the box, read once from ``data/credit-mobilier/components.json``."""
    raw = json.loads(data_path("credit-mobilier", "components.json").read_text(encoding="utf-8"))
    companies = tuple(Company(c["id"], c["name"], c["colour"], c["kind"]) for c in raw["companies"])
    if tuple(c.id for c in companies) != COMPANIES:
        raise ValueError(
            f"components.json must list the companies {COMPANIES}, got {[c.id for c in companies]}"
        )
    faces = tuple(raw["dice"]["faces"])
    if sorted(faces) != sorted((*COMPANIES, DIVIDENDS)):
        raise ValueError(
            f"components.json: the dice faces must be the colours {(*COMPANIES, DIVIDENDS)}, got {faces}"
        )
    if tuple(raw["goods"]["colours"]) != RAILROADS:
        raise ValueError(f"components.json: goods come in the railroad colours {RAILROADS}")
    cap = raw["stock"]["per_company"]
    return Components(
        min_players=raw["players"]["min"],
        max_players=raw["players"]["max"],
        companies=companies,
        dice_count=raw["dice"]["count"],
        dice_faces=faces,
        goods_per_colour=raw["goods"]["per_colour"],
        track_per_colour=raw["track_markers"]["per_colour"],
        stock_per_company=None if cap is None else int(cap),
        start_money=raw["start"]["money"],
        start_stock=tuple(raw["start"]["stock"].items()),
    )
