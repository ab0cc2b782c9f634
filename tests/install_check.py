"""The kit as a user installs it: the wheel in a fresh venv, away from this checkout.

``make install-check`` (``make test`` runs it) does, printing each step with its seconds:

1. builds the sdist from this checkout, then the wheel from the sdist (as pip does from an
   sdist: a file the sdist lacks is missing from the wheel too);
2. makes a venv in a temporary folder and installs the wheel (a student's install, without
   the classroom extra) and nbval, what they need from the registry, nothing from the checkout
   (the one place a test installs the wheel; tests/test_packaging.py checks what the wheel and
   the sdist hold);
3. ``mogul doctor``: runs, and names the venv's copy of the kit;
4. ``mogul lab --copy-only`` into a temporary folder, then nbval on notebooks 01 and 03 there
   (with tests/nbval_sanitize.cfg copied beside them);
5. ``mogul classroom``: without the classroom extra it names the pip command; with the extra
   installed (``pip install "WHEEL[classroom]"``) it serves, on a free port, the links it
   prints: the students' page (no token), the lecturer's dashboard and the projector page
   (with the token; without it they are refused); then the server is stopped by its pid and
   its log must be free of errors.

``--lab`` adds, right after the install, ``mogul lab --no-browser`` until Lab answers (it first
compiles the batch engines, a minute or more on a fresh venv), and prints the time from the
start of ``pip install`` to Lab's answer.

    python tests/install_check.py [--lab]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ("01-", "03-")
"""The notebooks nbval runs from the installed kit (by their number)."""
WAIT = 180.0
"""Seconds a server may take to answer before the check fails."""
ERROR_LINE = re.compile(r"^\[E |Traceback \(most recent call last\)", re.M)
"""A line of a Jupyter server's log that says something went wrong."""


class CheckFailed(Exception):
    """One step found the installed kit wrong (its message says what and shows the output)."""


def clock() -> tuple[float, float]:
    """Now: (wall-clock seconds, CPU seconds of this process and of its children that ended)."""
    me, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return time.perf_counter(), me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def step(started: tuple[float, float], what: str) -> None:
    """Print one finished step with the seconds it took, and the CPU seconds (which a busy
    machine changes less)."""
    wall, cpu = clock()
    print(f"{wall - started[0]:6.1f} s (cpu {cpu - started[1]:5.1f} s)  {what}", flush=True)


def run(command: Sequence[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run ``command`` to its end; its output, or ``CheckFailed`` showing it."""
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip().splitlines()
        raise CheckFailed(
            f"exit status {done.returncode}: {' '.join(map(str, command))}\n"
            + "\n".join(output[-60:])
        )
    return done.stdout


def isolated(venv: Path, home: Path) -> dict[str, str]:
    """The environment a fresh user has: the venv first on PATH, no path into this checkout,
    and Jupyter's and IPython's own folders in ``home`` (nothing written to the real ones)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTER_PATH") and not k.startswith("MOGUL_")
    }
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "IPYTHONDIR"):
        env[name] = str(home / name.lower())
    return env


