"""The auction lab in the lecture hall: a student's own panel (and nobody else's value or sealed
bid in any message), sealed bids from any seat in any order, the lecturer's setup kept per
table, the turn timer on sealed bids, the projector's anonymous bids, and new groups between
rounds (strangers) that the debrief reads as one class."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

import sqlalchemy as sa  # noqa: E402

from mogul.analysis.auction_lab import with_theory  # noqa: E402
from mogul.classroom.auction_lab.sample import rounds_table  # noqa: E402
from mogul.classroom.database import TABLES  # noqa: E402
from mogul.classroom.desk import Desk, setup_fields  # noqa: E402
from mogul.classroom.projector import table_bids  # noqa: E402
from mogul.classroom.server.dashboard import Dashboards  # noqa: E402
from mogul.classroom.server.hall import Hall, Page  # noqa: E402
from mogul.classroom.server.views import number_move  # noqa: E402
from mogul.classroom.store import TableStore  # noqa: E402
from mogul.classroom.table import ClassroomError  # noqa: E402

# Scripted values no bid or count can be mistaken for: round r, seat s values 100 * (s + 1) + r
DRAWN = [[101, 201, 301], [102, 202, 302], [103, 203, 303]]
SETUP = {"rounds": 3, "values": "uniform 0..10", "budget": 1000, "drawn": DRAWN}


class Phone:
    """A student page without a browser: it keeps what the hall sends it."""

    def __init__(self) -> None:
        self.inbox: list[dict[str, Any]] = []
        self.page = Page(self.inbox.append)

    @property
    def view(self) -> dict[str, Any]:
        return [m for m in self.inbox if m["type"] == "view"][-1]

    def said(self) -> str:
        """Everything the page was sent, less its table codes and seat keys: those are drawn
        at random from letters and the digits 2-9, so one may hold "555" by chance."""
        text = json.dumps(self.inbox)
        for m in self.inbox:
            for word in (m.get("table"), m.get("key")):
                if isinstance(word, str) and len(word) > 4:
                    dashed = "-".join(word[i : i + 4] for i in range(0, len(word), 4))
                    text = text.replace(word, "").replace(dashed, "").replace(dashed[:9], "")
        return text


def handle(hall: Hall, page: Page, message: Any) -> None:
    asyncio.run(hall.handle(page, message))


@pytest.fixture
def store(tmp_path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'lab.sqlite'}")
    yield s
    s.close()


def lab_table(store: TableStore, edition: str = "first-price-auction", **setup: Any):
    code = store.create_table(
        edition, ["human"] * 3, seed=7, fill="equilibrium", setup={**SETUP, **setup}
    ).code
    hall, phones = Hall(store), [Phone() for _ in range(3)]
    for i, phone in enumerate(phones):
        handle(hall, phone.page, {"op": "join", "table": code, "name": f"Student {'ABC'[i]}"})
    return hall, code, phones


def bid(hall: Hall, phone: Phone, amount: int) -> None:
    handle(hall, phone.page, {"op": "act", "step": phone.view["step"], "action": f"bid {amount}"})


def test_the_lecturers_setup_is_kept_per_table_dealt_and_replayed(store: TableStore) -> None:
    hall, code, phones = lab_table(store)
    first = store.history(code)[0]
    assert (first.setup.rounds, first.setup.budget, first.values) == (
        3,
        1000,
        tuple(map(tuple, DRAWN)),
    )
    record = store.record(code)
    assert list(record.states())[0] == first  # the record deals the same session
    with pytest.raises(ValueError, match="rounds must be a whole number from 1 to 100"):
        store.create_table("first-price-auction", ["human"] * 3, setup={"rounds": 0})
    with pytest.raises(ValueError, match="has no such setup"):
        store.create_table("first-price-auction", ["human"] * 3, setup={"decks": 2})
    with pytest.raises(ValueError, match="setup may not hold players"):
        store.create_table("first-price-auction", ["human"] * 3, setup={"players": 2})
    names = [f["name"] for f in setup_fields("first-price-auction")]
    assert names == ["rounds", "values", "budget"]  # second: Mogul's auction only
    assert [f["name"] for f in setup_fields("mogul-auction")] == [*names, "second"]
    assert setup_fields("first-price-auction")[1] == {
        "name": "values",
        "kind": "text",
        "default": "uniform 0..10",
    }
    assert setup_fields("classic") == []  # Mogul's dashboard form stays as it was
    made = Desk(store).create_tables(
        "s", "all-pay-auction", 2, 1, "equilibrium", 2, 0, {"rounds": 4, "budget": 6}
    )
    assert len(made) == 2
    assert store.start(made[0].code).status == "over"  # two bots filled the seats and played
    dealt = store.history(made[0].code)[0].setup
    assert (dealt.mechanism, dealt.rounds, dealt.budget) == ("all-pay", 4, 6)


def test_a_student_sees_their_own_value_and_never_anothers_or_a_sealed_bid(
    store: TableStore,
) -> None:
    hall, code, phones = lab_table(store)
    for seat, phone in enumerate(phones):
        assert f"your value: <b>{DRAWN[0][seat]}</b>" in phone.view["panel"]
        assert phone.view["number"] == {"word": "bid", "low": 0, "high": 1000}
    order = store.history(code)[-1].now.order
    last = phones[order[-1]]
    bid(hall, last, 777)  # held: not its turn yet
    assert store.held_seats(code) == {order[-1]}
    assert "Your bid is in" in last.view["line"] and last.view["moves"] == []
    for seat, phone in enumerate(phones):
        if seat != order[-1]:
            assert "1 of 3 bids in" in phone.view["line"]
            assert phone.view["number"] is not None
    bid(hall, phones[order[0]], 555)
    # the round is open: no page was told another seat's value or sealed bid
    for seat, phone in enumerate(phones):
        said = phone.said()
        for other in range(3):
            if other != seat:
                assert str(DRAWN[0][other]) not in said
        assert ("777" in said) == (seat == order[-1])
        assert ("555" in said) == (seat == order[0])
    bid(hall, phones[order[1]], 666)
    for seat, phone in enumerate(phones):
        view = phone.view
        assert "777" in view["panel"] and "555" in view["panel"]  # the round closed: bids shown
        assert f"your value: <b>{DRAWN[1][seat]}</b>" in view["panel"]
        said = phone.said()
        for other in range(3):
            if other != seat:
                assert all(str(DRAWN[r][other]) not in said for r in range(3))
    winner, payoff = phones[order[-1]].view["panel"], DRAWN[0][order[-1]] - 777
    assert f"<td>you</td><td>777</td><td><b>{payoff}</b></td>" in winner
    assert f"your payoff so far: <b>{payoff}</b>" in winner


def test_sealed_bids_come_in_any_order_and_the_record_replays(store: TableStore) -> None:
    hall, code, phones = lab_table(store, rounds=2, drawn=DRAWN[:2])
    for number in range(2):
        order = store.history(code)[-1].now.order
        for seat in reversed(order):  # the last in the round's order first: held, then played
            bid(hall, phones[seat], 10 * (seat + 1) + number)
            assert "error" not in [m["type"] for m in phones[seat].inbox[-1:]]
    final = store.history(code)[-1]
    assert final.is_over and store.held_seats(code) == frozenset()
    assert [r.bids for r in final.results] == [(10, 20, 30), (11, 21, 31)]
    assert list(store.record(code).states())[-1] == final
    assert final.final_scores() == (0, 0, 542)  # 301 - 30 + 302 - 31: seat 2 won both
    assert "your score <b>542</b>" in phones[2].view["panel"]
    for phone in phones[:2]:  # a winner's score and price would tell its value
        view = phone.view
        assert "your score <b>0</b>" in view["panel"]
        assert "542" not in view["panel"] + view["table_html"] + view["line"]
    handle(hall, phones[0].page, {"op": "act", "step": 6, "action": "bid 5"})
    assert phones[0].inbox[-1]["message"] == "the game is over"


def test_a_bid_twice_or_for_a_closed_round_is_refused_and_a_held_bid_survives_a_restart(
    store: TableStore, tmp_path
) -> None:
    hall, code, phones = lab_table(store)
    order = store.history(code)[-1].now.order
    late = phones[order[2]]
    bid(hall, late, 9)
    version = store.version(code)
    bid(hall, late, 8)
    assert late.inbox[-1]["message"] == "your bid for this round is in: wait for the others"
    handle(hall, phones[order[1]].page, {"op": "act", "step": 0, "action": "bid 1001"})
    assert "'bid 1001' is not allowed now" in phones[order[1]].inbox[-1]["message"]
    assert store.version(code) == version  # refused: nothing changed
    again = TableStore(store.url)  # a server restart: the held bid is in the store
    assert again.held_seats(code) == {order[2]}
    again.act(store_ticket(again, code, order[0], phones), 0, "bid 3")
    again.act(store_ticket(again, code, order[1], phones), 1, "bid 4")
    assert again.history(code)[-1].results[0].bids[order[2]] == 9
    again.close()
    stale = phones[order[0]]  # a page still showing round 1
    handle(hall, stale.page, {"op": "act", "step": 0, "action": "bid 2"})
    assert stale.inbox[-1]["message"].startswith("too late")


def store_ticket(store: TableStore, code: str, seat: int, phones: list[Phone]):
    from mogul.classroom.table import Ticket

    sat = [m for m in phones[seat].inbox if m["type"] == "seat"][-1]
    return Ticket(code, seat, sat["key"])


def test_the_timer_fills_every_idle_bidder_at_once_and_keeps_a_held_bid(
    store: TableStore,
) -> None:
    hall, code, phones = lab_table(store)
    order = store.history(code)[-1].now.order
    bid(hall, phones[order[1]], 42)  # one student bids; the other two are idle
    store.set_timer(code, 30)
    asyncio.run(hall.changed())
    assert phones[order[1]].view["timer"]["who"] == "the last bidders"
    assert phones[order[0]].view["timer"]["who"] == "you"
    with store.engine.begin() as conn:  # the round began 31 s ago
        conn.execute(
            sa.update(TABLES).where(TABLES.c.code == code).values(updated=time.time() - 31)
        )
    asyncio.run(hall.tick())
    state = store.history(code)[-1]
    assert state.round == 2 and state.results[0].bids[order[1]] == 42
    assert store.clock(code)[2] == frozenset({0, 2})  # the two idle seats' bids, by the bot
    with pytest.raises(ClassroomError):
        store.act(store_ticket(store, code, order[1], phones), 1, "bid 1")  # round 1 is over
    assert len(phones[0].view["timeouts"]) == 2


def test_the_projector_counts_bids_in_without_names_and_shows_a_closed_rounds_bids(
    store: TableStore,
) -> None:
    hall, code, phones = lab_table(store)
    order = store.history(code)[-1].now.order
    bid(hall, phones[order[2]], 777)
    info, states = store.info(code), store.history(code)
    shown = table_bids(info, states, store.held_seats(code))
    assert "1 of 3 bids in" in shown and "777" not in shown and "Student" not in shown
    bid(hall, phones[order[0]], 555)
    bid(hall, phones[order[1]], 666)
    shown = table_bids(store.info(code), store.history(code), store.held_seats(code))
    assert "0 of 3 bids in" in shown
    assert "round 1 bids: <b>777 &middot; 666 &middot; 555</b>; the winner paid 777" in shown
    assert not any(str(v) in shown for v in DRAWN[0] + DRAWN[1])


def test_other_games_keep_their_pages(store: TableStore) -> None:
    code = store.create_table("classic", ["human"] * 3, seed=2).code
    hall, phone = Hall(store), Phone()
    handle(hall, phone.page, {"op": "join", "table": code, "name": "Ann"})
    assert phone.view["panel"] == "" and phone.view["number"] is None
    assert table_bids(store.info(code), store.history(code)) == ""
    assert number_move([["Bid 0", "bid 0"], ["Bid 1", "bid 1"], ["Bid 2", "bid 2"]]) == {
        "word": "bid",
        "low": 0,
        "high": 2,
    }
    assert number_move([["Pay", "pay"], ["Drop", "drop"]]) is None


def test_new_groups_seat_the_students_of_finished_tables_at_new_tables_and_the_debrief_reads_them(
    store: TableStore,
) -> None:
    made = Desk(store).create_tables(
        "s", "second-price-auction", 2, 0, "equilibrium", 2, 30, {"rounds": 1, "budget": 5}
    )
    hall, phones = Hall(store), {}
    for t, info in enumerate(made):
        for i in range(2):
            phone, name = Phone(), f"Student {t}{i}"
            handle(hall, phone.page, {"op": "join", "table": info.code, "name": name})
            phones[name] = phone
    for phone in phones.values():
        bid(hall, phone, 3)
    assert all(store.info(info.code).status == "over" for info in made)
    said, moves = Desk(store).regroup("s")
    assert said == "New groups: 4 students at 2 new tables."
    new = [t for t in store.tables("s") if t.code not in {info.code for info in made}]
    assert len(new) == 2 and all(t.status == "playing" for t in new)
    assert sorted(n for t in new for n in t.names) == sorted(phones)
    for table in new:
        first = store.history(table.code)[0]
        assert (first.setup.mechanism, first.setup.rounds, first.setup.budget) == (
            "second-price",
            1,
            5,
        )
        assert store.clock(table.code)[0] == 30  # the timer comes along
    assert asyncio.run(hall.move_pages(moves)) == 4
    for name, phone in phones.items():
        old, seat = [m for m in phone.inbox if m["type"] == "seat"][-2:]
        assert seat["moved"] and seat["table"] in {t.code for t in new}
        assert moves[(old["table"], old["seat"])] == (seat["table"], seat["seat"])
        assert seat["key"] == old["key"] and not seat["new"]  # their key went along: no new one
        assert phone.view["table"] == seat["table"] and phone.view["name"] == name
        assert phone.view["number"] == {"word": "bid", "low": 0, "high": 5}
    assert asyncio.run(hall.move_pages(moves)) == 0  # sent on once
    # the dashboard counts each student once, at the new table (not also at the old one)
    assert "<b>4 of 4</b> seats joined" in Dashboards(hall).draw("s")["summary"]
    back = Phone()  # a page back later with the old table's code and key: sent on too
    old = [m for m in phones["Student 00"].inbox if m["type"] == "seat"][0]
    handle(hall, back.page, {"op": "join", "table": old["table"], "key": old["key"]})
    (again,) = [m for m in back.inbox if m["type"] != "view"]
    assert again["type"] == "seat" and again["moved"] and again["key"] == old["key"]
    assert (again["table"], again["seat"]) == moves[(old["table"], old["seat"])]
    assert (back.view["table"], back.view["name"]) == (again["table"], "Student 00")
    with pytest.raises(ClassroomError, match="moved on to table .* already"):
        store.move_student(old["table"], old["seat"], new[0].code)
    with pytest.raises(ClassroomError, match="once its game is over"):
        store.move_student(new[0].code, 0, new[1].code)
    with pytest.raises(ClassroomError, match="nobody to regroup"):
        Desk(store).regroup("s")  # everyone is at a table still playing
    for phone in phones.values():  # the new groups' round, then the live debrief
        bid(hall, phone, 4)
    rounds = with_theory(rounds_table(store, "s"))
    assert len(rounds) == 8 and set(rounds["bid"]) == {3, 4}
    assert rounds.groupby("player")["code"].nunique().to_dict() == dict.fromkeys(phones, 2)
    assert (rounds["equilibrium"] == rounds["value"].clip(upper=5)).all()  # second-price: v
    store.reissue_key(again["table"], again["seat"])  # Student 00 lost theirs: a new one
    lost = Phone()  # the old table's code and key open no seat now
    handle(hall, lost.page, {"op": "join", "table": old["table"], "key": old["key"]})
    assert [m["type"] for m in lost.inbox] == ["error"] and lost.inbox[0]["lost"]
    assert "your seat key no longer opens a seat there" in lost.inbox[0]["message"]


def test_a_burst_of_changes_at_one_table_reads_it_once_more_not_once_per_change(
    store: TableStore, monkeypatch
) -> None:
    hall, code, phones = lab_table(store)
    reads = []
    snapshot = store.seat_snapshot

    def counted(table: str):
        reads.append(table)
        time.sleep(0.05)  # a read that takes a while, as under a room's load
        return snapshot(table)

    monkeypatch.setattr(store, "seat_snapshot", counted)
    order = store.history(code)[-1].now.order
    store.act(phones[order[-1]].page.ticket, phones[order[-1]].view["step"], "bid 9")  # held

    async def burst() -> list[int]:
        return await asyncio.gather(*(hall.push(code) for _ in range(6)))

    assert asyncio.run(burst()) == [0] * 6  # nobody to send on to a new table
    assert reads == [code, code]  # the first push, and one more for the five asked meanwhile
    for phone in phones:  # and every page shows the bid that came in
        assert "1 of 3 bids in" in phone.view["line"] or "Your bid is in" in phone.view["line"]
