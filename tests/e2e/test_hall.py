"""The lecture hall in a browser, served as ``make classroom`` serves it: one Jupyter server with
the hall's student pages and the lecturer's dashboard (behind the server's token).

The lecturer creates a table on the dashboard at 1920x1080 and the projector page the hall
serves shows it (on a 1920x1080 screen of its own); three phones
(390x844, separate browser contexts as separate devices) open the student page with the table
filled in (as the QR code does), join, and play into round 2 while the projector page follows;
the dashboard's card follows the table and its Pause reaches every phone; one phone reloads and
is back at its seat without typing; the lecturer sets a turn timer and the idle student's clock
runs down on every page until a bot moves for them. A server frozen as a student presses a
move, killed and started again has every student back at their seat within 3 s of answering,
and the lost move offered again. No page (dashboard, projector, student, practice) makes a
request to any host but the server. Screenshots of each go to ``screenshots/``. Every wait is
on something visible on the page, never a sleep.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, SCREENSHOTS, Server, free_port, jupyter_env, port_open
from playwright.sync_api import Browser, Page, Route, expect
from screens import geometry
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

NAMES = ("Ann", "Ben", "Cy")
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
TOKEN = "e2e-hall-token"


def class_server(home: Path, port: int, log: str = "server.log") -> Server:
    """The class's server as ``make classroom`` starts it (its store: ``home/class.sqlite``),
    started; not yet waited for."""
    env = jupyter_env(home / log.replace(".", "-"))
    path = [str(ROOT), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env.update(
        MOGUL_CLASSROOM=str(home / "class.sqlite"),
        PYTHONPATH=os.pathsep.join(path),
        MOGUL_HALL_URL=f"http://127.0.0.1:{port}/mogul/hall/",
    )
    argv = [
        sys.executable,
        "-m",
        "jupyter",
        "server",
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={TOKEN}",
        "--ServerApp.jpserver_extensions={'mogul.classroom.server': True}",
    ]
    url = f"http://127.0.0.1:{port}/"
    return Server("Jupyter server (hall and dashboard)", argv, home, env, home / log, url, url)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The class's server (as ``make classroom`` starts it) over a fresh store; its root URL."""
    home = tmp_path_factory.mktemp("hall-home")
    port = free_port()
    server = class_server(home, port)
    try:
        server.wait_ready(lambda: port_open(port), timeout=180)
        yield server.url
    finally:
        server.stop()


LOCAL = re.compile(r"^(https?|wss?)://127\.0\.0\.1[:/]|^(data|blob):")
"""The addresses a classroom page may load from: the test's own server (a room without internet)."""


def local_only(page: Page, outside: list[str]) -> Page:
    """``page``, with every request to another host refused and noted in ``outside``."""

    def refuse(route: Route) -> None:
        outside.append(route.request.url)
        route.abort()

    page.route(lambda url: not LOCAL.match(url), refuse)
    page.on("websocket", lambda ws: None if LOCAL.match(ws.url) else outside.append(ws.url))
    return page


def open_page(browser: Browser, url: str, viewport: dict, outside: list[str]) -> Page:
    """A new device showing ``url``; its requests to other hosts refused and noted in ``outside``."""
    page = local_only(browser.new_context(viewport=viewport).new_page(), outside)
    page.goto(url, timeout=180_000)
    return page


def the_mover(phones: list[Page]) -> list[Page]:
    """The phones showing move buttons, polled (each on its own device) for up to 10 s."""
    for _ in range(100):
        movers = [p for p in phones if p.locator("#moves button").count()]
        if movers or "Round 1" not in phones[0].locator("#board").inner_text():
            return movers
        phones[0].wait_for_timeout(100)
    raise AssertionError("no phone showed a move for 10 s")


