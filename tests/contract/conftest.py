"""Contract tests: the games they run over (from the registry) and the toy game, registered."""

import pytest
import toy_game  # examples/toy_game: on the path (pyproject's pytest pythonpath)
from kit_cases import bot_cases, game_cases

CASES = game_cases(extra=[toy_game.SPEC])
BOT_CASES = bot_cases(CASES)


@pytest.fixture(autouse=True)
def toy():
    """Every contract test sees the toy game in the registry, and no test after it does."""
    with toy_game.registered_toy() as spec:
        yield spec


def pytest_generate_tests(metafunc):
    if "case" in metafunc.fixturenames:
        metafunc.parametrize("case", CASES, ids=str)
    if "bot_case" in metafunc.fixturenames:
        metafunc.parametrize("bot_case", BOT_CASES, ids=[f"{c}-{b}" for c, b in BOT_CASES])
