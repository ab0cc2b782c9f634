"""Browser tests: the notebooks as a person sees them, in JupyterLab and as a Voila app.

The fixtures start a server from this interpreter's environment on a free localhost port,
serve a temporary copy of ``notebooks/`` (running cells makes a notebook dirty, and Lab's
autosave would overwrite the committed outputs), and stop the server by its process id when
the session ends, whatever happened. Playwright drives the system Chromium (Debian's
``chromium`` package; ``make browser`` installs it); set ``MOGUL_CHROMIUM`` to use another.

Run them with ``make e2e`` (``make test`` does it last). They are kept out of the plain
``pytest tests`` run by ``--ignore=tests/e2e`` in pyproject.toml; naming the folder runs them.
Screenshots for people to look at go to ``screenshots/`` (git-ignored), also on failure.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
NOTEBOOK = "03-play-against-bots.ipynb"
# Where the notebooks come from; a throwaway folder can stand in while a notebook is written.
NOTEBOOKS = Path(os.environ.get("MOGUL_E2E_NOTEBOOKS", ROOT / "notebooks"))
CHROMIUM = os.environ.get("MOGUL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # needed as root (containers, CI)
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # No calls home: without these Chromium keeps hitting refused connections offline.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
VIEWPORT = {"width": 1366, "height": 768}  # a laptop (screens.SIZES)
# What `make voila-player` passes to Voila (keep them in step): the kit's template (no CDN fetches)
# and progressive rendering (plotly's renderer gets real output models).
VOILA_CELL_ERROR = "There was an error when executing cell"  # Voila's page when a cell failed
CLASSROOM_VOILA_ARGS = ["--template=mogul", "--progressive_rendering=True"]
SERVER_START_TIMEOUT = 90  # seconds
# The kit's JupyterLab settings (news and update checks off), as `make lab` passes them.
LAB_SETTINGS = ROOT / "share" / "jupyter" / "lab" / "settings"


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright's own base_url fixture trips a pytest 9 deprecation; not ours to fix.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning",
    )


@pytest.fixture(scope="session", autouse=True)
def _fresh_failure_screenshots() -> None:
    """Drop failure screenshots of earlier runs, so the folder shows this run only."""
    for old in SCREENSHOTS.glob("failed-*.png"):
        old.unlink()


# --- servers -----------------------------------------------------------------------------------


def free_port() -> int:
    """A localhost port nobody listens on right now (the server is told not to try others)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Server:
    """A server process of our own: started in its own session, logged to a file, stopped by pid.

    ``url`` is the server's root, ``app_url`` the page that shows the notebook.
    """

    def __init__(
        self,
        name: str,
        argv: list[str],
        cwd: Path,
        env: dict[str, str],
        log: Path,
        url: str,
        app_url: str,
    ):
        self.name, self.argv, self.url, self.app_url, self.log = name, argv, url, app_url, log
        self._log_file = open(log, "wb")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def wait_ready(self, ready: Callable[[], bool], timeout: float = SERVER_START_TIMEOUT) -> None:
        """Poll ``ready`` until it holds; fail with the server's log if it dies or times out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(
                    f"{self.name} exited with code {self.proc.returncode} before it was ready.\n"
                    f"command: {' '.join(self.argv)}\n--- log ---\n{self.log_tail()}",
                    pytrace=False,
                )
            if ready():
                return
            time.sleep(0.25)
        pytest.fail(
            f"{self.name} was not ready after {timeout} s.\n--- log ---\n{self.log_tail()}",
            pytrace=False,
        )

    def _descendants(self) -> list[int]:
        try:
            import psutil  # installed with ipykernel
        except ImportError:
            return []
        try:
            return [p.pid for p in psutil.Process(self.proc.pid).children(recursive=True)]
        except psutil.Error:
            return []

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and any kernel it left behind, by pid."""
        children = self._descendants()  # kernels run in sessions of their own
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for pid in children:
            with contextlib.suppress(ProcessLookupError):  # gone: the server shut it down
                os.kill(pid, signal.SIGKILL)
        self._log_file.close()


