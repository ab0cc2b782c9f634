"""Write the golden playthrough files: seeded games, every state, one file per game.

    python tests/playthroughs/generate.py            # (re)write every file
    python tests/playthroughs/generate.py --check    # exit 1 when a file is missing or differs

As OpenSpiel keeps its playthroughs: for every state of a game played by seeded RandomBots,
the file lists the state field by field (``name: repr(value)``; the first state in full, then
only the fields that changed; the constant ``edition`` and ``setup`` fields are left out, the
header shows the setup once), the legal actions and the
action taken, and it ends with the final scores and winners. A change in the rules' behaviour
shows up as a diff of these files; ``test_playthroughs.py`` compares fresh playthroughs
with them. Every registered game and edition gets at least one file, and so does the toy game.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# This checkout's package and its toy game (examples/), whatever is installed elsewhere.
for folder in (ROOT / "examples", ROOT):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import toy_game  # noqa: E402

import mogul  # noqa: E402, F401 - registers the games
from mogul.kit import spec as registry  # noqa: E402
from mogul.kit.bots import RandomBot, play_states  # noqa: E402

COMMAND = "python tests/playthroughs/generate.py"
LEFT_OUT = ("edition", "setup")
"""Fields written once in the header rather than at every state."""

CHOSEN: dict[tuple[str, str], tuple[tuple[int, int], ...]] = {
    ("mogul", "classic"): ((4, 7), (3, 1)),
    ("mogul", "rio-grande"): (
        (3, 1),
        (5, 2),
    ),  # 3 players: houses get moved; 5: the full setup card
    ("toy", "toy-race"): ((2, 3), (4, 11)),
}
"""(players, seed) of the playthroughs per game and edition; any other edition gets one game."""


@dataclass(frozen=True)
class Playthrough:
    """One seeded game: which game and edition, how many players, which deal seed."""

    game: str
    edition: str
    players: int
    seed: int

    @property
    def path(self) -> Path:
        return HERE / f"{self.game}-{self.edition}-{self.players}p-seed{self.seed}.txt"

    def bot_seed(self, seat: int) -> int:
        return 100 * self.seed + seat


def playthroughs() -> list[Playthrough]:
    """Every playthrough the registered games (and the toy game) should have."""
    specs = [registry.get_game(name) for name in registry.games() if name != toy_game.SPEC.name]
    out = []
    for spec in [*specs, toy_game.SPEC]:
        for edition in spec.editions:
            low, high = spec.player_range(edition)
            chosen = CHOSEN.get((spec.name, edition), ((min(high, max(low, 3)), 1),))
            out.extend(Playthrough(spec.name, edition, players, seed) for players, seed in chosen)
    return out


def state_lines(state: Any) -> list[str]:
    """A state's fields, one ``name: repr(value)`` line each (NamedTuple or dataclass states)."""
    if hasattr(state, "_asdict"):
        fields = state._asdict()
    elif dataclasses.is_dataclass(state):
        fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
    else:
        raise TypeError(
            f"playthroughs write NamedTuple and dataclass states, not {type(state).__name__}"
        )
    return [f"{name}: {value!r}" for name, value in fields.items() if name not in LEFT_OUT]


def text(case: Playthrough) -> str:
    """The playthrough file's text: header, then every state with its options and the action."""
    spec = registry.get_game(case.game)
    first = spec.new_game(case.edition, case.players, case.seed)
    bots = [RandomBot(case.bot_seed(seat)) for seat in range(case.players)]
    states, actions = play_states(first, bots)
    lines = [
        f"# Playthrough of {spec.title}, edition {case.edition}.",
        f"# {case.players} players, deal seed {case.seed}.",
        f"# Seat s is played by mogul.kit.bots.RandomBot(seed=100 * {case.seed} + s).",
        f"# Made by `{COMMAND}`; do not edit. A diff here is a change in the rules' behaviour.",
        f"game: {case.game!r}",
        f"edition: {case.edition!r}",
        f"setup: {json.dumps(spec.setup_to_json(first.setup), sort_keys=True)}",
        f"decisions: {len(actions)}",
    ]
    before: list[str] = []
    for step, state in enumerate(states):
        lines.append("")
        lines.append(f"## state {step}" + (" (game over)" if state.is_over else ""))
        now = state_lines(state)
        # The first state in full, then only the fields that changed (the files stay small).
        lines.extend(line for i, line in enumerate(now) if step == 0 or line != before[i])
        before = now
        if step < len(actions):
            lines.append(f"legal: {' | '.join(str(a) for a in state.legal_actions())}")
            lines.append(f"action: {actions[step]}")
    final = states[-1]
    lines += [
        "",
        f"final_scores: {tuple(final.final_scores())!r}",
        f"winners: {tuple(final.winners())!r}",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    with toy_game.registered_toy():
        for case in playthroughs():
            fresh = text(case)
            old = case.path.read_text(encoding="utf-8") if case.path.exists() else None
            if old == fresh:
                continue
            stale.append(case.path)
            if not check:
                case.path.write_text(fresh, encoding="utf-8")
                print(f"wrote {case.path.relative_to(ROOT)}")
    if check and stale:
        print("out of date: " + ", ".join(str(p.relative_to(ROOT)) for p in stale), file=sys.stderr)
        return 1
    if not stale:
        print("every playthrough is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
