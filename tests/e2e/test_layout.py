"""Notebook 03 as a Voila app (``make voila-player``) on a phone and on a laptop: words on every button, a table that
fits, the live chart beside the table, nothing fetched from outside, no console error and no
warning of clashing package versions."""

from __future__ import annotations

import pytest
from conftest import SCREENSHOTS, VOILA_CELL_ERROR, watch_console
from playwright.sync_api import Browser, expect
from screens import SIZES, Screens

# Buttons whose text is cut ("Next ro...") or shrunk to nothing, and boxes wider than their
# container: each as a short description.
TRUNCATED = """root => [...root.querySelectorAll('button')].filter(b => b.offsetParent !== null)
  .filter(b => b.scrollWidth > b.clientWidth + 1 || b.innerText.trim() === '')
  .map(b => `${b.innerText.trim() || '(empty)'}: ${b.scrollWidth} > ${b.clientWidth}`)"""
OVERFLOW = """root => [root, ...root.querySelectorAll('.mogul-game, .mogul-game table, .widget-html-content')]
  .filter(e => e.offsetParent !== null && e.getBoundingClientRect().right > root.getBoundingClientRect().right + 1)
  .map(e => `${e.className || e.tagName}: right ${Math.round(e.getBoundingClientRect().right)}`)"""

VIEWS = {"phone": SIZES["phone"], "laptop": SIZES["laptop"]}


@pytest.mark.parametrize("device", VIEWS)
def test_classroom_page_fits_the_device(voila, browser: Browser, device: str) -> None:
    viewport = VIEWS[device]
    context = browser.new_context(
        viewport=viewport, is_mobile=device == "phone", has_touch=device == "phone"
    )
    page = context.new_page()
    problems: list[str] = []
    watch_console(page, problems)
    page.route(
        "**/*",
        lambda r: (
            r.continue_()
            if r.request.url.startswith(voila.url) or r.request.url.startswith(("data:", "blob:"))
            else (problems.append(f"outside: {r.request.url}"), r.abort())
        ),
    )
    try:
        page.goto(voila.app_url, timeout=120_000)
        player = page.locator(".mogul-game-player").nth(1)  # the student's game ("Your seat")
        expect(player.get_by_role("button", name="Bid 1 chip")).to_be_visible(timeout=90_000)
        chart = player.locator(".mogul-charts .js-plotly-plot").first
        expect(chart.locator(".main-svg").first).to_be_visible(timeout=30_000)
        page.wait_for_function(
            "() => document.querySelectorAll('.mogul-game-player .js-plotly-plot').length >= 2"
        )
        assert VOILA_CELL_ERROR not in page.content()
        player.evaluate("box => box.scrollIntoView({block: 'start'})")

        assert player.evaluate(TRUNCATED) == [], "a control's label is cut"
        assert player.evaluate(OVERFLOW) == [], "the table runs off its container"
        words = [b.strip() for b in player.locator(".mogul-controls button").all_inner_texts()]
        assert words == ["Next step", "Next round", "Play to end", "Undo", "New game"]
        table = player.locator(".mogul-game").first.bounding_box()
        graph = chart.bounding_box()
        buttons = player.get_by_role("button", name="Bid 1 chip").bounding_box()
        if device == "laptop":  # buttons, table and the auction chart in one screen, side by side
            for name, box in {"buttons": buttons, "table": table, "auction chart": graph}.items():
                assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (
                    f"{name} off screen: {box}"
                )
            assert graph["x"] >= table["x"] + table["width"] - 1, (
                "the chart is not beside the table"
            )
        else:  # one column: the chart below the table, as wide as the screen allows
            assert graph["y"] >= table["y"] + table["height"] - 1
            assert graph["x"] + graph["width"] <= viewport["width"]
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"voila-03-{device}.png")
        game = player.locator(".mogul-game").first
        expect(game).not_to_contain_text("Ann bids")
        player.get_by_role("button", name="Bid 1 chip").click()  # the page answers a tap
        # The screenshot is of the table once the bots have answered the bid and it is Ann's
        # turn again (seed 3: Ben and Cai bid, Dee drops). Waiting only for "any change" let a
        # half-drawn answer (Ann's bid shown, the bots' moves not yet) be compared with the
        # baseline now and then.
        expect(game).to_contain_text("Ann bids: the pot holds 2.", timeout=30_000)
        expect(game).to_contain_text("Dee drops and collects 4 chips.", timeout=30_000)
        expect(player.get_by_role("button", name="Bid 1 chip")).to_be_visible(timeout=30_000)
        screens = Screens(page)
        screens.check(f"voila-03 after a bid, {device}")
        screens.match(f"voila-03-bid-{device}", player)
        if device == "phone":  # every button, box and the checkbox's label: a fingertip's size
            screens.check_touch("voila-03 on a phone", ".mogul-game-player")
        if device == "phone":  # the phone turned sideways, and back
            page.set_viewport_size({"width": viewport["height"], "height": viewport["width"]})
            screens.check("voila-03 after a bid, phone sideways")
            page.set_viewport_size(viewport)
            screens.check("voila-03 after a bid, phone upright again")
        assert problems == [], "\n".join(problems)
        screens.assert_clean()
    finally:
        context.close()
