"""The classroom in three browsers: the lecturer creates a table, three students join it from
their own pages (separate browser contexts, as separate devices), play a full round, and each
sees the others' moves without reloading; the lecturer's dashboard follows the table.

The pages are served as ``make classroom`` and ``make lecturer`` serve them (the kit's Voila
template, progressive rendering), on free localhost ports, over one SQLite store in a
temporary folder. Every wait is on something visible on the page, never a sleep.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import (
    CLASSROOM_VOILA_ARGS,
    ROOT,
    VOILA_CELL_ERROR,
    Server,
    free_port,
    jupyter_env,
    port_open,
    version_clashes,
    watch_console,
)
from playwright.sync_api import Browser, Page, expect
from screens import SIZES, Screens

PAGES = ROOT / "mogul" / "classroom" / "pages"
NAMES = ("Ann", "Ben", "Cy")
PHONE = SIZES["phone"]  # a phone-sized screen for the students
PROJECTOR = SIZES["projector"]  # the lecturer's dashboard, projected


def serve(page: str, store: Path, home: Path) -> Server:
    port = free_port()
    argv = [
        sys.executable,
        "-m",
        "voila",
        str(PAGES / page),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--Voila.port_retries=0",
        "--show_tracebacks=True",
        *CLASSROOM_VOILA_ARGS,
    ]
    env = jupyter_env(home)
    # The kernels import this checkout's mogul (they start in the pages' folder).
    path = [str(ROOT), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env.update(MOGUL_CLASSROOM=str(store), PYTHONPATH=os.pathsep.join(path))
    url = f"http://127.0.0.1:{port}/"
    server = Server(f"Voila ({page})", argv, PAGES, env, home / "voila.log", url, url)
    server.wait_ready(lambda: port_open(port))
    return server


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """The student page and the lecturer page over one fresh store."""
    store = tmp_path_factory.mktemp("classroom") / "class.sqlite"
    servers = []
    try:
        for page in ("student.ipynb", "lecturer.ipynb"):
            servers.append(
                serve(page, store, tmp_path_factory.mktemp(page.split(".")[0] + "-home"))
            )
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


# Each page's console problems (conftest.watch_console), by page.
CONSOLES: dict[int, list[str]] = {}


def open_page(browser: Browser, url: str, ready: str, viewport: dict | None = None) -> Page:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    page = context.new_page()
    watch_console(page, CONSOLES.setdefault(id(page), []))
    page.route(
        re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:)"), lambda route: route.abort()
    )
    page.goto(url, timeout=120_000)
    failed = page.get_by_text("Traceback")
    expect(page.locator(ready).or_(failed).first).to_be_visible(timeout=90_000)
    assert VOILA_CELL_ERROR not in page.content() and not failed.count(), page.inner_text("body")[
        -2000:
    ]
    return page


def log_of(page: Page) -> str:
    """The "What happened" list of the page's table."""
    found = page.locator(".mogul-game details")
    return found.inner_text() if found.count() else ""


def test_three_students_play_a_round_and_the_lecturer_sees_it(classroom, browser: Browser) -> None:
    student_server, lecturer_server = classroom
    lecturer = open_page(browser, lecturer_server.url, ".mogul-lecturer", PROJECTOR)
    lecturer.get_by_label("Tables").fill("1")
    lecturer.get_by_label("People per table").fill("3")
    lecturer.get_by_label("Bots per table").fill("0")
    lecturer.get_by_role("button", name="Create tables").click()
    code_box = lecturer.locator(".mogul-card-code").first
    expect(code_box).to_be_visible(timeout=30_000)
    code = code_box.inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code), code

    students = []
    for name in NAMES:
        page = open_page(browser, student_server.url, ".mogul-join", PHONE)
        page.get_by_label("Table code").fill(code.lower())
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join the table").click()
        expect(page.locator(".mogul-student")).to_contain_text(f"you are {name}", timeout=30_000)
        students.append(page)
    # The last to join deals the game; the first two see it appear on their own.
    for page in students:
        expect(page.locator(".mogul-game")).to_contain_text("Round 1", timeout=30_000)
    expect(lecturer.locator(".mogul-table-card").first).to_contain_text("round 1", timeout=30_000)

    # Play until round 2: whoever has move buttons clicks one (drop in the auction, so it ends
    # soon; take or sell after it); after each click every page shows the same event log.
    moves = 0
    while "Round 1" in students[0].locator(".mogul-game").inner_text():
        # The page updates its status line before its table, so after the logs agreed the
        # status of the first page names the student to move.
        status = students[0].locator(".mogul-status").inner_text()
        mover = (
            students[0]
            if "Your move" in status
            else students[NAMES.index(status.split("for ")[1].strip(". "))]
        )
        expect(mover.locator(".mogul-status")).to_contain_text("Your move")
        expect(mover.locator(".mogul-moves button").first).to_be_visible(timeout=10_000)
        for page in students:
            if page is not mover:
                assert page.locator(".mogul-moves button").count() == 0, (
                    "only the student to move has buttons"
                )
        before = log_of(mover)
        buttons = mover.locator(".mogul-moves button")
        drop = buttons.filter(has_text=re.compile("^(Drop|Take)"))
        (drop if drop.count() else buttons).first.click()
        mover.wait_for_function(
            "t => { const d = document.querySelector('.mogul-game details'); "
            "return d && d.innerText !== t; }",
            arg=before,
            timeout=30_000,
        )
        after = mover.locator(".mogul-game details li").all_inner_texts()
        for page in students:  # the others see the move without reloading
            expect(page.locator(".mogul-game details li")).to_have_text(after, timeout=10_000)
        moves += 1
        assert moves < 30, "the round did not end"
    assert moves >= 3  # two drops and at least the winner's choice
    for page in students:
        expect(page.locator(".mogul-game")).to_contain_text("Round 2", timeout=10_000)
    card = lecturer.locator(".mogul-table-card").first
    expect(card).to_contain_text("round 2", timeout=10_000)
    for name in NAMES:
        expect(card).to_contain_text(name)
    checks = [Screens(page) for page in students]
    for n, screens in enumerate(checks):
        screens.check(f"classroom student {NAMES[n]} in round 2, phone")
    checks.append(Screens(lecturer))
    checks[-1].check("classroom lecturer in round 2, projector")
    card.get_by_role("button", name="Pause").click()  # the lecturer stops the table ...
    for page in students:
        expect(page.locator(".mogul-status")).to_contain_text("Paused", timeout=10_000)
        assert page.locator(".mogul-moves button").count() == 0
    card.get_by_role("button", name="Resume").click()  # ... and lets it go on
    expect(students[0].locator(".mogul-status")).not_to_contain_text("Paused", timeout=10_000)
    os.makedirs(ROOT / "screenshots", exist_ok=True)
    students[0].screenshot(
        path=ROOT / "screenshots" / "classroom-student-phone.png", full_page=True
    )
    lecturer.screenshot(path=ROOT / "screenshots" / "classroom-lecturer.png", full_page=True)
    problems = [p for screens in checks for p in screens.problems]
    for page in [*students, lecturer]:  # Voila's JupyterLab core and the widget extension agree
        problems += version_clashes(CONSOLES[id(page)])
    assert not problems, "What the pages show is wrong:\n" + "\n".join(problems)
