"""Game records for every game of the kit: setup + actions, as JSON, replayable, as tables.

A record is the whole truth of a game: the setup (game, edition, players, seed, scripted
parts) deals the identical table again, and the actions, applied in order, reproduce every
state. Records are read only from JSON (never pickle) and checked whole before use: a record
that is malformed, too big, or does not replay to its stored result is refused with an error
that names the file and the field.

Format (version 2)::

    {"format": "mogul-game-record", "version": 2, "game": "mogul", "title": "...",
     "notes": "...", "setup": {... the game's own ...}, "actions": ["bid", "drop", ...],
     "result": {"scores": [...], "winners": [...], "log_sha256": "..."}}

Version 1 records (written before other games joined the kit: no "game", the setup's
edition names it) are still read.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mogul.kit.data import data_path
from mogul.kit.spec import GameSpec, resolve, spec_for

if TYPE_CHECKING:
    import pandas as pd

FORMAT = "mogul-game-record"
VERSION = 2
READS = (1, 2)
MAX_BYTES = 2_000_000
"""Largest record file read: a long 6-player game is about 10 kB."""
MAX_ACTIONS = 20_000
MAX_DEPTH = 64
"""Deepest nesting of lists and objects read from JSON (a record nests five levels)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows (write a number, or null for none)")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {key!r} appears twice in one object")
        data[key] = value
    return data


def _depth(text: str) -> int:
    """The deepest nesting of brackets in JSON ``text`` (those inside strings too: an upper bound)."""
    depth = deepest = 0
    for char in re.sub(r'"(?:[^"\\]|\\.)*"', "", text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def strict_json(text: str | bytes, what: str = "the file", max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON ``text`` strictly: no ``NaN`` or ``Infinity``, no key twice in one object, no
    nesting deeper than ``max_depth``. Every record, manifest and page message is read with it;
    ``ValueError`` says what is wrong with ``what``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(
                f"{what} is not UTF-8 text ({err.reason} at byte {err.start})"
            ) from None
    if _depth(text) > max_depth:
        raise ValueError(f"{what} is nested too deeply (more than {max_depth} levels)")
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as err:
        raise ValueError(f"{what} is not valid JSON: {err}") from None
    except ValueError as err:
        raise ValueError(f"{what} is not strict JSON: {err}") from None


@dataclass(frozen=True)
class GameRecord:
    """A game as setup + actions. ``replay()`` rebuilds the final state exactly.

    ``setup`` is the game's own setup object (``state.setup``); its ``edition`` names the
    game. Build one from a first state with ``GameRecord.of(state, actions)``.
    """

    setup: Any
    actions: tuple[str, ...] = ()
    title: str = ""
    notes: str = ""

    @classmethod
    def of(
        cls, first: Any, actions: Sequence[Any] = (), title: str = "", notes: str = ""
    ) -> GameRecord:
        """The record of the game that starts at ``first`` and goes on with ``actions``."""
        return cls(first.setup, tuple(str(a) for a in actions), title, notes)

    @property
    def spec(self) -> GameSpec:
        """The game this record belongs to."""
        return resolve(self.setup.edition)[0]

    @property
    def game(self) -> str:
        """The registry name of the game (``"mogul"``)."""
        return self.spec.name

    # --- replay -----------------------------------------------------------------------------
    def initial_state(self) -> Any:
        """The table before the first decision (after the moves no one chooses, such as a deal)."""
        return self.spec.deal(self.setup)

    def states(self) -> Iterator[Any]:
        """Every state from the first decision to the last, one per action (plus the first)."""
        parse = self.spec.parse_action
        state = self.initial_state()
        yield state
        for number, text in enumerate(self.actions, start=1):
            try:
                state = state.apply(parse(text))
            except ValueError as err:
                raise ValueError(
                    f"action {number} of the record ({text!r}) cannot be played: {err}"
                ) from None
            yield state

    def replay(self) -> Any:
        """The state after the last recorded action."""
        state = None
        for state in self.states():  # noqa: B007 - we want the last one
            pass
        return state

    def with_action(self, action: Any) -> GameRecord:
        """This record with one more action (not checked until replay)."""
        return GameRecord(self.setup, self.actions + (str(action),), self.title, self.notes)

    # --- tables -----------------------------------------------------------------------------
    def table(self, name: str) -> pd.DataFrame:
        """One of the game's tidy tables (``GameSpec.tables``: one row per round, say)."""
        import pandas as pd  # here, not at the top: records load without pandas

        tables = self.spec.tables
        if name not in tables:
            raise ValueError(
                f"the game {self.game!r} has no table {name!r}; its tables: {', '.join(tables)}"
            )
        return pd.DataFrame(tables[name](list(self.states())))

    def log(self) -> list[str]:
        """Every event of the game as a sentence, in order."""
        return [line for state in self.states() for line in state.describe_events()]

    # --- JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; includes the result (and a check of the log) when the game is over."""
        states = list(self.states())
        final = states[-1]
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game}
        if self.title:
            data["title"] = self.title
        if self.notes:
            data["notes"] = self.notes
        data["setup"] = self.spec.setup_to_json(self.setup)
        data["actions"] = list(self.actions)
        if final.is_over:
            data["result"] = _result(states)
        return data

    def to_json(self) -> str:
        """The record as JSON text: one key per line, short lists kept on one line."""
        text = json.dumps(self.to_dict(), indent=1)
        # Put each list of plain values (names, cards, actions) on a single line.
        return re.sub(
            r"\[\s+([^\[\]{}]*?)\s+\]",
            lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]",
            text,
        )

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON (adding ``.json`` when the name has no suffix); returns the path."""
        path = Path(path)
        if not path.suffix:
            path = path.with_suffix(".json")
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Build a record from parsed JSON, checking it whole: fields, replay and stored result."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(
                f'not a Mogul game record: expected an object with "format": "{FORMAT}"'
            )
        version = data.get("version")
        if type(version) is not int or version not in READS:
            raise ValueError(
                f"unsupported record version {version!r}; this kit reads versions {READS}"
            )
        known = {"format", "version", "game", "title", "notes", "setup", "actions", "result"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown record fields {unknown}; allowed: {sorted(known)}")
        game = data.get("game")
        if version == 2 and not isinstance(game, str):
            raise ValueError('"game" must name the game, e.g. "mogul"')
        for key in ("title", "notes"):
            if not isinstance(data.get(key, ""), str):
                raise ValueError(f'"{key}" must be text')
        raw = data.get("setup")
        if not isinstance(raw, dict):
            raise ValueError('game record has no "setup" object')
        if version == 1 and game is None:  # version 1 named no game: its setup's edition does
            game = resolve(raw.get("edition"))[0].name
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError(
                'game record "actions" must be a list of texts such as "bid" or "sell 2"'
            )
        if len(actions) > MAX_ACTIONS:
            raise ValueError(
                f"game record has {len(actions)} actions; a record holds at most {MAX_ACTIONS}"
            )
        spec, _ = resolve(game)
        if spec.name != game:
            raise ValueError(f'"game" must be a game\'s name such as {spec.name!r}, not an edition')
        setup = spec.setup_from_json(raw)
        record = cls(setup, tuple(actions), data.get("title", ""), data.get("notes", ""))
        states = list(record.states())  # raises on any bad action: never a half-loaded game
        stored = data.get("result")
        if stored is not None:
            _check_result(stored, states)
        elif (
            version >= 2 and states[-1].is_over
        ):  # the kit writes a finished game's result: never drop it
            raise ValueError(
                'the game is over but the record has no "result"; the kit writes one for every '
                "finished game, so this record was changed"
            )
        return record

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Parse a record from JSON text (at most ``MAX_BYTES``)."""
        if len(text) > MAX_BYTES:
            raise ValueError(
                f"game record is {len(text):,} bytes; records are at most {MAX_BYTES:,} bytes"
            )
        return cls.from_dict(strict_json(text, "game record"))

    @classmethod
    def load(cls, name_or_path: str | Path) -> GameRecord:
        """Load a record from a JSON file, or a sample by name (see ``sample_games()``).

        Errors name the file: ``ValueError("my-game.json: ...")``.
        """
        path = Path(name_or_path)
        if not path.suffix and not path.exists():
            sample = data_path("games", f"{name_or_path}.json")
            if sample.exists():
                path = sample
            elif path.with_suffix(".json").exists():
                path = path.with_suffix(".json")
            else:
                raise ValueError(
                    f"no record file {str(name_or_path)!r} and no sample game of that name; samples: {', '.join(sample_games())}"
                )
        try:
            size = path.stat().st_size
            if size > MAX_BYTES:
                raise ValueError(
                    f"game record is {size:,} bytes; records are at most {MAX_BYTES:,} bytes"
                )
            raw = path.read_bytes()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ValueError(
                    f"game record is not UTF-8 text ({err.reason} at byte {err.start})"
                ) from None
            return cls.from_json(text)
        except ValueError as err:
            raise ValueError(f"{path.name}: {err}") from None


