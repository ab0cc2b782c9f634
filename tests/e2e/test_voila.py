"""Notebook 03 as a Voila app (``make voila-player``): no code, the game plays."""

from __future__ import annotations

from conftest import VOILA_CELL_ERROR, version_clashes
from playwright.sync_api import Page, expect
from screens import Screens


def test_classroom_app_plays_a_round(voila, page: Page, game) -> None:
    # Voila runs the notebook while it serves the page: the page loads once all cells ran.
    page.goto(voila.app_url, timeout=120_000)
    game.expect_rendered("the Voila app", timeout=60_000)
    # Progressive rendering draws the cells as the kernel runs them: the ones below the game
    # (the exercise's solution among them) are placeholders until their turn comes.
    expect(page.locator(".voila-skeleton-post")).to_have_count(0, timeout=120_000)
    assert VOILA_CELL_ERROR not in page.content(), "a notebook cell failed in Voila"
    code = page.locator(".jp-CodeCell .jp-InputArea, .jp-InputPrompt, .cm-editor")
    assert code.count() == 0, "the classroom app shows code"

    # The live charts load plotly's widget code once for the page (mogul/widgets/live.py), so
    # their models start within anywidget's 2 s budget; this also shows the server runs this
    # checkout's mogul.
    loads = page.evaluate(
        "() => globalThis.__mogulPlotlyWidget ? globalThis.__mogulPlotlyWidget.size : 0"
    )
    assert loads == 1, f"plotly's widget code was loaded {loads} times for the page's live charts"

    screens = Screens(page)
    screens.check("voila-03 as loaded")
    # A student's view: the games and the exercise; the prose about code is for the Lab
    # reader (cells tagged lab-only), and the worked solution stays folded until opened.
    assert not page.get_by_text("values_from_state").filter(visible=True).count(), (
        "text about code shows"
    )
    assert not page.get_by_text("GameSession").filter(visible=True).count(), "text about code shows"
    expect(page.get_by_text("Start a fresh game with seed 3")).to_be_visible()
    answer = page.get_by_text("drop at once:")
    expect(answer).to_be_hidden()
    page.locator("details.mogul-solution > summary").first.click()
    expect(answer).to_be_visible()

    game.play_next_round()
    game.player.evaluate("box => box.scrollIntoView({block: 'start'})")
    game.screenshot("voila-03-after-next-round.png")
    screens.check("voila-03 after Next round, laptop")
    screens.match("voila-03-next-round-laptop", game.player)
    # Voila bundles its own JupyterLab core (4.2): a widget extension built for a newer one
    # logs "Unsatisfied version ... (required ^4.6.2)" for each shared package it uses.
    assert version_clashes(game.console) == [], "the widget packages' versions clash"
    screens.assert_clean()
