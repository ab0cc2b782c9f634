"""The dashboard's debrief (issue 38, item 3, live): a session's auction-lab rounds, played into
a store, come back over the dashboard's socket as notebook 09's figures and tables, with the
class's real bids, revenue by mechanism and the equilibrium beside them; it is computed again
only when rounds ended; plotly.js is the lecturer's; and what it says with no finished round,
one student among bots, settings the kit has no equilibrium for, or a debrief that fails."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

pytest.importorskip("sqlalchemy")

from test_dashboard_page import TOKEN, Lecturer, serve  # noqa: E402

from mogul.classroom.auction_lab import figures  # noqa: E402
from mogul.classroom.server import dashboard  # noqa: E402
from mogul.classroom.server.hall import Hall  # noqa: E402
from mogul.classroom.store import TableStore  # noqa: E402

SESSION = "Lab"
# round r's values at seats 0..2; first-price: three rounds, all-pay: one
FIRST_PRICE = [[2, 5, 8], [9, 1, 4]]
FIRST_BIDS = [[1, 3, 5], [6, 1, 2]]
ALL_PAY = [[3, 6, 7]]
ALL_PAY_BIDS = [[1, 2, 3]]
NAMES = ("Ann", "Ben", "Cy")


@pytest.fixture
def store(tmp_path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    yield s
    s.close()


def table(store: TableStore, edition: str, drawn: list, names=NAMES, bots=(), **setup) -> tuple:
    """A table of ``edition`` whose students have joined: its code and their tickets."""
    info = store.create_table(
        edition,
        ["human"] * len(names) + list(bots),
        SESSION,
        seed=1,
        fill="equilibrium",
        setup={"rounds": len(drawn), "drawn": drawn, **setup},
    )
    return info.code, [store.join(info.code, name) for name in names]


def play(store: TableStore, code: str, tickets: list, bids: list[int]) -> None:
    """One round of sealed bids: each ticket's bid, in seat order (the hall holds early bids)."""
    for ticket, amount in zip(tickets, bids, strict=True):
        store.act(ticket, store.info(code).step, f"bid {amount}")


def panels(figure: dict[str, Any], name: str) -> dict[str, tuple[list, list]]:
    """The (x, y) of the traces called ``name``, by the x axis they are drawn on."""
    return {
        trace.get("xaxis", "x"): (trace["x"], trace["y"])
        for trace in figure["data"]
        if trace.get("name") == name
    }


def test_the_dashboard_sends_the_class_bids_and_revenue_beside_the_equilibrium(
    store: TableStore, monkeypatch
) -> None:
    calls = []
    made = figures.debrief
    monkeypatch.setattr(figures, "debrief", lambda *a: calls.append(a) or made(*a))
    monkeypatch.setattr(dashboard, "DEBRIEF_SECONDS", 0.2)  # no wait for the next one
    first, first_tickets = table(store, "first-price-auction", FIRST_PRICE)
    allpay, allpay_tickets = table(store, "all-pay-auction", ALL_PAY)
    store.create_table("classic", ["value"] * 3, SESSION)  # a Mogul game: rounds of its own

    async def visit(base: str, hall: Hall) -> None:
        ws = await websocket_connect(f"ws://{base}/dashboard/ws?session={SESSION}&token={TOKEN}")
        lecturer = Lecturer(ws)
        setup = await lecturer.next(lambda m: m["type"] == "setup")
        assert setup["plotly"].startswith("dashboard/plotly.min.js?v=")
        board = await lecturer.board()
        assert board["debrief"] == 0  # two auction-lab tables, no round over
        await ws.write_message(json.dumps({"op": "debrief"}))
        empty = await lecturer.next(lambda m: m["type"] == "debrief")
        (lab,) = empty["games"]  # the Mogul game has no debrief
        assert lab["title"].startswith("Auction lab")
        assert lab["summary"] == (
            "No finished round yet at the session's 2 auction-lab tables: the debrief starts "
            "when a round is over."
        )
        assert (empty["rounds"], lab["sections"]) == (0, [])

        for bids in FIRST_BIDS:
            play(store, first, first_tickets, bids)
        play(store, allpay, allpay_tickets, ALL_PAY_BIDS[0])
        await lecturer.board(lambda b: b["debrief"] == 3)  # 2 + 1 rounds over
        await ws.write_message(json.dumps({"op": "debrief"}))
        shown = await lecturer.next(lambda m: m["type"] == "debrief")
        (lab,) = shown["games"]
        assert shown["rounds"] == 3
        assert lab["summary"].startswith(
            "3 students at 2 tables; finished rounds: first-price sealed bids 2, "
            "all-pay sealed bids 1."
        )
        titles = [s["title"] for s in lab["sections"]]
        assert titles == [
            "Bids against values",
            "Overbidding in first-price sealed bids",
            "Revenue and efficiency",
            "Bids over the rounds",
        ]
        bids = json.loads(lab["sections"][0]["figure"])
        # first panel: first-price, the class's six bids at their values (no two on one spot)
        (fx, fy), (ax, ay) = panels(bids, "the class")["x"], panels(bids, "the class")["x2"]
        assert sorted(zip(fx, fy, strict=True)) == sorted(
            zip(sum(FIRST_PRICE, []), sum(FIRST_BIDS, []), strict=True)
        )
        assert sorted(zip(ax, ay, strict=True)) == [(3, 1), (6, 2), (7, 3)]
        # the equilibrium in whole chips for three bidders: first-price 2/3 of the value,
        # all-pay E[Y 1{Y < v}] = 2/3 v^3 / 100, each rounded to a whole chip
        ex, ey = panels(bids, "equilibrium (whole chips)")["x"]
        assert dict(zip(ex, ey, strict=True)) == {v: round(2 * v / 3) for v in range(11)}
        ex, ey = panels(bids, "equilibrium (whole chips)")["x2"]
        assert dict(zip(ex, ey, strict=True)) == {v: round(2 * v**3 / 300) for v in range(11)}
        for axis, low, high in (("xaxis", 0, 10), ("yaxis", 0, 10)):  # every point shows
            assert (
                bids["layout"][axis]["range"][0] <= low and bids["layout"][axis]["range"][1] >= high
            )
        # revenue per round: first-price the highest bid (5, then 6), all-pay every bid (6)
        revenue = json.loads(lab["sections"][2]["figure"])
        (bar, *_) = [t for t in revenue["data"] if t["type"] == "bar"]
        assert dict(zip(bar["x"], bar["y"], strict=True)) == {"first-price": 5.5, "all-pay": 6.0}
        assert "5.50 (" in lab["sections"][2]["html"]
        # asked again with no round over since: the same debrief, not computed again
        await ws.write_message(json.dumps({"op": "debrief"}))
        again = await lecturer.next(lambda m: m["type"] == "debrief")
        assert again == shown and len(calls) == 2
        ws.close()

    serve(store, visit)


