"""The toy game's faces, kept in their own folder: a board figure and a player.

They plug into the kit exactly as a real game's faces do, through ``GameSpec.faces``:
``registered_toy_with_faces()`` registers the toy game of ``tests/toy_game.py`` with these
faces named, and ``mogul.widgets.player("toy")`` then opens ``RacePlayer``. Nothing in the
package or in the other tests knows this folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import toy_game

from mogul.kit.spec import GameSpec, register, unregister

FACES = {"player": "toy_faces.player:RacePlayer", "board": "toy_faces.board:race_figure"}


@contextmanager
def registered_toy_with_faces() -> Iterator[GameSpec]:
    """The toy game, with its faces named, in the registry for a ``with`` block."""
    spec = register(replace(toy_game.SPEC, faces=FACES))
    try:
        yield spec
    finally:
        unregister(spec.name)