def build(dist: Path, work: Path) -> tuple[Path, Path]:
    """The sdist from this checkout, and the wheel built from the sdist: (sdist, wheel)."""
    hatchling = [sys.executable, "-m", "hatchling", "build", "-d", dist]
    run([*hatchling, "-t", "sdist"], cwd=ROOT)
    (sdist,) = dist.glob("mogul_kit-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(work, filter="data")
    (unpacked,) = work.iterdir()
    run([*hatchling, "-t", "wheel"], cwd=unpacked)
    (wheel,) = dist.glob("mogul_kit-*.whl")
    return sdist, wheel


def pip_install(venv: Path, *requirements: str) -> list[str]:
    """Install ``requirements`` into ``venv`` from the registry: what pip installed.

    The venv has no pip of its own: this Python's pip installs into it (``--python``).
    ``--no-compile``: byte-compiling the ~900 MB of packages takes longer than the whole
    check; what the check imports compiles as it is imported."""
    out = run(
        [sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install"]
        + ["--no-compile", "--disable-pip-version-check", *requirements],
        cwd=venv.parent,
    )
    done = [line for line in out.splitlines() if line.startswith("Successfully installed")]
    return done[0].split()[2:] if done else []


def install(wheel: Path, venv: Path) -> int:
    """A fresh venv with the wheel (a student's install, no extra) and nbval: the number of
    packages."""
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=venv.parent)
    installed = pip_install(venv, str(wheel), "nbval")
    if not any(name.startswith("mogul-kit-") for name in installed):
        raise CheckFailed(f"pip did not install the wheel: {installed}")
    return len(installed)


def add_classroom(wheel: Path, venv: Path, env: dict[str, str], cwd: Path) -> str:
    """``mogul classroom`` without the classroom extra names the pip command; then the extra
    installed: what it added."""
    done = subprocess.run(
        [venv / "bin" / "mogul", "classroom"], cwd=cwd, env=env, capture_output=True, text=True
    )
    if done.returncode != 2 or '"mogul-kit[classroom]"' not in done.stderr:
        raise CheckFailed(f"mogul classroom without the extra: {done.returncode}\n{done.stderr}")
    added = pip_install(venv, f"{wheel}[classroom]")
    if not any(name.startswith("voila-") for name in added):
        raise CheckFailed(f"the classroom extra did not add Voila: {added}")
    return ", ".join(sorted(name.rsplit("-", 1)[0] for name in added))


def doctor(venv: Path, env: dict[str, str], cwd: Path) -> str:
    """``mogul doctor``'s report, which must name the venv's copy of the kit."""
    report = run([venv / "bin" / "mogul", "doctor"], cwd=cwd, env=env)
    site = next((venv / "lib").glob("python3*/site-packages"))
    if str(site / "mogul") not in report:
        raise CheckFailed(
            f"mogul doctor does not name the venv's kit ({site / 'mogul'}):\n{report}"
        )
    return report


def notebooks(venv: Path, env: dict[str, str], folder: Path) -> str:
    """Copy the notebooks with ``mogul lab --copy-only``, run 01 and 03 under nbval there:
    pytest's closing line."""
    out = run([venv / "bin" / "mogul", "lab", "--copy-only", folder], cwd=folder.parent, env=env)
    shipped = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    copied = sorted(p.name for p in folder.glob("*.ipynb"))
    if copied != shipped:
        raise CheckFailed(f"mogul lab copied {copied}, the kit has {shipped}:\n{out}")
    shutil.copy(ROOT / "tests" / "nbval_sanitize.cfg", folder)
    (folder / "pytest.ini").write_text("[pytest]\n")  # the folder is pytest's root, not /tmp
    chosen = [name for name in copied if name.startswith(NOTEBOOKS)]
    out = run(
        [venv / "bin" / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval"]
        + ["--nbval-current-env", "--nbval-sanitize-with", "nbval_sanitize.cfg"]
        + ["--nbval-cell-timeout=300", *chosen],
        cwd=folder,
        env=env,
    )
    return out.strip().splitlines()[-1].strip("= ")


def free_port() -> int:
    """A TCP port on this machine that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server(command: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> Iterator[Path]:
    """Run a server in the background, its output in a log file (yielded); at the end stop it
    by its pid (SIGTERM, as Ctrl-C's second press) and fail if it does not stop or its log
    shows an error."""
    log = cwd / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(part) for part in command],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield log
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise CheckFailed(f"the server (pid {process.pid}) did not stop on SIGTERM") from None
    errors = ERROR_LINE.search(log.read_text())
    if errors:
        text = log.read_text()
        raise CheckFailed(f"the server's log shows an error:\n{text[errors.start() - 2000 :]}")


def get(url: str, opener: urllib.request.OpenerDirector | None = None) -> tuple[int, str, str]:
    """GET ``url``: (status, the address it ended at, the body)."""
    try:
        with (opener or urllib.request.build_opener()).open(url, timeout=60) as answer:
            return answer.status, answer.url, answer.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.url, ""


def wait_for(url: str, log: Path, opener: urllib.request.OpenerDirector | None = None) -> None:
    """Wait until ``url`` answers 200, or fail showing the server's log."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            if get(url, opener)[0] == 200:
                return
        except OSError:
            pass  # not listening yet
        time.sleep(0.25)
    raise CheckFailed(f"no answer from {url} in {WAIT:.0f} s:\n{log.read_text()[-4000:]}")


def lab(venv: Path, env: dict[str, str], folder: Path) -> None:
    """``mogul lab --no-browser`` in ``folder`` (the notebooks copied into its
    ``mogul-notebooks``) until Lab's page and its API answer, then stopped."""
    folder.mkdir()
    port, token = free_port(), secrets.token_hex(8)
    command = [venv / "bin" / "mogul", "lab", "--no-browser"]
    command += [f"--port={port}", f"--IdentityProvider.token={token}"]
    with server(command, folder, env) as log:
        wait_for(f"http://127.0.0.1:{port}/api/status?token={token}", log)
        status, _, page = get(f"http://127.0.0.1:{port}/lab?token={token}")
        if status != 200 or "jupyter-config-data" not in page:
            raise CheckFailed(f"JupyterLab's page answered {status}")


def classroom(venv: Path, env: dict[str, str], folder: Path) -> str:
    """``mogul classroom`` on a free port: the pages whose links it prints answer (the
    lecturer's only with the token), and no Jupyter API is served beside them."""
    folder.mkdir()
    port, token = free_port(), secrets.token_hex(8)
    base = f"http://127.0.0.1:{port}"
    command = [venv / "bin" / "mogul", "classroom", "--port", port, "--token", token]
    started = time.perf_counter()
    with server([*command, "--db", folder / "classroom.sqlite"], folder, env) as log:
        wait_for(f"{base}/mogul/hall/", log)
        answered = time.perf_counter() - started
        printed = dict(
            re.findall(
                r"^(Student page|Your dashboard|Projector page): +(\S+)", log.read_text(), re.M
            )
        )
        pages = printed
        if len(pages) != 3:
            raise CheckFailed(f"mogul classroom printed no links:\n{log.read_text()[-4000:]}")
        lecturer = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        for name, url in pages.items():
            page = url.split("?")[0]
            status, where, _ = get(url, lecturer)
            if status != 200 or not where.startswith(page):
                raise CheckFailed(f"{name} {url}: {status} at {where}\n{log.read_text()[-4000:]}")
            if url != page:  # the lecturer's pages refuse a browser without the token
                status, where, _ = get(page)
                if status == 200 and where.startswith(page):
                    raise CheckFailed(f"{name} {page} answered without the token")
    return (
        f"answered in {answered:.1f} s; the student page, the dashboard and the projector 200 "
        f"(the lecturer's not without the token)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run every step; 0 when the installed kit passed them all, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lab", action="store_true", help="also start mogul lab and time install to Lab answering"
    )
    args = parser.parse_args(argv)
    begun = clock()
    with tempfile.TemporaryDirectory(prefix="mogul-install-check-") as tmp:
        top = Path(tmp)
        for name in ("dist", "sdist", "home", "student"):
            (top / name).mkdir()
        venv = top / "venv"
        env = isolated(venv, top / "home")
        try:
            started = clock()
            sdist, wheel = build(top / "dist", top / "sdist")
            sizes = [f"{p.name} {p.stat().st_size / 1e3:.0f} kB" for p in (sdist, wheel)]
            step(started, f"built {', '.join(sizes)} (the wheel from the sdist)")

            started = clock()
            count = install(wheel, venv)
            step(started, f"installed the wheel and nbval: {count} packages in {venv}")
            installed = started

            started = clock()
            report = doctor(venv, env, top / "student")
            step(started, "mogul doctor:")
            print("\n".join(" " * 28 + line for line in report.splitlines()), flush=True)

            if args.lab:
                started = clock()
                lab(venv, env, top / "student" / "lab")
                step(started, "mogul lab --no-browser: Lab answered (its page and /api/status)")
                step(installed, "from pip install to Lab answering")

            started = clock()
            closing = notebooks(venv, env, top / "student" / "mogul-notebooks")
            step(started, f"mogul lab --copy-only, then nbval on notebooks 01 and 03: {closing}")

            started = clock()
            added = add_classroom(wheel, venv, env, top / "student")
            step(started, f"mogul classroom named the extra; installed it: {added}")

            started = clock()
            pages = classroom(venv, env, top / "room")
            step(started, f"mogul classroom: {pages}, stopped by its pid, no error in its log")
        except CheckFailed as err:
            print(f"install check failed: {err}", file=sys.stderr, flush=True)
            return 1
    step(begun, "install check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
