"""Playthrough tests: the toy game (in tests/) is importable and registered for each test."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: toy_game

import toy_game  # noqa: E402


@pytest.fixture
def toy():
    """The toy game, registered for one test."""
    with toy_game.registered_toy() as spec:
        yield spec
