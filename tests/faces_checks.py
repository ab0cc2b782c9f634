"""Checks that any registered game's faces pass, whatever the game: one function per check.

``tests/test_faces_every_game.py`` runs them over every game in the registry; a game kept
outside the package (the toy game of ``examples/toy_game/``, with its faces) calls the same
functions on itself, with no edit to any module of the kit.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from mogul.kit.session import GameSession
from mogul.kit.spec import resolve
from mogul.widgets import SessionPlayer, player


def expected_player(game: str) -> type:
    """The class ``mogul.widgets.player`` must open for ``game``."""
    spec, _ = resolve(game)
    return spec.face("player", SessionPlayer)


def check_player_plays(game: str, steps: int = 12) -> SessionPlayer:
    """A person opens the game, clicks buttons, undoes a move and lets the bots finish.

    The player is the game's own (``GameSpec.faces["player"]``), a human seat gets one button
    per legal action and nothing else, a click applies exactly the action on its button, undo
    goes back, and a table of bots plays to the end with the final table drawn.
    """
    spec, edition = resolve(game)
    app = player(game, seed=3)
    assert type(app) is expected_player(game), f"{game}: opened {type(app).__name__}"
    assert app.session.spec is spec and app.session.edition == edition
    assert 0 in app.humans
    clicked = 0
    while clicked < steps and not app.state.is_over:
        if not app.human_to_act():
            assert app.step(), f"{game}: a bot could not move"
            continue
        legal = list(app.state.legal_actions())
        picker = getattr(app, "kinds", None)  # many actions: one row at a time, picked by name
        if picker is not None and picker.layout.display is None:
            counts = [int(option.rsplit("(", 1)[1].rstrip(")")) for option in picker.options]
            assert sum(counts) == len(legal), f"{game}: rows {picker.options}, {len(legal)} actions"
            picker.index = len(counts) - 1  # the last row, for the last action below
        buttons = app.buttons()
        shown = counts[-1] if picker is not None and picker.layout.display is None else len(legal)
        assert len(buttons) == shown >= 1, f"{game}: {len(buttons)} buttons for {shown} actions"
        before, table_before = len(app.history), app.table.value
        buttons[-1].click()  # the last button: not always the first, most obvious choice
        assert len(app.history) > before and app.actions[before - 1] == legal[-1]
        assert app.table.value != table_before or app.state.is_over
        clicked += 1
    assert clicked, f"{game}: the human never got to act"
    if app.session.undo_target() is not None:
        length = len(app.history)
        app.undo()
        assert len(app.history) < length
    fewest = spec.player_range(edition)[0]
    bots = player(game, seats=[next(iter(spec.bots))] * fewest, seed=5)
    bots.play_to_end()
    assert bots.state.is_over and not bots.buttons()
    assert bots.table.value and "Next" in bots.next_round_button.description
    return app


def check_player_takes_new_games_arguments(game: str) -> SessionPlayer:
    """The game's player takes ``game, seats, seed`` first, as ``player`` and ``GameSession``.

    Called with them by position, it deals the table ``player`` and ``GameSession`` deal.
    """
    spec, edition = resolve(game)
    cls = expected_player(game)
    assert list(inspect.signature(cls).parameters)[:3] == ["game", "seats", "seed"]
    seats = [next(iter(spec.bots))] * spec.player_range(edition)[0]
    app = cls(edition, seats, 7)
    assert app.state == player(edition, seats, 7).state == GameSession(edition, seats, 7).state
    assert app.state != cls(edition, seats, 8).state, f"{game}: the seed deals nothing"
    return app


def check_board(game: str) -> go.Figure | None:
    """The game's board figure (if its spec names one) draws a fresh game and a later state."""
    spec, edition = resolve(game)
    board = spec.face("board")
    if board is None:
        return None
    state = spec.new_game(edition, spec.player_range(edition)[0], 1)
    first = board(state)
    assert isinstance(first, go.Figure) and first.data, f"{game}: an empty board"
    later = state
    for _ in range(6):
        if later.is_over:
            break
        later = later.apply(later.legal_actions()[0])
    assert isinstance(board(later), go.Figure)
    return first


def imported_mogul_modules(folder: Path) -> dict[str, set[str]]:
    """file name -> the ``mogul`` modules its code imports (lazy imports included)."""
    out = {}
    for path in sorted(folder.glob("*.py")):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
        out[path.name] = {m for m in found if m == "mogul" or m.startswith("mogul.")}
    return out


def check_faces_use_only_generic_parts(folder: Path, games: frozenset[str]) -> dict[str, Any]:
    """A game's faces kept outside the package import only the kit's generic modules.

    ``games``: the game folders of ``mogul/games`` (none of theirs may be imported).
    """
    imports = imported_mogul_modules(folder)
    for name, modules in imports.items():
        for module in modules:
            parts = module.split(".")
            assert module != "mogul", f"{name} imports the package root"
            assert not set(parts[1:3]) & games, f"{name} imports {module}: another game's module"
    return imports
