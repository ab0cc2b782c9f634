"""The session export's tables: the stored code to join on, the dashboard's spelling to read."""

from __future__ import annotations

import json

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
    other = TableStore("sqlite://")
    load_session(folder, other)
    assert other.actions(tables[0].code) == store.actions(tables[0].code)
    with pytest.raises(ValueError, match="already has a table"):
        load_session(folder, other)
    (folder / "session.json").write_text('{"format": "x"}')
    with pytest.raises(ValueError, match="mogul-classroom-session"):
        load_session(folder)
    with pytest.raises(ValueError, match="no tables"):
        export_session(store, "nobody", tmp_path)
    store.close()