def jupyter_env(home: Path) -> dict[str, str]:
    """This environment with Jupyter's per-user folders in ``home``: no user config, no news."""
    settings = home / "lab-settings"  # empty: the kit's own settings come from LAB_SETTINGS
    settings.mkdir(parents=True)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "lab-workspaces"),
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        # The kit's Voila template (share/jupyter/voila/templates/mogul), as make voila-player.
        "JUPYTER_PATH": os.pathsep.join(
            filter(None, [str(ROOT / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")])
        ),
    }
    env.pop("JUPYTER_TOKEN", None)
    return env


def root_flag() -> list[str]:
    return ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


@pytest.fixture(scope="session")
def notebook_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary copy of the notebooks: what the servers serve and may write to."""
    source = NOTEBOOKS / NOTEBOOK
    if not source.is_file():
        pytest.fail(f"{source} is missing: the browser tests open it.", pytrace=False)
    target = tmp_path_factory.mktemp("served") / "notebooks"
    shutil.copytree(NOTEBOOKS, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return target


@pytest.fixture(scope="session")
def notebook_path(notebook_dir: Path) -> Path:
    """The served copy of the notebook under test."""
    return notebook_dir / NOTEBOOK


@pytest.fixture(scope="session")
def lab(notebook_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """JupyterLab on a free localhost port, authentication off (this test only)."""
    home = tmp_path_factory.mktemp("lab-home")
    port = free_port()
    argv = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={notebook_dir}",
        *root_flag(),
        f"--LabApp.app_settings_dir={LAB_SETTINGS}",  # as `make lab`: no news pop-up
    ]
    url = f"http://127.0.0.1:{port}/"
    app_url = f"{url}lab/tree/{NOTEBOOK}"
    env = jupyter_env(home)
    # As `make lab`: the kit's notebooks trusted, so Lab draws their saved widget state before
    # Run All (an untrusted notebook shows a widget's text instead)
    subprocess.run(
        [sys.executable, "-m", "nbformat.sign", *map(str, sorted(notebook_dir.glob("*.ipynb")))],
        env=env,
        check=True,
        capture_output=True,
    )
    server = Server("JupyterLab", argv, notebook_dir, env, home / "lab.log", url, app_url)
    try:
        server.wait_ready(lambda: http_ok(f"{url}api/status"))
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def voila(notebook_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The notebook as a Voila app (what ``make voila-player`` serves) on a free localhost port."""
    home = tmp_path_factory.mktemp("voila-home")
    port = free_port()
    argv = [
        sys.executable,
        "-m",
        "voila",
        str(notebook_dir / NOTEBOOK),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--Voila.port_retries=0",
        "--show_tracebacks=True",
        *CLASSROOM_VOILA_ARGS,
    ]
    url = f"http://127.0.0.1:{port}/"
    server = Server("Voila", argv, notebook_dir, jupyter_env(home), home / "voila.log", url, url)
    try:
        # GET / would run the whole notebook, so readiness is the open port.
        server.wait_ready(lambda: port_open(port))
        yield server
    finally:
        server.stop()


# --- the browser ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options, pointed at the system Chromium."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"No Chromium at {CHROMIUM}. Run `make browser` (as root it installs Debian's chromium "
            "package), or set MOGUL_CHROMIUM=/path/to/chromium. Playwright's own browser download "
            "is not used.",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": VIEWPORT}


# Module federation's warning when a lab extension was built against other versions of the
# page's shared JupyterLab packages than the page loads (Voila bundles its own JupyterLab core):
# "Unsatisfied version 4.2.5 ... of shared singleton module @jupyterlab/notebook (required
# ^4.6.2)". The widget packages pinned in pyproject.toml are chosen so that none appears.
VERSION_CLASH = re.compile(r"Unsatisfied version|No satisfying version")


def console_problem(message) -> str | None:
    """A console message as a problem (an error, or a package version clash), else None."""
    if message.type == "error":
        return f"console.error: {message.text}"
    if VERSION_CLASH.search(message.text):
        return f"console.{message.type} (package versions): {message.text}"
    return None


def watch_console(page: Page, problems: list[str]) -> None:
    """Add the page's console problems and uncaught exceptions to ``problems`` as they come."""

    def seen(message) -> None:
        problem = console_problem(message)
        if problem:
            problems.append(problem)

    page.on("console", seen)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))


