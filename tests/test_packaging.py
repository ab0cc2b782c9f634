"""The wheel and the sdist hold what the kit reads at run time: its data, the notebooks
``mogul lab`` copies, the Lab settings and the Voila template, and the ``mogul`` command.

Installing the wheel and running it away from the checkout is tests/install_check.py's work
(``make install-check``, part of ``make test``): the one place the wheel is installed."""

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def hatchling(target: str, source: Path, dist: Path) -> Path:
    """Build ``target`` (wheel or sdist) from the project at ``source`` into ``dist``."""
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", target, "-d", str(dist)],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (built,) = dist.glob("*.whl" if target == "wheel" else "*.tar.gz")
    return built


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The wheel and the sdist built from this checkout."""
    tmp = tmp_path_factory.mktemp("dist")
    return hatchling("wheel", ROOT, tmp / "wheel"), hatchling("sdist", ROOT, tmp / "sdist")


def test_the_wheel_carries_the_data_the_notebooks_and_the_jupyter_files(built):
    wheel, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 8
    assert {f"mogul/notebooks/{n}" for n in notebooks} <= names
    jupyter = ["lab/settings/overrides.json", "voila/templates/mogul/index.html.j2"]
    assert {f"mogul/share/jupyter/{f}" for f in jupyter} <= names
    data = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "data").rglob("*.json"))
    assert {f"mogul/{d}" for d in data} <= names and "data/editions/classic-2002.json" in data
    assert not [n for n in names if ".ipynb_checkpoints" in n or n.endswith(".partial")]
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "mogul/tests/"))]
    entry_points = zipfile.ZipFile(wheel).read("mogul_kit-0.1.0.dist-info/entry_points.txt")
    assert "mogul = mogul.__main__:main" in entry_points.decode()


def test_the_wheel_built_from_the_sdist_is_the_wheel_built_here(built, tmp_path):
    """pip builds from the sdist where no wheel fits: a file the sdist lacks would be missing."""
    wheel, sdist = built
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "src", filter="data")
    (unpacked,) = (tmp_path / "src").iterdir()
    again = hatchling("wheel", unpacked, tmp_path / "wheel")
    assert sorted(zipfile.ZipFile(again).namelist()) == sorted(zipfile.ZipFile(wheel).namelist())
