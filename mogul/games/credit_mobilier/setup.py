"""Game preparation: dealing a game from a seed, or setting up a scripted teaching scenario.

With a seed the rulebook's set-up is followed, drawing chance in this order:

1. the goods pawns are drawn at random, one onto each square (the rest leave the game);
2. a start player is drawn;
3. the first player rolls the dice (every roll comes from the seed and the roll's number).

Each player starts with $3 and one Credit Mobilier (purple) share; treasuries start empty
and no track is built. A scripted setup replaces any part (``DESIGN.md``): ``dice`` (rolls
used in order before any random roll), ``money``, ``stocks`` (per player, company ->
shares), ``treasuries`` (company -> dollars), ``goods`` (space -> colour, or a list of
colours for several pawns), ``track`` (track space -> colour) and ``start_player``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from mogul.games.credit_mobilier.board import board, connected_spaces
from mogul.games.credit_mobilier.components import COMPANIES, RAILROADS, components
from mogul.games.credit_mobilier.dice import sort_roll
from mogul.games.credit_mobilier.events import GameStarted
from mogul.games.credit_mobilier.rules import (
    ByCompany,
    GameState,
    Setup,
    begin_turn,
    colours_outside_coast,
    goods_order,
)
from mogul.kit.checks import (
    as_list,
    is_count,
    is_text_list,
    is_whole,
    player_names,
    seat_number,
    setup_fields,
)

EDITION = "credit-mobilier"
"""The one rule system of the game (the 2013 Rio Grande rules)."""

DEFAULT_NAMES = ("Ann", "Ben", "Cai", "Dee", "Eli")
"""Player names when only a count is given: the kit's names, as in Mogul."""


def new_game(
    players: int | Sequence[str] = 4,
    seed: int | None = None,
    *,
    dice: Sequence[Sequence[str]] | None = None,
    money: Sequence[int] | None = None,
    stocks: Sequence[Mapping[str, int]] | None = None,
    treasuries: Mapping[str, int] | None = None,
    goods: Mapping[str, str | Sequence[str]] | None = None,
    track: Mapping[str, str] | None = None,
    start_player: int | None = None,
) -> GameState:
    """Deal a new game; the start player has rolled and is to act.

    ``players`` is a count (2 to 5) or a list of names. Anything not scripted is dealt from
    ``seed`` (a fresh seed is drawn and kept in ``state.setup`` when none is given), so the
    same seed and the same actions always give the same game.
    """
    names = _player_names(players)
    n = len(names)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if not is_whole(seed):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    setup = Setup(
        edition=EDITION,
        players=names,
        seed=seed,
        dice=None if dice is None else _rolls(dice),
        money=None if money is None else _money(money, n),
        stocks=None if stocks is None else _stocks(stocks, n),
        treasuries=None if treasuries is None else _treasuries(treasuries),
        goods=None if goods is None else _goods(goods),
        track=None if track is None else _track(track),
        start_player=None if start_player is None else seat_number(start_player, n),
    )
    return deal(setup)


def deal(setup: Setup) -> GameState:
    """Prepare the table described by ``setup`` (see the module docstring for the order)."""
    box = components()
    rng = random.Random(setup.seed)
    n = len(setup.players)
    if setup.goods is None:
        # 1. Draw the goods pawns at random, one per square; the rest leave the game.
        pawns = [c for c in RAILROADS for _ in range(box.goods_per_colour)]
        rng.shuffle(pawns)
        goods = tuple(zip(board().squares, pawns, strict=False))
    else:
        goods = setup.goods
    # 2. Choose a start player.
    start = rng.randrange(n) if setup.start_player is None else setup.start_player
    money = setup.money or (box.start_money,) * n
    if setup.stocks is None:
        stocks = (ByCompany(**dict(box.start_stock)),) * n
    else:
        stocks = tuple(ByCompany(**dict(s)) for s in setup.stocks)
    cap = box.stock_per_company
    if cap is not None:
        over = [c for c in COMPANIES if sum(s[c] for s in stocks) > cap]
        if over:
            raise ValueError(
                f"the scripted stocks hold more than the {cap} shares per company of the box: {over}"
            )
    table = GameState(
        setup=setup,
        money=money,
        stocks=stocks,
        treasuries=ByCompany(**dict(setup.treasuries or ())),
        goods=goods,
        track=setup.track or (),
        start_player=start,
        current=start,
        turn=0,
        dice=(),
        colour=None,
        kind=None,
        used=0,
        events=(),
    )
    counts = tuple(sum(1 for _, c in goods if c == colour) for colour in RAILROADS)
    # 3. The start player rolls.
    return begin_turn(table, start, [GameStarted(counts, money, start)])


# --- setups as JSON (for game records) --------------------------------------------------------


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """A setup as plain JSON data (null for "dealt from the seed")."""
    goods = None
    if setup.goods is not None:
        goods = {}
        for space, colour in setup.goods:
            goods.setdefault(space, []).append(colour)
        goods = {space: cs[0] if len(cs) == 1 else cs for space, cs in goods.items()}
    return {
        "edition": setup.edition,
        "players": list(setup.players),
        "seed": setup.seed,
        "dice": None if setup.dice is None else [list(r) for r in setup.dice],
        "money": None if setup.money is None else list(setup.money),
        "stocks": None if setup.stocks is None else [dict(s) for s in setup.stocks],
        "treasuries": None if setup.treasuries is None else dict(setup.treasuries),
        "goods": goods,
        "track": None if setup.track is None else dict(setup.track),
        "start_player": setup.start_player,
    }


