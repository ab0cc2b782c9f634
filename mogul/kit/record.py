"""Game records: the setup and the actions of a game, as JSON, replayable and as pandas tables.

A record is the whole truth of a game: the setup (edition, players, seed, scripted cards) deals
the identical table again, and the actions, applied in order, reproduce every state. Records
are read only from JSON (never pickle), and a record that does not replay is refused whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mogul.games.mogul.actions import Action, parse_action
from mogul.games.mogul.events import (
    AuctionWon,
    CardRevealed,
    ChipBid,
    CreditTaken,
    Dropped,
    SharesSold,
)
from mogul.games.mogul.setup import new_game
from mogul.games.mogul.state import GameState, Setup
from mogul.kit.data import data_path

FORMAT = "mogul-game-record"
VERSION = 1


@dataclass(frozen=True)
class GameRecord:
    """A game as setup + actions. ``replay()`` rebuilds the final state exactly."""

    setup: Setup
    actions: tuple[str, ...] = ()
    title: str = ""
    notes: str = ""

    # --- replay -----------------------------------------------------------------------------
    def initial_state(self) -> GameState:
        """The table before the first decision (first card revealed, premiums paid)."""
        setup = self.setup
        return new_game(
            setup.edition, list(setup.players), setup.seed, quick_start=setup.quick_start,
            deck=setup.deck, starting_shares=setup.starting_shares,
            start_player=setup.start_player, chips=setup.chips,
        )

    def states(self) -> Iterator[GameState]:
        """Every state from the first decision to the last, one per action (plus the first)."""
        state = self.initial_state()
        yield state
        for number, text in enumerate(self.actions, start=1):
            try:
                state = state.apply(parse_action(text))
            except ValueError as err:
                raise ValueError(f"action {number} of the record ({text!r}) cannot be played: {err}") from None
            yield state

    def replay(self) -> GameState:
        """The state after the last recorded action."""
        state = None
        for state in self.states():  # noqa: B007 - we want the last one
            pass
        return state

    def with_action(self, action: Action | str) -> GameRecord:
        """This record with one more action (not checked until replay)."""
        return GameRecord(self.setup, self.actions + (str(action),), self.title, self.notes)

    # --- JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; includes the result when the game is over."""
        final = self.replay()
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.title:
            data["title"] = self.title
        if self.notes:
            data["notes"] = self.notes
        data["setup"] = {
            "edition": self.setup.edition,
            "players": list(self.setup.players),
            "seed": self.setup.seed,
            "quick_start": self.setup.quick_start,
            "deck": None if self.setup.deck is None else list(self.setup.deck),
            "starting_shares": None
            if self.setup.starting_shares is None
            else [list(s) for s in self.setup.starting_shares],
            "start_player": self.setup.start_player,
            "chips": None if self.setup.chips is None else list(self.setup.chips),
        }
        data["actions"] = list(self.actions)
        if final.is_over:
            data["result"] = {"scores": list(final.final_scores()), "winners": list(final.winners())}
        return data

    def to_json(self) -> str:
        """The record as JSON text: one key per line, short lists kept on one line."""
        text = json.dumps(self.to_dict(), indent=1)
        # Put each list of plain values (names, cards, actions) on a single line.
        return re.sub(
            r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]", text
        )

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON; returns the path."""
        path = Path(path)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Build a record from parsed JSON, checking it replays (and matches its result)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a Mogul game record: expected an object with \"format\": \"{FORMAT}\"")
        if data.get("version") != VERSION:
            raise ValueError(f"unsupported record version {data.get('version')!r}; this kit reads version {VERSION}")
        raw = data.get("setup")
        if not isinstance(raw, dict):
            raise ValueError("game record has no \"setup\" object")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("game record \"actions\" must be a list of texts such as \"bid\" or \"sell 2\"")
        unknown = set(raw) - set(Setup._fields)
        if unknown:
            raise ValueError(f"unknown setup fields {sorted(unknown)}; allowed: {list(Setup._fields)}")
        if "edition" not in raw or "players" not in raw or "seed" not in raw:
            raise ValueError("game record setup needs \"edition\", \"players\" and \"seed\"")
        setup = _setup_from_json(raw)
        record = cls(setup, tuple(actions), data.get("title", ""), data.get("notes", ""))
        final = record.replay()  # raises on any bad action: never a half-loaded game
        result = data.get("result")
        if result is not None:
            expected = {"scores": list(final.final_scores()), "winners": list(final.winners())}
            if not final.is_over or result != expected:
                raise ValueError(f"the record's result {result} does not match its replay {expected}")
        return record

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse a record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"game record is not valid JSON: {err}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, name_or_path: str | Path) -> GameRecord:
        """Load a record from a JSON file, or a sample by name (see ``sample_games()``)."""
        path = Path(name_or_path)
        if not path.suffix:
            path = data_path("games", f"{name_or_path}.json")
            if not path.exists():
                raise ValueError(f"no sample game {name_or_path!r}; samples: {', '.join(sample_games())}")
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    # --- tables -----------------------------------------------------------------------------
    def rounds_table(self) -> pd.DataFrame:
        """One row per round per player, read as the auction opens (after the premiums).

        Columns: round, card, seat, player, points, chips, score (points + chips // 5), one
        ``shares_<company>`` and one ``market_<company>`` column per company. A last row per
        player (card "crash") holds the final table when the game is over.
        """
        return rounds_table(self.states())

    def auctions_table(self) -> pd.DataFrame:
        """One row per auction: see ``auctions_table``."""
        return auctions_table(self.states())

    def log(self) -> list[str]:
        """Every event of the game as a sentence, in order."""
        return [line for state in self.states() for line in state.describe_events()]


def _setup_from_json(raw: dict[str, Any]) -> Setup:
    def tup(x: Any) -> Any:
        return tuple(x) if isinstance(x, list) else x

    shares = raw.get("starting_shares")
    if isinstance(shares, list):
        shares = tuple(tup(s) for s in shares)
    players = raw["players"]
    return Setup(
        edition=raw["edition"],
        players=tup(players),
        seed=raw["seed"],
        quick_start=bool(raw.get("quick_start", False)),
        deck=tup(raw.get("deck")),
        starting_shares=shares,
        start_player=raw.get("start_player"),
        chips=tup(raw.get("chips")),
    )


def sample_games() -> list[str]:
    """Names of the sample records shipped in ``data/games``."""
    return sorted(p.stem for p in data_path("games").glob("*.json"))


def rounds_table(states: Iterator[GameState] | Sequence[GameState]) -> pd.DataFrame:
    """Per round and player: points, chips, score, shares and market value per company."""
    rows = []
    last = None
    for state in states:
        last = state
        if any(type(e) is CardRevealed for e in state.events):
            rows.extend(_table_rows(state, str(state.revealed)))
    if last is not None and last.is_over:
        rows.extend(_table_rows(last, "crash"))
    return pd.DataFrame(rows)


def _table_rows(state: GameState, card: str) -> list[dict[str, Any]]:
    market = state.market_values()
    scores = state.final_scores()
    out = []
    for seat, p in enumerate(state.players):
        row: dict[str, Any] = {
            "round": state.round, "card": card, "seat": seat, "player": p.name,
            "points": p.points, "chips": p.chips, "score": scores[seat],
        }
        row.update({f"shares_{c}": n for c, n in p.shares.items()})
        row.update({f"market_{c}": v for c, v in market.items()})
        out.append(row)
    return out


def auctions_table(states: Iterator[GameState] | Sequence[GameState]) -> pd.DataFrame:
    """One row per auction.

    Columns: round, card, company, border, start_player, bids (per seat), credits (seats),
    drop_order (seats), pot_path (the pot before each bid or drop), steps, chips_paid (all
    bids), winner, runner_up, winner_choice ("take"/"sell"), sold (shares sold by whoever held
    the sell right), sale_price, taker.
    """
    rows = []
    row: dict[str, Any] | None = None
    for state in states:
        for event in state.events:
            kind = type(event)
            if kind is CardRevealed:
                n = len(state.players)
                row = {
                    "round": event.round, "card": event.card, "company": state.revealed.company,
                    "border": state.revealed.border, "start_player": state.start_player,
                    "bids": [0] * n, "credits": [], "drop_order": [], "pot_path": [], "steps": 0,
                }
            elif row is None:
                continue
            elif kind is ChipBid:
                row["bids"][event.seat] += 1
                row["pot_path"].append(event.pot - 1)
                row["steps"] += 1
            elif kind is Dropped:
                row["drop_order"].append(event.seat)
                row["pot_path"].append(event.chips)
                row["steps"] += 1
            elif kind is CreditTaken:
                row["credits"].append(event.seat)
            elif kind is AuctionWon:
                row.update(winner=event.winner, runner_up=event.runner_up)
            elif kind is SharesSold:
                row.update(sold=event.count, sale_price=event.price, seller=event.seat)
                row["winner_choice"] = "sell" if event.seat == row.get("winner") else "take"
                row["taker"] = row["runner_up"] if event.seat == row.get("winner") else row["winner"]
                row["chips_paid"] = sum(row["bids"])
                row.update({k: tuple(row[k]) for k in ("bids", "credits", "drop_order", "pot_path")})
                rows.append(row)
                row = None
    return pd.DataFrame(rows)


def narrate(state: GameState, actions: Sequence[Action | str]) -> tuple[GameState, list[str]]:
    """Apply ``actions`` in order; return the final state and every step's events in words."""
    lines: list[str] = []
    for action in actions:
        state = state.apply(parse_action(action) if isinstance(action, str) else action)
        lines.extend(state.describe_events())
    return state, lines
