"""The auction lab in the lecture hall, in a browser: the lecturer sets up two mechanisms on the
dashboard (no kernel), three phones (390x844) play three rounds of each, and the projector
shows each round's bids come in without names.

First-price sealed bids, strangers: three tables of one round, the lecturer drawing new groups
("New groups") after each; each phone sees its own value, types one number and seals it, in
any order (the hall holds a bid made before its seat's turn); the projector counts the bids in
and shows the closed round's bids. No page ever shows another student's value. Mogul's
auction, partners: one table of three rounds; the phone to move pays a chip or drops. Then the
lecturer opens the dashboard's debrief: the class's bids and drop points, drawn at their values
inside the axes, beside the equilibrium line of each mechanism. Screenshots of every page
(phones, the dashboard on a laptop, its debrief, the projector) go to
``screenshots/auction-lab-*.png``. About 25 s.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator

import pytest
from conftest import SCREENSHOTS, free_port
from playwright.sync_api import Browser, Page, expect
from screens import data_out_of_view, geometry, wait_for_charts
from test_hall import PHONE, TOKEN, open_page

LAPTOP = {"width": 1366, "height": 768}
NAMES = ("Ann", "Ben", "Cy")
SESSION = "lab"
GAME_PARTS = ("panel", "line", "timer", "moves", "notes", "board", "message")


@pytest.fixture
def lab_hall(tmp_path) -> Iterator[tuple[str, object]]:
    """A hall server (this process, its own thread, no Jupyter) over a fresh store: its root
    address and the store."""
    from mogul.classroom import server
    from mogul.classroom.server.hall import Hall
    from mogul.classroom.store import TableStore

    store = TableStore(f"sqlite:///{tmp_path / 'lab.sqlite'}")
    port, loop = free_port(), asyncio.new_event_loop()
    root = f"http://127.0.0.1:{port}/mogul/hall/"
    hall = Hall(store, address=root)

    async def serve() -> None:
        server.make_app(hall, token=TOKEN).listen(port, address="127.0.0.1")
        hall.start()

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(serve(), loop).result(60)
    yield root, store
    loop.call_soon_threadsafe(hall.stop)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    store.close()


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"auction-lab-{name}.png", full_page=True)


def create(lecturer: Page, edition: str, rounds: int, budget: int, values: str = "") -> str:
    """Create one table of ``edition`` for three people on the dashboard; its code."""
    lecturer.locator("#game").select_option(edition)
    setup = lecturer.locator("#setup")
    expect(setup).to_be_visible()
    setup.get_by_label("Rounds").fill(str(rounds))
    setup.get_by_label("Budget").fill(str(budget))
    expect(setup.get_by_label("Values")).to_have_attribute("title", "default: uniform 0..10")
    setup.get_by_label("Values").fill(values or "uniform 0..10")
    lecturer.get_by_label("Tables").fill("1")
    lecturer.get_by_label("People per table").fill("3")
    lecturer.get_by_label("Bots per table").fill("0")
    before = lecturer.locator(".mogul-table-card").count()
    lecturer.get_by_role("button", name="Create tables").click()
    expect(lecturer.locator(".mogul-table-card")).to_have_count(before + 1, timeout=10_000)
    return lecturer.locator(".mogul-card-code").last.inner_text().strip()


def join(browser: Browser, root: str, code: str, outside: list[str]) -> list[Page]:
    phones = []
    for name in NAMES:
        phone = open_page(browser, f"{root}?table={code}", PHONE, outside)
        phone.locator("#name").fill(name)
        phone.get_by_role("button", name="Join the table").click()
        expect(phone.locator("#header")).to_contain_text(f"you are {name}", timeout=10_000)
        phone.get_by_role("button", name="I wrote it down").click()
        phones.append(phone)
    return phones


def value_of(phone: Page) -> int:
    text = phone.locator(".mogul-lab-seat").inner_text()
    return int(re.search(r"your value: (\d+)", text).group(1))


# Each point the bids figure draws: its panel's axes, value (x), bid or drop point (y), where it
# is on the page and where its panel's plotting area is.
POINTS = """(gd) => gd._fullData.filter(t => t.name === 'the class').map(t => {
  const L = gd._fullLayout, x = L[t.xaxis.replace('x', 'xaxis')], y = L[t.yaxis.replace('y', 'yaxis')];
  const area = gd.querySelector(`.draglayer .${t.xaxis}${t.yaxis} .nsewdrag`).getBoundingClientRect();
  const paths = [...gd.querySelectorAll(`.subplot.${t.xaxis}${t.yaxis} .scatterlayer .trace:first-child .points path`)];
  return {axis: t.xaxis, x: t.x, y: t.y, count: t.customdata.map(c => c[0]),
          drawn: paths.map(p => { const r = p.getBoundingClientRect();
                                  return [r.left + r.width / 2, r.top + r.height / 2]; }),
          area: [area.left, area.top, area.right, area.bottom]};
})"""


def debrief(lecturer: Page, store, mogul: str, values: dict) -> None:
    """Open the dashboard's debrief: the class's first-price bids (half their values) and
    Mogul's drop points, each drawn inside its panel, beside the equilibrium lines."""
    lecturer.locator("#debrief summary").click()
    expect(lecturer.locator("#debrief")).to_contain_text(
        "3 students at 4 tables; finished rounds: Mogul's auction 3, first-price sealed bids 3",
        timeout=15_000,
    )
    plot = lecturer.locator("#debrief .debrief-plot").first
    expect(plot.locator(".main-svg").first).to_be_attached(timeout=10_000)
    wait_for_charts(lecturer, "#debrief")
    assert data_out_of_view(lecturer, "#debrief") == []
    mogul_panel, first_panel = plot.evaluate(POINTS)
    bids = {(v, v // 2) for name in NAMES for v in values[name]}
    assert set(zip(first_panel["x"], first_panel["y"], strict=True)) == bids
    assert sum(first_panel["count"]) == 9  # three students, three rounds
    # Mogul's: the two seats that dropped in each of three rounds, at the pot they took
    final = store.history(mogul)[-1]
    drops = {
        (final.values[r.number - 1][s], r.dropped_at[s])
        for r in final.results
        for s in range(3)
        if r.dropped_at[s] is not None
    }
    assert set(zip(mogul_panel["x"], mogul_panel["y"], strict=True)) == drops
    assert sum(mogul_panel["count"]) == 6
    for panel in (mogul_panel, first_panel):  # every marker drawn inside its panel's area
        left, top, right, bottom = panel["area"]
        assert len(panel["drawn"]) == len(panel["x"])
        assert all(left <= x <= right and top <= y <= bottom for x, y in panel["drawn"])
    lines = plot.evaluate(
        "gd => gd._fullData.filter(t => t.name === 'equilibrium (whole chips)')"
        ".map(t => [t.xaxis, t.y.filter(y => y !== null).length])"
    )
    # Mogul's: one line per place after the start seat; first-price: one, for each value
    assert [axis for axis, _ in lines] == ["x", "x", "x", "x2"]
    assert all(count == 11 for _, count in lines[:3]) and lines[3][1] == 100
    shot(lecturer, "dashboard-debrief-laptop")


def test_three_phones_play_first_price_and_moguls_auction_for_three_rounds(
    lab_hall: tuple[str, object], browser: Browser
) -> None:
    root, store = lab_hall
    outside: list[str] = []
    lecturer = open_page(
        browser, f"{root}dashboard?session={SESSION}&token={TOKEN}", LAPTOP, outside
    )
    expect(lecturer.locator("#summary")).to_contain_text("0 of 0 seats joined", timeout=10_000)
    # strangers: tables of one round, new groups after each; values no bid, payment or payoff
    # can equal (bids are half a value), so a page that showed another's value would show it
    code = create(lecturer, "first-price-auction", 1, 1000, "uniform 500..599")
    shot(lecturer, "dashboard-laptop")
    projector = open_page(
        browser, f"{root}projector?session={SESSION}&token={TOKEN}", LAPTOP, outside
    )
    phones = join(browser, root, code, outside)
    for phone in phones:
        expect(phone.locator("#line")).to_contain_text("Your bid", timeout=10_000)
        expect(phone.locator("#amount")).to_have_attribute("max", "1000")
        expect(phone.locator("#moves")).to_contain_text("Your bid (0 to 1000)")
    shot(phones[0], "phone-first-price-bid")
    values: dict[str, list[int]] = {name: [] for name in NAMES}
    codes = []
    for number in range(1, 4):
        codes.append(phones[0].locator("#header b").first.inner_text().replace("-", ""))
        for i, phone in enumerate(reversed(phones)):  # the last to join first
            name = NAMES[2 - i]
            values[name].append(value_of(phone))
            phone.locator("#amount").fill(str(values[name][-1] // 2))
            phone.get_by_role("button", name="Seal my bid").click()
            if i < 2:
                expect(projector.locator(".bids").last).to_contain_text(
                    f"{i + 1} of 3 bids in", timeout=10_000
                )
            if number == 1 and i == 0:
                expect(phone.locator("#line")).to_contain_text("Your bid is in", timeout=10_000)
                shot(phone, "phone-first-price-bid-in")
                shot(projector, "projector-bids-coming-in")
                assert not any(n in projector.locator("main").inner_text() for n in NAMES)
        for phone in phones:
            expect(phone.locator("#line")).to_contain_text("Game over", timeout=10_000)
        if number == 1:
            shot(phones[0], "phone-first-price-over")
        for phone, name in zip(phones, NAMES, strict=True):  # nobody else's value, ever
            # what the game shows (the table code and seat key may hold any three digits)
            # (and the distribution, "uniform 500..599", names two values anyone may hold)
            text = " ".join(phone.locator(f"#{part}").inner_text() for part in GAME_PARTS)
            numbers = set(map(int, re.findall(r"\d+", text.replace("500..599", ""))))
            for other in NAMES:
                hidden = set(values[other]) - set(values[name])
                assert other == name or not hidden & numbers, (name, other, hidden & numbers)
        if number < 3:  # strangers: new groups for the next round
            lecturer.get_by_role("button", name="New groups").click()
            for phone in phones:
                expect(phone.locator("#message")).to_contain_text("New group", timeout=10_000)
                expect(phone.locator("#line")).to_contain_text("Your bid", timeout=10_000)
            if number == 1:
                shot(phones[0], "phone-new-group")
    expect(projector.locator(".bids").last).to_contain_text("bids: ")
    shot(projector, "projector-first-price-over")
    for number, code in enumerate(codes):
        final = store.history(code)[-1]
        bids = [values[name][number] // 2 for name in final.names]
        assert final.is_over and list(final.results[0].bids) == bids

    code = create(lecturer, "mogul-auction", rounds=3, budget=10)  # Mogul's auction
    moguls = join(browser, root, code, outside)
    code = code.replace("-", "")
    moves = 0
    while moves < 40:
        movers = [p for p in moguls if p.locator("#moves button").count()]
        if not movers:
            if "Game over" in moguls[0].locator("#line").inner_text():
                break
            moguls[0].wait_for_timeout(100)
            continue
        (mover,) = movers
        buttons = mover.locator("#moves button")
        if moves == 0:
            shot(mover, "phone-mogul-move")
        step = store.info(code).step
        buttons.nth(moves % buttons.count()).click()  # pay, drop, pay, ... as the buttons allow
        for _ in range(100):  # the move is in the store; then its pages' views follow
            if store.info(code).step > step:
                break
            mover.wait_for_timeout(50)
        mover.wait_for_timeout(100)
        moves += 1
    for phone in moguls:
        expect(phone.locator("#line")).to_contain_text("Game over", timeout=10_000)
        expect(phone.locator(".mogul-lab-rounds tr")).to_have_count(4)
    shot(moguls[0], "phone-mogul-over")
    expect(lecturer.locator(".mogul-table-card").last).to_contain_text("over", timeout=10_000)
    shot(lecturer, "dashboard-laptop-over")
    debrief(lecturer, store, code, values)
    shot(projector, "projector-laptop-over")
    lecturer.set_viewport_size(PHONE)
    projector.set_viewport_size(PHONE)
    wait_for_charts(lecturer, "#debrief")
    assert geometry(lecturer, "main") == [] and geometry(projector, "main") == []
    shot(lecturer, "dashboard-phone")
    shot(projector, "projector-phone")
    for phone in phones + moguls:
        assert geometry(phone, "main") == []
    assert outside == []