# Every text on the projector page, its size in px and its box; read from the live DOM.
TEXTS = """() => Array.from(document.querySelectorAll('main *')).filter(e =>
  Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim())).map(e => {
    const r = e.getBoundingClientRect();
    return {text: e.textContent.trim().slice(0, 40), px: parseFloat(getComputedStyle(e).fontSize),
            top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  })"""


def check_projector(projector: Page) -> None:
    """From the back of the room: nothing outside the 1920x1080 screen, nothing to scroll to,
    no text under 24 px, the table's code 64 px or more, its QR code at least 300 px."""
    assert geometry(projector, "main") == []
    texts = projector.evaluate(TEXTS)
    assert texts
    for t in texts:
        assert t["px"] >= 24, f"{t['text']!r} is {t['px']} px: too small to read from the back"
        assert t["top"] >= 0 and t["bottom"] <= 1080, f"{t['text']!r} is off the screen: {t}"
    code = projector.locator(".code").first
    assert code.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 64
    qr = projector.locator(".table svg").first.bounding_box()
    assert qr["width"] >= 300 and qr["y"] + qr["height"] <= 1080, qr
    assert projector.evaluate("document.documentElement.scrollHeight") <= 1080


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"hall-{name}.png", full_page=False)


def test_three_phones_and_the_projector_into_round_2_a_reload_and_the_turn_timer(
    hall: str, browser: Browser
) -> None:
    outside: list[str] = []  # requests to any host but the server: none, on every page
    lecturer = open_page(browser, f"{hall}mogul/hall/dashboard?token={TOKEN}", PROJECTOR, outside)
    summary = lecturer.locator("#summary")
    expect(summary).to_contain_text("0 of 0 seats joined", timeout=30_000)
    lecturer.get_by_label("Tables").fill("1")
    lecturer.get_by_label("People per table").fill("3")
    lecturer.get_by_label("Bots per table").fill("0")
    lecturer.get_by_role("button", name="Create tables").click()
    code = lecturer.locator(".mogul-card-code").first.inner_text(timeout=30_000).strip()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code), code
    expect(summary).to_contain_text("0 of 3 seats joined", timeout=30_000)
    expect(summary).to_contain_text(f"{hall}mogul/hall/")
    shot(lecturer, "dashboard-before")
    # The projector page the hall serves, on the room's projector (its own screen and login).
    screen = open_page(browser, f"{hall}mogul/hall/projector?token={TOKEN}", PROJECTOR, outside)
    expect(screen.locator(".joined")).to_have_text(
        re.compile("0 of 3 seats joined"), timeout=30_000
    )
    assert screen.url == f"{hall}mogul/hall/projector"  # the room never reads the token
    expect(screen.locator(".address")).to_contain_text(f"{hall}mogul/hall/")
    expect(screen.locator(".table .code")).to_have_text([code])
    expect(screen.locator(".table .state")).to_have_text(["0 of 3 seats taken"])
    expect(screen.locator(".table svg")).to_have_count(1)
    check_projector(screen)
    shot(screen, "projector-page-before")
    # no token, no cookie
    stranger = open_page(browser, f"{hall}mogul/hall/projector", PROJECTOR, outside)
    expect(stranger).to_have_url(re.compile("/login"))
    assert stranger.locator(".joined").count() == 0
    with pytest.raises(InvalidStatus):  # nor its socket
        connect(f"{hall.replace('http', 'ws')}mogul/hall/projector/ws").close()

    phones = []
    for name in NAMES:  # each opens the address the QR code holds: the table is filled in
        phone = open_page(browser, f"{hall}mogul/hall/?table={code}", PHONE, outside)
        expect(phone.locator("#table")).to_have_value(code)
        phone.locator("#name").fill(name)
        phone.get_by_role("button", name="Join the table").click()
        expect(phone.locator("#header")).to_contain_text(f"you are {name}", timeout=30_000)
        expect(phone.locator("#newkey")).to_contain_text("Write this down")
        if name == "Ann":
            shot(phone, "phone-key")
        phone.get_by_role("button", name="I wrote it down").click()
        phones.append(phone)
    expect(summary).to_contain_text("3 of 3 seats joined", timeout=30_000)
    expect(screen.locator(".joined")).to_contain_text("3 of 3 seats joined", timeout=30_000)
    for phone in phones:
        expect(phone.locator("#board")).to_contain_text("Round 1", timeout=30_000)

    # Into round 2: whoever has move buttons drops (or takes); every page follows each move.
    moves = 0
    while "Round 1" in phones[0].locator("#board").inner_text():
        movers = the_mover(phones)
        if not movers:
            break
        assert len(movers) == 1, "only the student to move has buttons"
        mover = movers[0]
        before = mover.locator("#board").inner_text()
        buttons = mover.locator("#moves button")
        drop = buttons.filter(has_text=re.compile("^(Drop|Take)"))
        (drop if drop.count() else buttons).first.click()
        mover.wait_for_function(
            "t => document.querySelector('#board').innerText !== t", arg=before, timeout=30_000
        )
        after = mover.locator(".mogul-game details li").all_inner_texts()
        for phone in phones:  # the others see the move without reloading
            expect(phone.locator(".mogul-game details li")).to_have_text(after, timeout=10_000)
        moves += 1
        assert moves < 30, "the round did not end"
    assert moves >= 3  # two drops and at least the winner's choice
    for phone in phones:
        expect(phone.locator("#board")).to_contain_text("Round 2", timeout=10_000)
    shot(phones[0], "phone-round-2")
    expect(screen.locator(".table .state")).to_have_text(["round 2 · playing"], timeout=10_000)
    check_projector(screen)
    shot(screen, "projector-page-round-2")

    # The dashboard's card follows the table; its Pause reaches every phone, Resume lets it go on.
    card = lecturer.locator(".mogul-table-card").first
    expect(card).to_contain_text("round 2", timeout=10_000)
    for name in NAMES:
        expect(card).to_contain_text(name)
    card.get_by_role("button", name="Pause").click()
    for phone in phones:
        expect(phone.locator("#line")).to_contain_text("Paused", timeout=10_000)
        expect(phone.locator("#moves button")).to_have_count(0)
    card.get_by_role("button", name="Resume").click()
    for phone in phones:
        expect(phone.locator("#line")).not_to_contain_text("Paused", timeout=10_000)

    # A reload (or a phone waking up) comes back to the seat without typing.
    phones[1].reload()
    expect(phones[1].locator("#header")).to_contain_text("you are Ben", timeout=30_000)
    expect(phones[1].locator("#join")).to_be_hidden()
    expect(phones[1].locator("#board")).to_contain_text("Round 2")
    shot(phones[1], "phone-after-reload")

    # The turn timer: the student to move idles; every page counts down, then a bot moves.
    lecturer.get_by_label("Turn timer (s)").fill("8")
    lecturer.get_by_role("button", name="Set the timer").click()
    expect(lecturer.locator("#message")).to_have_text("Turn timer: 8 s", timeout=30_000)
    for phone in phones:
        expect(phone.locator("#timer")).to_contain_text(
            re.compile(r"has \d+ s to move|You have \d+ s"), timeout=30_000
        )
    idle = next(p for p in phones if p.locator("#moves button").count())
    expect(idle.locator("#timer")).to_contain_text("You have")
    first = int(re.search(r"(\d+) s", idle.locator("#timer").inner_text()).group(1))
    expect(idle.locator("#timer")).not_to_contain_text(f"have {first} s", timeout=5_000)  # it moves
    shot(idle, "phone-timer")
    for phone in phones:
        expect(phone.locator("#notes")).to_contain_text("Time ran out for", timeout=30_000)
    shot(phones[2], "phone-timed-out")
    shot(lecturer, "dashboard")
    assert outside == []  # a room without internet sees every page whole