def _result(states: Sequence[Any]) -> dict[str, Any]:
    final = states[-1]
    return {
        "scores": list(final.final_scores()),
        "winners": list(final.winners()),
        "log_sha256": _log_digest(states),
    }


def _log_digest(states: Sequence[Any]) -> str:
    """A fingerprint of everything that happened: two different games never share one."""
    text = "\n".join(line for state in states for line in state.describe_events())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_result(stored: Any, states: Sequence[Any]) -> None:
    final = states[-1]
    if not isinstance(stored, dict):
        raise ValueError('"result" must be an object with "scores" and "winners"')
    if not final.is_over:
        raise ValueError(
            f"the record has a result {stored} but its actions stop before the game ends"
        )
    expected = _result(states)
    if "log_sha256" not in stored:  # version 1 records carry no fingerprint
        expected.pop("log_sha256")
    if stored != expected:
        what = next(k for k in (*expected, *stored) if stored.get(k) != expected.get(k))
        raise ValueError(
            f"the record's result {stored} does not match its replay {expected}: the {what} differ, "
            "so the actions were changed after the game was saved"
        )


def sample_games() -> list[str]:
    """Names of the sample records shipped in ``data/games``."""
    return sorted(p.stem for p in data_path("games").glob("*.json"))


def narrate(state: Any, actions: Sequence[Any]) -> tuple[Any, list[str]]:
    """Apply ``actions`` (objects or their texts) in order; return the final state and every step's events in words."""
    parse = spec_for(state).parse_action
    lines: list[str] = []
    for action in actions:
        state = state.apply(parse(action) if isinstance(action, str) else action)
        lines.extend(state.describe_events())
    return state, lines
