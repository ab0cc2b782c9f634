"""Forged records (issue 27, item 7): a deleted result, a changed record, a re-signed session."""

import hashlib
import json

import pytest

import mogul
from mogul.classroom.export import ExportedSession, export_session, load_session
from mogul.classroom.store import TableStore
from mogul.kit.bots import RandomBot, play
from mogul.kit.record import GameRecord


def test_a_finished_game_without_its_result_is_refused():
    record = play(mogul.new_game(players=3, seed=4), [RandomBot(1), RandomBot(2), RandomBot(3)])
    data = record.to_dict()
    assert GameRecord.from_dict(data) == record
    del data["result"]
    with pytest.raises(ValueError, match='the game is over but the record has no "result"'):
        GameRecord.from_dict(data)


@pytest.fixture
def exported(tmp_path):
    store = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    table = store.create_table("classic", ["human", "value", "value"], session="Mon", seed=10)
    ann = store.join(table.code, "Ann")
    state = store.history(table.code)[-1]
    store.act(ann, len(store.history(table.code)) - 1, str(state.legal_actions()[0]))
    folder = export_session(store, "Mon", tmp_path / "export")
    yield store, folder, folder / f"{table.code}.json"
    store.close()


def test_the_exporting_store_checks_its_signature(exported):
    store, folder, _ = exported
    again, session = load_session(folder, key=store)
    assert session == "Mon" and len(again.tables()) == 1
    assert isinstance(again, ExportedSession)
    assert store.signing_key() == store.signing_key() and len(store.signing_key()) == 32


def test_a_record_changed_after_the_export_is_refused(exported):
    store, folder, record = exported
    data = json.loads(record.read_text())
    data["title"] = "forged"
    record.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="was changed after the export"):
        load_session(folder)
    # A forger who also writes the new fingerprint into session.json breaks the signature.
    manifest = json.loads((folder / "session.json").read_text())
    manifest["tables"][0]["sha256"] = hashlib.sha256(record.read_bytes()).hexdigest()
    (folder / "session.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="the signature does not match"):
        load_session(folder, key=store)
    with pytest.raises(ValueError, match="the signature does not match"):
        load_session(folder, key=b"another store's key is not this one")
