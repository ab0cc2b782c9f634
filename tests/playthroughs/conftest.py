"""Playthrough tests: the toy game (in tests/) is importable, and ``toy`` registers it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: toy_game

from toy_game import toy  # noqa: E402, F401 - the fixture
