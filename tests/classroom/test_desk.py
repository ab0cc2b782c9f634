"""The lecturer's desk (``mogul.classroom.desk``), the calls behind the dashboard's buttons, on a
SQLite store: what each does to the tables, the sentence it answers, and what it refuses.

The dashboard page's own tests (``test_dashboard_page.py``, ``tests/e2e/test_dashboard.py``)
drive these calls through the page; here are the details the page does not show: Create made
twice with another form, which tables may be deleted, the old seat key after a new one, the
other seats when one is freed, the timer on finished tables, a card's turn and pot, the files
an export writes and where.
"""

from __future__ import annotations

import re

import pytest

from mogul.classroom.desk import Desk, bot_choices, card_html, game_choices, unused
from mogul.classroom.export import slug
from mogul.classroom.store import TableStore
from mogul.classroom.table import ClassroomError


@pytest.fixture
def store(tmp_path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    yield s
    s.close()


@pytest.fixture
def desk(store: TableStore, tmp_path) -> Desk:
    return Desk(store, tmp_path / "out")


def test_the_choices_put_the_default_game_and_its_value_bot_first() -> None:
    assert game_choices()[0] == ("Mogul (Michael Schacht): classic", "classic")
    bots = bot_choices("classic")
    assert bots[0] == "value" and "random" in bots


def test_create_ignores_a_double_click_but_another_form_makes_more(desk, store) -> None:
    made = desk.create_tables("Hall", "classic", 3, 1, None, 2)
    assert [[s.kind for s in i.seats] for i in made] == [["human"] * 3 + ["value"]] * 2
    with pytest.raises(ClassroomError, match="a moment ago"):
        desk.create_tables("Hall", "classic", 3, 1, None, 2)  # the same form a moment later
    assert len(store.tables("Hall")) == 2
    desk.create_tables("Hall", "classic", 3, 1, None, 1)  # another form is no double click
    assert len(store.tables("Hall")) == 3
    with pytest.raises(ClassroomError, match="whole number from 0 to 8, got True"):
        desk.create_tables("Hall", "classic", True)


def test_only_a_table_nobody_joined_or_played_may_be_deleted(store) -> None:
    waiting, ended, joined = (store.create_table("classic", ["human"] * 3).code for _ in "abc")
    store.end(ended)
    store.join(joined, "Ann")
    assert [unused(store.info(code)) for code in (waiting, ended, joined)] == [True, True, False]
    for name in ("Ben", "Cy"):
        store.join(joined, name)
    store.end(joined)
    assert not unused(store.info(joined))  # ended, but played


def test_a_new_seat_key_works_and_the_old_one_no_longer_does(desk, store) -> None:
    code = store.create_table("classic", ["human"] * 3).code
    old = store.join(code, "<i>Ann</i>")
    said = desk.new_key(code, 0)
    assert said.startswith("New seat key for &lt;i&gt;Ann&lt;/i&gt; (seat 1, table ")
    key = re.search(r"([A-Z2-9]{4})-([A-Z2-9]{4})-([A-Z2-9]{4})", said)
    assert key and "".join(key.groups()) != old.key
    assert store.join(code, "", "".join(key.groups())).seat == 0
    with pytest.raises(ClassroomError, match="does not belong"):
        store.join(code, "", old.key)
    with pytest.raises(ClassroomError, match="choose the student's seat"):
        desk.new_key(code, None)


def test_freeing_a_seat_leaves_the_others_seated(desk, store) -> None:
    code = store.create_table("classic", ["human"] * 3).code
    store.join(code, "Squatter")
    store.join(code, "Ann")
    said = desk.free_seat(code, 0)
    assert store.info(code).names == [None, "Ann", None]
    assert "Seat 1 of table" in said and "(Squatter is no longer there)" in said
    for seat, why in [(None, "choose the seat to free"), ("1", "name the seat by its number")]:
        with pytest.raises(ClassroomError, match=why):
            desk.free_seat(code, seat)
    assert store.info(code).names == [None, "Ann", None]


def test_the_turn_timer_changes_the_unfinished_tables_only(desk, store) -> None:
    finished, going = (i.code for i in desk.create_tables("Hall", "classic", 3, 0, None, 2, 45))
    assert [store.clock(c)[0] for c in (finished, going)] == [45.0, 45.0]
    store.end(finished)
    with pytest.raises(ClassroomError, match="from 5 to 600 seconds, got 3"):
        desk.set_timer("Hall", 3)
    assert store.clock(going)[0] == 45.0  # refused: nothing changed
    assert desk.set_timer("Hall", 60) == "Turn timer: 60 s"
    assert [store.clock(c)[0] for c in (finished, going)] == [45.0, 60.0]
    assert desk.set_timer("Hall", 0) == "No turn timer" and store.clock(going)[0] is None


def test_a_card_shows_the_code_the_names_escaped_the_turn_and_the_pot(store) -> None:
    code = store.create_table("classic", ["human"] * 3).code
    store.join(code, "<b>x</b>")
    waiting = card_html(store.info(code), store.history(code))
    assert f'<div class="mogul-card-code">{code[:4]}-{code[4:]}</div>' in waiting
    assert "<b>waiting</b>" in waiting and "&lt;b&gt;x&lt;/b&gt;" in waiting
    assert "<b>x</b>" not in waiting and "<i>free</i>" in waiting
    for name in ("Ben", "Cy"):
        store.join(code, name)
    states = store.history(code)
    playing = card_html(store.info(code), states)
    mover = ["&lt;b&gt;x&lt;/b&gt;", "Ben", "Cy"][states[-1].current_player]
    assert "round 1 &middot; pot " in playing and f"&#9654; {mover}" in playing
    assert playing.count("&#9654;") == 1


def test_export_writes_the_session_where_the_desk_was_told(desk, store, tmp_path) -> None:
    code = desk.create_tables("Week 3", "classic", 1, 2)[0].code
    store.join(code, "Ann")
    store.start(code)  # dealt: a record to export
    store.end(code)
    target, said = desk.export("Week 3")
    assert target == tmp_path / "out" / slug("Week 3")
    assert {p.name for p in target.iterdir()} >= {
        "session.json",
        "seats.csv",
        f"{code}.json",
        "rounds.csv",
    }
    assert said.startswith(f"Exported {len(list(target.iterdir()))} files to <code>{target}</code>")


def test_the_export_folder_comes_from_the_environment_unless_given(store, monkeypatch) -> None:
    monkeypatch.setenv("MOGUL_CLASSROOM_EXPORT", "/srv/class-out")
    assert str(Desk(store).export_folder) == "/srv/class-out"
    assert str(Desk(store, "here").export_folder) == "here"
    monkeypatch.delenv("MOGUL_CLASSROOM_EXPORT")
    assert str(Desk(store).export_folder) == "classroom-export"
