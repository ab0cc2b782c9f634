"""Game preparation: dealing a game from a seed, or setting up a scripted teaching scenario.

With a seed the rulebook's preparation is followed, drawing chance in this order:

1. classic: the brown "S" shares are shuffled and one is dealt to each player; the rest join
   the pile. 2013: the shares of the setup card for this player count are set aside (no
   chance); they are handed out in step 5;
2. quick start only: one random non-S share of each company is shuffled and one dealt to each
   player; the rest join the pile;
3. the pile is shuffled and the crash card is shuffled into its last cards (classic: last 4,
   so the crash lies uniformly in the last 5 positions; 2013: last 3, so the last 4);
4. a start player is drawn;
5. 2013: the setup card's first position goes to the start player, the next clockwise, and so on.

A scripted setup replaces any of these steps (``deck``, ``starting_shares``, ``start_player``,
``chips``) and, in the 2013 edition, can place branches (``houses``: station ids per seat). A
scripted ``deck`` is the whole draw pile in reveal order; it may be shorter than the box and
must hold the crash card once.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from mogul.games.mogul.cards import CRASH, Card, CrashCard, Shares, parse_card
from mogul.games.mogul.editions import Edition
from mogul.games.mogul.editions import edition as load_edition
from mogul.games.mogul.events import GameStarted, HousesPlaced
from mogul.games.mogul.rules import AUCTION, GameState, PlayerState, Setup, begin_round
from mogul.kit.checks import (
    as_list,
    is_count,
    is_text_list,
    is_whole,
    player_names,
    seat_number,
    setup_fields,
)

DEFAULT_NAMES = ("Ann", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal")


def new_game(
    edition: str | Edition = "classic",
    players: int | Sequence[str] = 4,
    seed: int | None = None,
    *,
    quick_start: bool = False,
    deck: Sequence[str] | None = None,
    starting_shares: Sequence[Sequence[str]] | None = None,
    start_player: int | None = None,
    chips: Sequence[int] | None = None,
    houses: Sequence[Sequence[str]] | None = None,
) -> GameState:
    """Deal a new game and reveal its first card; the start player is then to act.

    ``players`` is a count or a list of names. Anything not scripted is dealt from ``seed``
    (a fresh seed is drawn and kept in ``state.setup`` when none is given), so the same seed
    and the same actions always give the same game.
    """
    ed = load_edition(edition)
    names = _player_names(ed, players)
    n = len(names)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if not is_whole(seed):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not isinstance(quick_start, bool):
        raise ValueError(f"quick_start must be True or False, got {quick_start!r}")
    if quick_start:
        limit = ed.options.get("quick_start", {}).get("max_players")
        if limit is None:
            raise ValueError(f"the {ed.name} edition has no quick-start option")
        if n > limit:
            raise ValueError(f"the quick start is for up to {limit} players; got {n}")
        if starting_shares is not None:
            raise ValueError("give either quick_start=True or scripted starting_shares, not both")

    setup = Setup(
        edition=ed.name,
        players=names,
        seed=seed,
        quick_start=quick_start,
        deck=None if deck is None else tuple(str(c) for c in as_list(deck, "deck")),
        starting_shares=None
        if starting_shares is None
        else tuple(
            tuple(str(c) for c in as_list(s, "starting shares"))
            for s in as_list(starting_shares, "starting_shares")
        ),
        start_player=start_player,
        chips=None if chips is None else tuple(as_list(chips, "chips")),
        houses=None
        if houses is None
        else tuple(tuple(as_list(h, "houses of a player")) for h in as_list(houses, "houses")),
    )
    return deal(ed, setup)


def deal(ed: Edition, setup: Setup) -> GameState:
    """Prepare the table described by ``setup`` (see the module docstring for the order)."""
    rng = random.Random(setup.seed)
    n = len(setup.players)
    box = list(ed.cards)

    hands: list[list[Card]] = [[] for _ in range(n)]
    if setup.starting_shares is not None:
        if len(setup.starting_shares) != n:
            raise ValueError(
                f"starting_shares needs one list per player ({n}), got {len(setup.starting_shares)}"
            )
        for hand, cards in zip(hands, setup.starting_shares, strict=True):
            hand.extend(
                _take_from_box(ed, box, text, prefer_starting=True, what="starting shares")
                for text in cards
            )
    pile: list[Card | CrashCard] | None = None
    if setup.deck is not None:
        pile = _scripted_pile(ed, box, setup.deck)

    setup_card: tuple[list[Card], ...] = ()
    if setup.starting_shares is None and ed.setup_card:
        # 1. (2013) Set aside the setup card's shares; they are handed out once the start
        # player is known (step 5).
        if n not in ed.setup_card:
            raise ValueError(f"the {ed.name} setup card has no row for {n} players")
        setup_card = tuple(
            [
                _take_from_box(ed, box, text, prefer_starting=True, what="the setup card")
                for text in hand
            ]
            for hand in ed.setup_card[n]
        )
    elif setup.starting_shares is None:
        # 1. Each player gets one brown S share at random; the other S shares join the pile.
        s_cards = [c for c in box if c.starting]
        if len(s_cards) < n:
            raise ValueError(
                f"only {len(s_cards)} starting (S) shares are left for {n} players once the "
                "scripted deck is taken out; give starting_shares as well"
            )
        rng.shuffle(s_cards)
        for hand, card in zip(hands, s_cards, strict=False):
            hand.append(card)
            box.remove(card)
        # 2. Quick start: one random non-S share of each company, one dealt per player.
        if setup.quick_start:
            extra = []
            for company in ed.company_ids:
                choices = [c for c in box if c.company == company and not c.starting]
                extra.append(rng.choice(choices))
            rng.shuffle(extra)
            for hand, card in zip(hands, extra, strict=False):
                hand.append(card)
                box.remove(card)

    if pile is None:
        # 3. Shuffle the rest and mix the crash card into the last cards of the pile.
        rng.shuffle(box)
        cut = max(0, len(box) - ed.crash_shuffled_into_last)
        bottom = box[cut:] + [CRASH]
        rng.shuffle(bottom)
        pile = box[:cut] + bottom

    # 4. Choose a start player.
    start = rng.randrange(n) if setup.start_player is None else seat_number(setup.start_player, n)

    # 5. (2013) The setup card's positions count from the start player clockwise.
    for position, cards in enumerate(setup_card):
        hands[(start + position) % n].extend(cards)

    chips = _chips(ed, setup.chips, n)
    houses = _houses(ed, setup.houses, n)
    companies = ed.company_ids
    players = tuple(
        PlayerState(name, c, 0, Shares.of(companies, hand), houses=h)
        for name, c, hand, h in zip(setup.players, chips, hands, houses, strict=True)
    )
    table = GameState(
        edition=ed,
        setup=setup,
        players=players,
        deck=tuple(pile),
        revealed=None,
        round=0,
        phase=AUCTION,
        current=None,
        start_player=start,
        pot=0,
        bank=ed.chips_total - sum(chips),
        in_auction=(),
        dropped=(),
        credited=(),
        winner=None,
        runner_up=None,
        winner_choice=None,
        sold=Shares(companies),
        unseen=tuple(sorted(c for c in pile if not c.is_crash)),
        events=(),
    )
    started = [
        GameStarted(tuple(tuple(str(c) for c in hand) for hand in hands), chips, start, len(pile))
    ]
    if setup.houses is not None:
        started.append(HousesPlaced(houses))
    return begin_round(table, start, started)


# --- setups as JSON (for game records) --------------------------------------------------------


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """A setup as plain JSON data (lists for tuples, null for "dealt from the seed")."""

    def listed(x: Any) -> Any:
        return None if x is None else [listed(v) if isinstance(v, tuple) else v for v in x]

    out = {
        "edition": setup.edition,
        "players": list(setup.players),
        "seed": setup.seed,
        "quick_start": setup.quick_start,
        "deck": listed(setup.deck),
        "starting_shares": listed(setup.starting_shares),
        "start_player": setup.start_player,
        "chips": listed(setup.chips),
    }
    if setup.houses is not None:  # 2013 teaching scenarios only: older records stay as they were
        out["houses"] = listed(setup.houses)
    return out


def setup_from_json(raw: Mapping[str, Any]) -> Setup:
    """Read a setup from JSON data, checking every field; ``ValueError`` names the bad one."""
    setup_fields(
        raw,
        Setup._fields,
        required={
            "edition": (lambda x: isinstance(x, str), 'an edition name such as "classic"'),
            "players": (is_text_list, "a list of player names"),
            "seed": (is_whole, "a whole number (the seed that deals the game)"),
        },
        optional={
            "quick_start": (lambda x: isinstance(x, bool), "true or false"),
            "deck": (is_text_list, 'null or a list of cards such as "green/brown"'),
            "starting_shares": (
                lambda x: isinstance(x, list) and all(is_text_list(h) for h in x),
                "null or one list of cards per player",
            ),
            "start_player": (is_whole, "null or a seat number"),
            "chips": (
                lambda x: isinstance(x, list) and all(is_whole(c) for c in x),
                "null or one whole number per player",
            ),
            "houses": (
                lambda x: isinstance(x, list) and all(is_text_list(h) for h in x),
                "null or one list of station ids per player",
            ),
        },
    )
    state = new_game(
        raw["edition"],
        raw["players"],
        raw["seed"],
        quick_start=raw.get("quick_start", False) or False,
        deck=raw.get("deck"),
        starting_shares=raw.get("starting_shares"),
        start_player=raw.get("start_player"),
        chips=raw.get("chips"),
        houses=raw.get("houses"),
    )
    return state.setup


# --- checking scripted input -------------------------------------------------------------------


def _player_names(ed: Edition, players: int | Sequence[str]) -> tuple[str, ...]:
    return player_names(
        players, ed.min_players, ed.max_players, DEFAULT_NAMES, f"the {ed.name} edition"
    )


def _take_from_box(
    ed: Edition, box: list[Card], text: str, *, prefer_starting: bool, what: str
) -> Card:
    parsed = parse_card(text, ed.company_ids)
    if parsed is CRASH:
        raise ValueError(f"the crash card belongs in the deck, not in {what}")
    company, border = parsed
    matches = [c for c in box if c.company == company and c.border == border]
    if not matches:
        in_box = sum(1 for c in ed.cards if (c.company, c.border) == parsed)
        if in_box == 0:
            raise ValueError(
                f"there is no {text} card in the {ed.name} box (no share has its own colour as border)"
            )
        hint = (
            "; the setup card needs it too, so give starting_shares as well"
            if what == "the setup card"
            else ""
        )
        raise ValueError(f"too many {text} cards: the {ed.name} box has only {in_box}{hint}")
    matches.sort(key=lambda c: c.starting != prefer_starting)
    box.remove(matches[0])
    return matches[0]


def _scripted_pile(ed: Edition, box: list[Card], deck: Sequence[str]) -> list[Card | CrashCard]:
    crashes = sum(1 for text in deck if isinstance(text, str) and text.strip().lower() == "crash")
    if crashes != 1:
        raise ValueError(f"a scripted deck must hold the crash card exactly once; it has {crashes}")
    pile: list[Card | CrashCard] = []
    for text in deck:
        if text.strip().lower() == "crash":
            pile.append(CRASH)
        else:
            pile.append(_take_from_box(ed, box, text, prefer_starting=False, what="the deck"))
    return pile


def _chips(ed: Edition, chips: Sequence[int] | None, n: int) -> tuple[int, ...]:
    if chips is None:
        return (ed.chips_per_player,) * n
    if len(chips) != n or not all(is_count(c) for c in chips):
        raise ValueError(
            f"chips must be {n} whole numbers >= 0 (one per player), got {list(chips)!r}"
        )
    if sum(chips) > ed.chips_total:
        raise ValueError(
            f"the box holds {ed.chips_total} chips; the scripted chips add up to {sum(chips)}"
        )
    return tuple(chips)


def _houses(
    ed: Edition, houses: Sequence[Sequence[str]] | None, n: int
) -> tuple[tuple[str, ...], ...]:
    if houses is None:
        return ((),) * n
    if not ed.stations:
        raise ValueError(f"the {ed.name} edition has no railway map: houses cannot be placed")
    if len(houses) != n:
        raise ValueError(
            f"houses needs one list of station ids per player ({n}), got {len(houses)}"
        )
    seen: set[str] = set()
    for seat_houses in houses:
        if len(seat_houses) > ed.houses_per_player:
            raise ValueError(
                f"each player has {ed.houses_per_player} houses for branches, got {len(seat_houses)}: {list(seat_houses)}"
            )
        for station in seat_houses:
            if station not in ed.stations:
                raise ValueError(
                    f"unknown station {station!r}; stations are {', '.join(ed.stations)}"
                )
            if station in seen:
                raise ValueError(f"station {station!r} holds a house twice; one house per station")
            seen.add(station)
    return tuple(tuple(h) for h in houses)