def setup_from_json(raw: Mapping[str, Any]) -> Setup:
    """Read a setup from JSON data, checking every field; ``ValueError`` names the bad one."""
    kinds = {
        "dice": list,
        "money": list,
        "stocks": list,
        "treasuries": dict,
        "goods": dict,
        "track": dict,
        "start_player": int,
    }
    setup_fields(
        raw,
        Setup._fields,
        required={
            "edition": (lambda x: x == EDITION, repr(EDITION)),
            "players": (is_text_list, "a list of player names"),
            "seed": (is_whole, "a whole number"),
        },
        optional={
            key: (
                lambda x, kind=kind: isinstance(x, kind) and not isinstance(x, bool),
                f"null or a {kind.__name__}",
            )
            for key, kind in kinds.items()
        },
    )
    state = new_game(
        raw["players"],
        raw["seed"],
        dice=raw.get("dice"),
        money=raw.get("money"),
        stocks=raw.get("stocks"),
        treasuries=raw.get("treasuries"),
        goods=raw.get("goods"),
        track=raw.get("track"),
        start_player=raw.get("start_player"),
    )
    return state.setup


# --- checking scripted input -------------------------------------------------------------------


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    box = components()
    return player_names(players, box.min_players, box.max_players, DEFAULT_NAMES, "Credit Mobilier")


def _rolls(dice: object) -> tuple[tuple[str, ...], ...]:
    box = components()
    out = []
    for number, faces in enumerate(as_list(dice, "dice"), start=1):
        faces = as_list(faces, f"roll {number} of the scripted dice")
        if len(faces) != box.dice_count or not all(
            isinstance(f, str) and f in box.dice_faces for f in faces
        ):
            raise ValueError(
                f"roll {number} of the scripted dice must be {box.dice_count} colours of "
                f"{', '.join(box.dice_faces)}; got {faces!r}"
            )
        out.append(sort_roll(faces))
    return tuple(out)


def _money(money: object, n: int) -> tuple[int, ...]:
    money = as_list(money, "money")
    if len(money) != n or not all(is_count(m) for m in money):
        raise ValueError(
            f"money must be {n} whole numbers of dollars >= 0 (one per player), got {money!r}"
        )
    return tuple(money)


def _stocks(stocks: object, n: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    stocks = as_list(stocks, "stocks")
    if len(stocks) != n:
        raise ValueError(
            f"stocks needs one mapping (company -> shares) per player ({n}), got {len(stocks)}"
        )
    out = []
    for seat, held in enumerate(stocks):
        if not isinstance(held, Mapping):
            raise ValueError(
                f"stocks of player {seat} must map companies to shares, such as {{'red': 2}}; got {held!r}"
            )
        out.append(_by_company(held, f"stocks of player {seat}", "shares"))
    return tuple(out)


def _treasuries(treasuries: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(treasuries, Mapping):
        raise ValueError(
            f"treasuries must map companies to dollars, such as {{'red': 4}}; got {treasuries!r}"
        )
    return _by_company(treasuries, "treasuries", "dollars")


def _by_company(mapping: Mapping, what: str, unit: str) -> tuple[tuple[str, int], ...]:
    for company, count in mapping.items():
        if company not in COMPANIES:
            raise ValueError(
                f"{what}: no company {company!r}; the companies are {', '.join(COMPANIES)}"
            )
        if not is_count(count):
            raise ValueError(
                f"{what}: {company} must be a whole number of {unit} >= 0, got {count!r}"
            )
    return tuple((c, mapping[c]) for c in COMPANIES if mapping.get(c))


def _goods(goods: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(goods, Mapping):
        raise ValueError(
            f"goods must map spaces to colours, such as {{'B3': 'red', 'coast': ['blue']}}; got {goods!r}"
        )
    b = board()
    pawns = []
    for space, colours in goods.items():
        if space not in b.spaces:
            raise ValueError(
                f"goods: no space {space!r}; spaces are 'coast' and squares A1 to D6 (row A-D, column 1-6)"
            )
        for colour in (
            [colours] if isinstance(colours, str) else as_list(colours, f"goods on {space}")
        ):
            if colour not in RAILROADS:
                raise ValueError(
                    f"goods on {space}: no goods colour {colour!r}; goods are {', '.join(RAILROADS)}"
                )
            pawns.append((space, colour))
    per_colour = components().goods_per_colour
    for colour in RAILROADS:
        count = sum(1 for _, c in pawns if c == colour)
        if count > per_colour:
            raise ValueError(
                f"goods: {count} {colour} pawns, but the box has {per_colour} of each colour"
            )
    if len(colours_outside_coast(pawns)) <= 2:
        raise ValueError(
            "goods: at least three colours must be off the Pacific Coast, or the game is over before it starts"
        )
    return tuple(sorted(pawns, key=goods_order))


def _track(track: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(track, Mapping):
        raise ValueError(
            f"track must map track spaces to colours, such as {{'B5-B6': 'red'}}; got {track!r}"
        )
    b = board()
    for section, colour in track.items():
        b.section(section)  # raises for an unknown name
        if colour not in RAILROADS:
            raise ValueError(
                f"track on {section}: no track colour {colour!r}; track is {', '.join(RAILROADS)}"
            )
    per_colour = components().track_per_colour
    for colour in RAILROADS:
        count = sum(1 for c in track.values() if c == colour)
        if count > per_colour:
            raise ValueError(
                f"track: {count} {colour} sections, but the box has {per_colour} markers of each colour"
            )
    joined = connected_spaces(b, frozenset(track))
    loose = [s for s in track if b.section(s).a not in joined]
    if loose:
        raise ValueError(
            f"track: every section must be joined by track to the eastern edge (column 6); not joined: {loose}"
        )
    return tuple((s.id, track[s.id]) for s in b.sections if s.id in track)
