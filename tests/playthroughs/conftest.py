"""Playthrough tests: ``toy`` registers the toy game (examples/toy_game) for a test."""

import pytest
import toy_game


@pytest.fixture
def toy():
    with toy_game.registered_toy() as spec:
        yield spec
