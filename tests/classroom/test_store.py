"""The table store, on a SQLite file and on a real PostgreSQL server (see conftest.py).

Every refusal is checked twice: the message a student reads, and that nothing changed (the
table's version, step and actions are as before).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import signal
import threading
import traceback

import pytest
import sqlalchemy as sa

from mogul.classroom.database import ACTIONS, SEATS
from mogul.classroom.store import TableStore
from mogul.classroom.table import (
    CODE_ALPHABET,
    ENDED,
    OVER,
    PAUSED,
    PLAYING,
    WAITING,
    ClassroomError,
    Ticket,
    bot_seed,
    normal_code,
    pretty_code,
)
from mogul.kit.record import GameRecord

THREE = ["human", "human", "human"]


def snapshot(store: TableStore, code: str) -> tuple:
    info = store.info(code)
    return info.version, info.step, info.status, info.names, store.actions(code)


def refused(store: TableStore, code: str, call, message: str) -> None:
    """``call()`` raises ClassroomError matching ``message`` and leaves the table as it was."""
    before = snapshot(store, code)
    with pytest.raises(ClassroomError, match=message):
        call()
    assert snapshot(store, code) == before


def seated(store: TableStore, seats=THREE, seed: int = 5, names=("Ann", "Ben", "Cy")):
    table = store.create_table("classic", seats, session="week 3", seed=seed)
    tickets = [store.join(table.code, n) for n in names[: seats.count("human")]]
    return table.code, tickets


def to_move(store: TableStore, code: str, tickets: list[Ticket]) -> tuple[Ticket, int, object]:
    """The ticket of the seat to move (None once the game is over), the step and the state."""
    states = store.history(code)
    state = states[-1]
    mover = next((t for t in tickets if t.seat == state.current_player), None)
    return mover, len(states) - 1, state


# --- codes, names and keys --------------------------------------------------------------------


def test_codes_are_long_random_and_typed_forgivingly(store):
    codes = [store.create_table("classic", THREE).code for _ in range(6)]
    assert len(set(codes)) == 6
    for code in codes:
        assert re.fullmatch(f"[{CODE_ALPHABET}]{{8}}", code)
    assert not set("01OIL") & set(CODE_ALPHABET) and len(CODE_ALPHABET) == 31
    pretty = pretty_code(codes[0])
    assert pretty[4] == "-" and normal_code(f" {pretty.lower()} ") == codes[0]
    ticket = store.join(pretty.lower(), "Ann")
    assert ticket.code == codes[0] and ticket.seat == 0


def test_joining_fills_seats_in_order_and_the_last_one_deals(store):
    table = store.create_table("classic", ["human", "value", "human", "human"], seed=3)
    assert table.status == WAITING and table.names == [None, "Bot 2", None, None]
    assert [s.is_human for s in table.seats] == [True, False, True, True]
    assert store.history(table.code) == [] and store.record(table.code) is None
    ann = store.join(table.code, "  Ann  Lee ")
    ben = store.join(table.code, "Ben")
    assert (ann.seat, ben.seat) == (0, 2) and store.info(table.code).status == WAITING
    store.join(table.code, "Cy")
    info = store.info(table.code)
    assert info.status == PLAYING and info.names == ["Ann Lee", "Bot 2", "Ben", "Cy"]
    first = store.history(table.code)[0]
    assert first.names == ("Ann Lee", "Bot 2", "Ben", "Cy") and first.setup.seed == 3


def test_bad_codes_and_names_are_refused_with_a_reason(store):
    code, _ = seated(store, ["human", "human", "human"], names=("Ann",))
    for bad, message in [
        ("", "8 letters"),
        ("ABC", "8 letters"),
        ("ABCD-EFG0", "8 letters"),
        ("ZZZZ-ZZZZ", "no table"),
        (None, "table code"),
    ]:
        if bad == "ZZZZ-ZZZZ" and code == "ZZZZZZZZ":  # pragma: no cover
            continue
        refused(store, code, lambda b=bad: store.join(b, "Zed"), message)
    for bad, message in [
        ("", "your name"),
        ("   ", "your name"),
        ("x" * 25, "at most 24"),
        ("Ann\x00", "letters, digits"),
        ("ann", "already called"),
        ("bot 3", "kept for the bots"),
        (7, "your name"),
    ]:
        refused(store, code, lambda b=bad: store.join(code, b), message)


def test_a_full_table_refuses_newcomers_but_a_seat_key_gets_the_seat_back(store):
    code, (ann, ben, cy) = seated(store)
    refused(store, code, lambda: store.join(code, "Dee"), "full .*seat key")
    again = store.join(code, "whatever", key=ben.key.lower())
    assert again == ben
    refused(store, code, lambda: store.join(code, "Ben", key="AAAAAAAAAAAA"), "does not belong")


def test_seat_keys_are_secret_and_stored_only_as_hashes(store):
    code, tickets = seated(store)
    keys = {t.key for t in tickets}
    assert len(keys) == 3 and all(re.fullmatch(f"[{CODE_ALPHABET}]{{12}}", k) for k in keys)
    assert all(t.key not in repr(t) for t in tickets)
    with store.engine.connect() as conn:
        stored = conn.execute(sa.select(SEATS.c.key_hash)).scalars().all()
    assert len(stored) == 3 and not keys & set(stored) and all(len(h) == 64 for h in stored)


# --- moves ----------------------------------------------------------------------------------------


def test_a_move_is_checked_for_key_turn_step_and_legality(store):
    code, tickets = seated(store)
    mover, step, state = to_move(store, code, tickets)
    other = next(t for t in tickets if t.seat != mover.seat)
    name = state.names[mover.seat]
    forged = Ticket(code, mover.seat, other.key)
    refused(store, code, lambda: store.act(forged, step, "bid"), "does not hold the key")
    refused(store, code, lambda: store.act(other, step, "bid"), f"{name}'s turn, not yours")
    refused(store, code, lambda: store.act(mover, step + 1, "bid"), "too late")
    refused(
        store,
        code,
        lambda: store.act(mover, step, "take"),
        "'take' is not allowed now; you may: bid, drop, credit",
    )
    refused(store, code, lambda: store.act(mover, step, "jump"), "not a move of this game")
    refused(store, code, lambda: store.act(mover, step, "x" * 41), "not a move")
    refused(store, code, lambda: store.act(mover, True, "bid"), "names no step")
    assert store.act(mover, step, " BID ") == step + 1
    assert store.actions(code) == ["bid"] and store.info(code).step == 1


def write_transactions(store: TableStore) -> list[int]:
    """A list that grows by one with every write transaction ``store`` begins from now on."""
    begun: list[int] = []

    def begin(conn: sa.Connection) -> None:
        if conn.get_execution_options().get("write"):
            begun.append(1)

    sa.event.listen(store.engine, "begin", begin)
    return begun


def test_a_refused_move_or_join_begins_no_write_transaction(store):
    """A click out of turn, with a wrong key, too late, or illegal, and a join at a full table
    or under a taken name, are refused by a read: none of them waits for the write lock (issue
    39: a burst of refused clicks was serialised like real moves). A legal move takes one."""
    code, tickets = seated(store)
    mover, step, state = to_move(store, code, tickets)
    other = next(t for t in tickets if t.seat != mover.seat)
    waiting = store.create_table("classic", THREE, seed=1).code
    store.join(waiting, "Ann")
    writes = write_transactions(store)
    for call in (
        lambda: store.act(other, step, "bid"),  # out of turn
        lambda: store.act(Ticket(code, mover.seat, other.key), step, "bid"),  # a wrong key
        lambda: store.act(mover, step + 1, "bid"),  # too late
        lambda: store.act(mover, step, "take"),  # illegal now
        lambda: store.join(code, "Dee"),  # a full table
        lambda: store.join(waiting, "ann"),  # a taken name
    ):
        with pytest.raises(ClassroomError):
            call()
    assert writes == []
    assert store.act(mover, step, "bid") == step + 1
    assert writes == [1] and store.actions(code) == ["bid"]


def test_a_move_the_read_let_through_is_checked_again_under_the_lock(store, monkeypatch):
    """The table moves on between the read that checked a click and its write (the same seat's
    other device, or the turn timer): the click is refused as too late, and the table holds
    one move, not two."""
    code, tickets = seated(store)
    mover, step, _ = to_move(store, code, tickets)
    other_device = TableStore(store.url)
    check = store._check_move

    def meanwhile(conn, row, ticket, step, action):
        checked = check(conn, row, ticket, step, action)
        if not store.actions(code):  # the first check: the read's
            other_device.act(mover, step, "drop")
        return checked

    monkeypatch.setattr(store, "_check_move", meanwhile)
    with pytest.raises(ClassroomError, match=r"too late.*step 0, now 1"):
        store.act(mover, step, "bid")
    assert store.actions(code) == ["drop"] and store.info(code).step == 1
    other_device.close()


def test_a_stale_move_is_refused_after_another_seat_moved(store):
    code, tickets = seated(store)
    mover, step, _ = to_move(store, code, tickets)
    store.act(mover, step, "bid")
    refused(store, code, lambda: store.act(mover, step, "bid"), r"too late.*step 0, now 1")


def test_pause_resume_end(store):
    code, tickets = seated(store)
    mover, step, _ = to_move(store, code, tickets)
    assert store.pause(code).status == PAUSED
    refused(store, code, lambda: store.act(mover, step, "bid"), "paused")
    refused(store, code, lambda: store.pause(code), "is paused")
    assert store.resume(code).status == PLAYING
    store.act(mover, step, "drop")
    assert store.end(code).status == ENDED
    refused(
        store, code, lambda: store.act(to_move(store, code, tickets)[0], step + 1, "bid"), "ended"
    )
    refused(store, code, lambda: store.resume(code), "is ended")
    assert store.record(code).actions == ("drop",)


def test_bots_fill_free_seats_when_the_lecturer_starts_and_play_to_a_persons_turn(store):
    table = store.create_table("classic", THREE, seed=11, fill="value")
    ann = store.join(table.code, "Ann")
    info = store.start(table.code)
    assert info.status == PLAYING and [s.kind for s in info.seats] == ["human", "value", "value"]
    assert info.names == ["Ann", "Bot 2", "Bot 3"]
    state = store.history(table.code)[-1]
    assert state.current_player == ann.seat  # the bots moved until Ann must decide
    # Bot moves depend only on the seed and the game so far: a second store replays them.
    twin = store.create_table("classic", ["human", "value", "value"], seed=11)
    store.join(twin.code, "Ann")
    assert store.actions(twin.code) == store.actions(table.code)
    assert bot_seed(11, 1, 0) == bot_seed(11, 1, 0) != bot_seed(11, 1, 1)


def test_an_all_bot_table_plays_to_the_end_and_its_record_replays(store):
    table = store.create_table(
        "classic", ["value", "threshold:drop_at=2", "random"], seed=4, session="s"
    )
    info = store.info(table.code)
    assert info.status == OVER and info.step > 20
    record = store.record(table.code)
    assert record.replay().is_over and len(record.actions) == info.step
    again = GameRecord.from_json(record.to_json())
    assert again.replay().final_scores() == store.history(table.code)[-1].final_scores()
    assert "Table" in record.title and record.title.endswith(", s")


def test_unknown_games_bots_and_seat_counts_are_refused(store):
    with pytest.raises(ValueError, match="unknown game or edition"):
        store.create_table("chess", THREE)
    with pytest.raises(ValueError, match="3 to 6 players"):
        store.create_table("classic", ["human"] * 7)
    with pytest.raises(ValueError, match="unknown bot"):
        store.create_table("classic", ["human", "human", "genius"])
    with pytest.raises(ValueError, match="seed"):
        store.create_table("classic", THREE, seed=-1)
    assert store.tables() == []


def test_any_registered_game_plays_at_a_table(store):
    import toy_game  # examples/toy_game: on the path (pyproject's pytest pythonpath)

    with toy_game.registered_toy():
        table = store.create_table("toy-race", ["human", "human"], seed=2)
        tickets = [store.join(table.code, n) for n in ("Ada", "Bo")]
        while store.info(table.code).status == PLAYING:
            mover, step, state = to_move(store, table.code, tickets)
            store.act(mover, step, str(state.legal_actions()[0]))
        assert store.history(table.code)[-1].is_over and store.info(table.code).status == OVER


def test_sessions_list_their_tables_and_versions(store):
    a = store.create_tables(2, "classic", THREE, session="Mon", seed=1)
    b = store.create_table("classic", THREE, session="Tue")
    assert [t.seed for t in a] == [1, 2] and store.sessions() == ["Mon", "Tue"]
    assert [t.code for t in store.tables("Mon")] == [t.code for t in a]
    versions = store.versions("Mon")
    store.join(a[0].code, "Ann")
    assert store.versions("Mon") == {**versions, a[0].code: versions[a[0].code] + 1}
    assert store.version(b.code) == 0
    with pytest.raises(ValueError, match="count"):
        store.create_tables(0)


# --- restart and concurrency ----------------------------------------------------------------------


def test_a_new_store_on_the_same_database_resumes_the_table_exactly(url):
    first = TableStore(url)
    code, tickets = seated(first, seed=9)
    rng = random.Random(1)
    for _ in range(12):
        mover, step, state = to_move(first, code, tickets)
        first.act(mover, step, str(rng.choice(state.legal_actions())))
    before = first.history(code)
    first.close()
    second = TableStore(url)  # a restarted server: nothing in memory
    after = second.history(code)
    assert after == before and len(after) == 13
    mover, step, state = to_move(second, code, tickets)
    assert step == 12 and second.act(mover, step, str(state.legal_actions()[0])) == 13
    second.close()


def _play_until_killed(url: str, code: str, tickets: list[Ticket], done, seed: int) -> None:
    """Child process: act for whoever is to move, report each committed step, forever."""
    store = TableStore(url)
    rng = random.Random(seed)
    while True:
        mover, step, state = to_move(store, code, tickets)
        if state.is_over:
            return
        store.act(mover, step, str(rng.choice(state.legal_actions())))
        done.value = step + 1


def test_a_table_killed_mid_game_resumes_with_no_action_lost(url):
    store = TableStore(url)
    code, tickets = seated(store, seed=21)
    ctx = multiprocessing.get_context("fork")
    done = ctx.Value("i", 0)
    child = ctx.Process(target=_play_until_killed, args=(url, code, tickets, done, 3))
    child.start()
    while done.value < 15 and child.is_alive():
        child.join(0.01)
    os.kill(child.pid, signal.SIGKILL)  # the server dies mid-game, between or inside writes
    child.join()
    committed = done.value
    resumed = TableStore(url)
    states = resumed.history(code)
    assert committed >= 15 and len(states) - 1 >= committed  # every acknowledged move is there
    assert resumed.info(code).step == len(states) - 1
    mover, step, state = to_move(resumed, code, tickets)
    resumed.act(mover, step, str(state.legal_actions()[0]))
    assert resumed.history(code)[:-1] == states
    resumed.close()
    store.close()


def test_racing_devices_at_one_step_move_once(url):
    store = TableStore(url)
    code, tickets = seated(store, seed=2)
    mover, step, _ = to_move(store, code, tickets)
    stores = [TableStore(url) for _ in range(6)]
    barrier = threading.Barrier(len(stores))
    results: list[str] = []

    def device(s: TableStore, action: str) -> None:
        barrier.wait()
        try:
            s.act(mover, step, action)
            results.append("moved")
        except ClassroomError as err:
            results.append(str(err))

    threads = [
        threading.Thread(target=device, args=(s, ("bid", "drop")[i % 2]))
        for i, s in enumerate(stores)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("moved") == 1, results
    assert all("too late" in r for r in results if r != "moved")
    assert store.info(code).step == 1 and len(store.actions(code)) == 1
    for s in stores:
        s.close()


def _race(url: str, code: str, tickets: list[Ticket], seed: int, counts) -> None:
    """Child process: keep moving for whoever's turn it is; report moves and refusals."""
    moved, refusals = 0, []
    try:
        store = TableStore(url)
        rng = random.Random(seed)
        while True:
            mover, step, state = to_move(store, code, tickets)
            if state.is_over:
                break
            try:
                store.act(mover, step, str(rng.choice(state.legal_actions())))
                moved += 1
            except ClassroomError as err:
                refusals.append(str(err))
    except Exception as err:  # reported to the test, never a hang
        refusals.append(f"crashed: {err!r}\n{traceback.format_exc()}")
    counts.put((moved, refusals))


def test_many_writers_play_a_whole_game_with_no_lost_or_doubled_actions(url):
    store = TableStore(url)
    code, tickets = seated(store, seed=8)
    ctx = multiprocessing.get_context("fork")
    counts = ctx.Queue()
    procs = [
        ctx.Process(target=_race, args=(url, code, tickets, seed, counts)) for seed in range(4)
    ]
    for p in procs:
        p.start()
    results = [counts.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    moved = sum(m for m, _ in results)
    refusals = [r for _, rs in results for r in rs]
    unexpected = [
        r for r in refusals if not re.match("too late|it is .*'s turn|the game is over", r)
    ]
    assert not unexpected, unexpected
    info = store.info(code)
    with store.engine.connect() as conn:
        steps = conn.execute(sa.select(ACTIONS.c.step).order_by(ACTIONS.c.step)).scalars().all()
    assert info.status == OVER and moved == info.step == len(steps)
    assert steps == list(range(info.step))  # no gap, no step twice
    record = store.record(code)
    assert (
        record.replay().is_over and GameRecord.from_json(record.to_json()).actions == record.actions
    )
    store.close()
