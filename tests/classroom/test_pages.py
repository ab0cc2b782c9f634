"""The student page and the lecturer dashboard, driven headless (buttons clicked in Python).

The browser test (tests/e2e/test_classroom.py) drives the same widgets through Voila and
Chromium; these check the logic behind every button and message quickly.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from mogul.classroom.export import export_session, load_session, seats_table, slug
from mogul.classroom.lecturer import LecturerDashboard, card_html, game_choices
from mogul.classroom.store import PAUSED, PLAYING, TableStore
from mogul.classroom.student import StudentApp, status_html
from mogul.kit.spec import resolve


@pytest.fixture
def store():
    s = TableStore("sqlite://")
    yield s
    s.close()


def joined(store: TableStore, code: str, name: str, key: str = "") -> StudentApp:
    app = StudentApp(store, code=code)
    app.name_box.value, app.key_box.value = name, key
    app.join_button.click()
    return app


def moves(app: StudentApp) -> list[str]:
    return [b.description for b in app.buttons.children]


def table_of_three(store: TableStore, seed: int = 6) -> tuple[str, list[StudentApp]]:
    code = store.create_table("classic", ["human"] * 3, seed=seed).code
    apps = [joined(store, code, n) for n in ("Ann", "Ben", "Cy")]
    assert [a.poll() for a in apps] == [True, True, False]  # the first two see the deal
    return code, apps


def test_the_join_form_says_what_is_wrong_and_keeps_the_form(store):
    app = StudentApp(store, code="nope")
    app.name_box.value = "Ann"
    app.join_button.click()
    assert "8 letters and digits" in app.message.value and app.ticket is None
    assert app.form.layout.display != "none" and app.play_box.layout.display == "none"
    code = store.create_table("classic", ["human"] * 3).code
    app.code_box.value = code.lower()
    app.name_box.value = " "
    app.join_button.click()
    assert "type your name" in app.message.value
    app.name_box.value = "Ann"
    app.join_button.click()
    assert app.ticket.seat == 0 and app.message.value == "" and app.form.layout.display == "none"
    assert (
        f"Table <b>{code[:4]}-{code[4:]}</b>" in app.header.value
        and app.ticket.key in app.header.value
    )
    assert app.status.value == "Waiting for players: 1 of 3 seats taken."
    assert "At the table: Ann." in app.table.value and moves(app) == []


def test_three_pages_play_a_round_and_see_each_others_moves(store):
    code, apps = table_of_three(store)
    state = apps[0].states[-1]
    mover = apps[state.current_player]
    others = [a for a in apps if a is not mover]
    assert moves(mover) == ["Bid 1 chip", "Drop (take 0)", "Credit (+2 chips, -2 points)"]
    assert mover.status.value == "<b>Your move</b> (auction)."
    assert all(moves(a) == [] and "Waiting for <b>" in a.status.value for a in others)
    start_round = state.round
    rng = random.Random(2)
    clicks = 0
    while apps[0].states[-1].round == start_round:
        mover = next(a for a in apps if a.buttons.children)
        before = [len(a.states) for a in apps]
        rng.choice(mover.buttons.children).click()
        clicks += 1
        for app in apps:
            app.poll()
        assert [len(a.states) for a in apps] == [b + 1 for b in before]  # everyone sees the move
        last = mover.states[-1].describe_events()[0]
        assert all(re.escape(last) and last in a.table.value for a in apps)
    assert clicks >= 3 and apps[0].states[-1].round == start_round + 1
    assert sum(bool(a.buttons.children) for a in apps) == 1
    assert [a.poll() for a in apps] == [False] * 3  # nothing new: no redraw


def test_a_stale_click_is_refused_with_a_message(store):
    code, apps = table_of_three(store)
    seat = apps[0].states[-1].current_player
    mover = apps[seat]
    twin = joined(store, code, "", key=mover.ticket.key)  # the same seat in a second tab
    assert twin.ticket == mover.ticket and moves(twin) == moves(mover)
    mover.buttons.children[0].click()
    twin.buttons.children[1].click()  # it still shows the old step
    assert "too late" in twin.message.value
    assert len(store.actions(code)) == 1 and twin.states == mover.states


def test_the_page_shows_nothing_of_the_hidden_pile(store):
    code, apps = table_of_three(store, seed=3)
    app = apps[1]
    state = app.states[-1]
    spec = resolve("classic")[0]
    other = spec.determinize(state.view(app.ticket.seat), random.Random(1))
    assert other.deck != state.deck  # a different hidden pile ...
    labels = ["", "you", ""]
    assert spec.table_html(other, (), [], labels) == spec.table_html(
        state, (), [], labels
    )  # ... same page


def test_pause_and_end_reach_the_students(store):
    code, apps = table_of_three(store)
    mover = next(a for a in apps if a.buttons.children)
    store.pause(code)
    assert mover.poll() and moves(mover) == [] and "Paused" in mover.status.value
    store.resume(code)
    mover.poll()
    assert moves(mover)
    store.end(code)
    mover.poll()
    assert moves(mover) == [] and "ended" in mover.status.value


def test_a_bot_left_to_move_is_moved_by_a_waiting_page(store, monkeypatch):
    import mogul.classroom.student as student

    code = store.create_table("classic", ["human", "value", "value"], seed=2).code
    app = joined(store, code, "Ann")
    move_bots = store.move_bots
    monkeypatch.setattr(store, "move_bots", lambda code, limit=0: 0)  # the mover's page dies
    app.choose("bid")
    monkeypatch.setattr(store, "move_bots", move_bots)
    state = app.states[-1]
    assert state.names[state.current_player].startswith("Bot")  # a bot is left to move
    assert not app.poll()  # within the grace time a page waits for the bot's own mover
    monkeypatch.setattr(student, "BOT_GRACE_SECONDS", 0.0)
    assert app.poll() and app.states[-1].names[app.states[-1].current_player] == "Ann"
    assert moves(app)


def test_status_lines():
    store = TableStore("sqlite://")
    code = store.create_table("classic", ["value", "value", "value"], seed=1).code
    info, states = store.info(code), store.history(code)
    winners = states[-1].winners()
    text = status_html(info, states, winners[0])
    assert text.startswith("<b>Game over.</b>") and ("You win" in text or "share the win" in text)
    assert "wins" in status_html(info, states, None) or "share" in status_html(info, states, None)


# --- the lecturer ---------------------------------------------------------------------------------


def test_the_dashboard_creates_tables_and_follows_them_live(store, tmp_path):
    board = LecturerDashboard(store, session="Week 3", export_folder=tmp_path)
    assert ("Mogul (Michael Schacht): classic", "classic") in game_choices()
    assert board.bot_box.value == "value" and "random" in board.bot_box.options
    board.count_box.value, board.people_box.value, board.bots_box.value = 2, 3, 1
    board.create_button.click()
    assert board.message.value == "" and len(board.grid.children) == 2
    infos = store.tables("Week 3")
    assert [[s.kind for s in i.seats] for i in infos] == [["human", "human", "human", "value"]] * 2
    card = board.cards[infos[0].code]
    code = infos[0].code
    assert f"{code[:4]}-{code[4:]}" in card.view.value and "mogul-card-code" in card.view.value
    assert "waiting" in card.view.value and card.start_button.layout.display is None
    joined(store, code, "Ann")
    assert board.poll() and "Ann" in card.view.value and not board.poll()
    card.start_button.click()  # the two free seats get the bot
    info = store.info(code)
    assert info.status == PLAYING and info.names == ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    assert (
        "round 1" in card.view.value
        and "pot" in card.view.value
        and "&#9654; Ann" in card.view.value
    )
    assert card.start_button.layout.display == "none" and card.pause_button.layout.display != "none"
    card.pause_button.click()
    assert store.info(code).status == PAUSED and card.pause_button.description == "Resume"
    card.pause_button.click()
    card.end_button.click()  # End asks first (it cannot be undone) ...
    assert (
        store.info(code).status == PLAYING
        and card.end_button.description == "Really end? Press again"
    )
    card.end_button.click()  # ... and ends on the second press
    assert "ended" in card.view.value and card.end_button.disabled
    board.export_button.click()
    folder = tmp_path / slug("Week 3")
    assert "Exported" in board.message.value and (folder / "session.json").is_file()
    assert {p.name for p in folder.iterdir()} >= {
        "session.json",
        "seats.csv",
        f"{code}.json",
        "rounds.csv",
    }
    board.session_box.value = "Week 4"
    assert board.grid.children == ()
    board.people_box.value = 9 - 1
    board.bots_box.value = 1
    board.create_button.click()
    assert "players" in board.message.value and store.tables("Week 4") == []


def test_card_html_escapes_names(store):
    code = store.create_table("classic", ["human"] * 3).code
    store.join(code, "<b>x</b>")
    html = card_html(store.info(code), [])
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html


def test_export_and_load_round_trip(store, tmp_path):
    tables = store.create_tables(2, "classic", ["human", "value", "value"], session="Mon", seed=10)
    ann = store.join(tables[0].code, "Ann")
    state = store.history(tables[0].code)[-1]
    store.act(ann, len(store.history(tables[0].code)) - 1, str(state.legal_actions()[0]))
    folder = export_session(store, "Mon", tmp_path)
    manifest = json.loads((folder / "session.json").read_text())
    assert [t.get("record") for t in manifest["tables"]] == [f"{tables[0].code}.json", None]
    again, session = load_session(folder)
    assert session == "Mon" and [t.code for t in again.tables()] == [tables[0].code]
    assert again.actions(tables[0].code) == store.actions(tables[0].code)
    assert again.info(tables[0].code).status == "playing"  # as exported
    seats = seats_table(again)
    assert list(seats["name"]) == ["Ann", "Bot 2", "Bot 3"] and list(seats["kind"]) == [
        "human",
        "value",
        "value",
    ]
    with pytest.raises(ValueError, match="already has a table"):
        load_session(folder, again)
    (folder / "session.json").write_text('{"format": "x"}')
    with pytest.raises(ValueError, match="mogul-classroom-session"):
        load_session(folder)
    with pytest.raises(ValueError, match="no tables"):
        export_session(store, "nobody", tmp_path)


def test_the_pages_build_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MOGUL_CLASSROOM", str(tmp_path / "class.sqlite"))
    monkeypatch.setenv("QUERY_STRING", "table=abcd-efgh&x=1")
    app = StudentApp.for_page()  # no event loop here: it does not poll on its own
    assert app.code_box.value == "abcd-efgh" and app._task is None
    assert app.store.url == f"sqlite:///{tmp_path / 'class.sqlite'}"
    monkeypatch.setenv("MOGUL_CLASSROOM_EXPORT", str(tmp_path / "out"))
    board = LecturerDashboard.for_page()
    assert board.store.url == app.store.url and board.grid.children == ()
    assert board.export_folder == tmp_path / "out"
    assert (tmp_path / "class.sqlite").is_file()


def test_after_a_server_restart_a_student_gets_the_seat_back_and_plays_on(tmp_path):
    url = f"sqlite:///{tmp_path / 'class.sqlite'}"
    first = TableStore(url)
    code = first.create_table("classic", ["human", "value", "value"], seed=12).code
    page = joined(first, code, "Ann")
    page.choose(str(page.states[-1].legal_actions()[0]))
    seen, key = page.states, page.ticket.key
    first.close()  # the server dies; the browser tab reloads onto a new kernel
    again = joined(TableStore(url), code, "", key=key)
    assert again.ticket.seat == 0 and again.states == seen and moves(again)
    assert again.choose(str(again.states[-1].legal_actions()[0]))
    assert again.states[: len(seen)] == seen and len(again.states) > len(seen)
