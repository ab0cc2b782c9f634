"""Names (issue 27, item 8): no student and no student's bot passes for one of the kit's bots."""

import pytest

from hostile_bots.attacks import CalledGreekValue, CalledValue
from mogul import tournament
from mogul.classroom.store import TableStore
from mogul.classroom.table import ClassroomError
from mogul.kit.names import lookalike, skeleton, student_name


def test_a_students_bot_cannot_take_a_kit_bots_name():
    t = tournament(
        "classic",
        [CalledValue, CalledGreekValue, "value"],
        repetitions=1,
        seed=1,
        time_limit=1,
        progress=False,
    )
    assert sorted(t.summary().index) == sorted(["value", "value (student)", "vаluе (student)"])
    kit = t.games[t.games["bot"] == "value"]
    assert len(kit) == 6 and t.failures.empty  # the kit's bot keeps its name in its 6 games


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("Βot 3", "Bot 3"),
        ("BOT-3", "Bot 3"),
        ("b0t 1O", "Bot 10"),
        ("Bоt 2", "Bot 2"),
        ("ＢＯＴ ３", "Bot 3"),
        ("Value", "value"),
        ("v a l u e", "value"),
        ("RANDOM", "random"),
        ("rаndom", "random"),
        ("Тhreshold", "threshold"),
    ],
)
def test_look_alikes_of_the_kits_names(name, kept):
    assert lookalike(name) == kept


@pytest.mark.parametrize(
    "name", ["Ann", "Ben Lee", "Zoë", "Björn", "Бот", "Valeria", "Robot", "bottle"]
)
def test_real_names_are_not_look_alikes(name):
    assert lookalike(name) is None and student_name(name) == name


def test_skeletons_ignore_case_accents_spacing_and_zero_width_characters():
    assert skeleton("V\u200bALUE") == skeleton("vàlue ") == skeleton("value")
    assert (
        student_name("evil\x1b[2Jname" + "x" * 100).startswith("evil[2Jname")
        and len(student_name("y" * 99)) == 40
    )


def test_a_person_cannot_join_a_table_as_a_look_alike_of_a_bot(tmp_path):
    store = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    try:
        table = store.create_table("classic", ["human", "human", "value"], session="week 3", seed=5)
        for name in ("Βot 3", "Bot3", "vаlue"):
            with pytest.raises(ClassroomError, match="a name kept for the bots"):
                store.join(table.code, name)
        assert store.join(table.code, "Ann").seat == 0
    finally:
        store.close()