def version_clashes(problems: list[str]) -> list[str]:
    """The package version clashes among the console problems ``watch_console`` collected."""
    return [p for p in problems if "(package versions)" in p]


@pytest.fixture
def console(page) -> list[str]:
    """The page's console errors, version clashes and uncaught exceptions (see
    ``console_problem``)."""
    messages: list[str] = []
    watch_console(page, messages)
    return messages


@pytest.fixture
def local_only(page: Page, console: list[str]) -> None:
    """Only the test's own servers answer: requests elsewhere (a CDN fallback) fail at once."""

    def block(route) -> None:
        console.append(f"blocked request: {route.request.url}")
        route.abort()

    page.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:)"), block)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """On a failed browser test, save what the page showed to screenshots/failed-<test>.png."""
    report = yield
    page = getattr(item, "funcargs", {}).get("page")
    if report.when == "call" and report.failed and page is not None:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"failed-{re.sub(r'[^A-Za-z0-9_.-]', '_', item.name)}.png"
        try:
            page.screenshot(path=path, full_page=True)
            report.sections.append(("screenshot", str(path)))
        except Exception as error:  # the page may be gone; the failure itself matters more
            report.sections.append(("screenshot", f"not saved: {error}"))
    return report


# --- the game on a page ------------------------------------------------------------------------


class GameView:
    """A ``GamePlayer`` and its ``ShareValueDashboard`` as drawn in a page (Lab or Voila).

    The hooks are the first game player on the page (``.mogul-game-player``), its "Next round"
    button and game table (``.mogul-game``), and the chart of the first dashboard
    (``.mogul-dashboard .js-plotly-plot``).
    """

    def __init__(self, page: Page, console: list[str]):
        self.page, self.console = page, console
        self.player = page.locator(".mogul-game-player").first
        # Not exact: the button's icon adds a glyph to its accessible name.
        self.next_round = self.player.get_by_role("button", name="Next round").first
        self.table = self.player.locator(".mogul-game").first
        self.chart = page.locator(".mogul-dashboard .js-plotly-plot").first
        self.auction_chart = self.player.locator(".js-plotly-plot").first  # the player's own chart

    def _diagnosis(self) -> str:
        """What the first output shows instead, and the browser's errors (first lines, counted)."""
        first = self.page.locator(".jp-OutputArea-output").first
        if first.count():
            first.evaluate("out => out.scrollIntoView({block: 'start'})")  # for the screenshot
            mime = first.get_attribute("data-mime-type") or "?"
            shown = f"[{mime}] " + " ".join(first.inner_text().split())[:300]
        else:
            shown = "(no output)"
        errors = Counter(m.strip().splitlines()[0][:200] for m in self.console if m.strip())
        listed = "\n".join(f"  {n} x {m}" for m, n in errors.most_common(8)) or "  (none)"
        return (
            f"The first output shows: {shown}\nCharts: {self.charts()}\nBrowser errors:\n{listed}"
        )

    def charts(self) -> str:
        """What each plotly chart on the page holds: traces, points and title (for failures).

        A live chart whose widget model failed to start shows no traces (the data came after
        the model was created) or an old round; anywidget reports no error the page can see.
        """
        try:
            return self.page.evaluate(
                """() => Array.from(document.querySelectorAll('.js-plotly-plot'), gd => {
                     const data = gd.data || [], layout = gd.layout || {};
                     const title = (layout.title && layout.title.text)
                       || (layout.annotations || []).map(a => a.text).join(' / ');
                     const points = data.reduce((n, t) => n + (t.x ? t.x.length : 0), 0);
                     return `${data.length} traces, ${points} points, "${title || ''}"`;
                   }).join('; ')"""
            )
        except Exception as error:  # the page may be gone
            return f"(not read: {error})"

    def expect_rendered(self, where: str, timeout: float = 30_000) -> None:
        """The player's buttons, its table and a drawn plotly chart are on screen."""
        try:
            expect(self.next_round).to_be_visible(timeout=timeout)
            expect(self.table).to_be_visible(timeout=10_000)
        except AssertionError:
            raise AssertionError(
                f"The GamePlayer widget did not render in {where}: no 'Next round' button and "
                f"game table after {timeout / 1000:.0f} s.\n{self._diagnosis()}"
            ) from None
        try:
            expect(self.chart.locator(".main-svg").first).to_be_visible(timeout=30_000)
            self.page.wait_for_function(
                "(gd) => gd.querySelectorAll('.scatterlayer .trace').length > 0",
                arg=self.chart.element_handle(),
                timeout=10_000,
            )
        except Exception:
            raise AssertionError(
                f"No plotly chart was drawn in {where}.\n{self._diagnosis()}"
            ) from None

    def round(self) -> int | None:
        """The round the table shows (None once the game is over). Read from the text itself
        (``textContent``): the text Lab renders (``innerText``) lacks what lies in a cell
        scrolled out of view."""
        found = re.search(r"Round (\d+)", self.table.text_content() or "")
        return int(found[1]) if found else None

    def chart_points(self) -> int:
        """How many data points the chart holds, over all its traces."""
        return self.chart.evaluate("gd => gd.data.reduce((n, t) => n + (t.x ? t.x.length : 0), 0)")

    def play_next_round(self) -> tuple[str, str]:
        """Click "Next round"; check that the table and the chart moved on. Returns (before, after)."""
        expect(self.next_round).to_be_enabled(timeout=30_000)
        # as a person does: look at the game before pressing (and read it whole, see round())
        self.player.scroll_into_view_if_needed()
        before, round_before, points_before = (
            self.table.text_content(),
            self.round(),
            self.chart_points(),
        )
        self.next_round.click()
        # The table is redrawn after every move of the round, so wait for the next round (or
        # the end of the game), not for the first change. The widget replaces the table's
        # HTML, so look it up afresh each time.
        try:
            self.page.wait_for_function(
                """([box, text, round]) => {
                     const t = box.querySelector('.mogul-game');
                     if (!t || t.textContent === text) return false;
                     const found = /Round (\\d+)/.exec(t.textContent);
                     return round === null || !found || Number(found[1]) > round;
                   }""",
                arg=[self.player.element_handle(), before, round_before],
                timeout=60_000,
            )
        except Exception:
            raise AssertionError(
                f"The table did not change after Next round.\n{self._diagnosis()}"
            ) from None
        after = self.table.text_content()
        round_after = self.round()
        assert round_after is None or round_before is None or round_after > round_before, (
            f"round {round_before} -> {round_after} after Next round"
        )
        try:
            self.page.wait_for_function(
                "([gd, n]) => gd.data.reduce((k, t) => k + (t.x ? t.x.length : 0), 0) !== n",
                arg=[self.chart.element_handle(), points_before],
                timeout=30_000,
            )
        except Exception:
            raise AssertionError(
                f"The chart did not follow the round ({points_before} points).\n{self._diagnosis()}"
            ) from None
        if round_after is not None:
            try:
                self.page.wait_for_function(
                    "([gd, text]) => ((gd.layout.title || {}).text || '').includes(text)",
                    arg=[self.auction_chart.element_handle(), f"round {round_after}"],
                    timeout=30_000,
                )
            except Exception:
                raise AssertionError(
                    f"The auction chart did not move on to round {round_after}.\n{self._diagnosis()}"
                ) from None
        return before, after

    def play_next_steps(self, steps: int) -> None:
        """Click "Next step" ``steps`` times (a bot's bid or drop each), waiting for the table."""
        button = self.player.get_by_role("button", name="Next step").first
        for _ in range(steps):
            expect(button).to_be_enabled(timeout=30_000)
            before = self.table.inner_text()
            button.click()
            self.page.wait_for_function(
                "([box, text]) => { const t = box.querySelector('.mogul-game'); return t && t.innerText !== text; }",
                arg=[self.player.element_handle(), before],
                timeout=30_000,
            )

    def screenshot(self, name: str, full_page: bool = False) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / name
        self.page.screenshot(path=path, full_page=full_page)
        return path


@pytest.fixture
def game(page: Page, console: list[str], local_only: None) -> GameView:
    return GameView(page, console)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write screenshots/index.html: the baselines beside this run's screenshots."""
    from screens import write_gallery

    if (ROOT / "screenshots").exists():
        write_gallery()
