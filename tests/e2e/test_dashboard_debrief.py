"""The dashboard's debrief follows the class: opened before any round is over it says so, and
when a round ends it draws itself again without a press (the page asks at most every 5 s; the
hall computes it only when rounds ended). About 8 s."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from test_auction_lab import LAPTOP, lab_hall  # noqa: F401 - the fixture
from test_hall import TOKEN, open_page


def test_the_debrief_draws_itself_again_when_a_round_ends(
    lab_hall: tuple[str, object],  # noqa: F811 - the fixture
    browser: Browser,
) -> None:
    root, store = lab_hall
    code = store.create_table(
        "first-price-auction", ["human"] * 3, "lab", setup={"rounds": 2, "drawn": [[2, 5, 8]] * 2}
    ).code
    tickets = [store.join(code, name) for name in ("Ann", "Ben", "Cy")]
    outside: list[str] = []
    lecturer = open_page(browser, f"{root}dashboard?session=lab&token={TOKEN}", LAPTOP, outside)
    lecturer.locator("#debrief summary").click()
    body = lecturer.locator("#debrief-body")
    expect(body).to_contain_text("No finished round yet at the session's 1 auction-lab table")
    for ticket, amount in zip(tickets, (1, 3, 5), strict=True):  # the round ends
        store.act(ticket, store.info(code).step, f"bid {amount}")
    expect(body).to_contain_text(
        "3 students at 1 table; finished rounds: first-price sealed bids 1.", timeout=10_000
    )
    expect(lecturer.locator("#debrief .debrief-plot .main-svg").first).to_be_attached()
    assert lecturer.locator("#debrief .debrief-part h3").all_inner_texts()[0] == (
        "Bids against values"
    )
    assert outside == []