LAPTOP = {"width": 1366, "height": 768}
# Notes in the page when its "connection" line clears after it was lost: the student is back.
WATCH_RETURN = """() => {
  const line = document.querySelector('#conn');
  window.mogulLost = window.mogulBack = null;
  new MutationObserver(() => {
    if (line.textContent.startsWith('Connection lost')) window.mogulLost ??= Date.now();
    else if (line.textContent === '' && window.mogulLost) window.mogulBack ??= Date.now();
  }).observe(line, {childList: true, characterData: true, subtree: true});
}"""


def test_a_restarted_server_has_the_class_back_at_its_seats_and_offers_a_lost_move_again(
    browser: Browser, tmp_path: Path
) -> None:
    """The class's server is frozen as a student presses a move, killed, and started again on
    the same store: every page is back at its seat within 3 s of the server answering (issue
    39: 20 s with a back-off of 5 s), the move whose answer never came says it was not taken
    and is offered again, and pressed again it is played once."""
    from mogul.classroom.store import TableStore
    from mogul.classroom.table import pretty_code

    store = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    code = store.create_table("classic", ["human"] * 3, seed=1).code
    port = free_port()
    server = class_server(tmp_path, port, "first.log")
    server.wait_ready(lambda: port_open(port), timeout=180)
    outside: list[str] = []
    try:
        address = f"{server.url}mogul/hall/?table={pretty_code(code)}"
        pages = [open_page(browser, address, size, outside) for size in (PHONE, PHONE, LAPTOP)]
        for name, page in zip(NAMES, pages, strict=True):
            page.locator("#name").fill(name)
            page.get_by_role("button", name="Join the table").click()
            expect(page.locator("#newkey")).to_be_visible(timeout=30_000)
            page.get_by_role("button", name="I wrote it down").click()
        for page in pages:
            expect(page.locator("#board")).to_contain_text("Round 1", timeout=30_000)
            page.evaluate(WATCH_RETURN)
        (mover,) = the_mover(pages)
        button = mover.locator("#moves button").first
        label, action = button.inner_text(), button.get_attribute("data-action")
        os.kill(server.proc.pid, signal.SIGSTOP)  # the move goes out; no answer comes
        button.click()
        expect(button).to_be_disabled()
        server.proc.kill()
        server.stop()
        for page in pages:
            expect(page.locator("#conn")).to_have_text("Connection lost: reconnecting...")
        expect(mover.locator("#message")).to_have_text(
            f'Connection lost before your move "{label}" was answered.'
        )
        assert store.actions(code) == []
        server = class_server(tmp_path, port, "second.log")
        while not port_open(port):
            assert server.proc.poll() is None, server.log_tail()
            time.sleep(0.02)
        answered = time.time()
        for page in pages:
            page.wait_for_function("() => window.mogulBack !== null", timeout=30_000)
        back = max(page.evaluate("window.mogulBack") for page in pages) / 1000 - answered
        print(f"every page back at its seat {back:.2f} s after the restarted server answered")
        for name, page in zip(NAMES, pages, strict=True):
            expect(page.locator("#header")).to_contain_text(f"you are {name}")
        expect(mover.locator("#message")).to_have_text(
            f'Your move "{label}" was not taken: press it again.'
        )
        for name, page in zip(NAMES, pages, strict=True):
            shot(page, f"restarted-{name}{'-to-move' if page is mover else ''}")
        mover.set_viewport_size(LAPTOP if mover.viewport_size == PHONE else PHONE)
        shot(mover, "restarted-to-move-other-size")
        before = mover.locator("#board").inner_text()
        mover.get_by_role("button", name=label, exact=True).click()
        mover.wait_for_function(
            "t => document.querySelector('#board').innerText !== t", arg=before, timeout=30_000
        )
        expect(mover.locator("#message")).to_have_text("")
        assert store.actions(code) == [action]  # played once
        assert back < 3
        assert outside == []
    finally:
        server.stop()
        store.close()


