"""The examples beside the package are importable in every test: ``import toy_game``.

The toy game (``examples/toy_game/``) shows how a game joins the kit; the tests that prove
the kit generic play it. Nothing in ``mogul/`` imports it. ``toy`` registers it for one test.
"""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

import toy_game  # noqa: E402

from mogul.kit.spec import GameSpec  # noqa: E402


@pytest.fixture
def toy() -> Iterator[GameSpec]:
    """The toy game, registered for one test and removed after it."""
    with toy_game.registered_toy() as spec:
        yield spec
