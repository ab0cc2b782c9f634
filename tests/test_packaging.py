"""The kit installs as a wheel and finds its files there (not only from the checkout): its data,
the notebooks ``mogul lab`` copies, the Lab settings and the Voila template."""

import os
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel built from this checkout, installed alone in a fresh venv (numpy, pandas...
    come from this test's own environment): (the wheel, the venv, its site-packages)."""
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation"]
        + ["-q", "-w", str(dist)],
        check=True,
    )
    (wheel,) = dist.glob("mogul_kit-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps"]
        + [str(wheel)],
        check=True,
    )
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return wheel, venv, Path(site)


def run(venv: Path, program: str, *arguments: str, cwd: Path) -> str:
    """The venv's ``program`` with ``arguments``, away from the checkout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [str(venv / "bin" / program), *arguments]
    return subprocess.run(
        command, check=True, capture_output=True, text=True, cwd=cwd, env=env
    ).stdout


def test_wheel_installs_and_plays_a_game(installed, tmp_path):
    _, venv, site = installed
    script = textwrap.dedent(
        """
        import mogul, random
        s = mogul.new_game("classic", players=4, seed=1)
        rng = random.Random(1)
        while not s.is_over:
            s = s.apply(rng.choice(s.legal_actions()))
        from mogul.kit.record import GameRecord
        print(mogul.__file__)
        print(GameRecord.load("rulebook-opening").replay().final_scores())
        """
    )
    out = run(venv, "python", "-c", script, cwd=tmp_path).split("\n")
    assert out[0].startswith(str(site)), out  # the wheel's copy, not the checkout
    assert out[1] == "(11, 2, 2, 2)"
    assert (site / "mogul" / "data" / "editions" / "classic-2002.json").is_file()


def test_wheel_carries_the_notebooks_and_the_jupyter_files(installed):
    wheel, _, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert {f"mogul/notebooks/{n}" for n in notebooks} <= names
    jupyter = ["lab/settings/overrides.json", "voila/templates/mogul/index.html.j2"]
    assert {f"mogul/share/jupyter/{f}" for f in jupyter} <= names
    assert not [n for n in names if ".ipynb_checkpoints" in n or n.endswith(".partial")]
    assert (
        "mogul = mogul.__main__:main"
        in zipfile.ZipFile(wheel).read("mogul_kit-0.1.0.dist-info/entry_points.txt").decode()
    )


def test_the_mogul_command_copies_the_installed_notebooks(installed, tmp_path):
    _, venv, site = installed
    where = run(
        venv,
        "python",
        "-c",
        "from mogul.kit.lab import shipped, lab_settings; print(shipped('notebooks'));"
        "print(lab_settings())",
        cwd=tmp_path,
    ).split()
    assert where == [
        str(site / "mogul" / "notebooks"),
        str(site / "mogul/share/jupyter/lab/settings"),
    ]
    out = run(venv, "mogul", "lab", "--copy-only", cwd=tmp_path)
    copied = sorted(p.name for p in (tmp_path / "mogul-notebooks").iterdir())
    assert copied == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert out == f"copied {len(copied)} notebooks into {tmp_path / 'mogul-notebooks'}\n"
    doctor = run(venv, "python", "-m", "mogul", "doctor", cwd=tmp_path)
    assert f"mogul-kit 0.1.0, Python {sys.version.split()[0]}, {site / 'mogul'}" in doctor
