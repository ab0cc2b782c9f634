"""The lecturer's dashboard, driven headless (buttons clicked in Python): creating tables and
following them live, the projector view with its QR codes, "N of M seats joined", a second
press for what cannot be undone, Create safe against a double click, deleting an unused
table, a new seat key, the turn timer, and the page as Voila builds it."""

from __future__ import annotations

import re

import pytest
import segno

from mogul.classroom.export import slug
from mogul.classroom.lecturer import LecturerDashboard, card_html, game_choices
from mogul.classroom.projector import qr_svg, seats_joined, student_address, table_address
from mogul.classroom.store import TableStore
from mogul.classroom.table import ENDED, PAUSED, PLAYING


@pytest.fixture
def store():
    s = TableStore("sqlite://")
    yield s
    s.close()


@pytest.fixture
def board(store, monkeypatch, tmp_path) -> LecturerDashboard:
    monkeypatch.setenv("MOGUL_HALL_URL", "http://10.1.2.3:8866/mogul/hall/")
    b = LecturerDashboard(store, session="Hall", export_folder=tmp_path)
    b.count_box.value, b.people_box.value, b.bots_box.value = 2, 3, 0
    return b


def test_the_address_and_the_qr_code_open_the_page_with_the_table_filled_in(monkeypatch) -> None:
    assert (
        table_address("http://h:8866/mogul/hall/", "ABCD2345")
        == "http://h:8866/mogul/hall/?table=ABCD-2345"
    )
    assert table_address("http://h/mogul/hall/?token=x", "ABCD2345").endswith(
        "?token=x&table=ABCD-2345"
    )
    monkeypatch.delenv("MOGUL_HALL_URL", raising=False)
    assert re.fullmatch(r"http://[\d.]+:8866/mogul/hall/", student_address())
    svg = qr_svg("http://h:8866/mogul/hall/?table=ABCD-2345")
    assert (
        svg.startswith("<svg") and "http" not in svg.split(">", 1)[1]
    )  # drawn here, links nowhere
    expected = segno.make("http://h:8866/mogul/hall/?table=ABCD-2345", error="m")
    assert (
        expected.version
        == segno.make("http://h:8866/mogul/hall/?table=ABCD-2345", error="m").version
    )


def test_the_projector_shows_codes_qr_codes_and_how_many_joined(board, store) -> None:
    board.create_button.click()
    infos = store.tables("Hall")
    store.join(infos[0].code, "Ann")
    infos = store.tables("Hall")
    assert seats_joined(infos) == (1, 6)
    board.refresh()
    assert (
        "<b>1 of 6</b> seats joined" in board.joined.value
        and board.projector.layout.display == "none"
    )
    board.projector_button.value = True  # the projector page's drawing, on the dashboard
    page = board.projector.value
    assert board.projector.layout.display is None and 'class="mogul-projector"' in page
    assert page.count("<svg") == 2 and "<b>1 of 6</b> seats joined" in page
    assert all(f"{i.code[:4]}-{i.code[4:]}" in page for i in infos)
    assert "1 of 3 seats taken" in page and "0 of 3 seats taken" in page
    assert "Open <b>http://10.1.2.3:8866/mogul/hall/</b>" in page
    assert board.projectors.draw("Hall") in page


def test_create_ignores_a_double_click_but_makes_more_when_pressed_again(board, store) -> None:
    board.create_button.click()
    board.create_button.click()  # a double click: the same form a moment later
    assert len(store.tables("Hall")) == 2 and "a moment ago" in board.message.value
    board.count_box.value = 1  # another form is no double click
    board.create_button.click()
    assert len(store.tables("Hall")) == 3 and board.message.value == ""


def test_end_and_delete_ask_first_and_only_an_unused_table_can_be_deleted(board, store) -> None:
    board.create_button.click()
    used, unused = (i.code for i in store.tables("Hall"))
    store.join(used, "Ann")
    board.refresh()
    assert board.cards[used].delete_button.layout.display == "none"
    card = board.cards[unused]
    assert card.delete_button.layout.display is None
    card.delete_button.click()
    assert [i.code for i in store.tables("Hall")] == [
        used,
        unused,
    ] and "Really delete" in card.delete_button.description
    card.delete_button.click()
    assert [i.code for i in store.tables("Hall")] == [used] and unused not in board.cards
    board.cards[used].end_button.click()
    assert store.info(used).status != ENDED
    board.cards[used].end_button.click()
    assert store.info(used).status == ENDED


def test_a_locked_out_student_gets_a_new_key_shown_to_the_lecturer_only(board, store) -> None:
    board.create_button.click()
    code = store.tables("Hall")[0].code
    old = store.join(code, "Ann")
    board.refresh()
    card = board.cards[code]
    assert card.seat_box.options == (("1: Ann", 0),) and card.key_row.layout.display is None
    card.key_button.click()
    card.key_button.click()
    found = re.search(r"([A-Z2-9]{4})-([A-Z2-9]{4})-([A-Z2-9]{4})", board.message.value)
    assert found and "New seat key for Ann (seat 1" in board.message.value
    key = "".join(found.groups())
    assert key != old.key and store.join(code, "", key).seat == 0
    with pytest.raises(Exception, match="does not belong"):
        store.join(code, "", old.key)


def test_the_lecturer_frees_a_seat_someone_took_that_was_not_theirs(board, store) -> None:
    board.create_button.click()
    code = store.tables("Hall")[0].code
    store.join(code, "Squatter")
    store.join(code, "Ann")
    board.refresh()
    card = board.cards[code]
    card.seat_box.value = 0
    card.free_button.click()
    assert store.info(code).names[0] == "Squatter"  # the first press only asks
    card.free_button.click()
    assert store.info(code).names == [None, "Ann", None]
    assert "Seat 1 of table" in board.message.value and "Squatter is no longer there" in (
        board.message.value
    )


def test_the_turn_timer_is_set_on_created_tables_and_can_be_changed(board, store) -> None:
    board.timer_box.value = 45
    board.create_button.click()
    codes = [i.code for i in store.tables("Hall")]
    assert [store.clock(c)[0] for c in codes] == [45.0, 45.0]
    board.timer_box.value = 3
    board.timer_button.click()
    assert "from 5 to 600 seconds" in board.message.value and store.clock(codes[0])[0] == 45.0
    board.timer_box.value = 0
    board.timer_button.click()
    assert [store.clock(c)[0] for c in codes] == [
        None,
        None,
    ] and board.message.value == "No turn timer"


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
    store.join(code, "Ann")  # a student's page (the hall) takes a seat
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


def test_the_page_builds_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MOGUL_CLASSROOM", str(tmp_path / "class.sqlite"))
    monkeypatch.setenv("MOGUL_CLASSROOM_EXPORT", str(tmp_path / "out"))
    board = LecturerDashboard.for_page()  # no event loop here: it does not poll on its own
    assert board._task is None and board.grid.children == ()
    assert board.store.url == f"sqlite:///{tmp_path / 'class.sqlite'}"
    assert board.export_folder == tmp_path / "out"
    assert (tmp_path / "class.sqlite").is_file()
    board.store.close()
