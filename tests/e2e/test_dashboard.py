"""The lecturer's dashboard the hall serves (no kernel), in a browser, on the class's server as
``mogul classroom`` starts it (the hall's own server: the dashboard behind the lecturer's token).

The lecturer opens the dashboard (the time to its table list is printed: the Voila dashboard
took 2.8-4.5 s on a quiet machine), creates two tables; a phone joins a seat through the
student page and the dashboard shows it within a second; Start now, Pause (the phone sees
it) and Resume work; Delete asks first, then removes the unused table; the projector link
opens the projector page. No page makes a request to any host but the server. Screenshots,
phone (390x844) and laptop (1366x768), go to ``screenshots/``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator

import pytest
from conftest import SCREENSHOTS, TOKEN, Server, class_server, free_port, port_open
from playwright.sync_api import Browser, Page, expect
from screens import geometry
from test_hall import PHONE, local_only, open_page
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The class's server over a fresh store."""
    home = tmp_path_factory.mktemp("dashboard-home")
    port = free_port()
    running = class_server(home, port)
    try:
        running.wait_ready(lambda: port_open(port))
        yield running
    finally:
        running.stop()


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"dashboard-{name}.png", full_page=True)


def test_the_dashboard_creates_tables_follows_a_join_and_pauses_resumes_deletes(
    server: Server, browser: Browser
) -> None:
    hall, outside = server.url, []
    stranger = local_only(browser.new_context(viewport=LAPTOP).new_page(), outside)
    assert stranger.goto(f"{hall}mogul/hall/dashboard?session=E2E").status == 403  # no token
    assert stranger.goto(f"{hall}api/kernels").status == 404  # no Jupyter: no kernels, no files
    with pytest.raises(InvalidStatus):  # nor its socket
        connect(f"{hall.replace('http', 'ws')}mogul/hall/dashboard/ws").close()
    stranger.context.close()
    lecturer = local_only(browser.new_context(viewport=LAPTOP).new_page(), outside)
    start = time.monotonic()
    lecturer.goto(f"{hall}mogul/hall/dashboard?session=E2E&token={TOKEN}")
    expect(lecturer.locator("#summary")).to_contain_text("0 of 0 seats joined")
    shown = time.monotonic() - start
    print(f"the dashboard showed its table list in {shown:.2f} s (load {os.getloadavg()[0]:.1f})")
    assert lecturer.url == f"{hall}mogul/hall/dashboard?session=E2E"  # the token is off
    expect(lecturer.locator("#session")).to_have_value("E2E")
    expect(lecturer.locator("#game")).to_have_value("classic")
    expect(lecturer.locator("#bot")).to_have_value("value")
    lecturer.get_by_label("Tables").fill("2")
    lecturer.get_by_label("People per table").fill("3")
    lecturer.get_by_label("Bots per table").fill("0")
    lecturer.get_by_role("button", name="Create tables").click()
    cards = lecturer.locator(".mogul-table-card")
    expect(cards).to_have_count(2, timeout=10_000)
    expect(lecturer.locator("#message")).to_have_text("Created 2 tables.")
    codes = [c.strip() for c in lecturer.locator(".mogul-card-code").all_inner_texts()]
    assert all(re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", c) for c in codes), codes
    expect(lecturer.locator("#summary")).to_contain_text("0 of 6 seats joined")
    first, second = cards.nth(0), cards.nth(1)

    phone = open_page(browser, f"{hall}mogul/hall/?table={codes[0]}", PHONE, outside)
    phone.locator("#name").fill("Ann")
    phone.get_by_role("button", name="Join the table").click()
    expect(phone.locator("#header")).to_contain_text("you are Ann", timeout=10_000)
    expect(first).to_contain_text("Ann", timeout=1_000)  # the dashboard within a second
    expect(lecturer.locator("#summary")).to_contain_text("1 of 6 seats joined")
    expect(second.get_by_role("button", name="Delete")).to_be_visible()
    expect(first.get_by_role("button", name="Delete")).to_have_count(0)  # somebody joined
    shot(lecturer, "laptop-joined")

    first.get_by_role("button", name="Start now").click()  # free seats get bots
    expect(first).to_contain_text("round 1", timeout=10_000)
    first.get_by_role("button", name="Pause").click()
    expect(phone.locator("#line")).to_contain_text("Paused", timeout=10_000)
    expect(first).to_contain_text("paused")
    first.get_by_role("button", name="Resume").click()
    expect(phone.locator("#line")).not_to_contain_text("Paused", timeout=10_000)
    expect(first.get_by_role("button", name="Pause")).to_be_visible()
    first.get_by_role("button", name="New seat key").click()  # asks first
    expect(lecturer.locator("#message")).not_to_contain_text("New seat key for")
    first.get_by_role("button", name="Really new seat key? Press again").click()
    expect(lecturer.locator("#message")).to_contain_text("New seat key for Ann (seat 1")
    expect(phone.locator("#message")).to_contain_text("gave seat 1", timeout=10_000)

    second.get_by_role("button", name="Delete").click()  # the first press only asks
    expect(second.get_by_role("button", name="Really delete? Press again")).to_be_visible()
    shot(lecturer, "laptop-confirm")
    expect(cards).to_have_count(2)
    second.get_by_role("button", name="Really delete? Press again").click()
    expect(cards).to_have_count(1, timeout=10_000)
    expect(lecturer.locator("#message")).to_contain_text("deleted")

    with lecturer.context.expect_page() as opened:  # the projector, without the token
        lecturer.get_by_role("link", name="Open the projector page").click()
    projector = opened.value
    expect(projector.locator(".joined")).to_contain_text(
        "1 of 1 seats joined", timeout=10_000
    )  # bots took the rest
    assert "token" not in projector.url
    projector.close()

    assert geometry(lecturer, "main") == []
    lecturer.set_viewport_size(PHONE)
    assert geometry(lecturer, "main") == []
    shot(lecturer, "phone")
    phone.close()
    assert outside == []
    assert "Traceback" not in server.log.read_text()
