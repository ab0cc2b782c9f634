"""The session export's tables: the stored code to join on, the dashboard's spelling to read."""

from __future__ import annotations

import pandas as pd

from mogul.classroom.export import export_session, game_tables, pretty_code, seats_table
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
