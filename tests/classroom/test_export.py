"""The session export's tables: the stored code to join on, the dashboard's spelling to read."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from mogul.classroom.export import (
    export_session,
    game_tables,
    load_session,
    pretty_code,
    seats_table,
)
from mogul.classroom.store import TableStore


def test_exported_tables_spell_codes_as_the_dashboard_and_still_join(tmp_path):
    store = TableStore("sqlite://")
    tables = store.create_tables(2, "classic", ["human", "value", "value"], session="Mon", seed=4)
    for info in tables:
        ticket = store.join(info.code, "Ann")
        state = store.history(info.code)[-1]
        store.act(ticket, len(store.history(info.code)) - 1, str(state.legal_actions()[0]))
    codes = [t.code for t in tables]
    assert pretty_code("HDKPDM82") == "HDKP-DM82"

    seats = seats_table(store, "Mon")
    assert list(seats.columns[:3]) == ["code", "table", "session"]
    assert (seats["table"] == seats["code"].map(pretty_code)).all()
    assert set(seats["code"]) == set(codes)

    folder = export_session(store, "Mon", tmp_path)
    written = pd.read_csv(folder / "seats.csv")
    assert list(written["table"]) == [f"{c[:4]}-{c[4:]}" for c in codes for _ in range(3)]
    rounds = pd.read_csv(folder / "rounds.csv")
    assert list(rounds.columns[:2]) == ["code", "table"]
    # the stored code is the key: a join of the two files finds every round's table
    joined = rounds.merge(written[["code", "table"]].drop_duplicates(), on=["code", "table"])
    assert len(joined) == len(rounds) > 0
    assert {f"{c}.json" for c in codes} <= {p.name for p in folder.iterdir()}
    # and the in-memory tables are the files'
    assert set(game_tables(store, "Mon")) >= {"rounds"}
    store.close()


def test_export_and_load_round_trip(tmp_path):
    store = TableStore("sqlite://")
    tables = store.create_tables(2, "classic", ["human", "value", "value"], session="Mon", seed=10)
    ann = store.join(tables[0].code, "Ann")
    state = store.history(tables[0].code)[-1]
    store.act(ann, len(store.history(tables[0].code)) - 1, str(state.legal_actions()[0]))
    folder = export_session(store, "Mon", tmp_path)
    manifest = json.loads((folder / "session.json").read_text())
    assert [t.get("record") for t in manifest["tables"]] == [f"{tables[0].code}.json", None]
    again, session = load_session(folder, key=store)
    assert session == "Mon" and [t.code for t in again.tables()] == [tables[0].code]
    assert again.actions(tables[0].code) == store.actions(tables[0].code)
    assert again.info(tables[0].code).status == "playing"  # as exported
    seats = seats_table(again)
    assert list(seats["name"]) == ["Ann", "Bot 2", "Bot 3"] and list(seats["kind"]) == [
        "human",
        "value",
        "value",
    ]
    other = TableStore("sqlite://")
    load_session(folder, other, key=store)
    assert other.actions(tables[0].code) == store.actions(tables[0].code)
    with pytest.raises(ValueError, match="already has a table"):
        load_session(folder, other, key=store)
    (folder / "session.json").write_text('{"format": "x"}')
    with pytest.raises(ValueError, match="mogul-classroom-session"):
        load_session(folder)
    with pytest.raises(ValueError, match="no tables"):
        export_session(store, "nobody", tmp_path)
    store.close()


# --- forged exports (issue 36, item 3): refused by default, with what is wrong and the way round


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A session of one finished game exported by its store, and another session's game."""
    where = tmp_path_factory.mktemp("signed")
    store = TableStore(f"sqlite:///{where / 'class.sqlite'}")
    for session, seed in (("Mon", 13), ("Tue", 10)):
        store.create_table("classic", ["random"] * 3, session=session, seed=seed)
    yield store, export_session(store, "Mon", where / "export"), export_session(store, "Tue", where)
    store.close()


@pytest.fixture
def signed(made, tmp_path):
    """``made``'s store and fresh copies of its two exports, to forge."""
    store, folder, other = made
    return (
        store,
        shutil.copytree(folder, tmp_path / "mon"),
        shutil.copytree(other, tmp_path / "tue"),
    )


def _manifest(folder):
    return json.loads((folder / "session.json").read_text())


def _write(folder, manifest):
    (folder / "session.json").write_text(json.dumps(manifest))


def test_an_export_loads_with_its_stores_key_and_not_unchecked(signed):
    store, folder, _ = signed
    again, session = load_session(folder, key=store)
    assert session == "Mon" and len(again.tables()) == 1
    with pytest.raises(
        ValueError, match=r"cannot be checked .* key=TableStore\(\.\.\.\) .* trust=True"
    ):
        load_session(folder)
    assert load_session(folder, trust=True)[1] == "Mon"  # on purpose


def test_another_game_with_its_fingerprint_recomputed_is_refused(signed):
    store, folder, other = signed
    (entry,) = _manifest(folder)["tables"]
    (swap,) = _manifest(other)["tables"]
    # another game written in its place, its result and sha256 as the kit computes them
    (folder / entry["record"]).write_bytes((other / swap["record"]).read_bytes())
    manifest = _manifest(folder)
    manifest["tables"][0]["sha256"] = swap["sha256"]
    _write(folder, manifest)
    with pytest.raises(ValueError, match="the signature does not match"):
        load_session(folder, key=store)
    with pytest.raises(ValueError, match="cannot be checked"):
        load_session(folder)


@pytest.mark.parametrize("field", ["sha256", "signature"])
def test_a_removed_fingerprint_or_signature_is_refused(signed, field):
    store, folder, _ = signed
    manifest = _manifest(folder)
    del (manifest["tables"][0] if field == "sha256" else manifest)[field]
    _write(folder, manifest)
    with pytest.raises(ValueError, match="the signature does not match"):
        load_session(folder, key=store)
    with pytest.raises(ValueError, match="cannot be checked"):
        load_session(folder)


@pytest.mark.parametrize(
    ("forge", "message"),
    [
        (lambda text: text.replace('"version": 1', '"version": NaN'), "NaN is not a number"),
        (lambda text: text.replace("{", '{"session": "Tue",', 1), "'session' appears twice"),
        (lambda text: "[" * 2000 + "]" * 2000, "nested too deeply"),
    ],
    ids=["nan", "duplicate-session", "deep"],
)
def test_a_manifest_that_is_not_strict_json_is_refused_even_when_trusted(signed, forge, message):
    store, folder, _ = signed
    path = folder / "session.json"
    path.write_text(forge(path.read_text()))
    for kwargs in ({"key": store}, {"trust": True}, {}):
        with pytest.raises(ValueError, match=message):
            load_session(folder, **kwargs)
