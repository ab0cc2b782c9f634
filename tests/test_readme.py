"""The README's Python examples run as written, in order, in one namespace.

Each ```python block of README.md is executed after the ones above it (a later block may use
an earlier block's names), in a scratch folder so that ``record.save`` writes nowhere else.
The values the comments name are checked where they are exact.
"""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)


def test_the_readme_has_its_python_examples():
    assert len(BLOCKS) >= 3
    code = "\n".join(BLOCKS)
    for game in ("classic", "rio-grande", "credit-mobilier"):
        assert f'mogul.new_game("{game}"' in code


def test_the_readme_python_blocks_run_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    space: dict = {"__name__": "readme"}
    for number, block in enumerate(BLOCKS, 1):
        try:
            exec(compile(block, f"README.md python block {number}", "exec"), space)
        except Exception as err:  # name the block that failed
            pytest.fail(f"README python block {number} raised {type(err).__name__}: {err}")
    assert (tmp_path / "my-game.json").exists()
    assert space["s"].setup.deck == ("green/brown", "crash")  # the scripted setup, last dealt
    assert space["r"].setup.edition == "rio-grande" and len(space["g"].dice) == 5
    assert space["sim"].games["game"].nunique() == 1000
    assert space["cm_sim"].games["game"].nunique() == 200
    assert len(space["t"].summary()) == 3 and space["t"].game == "mogul"
