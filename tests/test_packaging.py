"""The kit installs as a wheel and finds its data files there (not only from the checkout)."""

import os
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_installs_and_plays_a_game(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
        ],
        check=True,
    )
    (wheel,) = dist.glob("mogul_kit-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # Install the wheel alone; numpy, pandas... come from this test's own environment.
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", site, str(wheel)],
        check=True,
    )
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
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
    out = subprocess.run(
        [python, "-c", script],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    ).stdout.split("\n")
    assert out[0].startswith(site), out  # the wheel's copy, not the checkout
    assert out[1] == "(11, 2, 2, 2)"
    assert Path(site, "mogul", "data", "editions", "classic-2002.json").is_file()