@pytest.fixture
def full_hall(tmp_path) -> Iterator[str]:
    """A hall server (this process, its own thread) over sessions of 1 to 40 tables of 5, half
    of each session's tables playing; its projector's address (the token filled in)."""
    import asyncio
    import threading

    from mogul.classroom import server
    from mogul.classroom.server.hall import Hall
    from mogul.classroom.store import TableStore

    store = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    for count in (1, 5, 12, 28, 40):
        for table in store.create_tables(count, "classic", ["human"] * 5, session=f"{count}"):
            if table.code in {t.code for t in store.tables(f"{count}")[: count // 2]}:
                for seat in range(5):
                    store.join(table.code, f"P{seat}")
    port, ready, loop = free_port(), threading.Event(), asyncio.new_event_loop()

    async def serve() -> None:
        hall = Hall(store, address="http://192.168.1.23:8866/mogul/hall/")
        server.make_app(hall, token=TOKEN).listen(port, address="127.0.0.1")
        hall.start()
        ready.set()

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(serve(), loop).result(60)
    yield f"http://127.0.0.1:{port}/mogul/hall/projector?token={TOKEN}&session="
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    store.close()


@pytest.mark.parametrize("tables", [5, 12, 28, 40])
def test_a_full_hall_fits_the_projector(full_hall: str, browser: Browser, tables: int) -> None:
    """Up to 40 tables (200 students): every code and QR code on the 1920x1080 screen at once."""
    outside: list[str] = []
    screen = open_page(browser, f"{full_hall}{tables}", PROJECTOR, outside)
    expect(screen.locator(".table")).to_have_count(tables, timeout=30_000)
    assert screen.url.endswith(f"/mogul/hall/projector?session={tables}")  # no token shown
    expect(screen.locator(".joined")).to_contain_text(f"{tables // 2 * 5} of {tables * 5}")
    assert geometry(screen, "main") == []
    for t in screen.evaluate(TEXTS):
        assert t["px"] >= 20, f"{t['text']!r} is {t['px']} px: too small to read from the back"
    assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
    last = screen.locator(".table").last.bounding_box()
    assert last["y"] + last["height"] <= 1080, last
    if tables == 40:
        shot(screen, "projector-page-40-tables")
    assert outside == []


# Every control a finger may press, narrower or lower than 44 px (read from the live DOM).
SMALL_TARGETS = """() => Array.from(document.querySelectorAll('button, input, select, summary, a'))
  .filter(e => e.offsetParent !== null).map(e => {
    const r = e.getBoundingClientRect();
    return {what: (e.id || e.tagName) + ' ' + (e.textContent || e.value || '').trim().slice(0, 30),
            width: Math.round(r.width), height: Math.round(r.height)};
  }).filter(t => t.width < 44 || t.height < 44)"""


@pytest.fixture
def practice_hall(tmp_path) -> Iterator[str]:
    """A practice hall (as ``python -m mogul.classroom.server --practice`` serves it; this
    process, its own thread) with one table of one person against two value bots; the address
    the command prints."""
    import asyncio
    import threading

    from mogul.classroom import server
    from mogul.classroom.projector import table_address
    from mogul.classroom.server.hall import Hall, practice_table
    from mogul.classroom.store import TableStore

    store = TableStore(f"sqlite:///{tmp_path / 'practice.sqlite'}")
    code = practice_table(store, "classic", ["value", "value"]).code
    port, loop = free_port(), asyncio.new_event_loop()
    hall = Hall(store, practice=True)

    async def serve() -> None:
        server.make_app(hall).listen(port, address="127.0.0.1")
        hall.start()

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(serve(), loop).result(60)
    yield table_address(f"http://127.0.0.1:{port}/mogul/hall/", code)
    loop.call_soon_threadsafe(hall.stop)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    store.close()


# A page's WebSocket that opens 1.5 s late, as on a slow network: the page's code sees a
# socket still connecting until then.
SLOW_SOCKET = """
(() => {
  const Real = window.WebSocket;
  window.WebSocket = function (url) {
    const late = {readyState: 0, send() { throw new Error("not open"); }};
    setTimeout(() => {
      const real = new Real(url);
      real.onopen = (e) => { late.readyState = 1; late.send = (m) => real.send(m); late.onopen?.(e); };
      real.onmessage = (e) => late.onmessage?.(e);
      real.onclose = (e) => { late.readyState = 3; late.onclose?.(e); };
    }, 1500);
    return late;
  };
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""


def test_a_student_alone_on_a_phone_plays_bots_to_game_over_and_again(
    practice_hall: str, browser: Browser
) -> None:
    """The practice page on a phone: the printed address has the table filled in; every
    control is at least 44 px; a second phone at the same address gets a table of its own;
    the student plays to game over (bots answer at once, no lecturer), presses New game and
    is at a new table, where a reload brings them back."""
    outside: list[str] = []
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = local_only(context.new_page(), outside)
    phone.goto(practice_hall)
    pretty = practice_hall.rsplit("=", 1)[1]
    expect(phone.locator("#table")).to_have_value(pretty)
    phone.locator("#keybox summary").click()  # its input too
    assert phone.evaluate(SMALL_TARGETS) == []
    phone.locator("#name").fill("Ann")
    phone.get_by_role("button", name="Join the table").click()
    expect(phone.locator("#line")).to_contain_text("Your move", timeout=30_000)
    expect(phone.locator("#newkey")).to_be_hidden()  # no key to write down, no seat to leave
    expect(phone.locator("#leave")).to_be_hidden()
    assert phone.evaluate(SMALL_TARGETS) == []
    # the same address on another phone: a game of its own, at a table of its own; its
    # network is slow, so Join is pressed before the page is connected, and still joins
    other = local_only(
        browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page(), outside
    )
    other.add_init_script(SLOW_SOCKET)
    other.goto(practice_hall)
    other.locator("#name").fill("Ben")
    other.get_by_role("button", name="Join the table").click()
    expect(other.locator("#message")).to_contain_text("Connecting to the server")
    expect(other.locator("#line")).to_contain_text("Your move", timeout=30_000)
    expect(other.locator("#header")).to_contain_text("you are Ben")
    expect(other.locator("#header")).not_to_contain_text(pretty)
    expect(other).not_to_have_url(re.compile(pretty))
    other.context.close()
    moves = 0
    again = phone.get_by_role("button", name="New game")
    while not again.count():
        before = phone.locator("#board").inner_text()
        buttons = phone.locator("#moves button")
        drop = buttons.filter(has_text=re.compile("^(Drop|Take)"))
        (drop if drop.count() else buttons).first.click()
        phone.wait_for_function(
            "t => document.querySelector('#board').innerText !== t", arg=before, timeout=30_000
        )
        phone.wait_for_function(  # the bots answered: the student's move, or the game's end
            "() => Array.from(document.querySelectorAll('#moves button')).some(b => !b.disabled)",
            timeout=30_000,
        )
        moves += 1
        assert moves < 100, "the game did not end"
    expect(phone.locator("#line")).to_contain_text("Game over")
    assert phone.evaluate(SMALL_TARGETS) == []
    shot(phone, "practice-game-over")
    again.click()
    expect(phone).not_to_have_url(re.compile(pretty), timeout=30_000)
    expect(phone.locator("#line")).to_contain_text("Your move", timeout=30_000)
    new = phone.url.rsplit("=", 1)[1]  # as the QR codes write it
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", new) and new != pretty
    phone.reload()  # back at the new game, not the old one
    expect(phone.locator("#header")).to_contain_text(new, timeout=30_000)
    expect(phone.locator("#header")).to_contain_text("you are Ann")
    context.close()
    assert outside == []