def test_plotly_js_is_the_lecturers_and_comes_gzipped(store: TableStore) -> None:
    async def visit(base: str, hall: Hall) -> None:
        client = AsyncHTTPClient()
        refused = await client.fetch(f"http://{base}/dashboard/plotly.min.js", raise_error=False)
        assert refused.code == 403
        entry = await client.fetch(
            f"http://{base}/dashboard?token={TOKEN}", follow_redirects=False, raise_error=False
        )
        cookie = {"Cookie": entry.headers.get_list("Set-Cookie")[0].split(";")[0]}
        script = await client.fetch(
            HTTPRequest(
                f"http://{base}/dashboard/plotly.min.js?v=1",
                headers={**cookie, "Accept-Encoding": "gzip"},
                decompress_response=False,
            )
        )
        assert script.headers["Content-Encoding"] == "gzip"
        assert 500_000 < len(script.body) < 3_000_000  # plotly.js, packed
        plain = await client.fetch(
            HTTPRequest(f"http://{base}/dashboard/plotly.min.js", headers=cookie)
        )
        assert plain.body.startswith(b"/**") and b"plotly" in plain.body[:2000].lower()

    serve(store, visit)


def test_what_the_debrief_says_with_one_student_among_bots(store: TableStore) -> None:
    code, (solo,) = table(
        store, "first-price-auction", FIRST_PRICE, ["Solo"], ["equilibrium", "naive"]
    )
    for bids in FIRST_BIDS:
        store.act(solo, store.info(code).step, f"bid {bids[0]}")
    out = figures.debrief(store, SESSION)
    assert out["summary"].startswith("1 student at 1 table; finished rounds: first-price sealed")
    assert out["summary"].endswith("The 4 bids of bot seats are left out.")
    bids = json.loads(out["sections"][0]["figure"])
    assert panels(bids, "the class")["x"] == ([2, 9], [1, 6])  # Solo's alone
    assert (
        "first-price sealed bids: +0.00 chips from the equilibrium on average (one student"
        in (out["sections"][0]["html"])
    )
    assert "(one student: no interval)" in out["sections"][0]["html"]
    assert "nan" not in json.dumps(out).lower().replace("nan_rep", "")


def test_a_students_name_is_text_in_the_figures(store: TableStore) -> None:
    code, tickets = table(store, "first-price-auction", FIRST_PRICE, ["<b>Bo</b>", "Al", "Cy"])
    for bids in FIRST_BIDS:
        play(store, code, tickets, bids)
    drawn = json.dumps(
        [json.loads(s["figure"]) for s in figures.debrief(store, SESSION)["sections"]]
    )
    assert "&lt;b&gt;Bo&lt;/b&gt;" in drawn and "<b>Bo" not in drawn


def test_a_mogul_auction_without_the_kits_equilibrium_says_so(store: TableStore) -> None:
    code, tickets = table(store, "mogul-auction", [[2, 5, 8]], budget=2)
    while not store.history(code)[-1].is_over:  # everyone drops at once: the first drop ends
        state = store.history(code)[-1]
        store.act(tickets[state.current_player], store.info(code).step, "drop")
    out = figures.debrief(store, SESSION)
    said = html.unescape(out["sections"][0]["html"])
    assert "Mogul's auction (3 bidders, values uniform 0..10, budget 2): the kit has no " in said
    assert "<table" not in said  # no equilibrium, no distance from it
    bids = json.loads(out["sections"][0]["figure"])
    (_, y) = panels(bids, "equilibrium (whole chips)")["x"]
    assert set(y) == {None}  # no line
    assert len(panels(bids, "the class")["x"][0]) >= 1  # the drop points are there


def test_a_debrief_that_fails_says_so_and_the_hall_goes_on(
    store: TableStore, monkeypatch, caplog
) -> None:
    table(store, "first-price-auction", FIRST_PRICE)
    monkeypatch.setattr(figures, "debrief", lambda *a: 1 / 0)
    drawn = dashboard.Dashboards(Hall(store)).debriefed(SESSION, 0)
    assert drawn["games"][0]["summary"].startswith("The debrief could not be drawn")
    assert "the debrief of auction-lab in session 'Lab' failed" in caplog.text
