"""The debrief functions: a hand-worked auction, then the shipped sample session."""

from __future__ import annotations

import pandas as pd
import pytest

import mogul
from mogul.classroom.mogul import debrief
from mogul.classroom.mogul.sample import play_session
from mogul.classroom.store import TableStore


def played(actions: list[str], chips=(1, 0, 0)) -> list:
    """A scripted table: the next card is the last before the crash.

    Ann  brown/green   1 chip     <- start player
    Ben  brown/blue    0 chips
    Cy   -             0 chips     revealed: green/brown; market value of brown: 2
    """
    state = mogul.new_game(
        "classic",
        players=["Ann", "Ben", "Cy"],
        deck=["green/brown", "crash"],
        starting_shares=[["brown/green"], ["brown/blue"], []],
        start_player=0,
        chips=list(chips),
    )
    states = [state]
    for text in actions:
        states.append(states[-1].apply(mogul.parse_action(text)))
    return states


def test_a_hand_worked_auction():
    # No premiums are to come (the crash is next), so a green share is worth 0 and selling
    # the brown share pays its market value, 2: Ann and Ben value winning at 2, second place
    # at 0; Cy values everything at 0. A chip is worth 1/5 point at the end.
    # Equilibrium: Ann bids her chip (pot 1); Ben has none and drops, taking 1 chip (+0.2);
    # Cy drops at 0 and is runner-up; Ann wins: 2 - 0.2 = 1.8.
    # In the class Ann dropped at once (pot 0), then Ben (forced): Cy won. Against what the
    # others did, Ann's bid would have met Ben's forced drop (the record is silent there: the
    # equilibrium move) and Cy's equilibrium drop: 1.8 instead of 0, a model loss of 1.8.
    rows = {r["seat"]: r for r in debrief.auction_bids(played(["drop", "drop"]))}
    ann, ben, cy = rows[0], rows[1], rows[2]
    assert (ann["real_drop"], ann["equilibrium_drop"], ann["best_drop"]) == (0, None, 1)
    assert (ann["real_payoff"], ann["best_payoff"], ann["model_loss"], ann["verdict"]) == (
        0.0,
        1.8,
        1.8,
        "under-bid",
    )
    assert ann["equilibrium_is_best"]  # staying in (the equilibrium) is the best response here too
    # Ben cannot bid: whatever he planned he drops, so his drop at 0 loses nothing.
    assert (
        ben["real_drop"],
        ben["equilibrium_drop"],
        ben["best_drop"],
        ben["model_loss"],
        ben["verdict"],
    ) == (0, 1, 0, 0.0, "best response")
    # Cy won without dropping: that counts as "stay in", and staying in is as good as any plan.
    assert (cy["real_drop"], cy["equilibrium_drop"], cy["best_drop"], cy["equilibrium_payoff"]) == (
        None,
        0,
        1,
        0.0,
    )
    assert cy["equilibrium_is_best"] and cy["model_loss"] == 0.0
    assert all(
        r["round"] == 1 and r["card"] == "green/brown" and not r["credit"] for r in rows.values()
    )


def test_the_best_response_is_to_what_the_others_did():
    # Ann and Ben each hold 2 chips. In the equilibrium Ann bids and wins; in the class she
    # dropped at once. Against the record (Ben then dropped, Cy won) the rows are measured
    # with the others' recorded moves: the recorded bot replays the record exactly.
    states = played(["drop", "drop"], chips=(2, 2, 0))
    opening = debrief.auction_openings(states)[0][1]
    moves = debrief.recorded_moves(opening, (2, 2, 0), 0)
    assert moves == {(0, 0, ((0, 2), (1, 2), (2, 0))): "drop", (1, 0, ((1, 2), (2, 0))): "drop"}
    rows = debrief.auction_bids(states)
    assert [r["real_drop"] for r in rows] == [0, 0, None]
    assert rows[2]["real_payoff"] == rows[2]["best_payoff"]  # the winner could not do better


def test_an_auction_not_yet_won_is_left_out():
    assert debrief.auction_bids(played([])) == []
    assert len(debrief.auction_openings(played(["drop", "drop"]))) == 1


@pytest.fixture(scope="module")
def sample():
    return debrief.load_sample()


def test_the_sample_session_is_what_its_stand_ins_play(sample):
    store, session = sample
    fresh = TableStore("sqlite://")
    codes = play_session(fresh)
    assert session == "Sample class" and len(store.tables(session)) == len(codes) == 3
    for shipped, code in zip(store.tables(session), codes, strict=True):
        assert store.actions(shipped.code) == fresh.actions(code)
        assert shipped.names == fresh.info(code).names and shipped.status == "over"


def test_bids_match_the_games_auction_tables(sample):
    store, session = sample
    bids = debrief.bids(store, session)
    assert len(bids) == sum(
        len(store.record(t.code).table("auctions")) * 4 for t in store.tables(session)
    )
    for info in store.tables(session):
        auctions = store.record(info.code).table("auctions")
        mine = bids[bids["code"] == info.code]
        for _, auction in auctions.iterrows():
            rows = mine[mine["round"] == auction["round"]].set_index("seat")
            dropped = [s for s in range(4) if not pd.isna(rows.loc[s, "real_drop"])]
            assert sorted(dropped) == sorted(auction["drop_order"])
            assert pd.isna(rows.loc[auction["winner"], "real_drop"])
            # the pots the drops took are the pot path's values at the drops
            assert sum(rows["real_drop"].dropna()) <= sum(auction["bids"])
    costly = bids["model_loss"] > 0
    assert (bids.loc[~costly, "verdict"] == "best response").all()
    over = bids["verdict"] == "over-bid"
    assert (bids.loc[over, "real_bids"] >= bids.loc[over, "best_bids"]).all()
    under = bids["verdict"] == "under-bid"
    assert (bids.loc[under, "real_bids"] <= bids.loc[under, "best_bids"]).all()
    # a different number of chips than the best response is always a loss named by its side
    side = (bids["real_bids"] != bids["best_bids"]) & costly
    assert ((bids.loc[side, "real_bids"] > bids.loc[side, "best_bids"]) == over[side]).all()
    # the real payoff never beats the best response to the same others
    assert (bids["real_payoff"] <= bids["best_payoff"] + 1e-4).all()
    assert ((bids["model_loss"] - (bids["best_payoff"] - bids["real_payoff"])).abs() < 2e-4).all()
    assert over.any() and under.any() and costly.any()
    # the seats' real drop points are the record's (the pot each Dropped event took)
    for info in store.tables(session):
        took = {}
        for state in store.history(info.code):
            for e in state.events:
                if type(e).__name__ == "Dropped":
                    took[(state.round, e.seat)] = e.chips
        mine = bids[(bids["code"] == info.code) & bids["real_drop"].notna() & ~bids["credit"]]
        assert all(took[(r["round"], r["seat"])] == r["real_drop"] for _, r in mine.iterrows())


def test_bidders_and_the_league_table(sample):
    store, session = sample
    bids = debrief.bids(store, session)
    who = debrief.bidders(bids)
    assert len(who) == 12 and who["total_loss"].is_monotonic_decreasing
    assert (who[["over-bid", "under-bid", "best response"]].sum(axis=1) == who["auctions"]).all()
    # the stand-in who always drops at pot 1 leaves most auctions too early
    hana = who.set_index("name").loc["Hana"]
    assert hana["under-bid"] > hana["over-bid"] + hana["best response"]
    league = debrief.league_table(store, session, bids)
    assert len(league) == 12 and league["score"].is_monotonic_decreasing
    assert league["won"].sum() == 3 and set(league.loc[league["won"], "rank"]) == {1}
    assert league["place"].iloc[0] == 1
    assert league["model_loss"].sum() == pytest.approx(who["total_loss"].sum(), abs=0.1)
    # a table with no finished auction says so, not NaN
    first = store.tables(session)[0].code
    partial = debrief.league_table(store, session, bids[bids["code"] != first])
    shown = partial.loc[partial["table"] == f"{first[:4]}-{first[4:]}", "model_loss"]
    assert len(shown) == 4 and (shown == debrief.NO_AUCTION).all()
    assert "NaN" not in partial.to_string() and "no finished auction" in partial.to_string()


def test_share_values_per_table(sample):
    store, session = sample
    values = debrief.share_values(store, session)
    assert list(values) == [t.code for t in store.tables(session)]
    for code, frame in values.items():
        rounds = store.history(code)[-1].round
        assert set(frame["company"]) == {"brown", "pink", "blue", "green", "yellow"}
        assert frame["round"].max() == rounds - 1  # the crash round has no reveal row


def test_the_debrief_figures(sample):
    from mogul.classroom.figures import cost_figure, drop_points_figure

    store, session = sample
    bids = debrief.bids(store, session)
    fig = drop_points_figure(bids)
    names = [t.name for t in fig.data]
    assert names == ["best response", "under-bid", "over-bid", "as the model says"]
    shown = bids.dropna(subset=["real_drop", "best_drop"])
    assert sum(int(n) for t in fig.data[:-1] for n in t.text) == len(shown)  # each auction once
    # the markers are the rows: each (best drop, real drop) pair as often as the table has it
    for trace in fig.data[:-1]:
        rows = shown[shown["verdict"] == trace.name]
        for x, y, n in zip(trace.x, trace.y, trace.text, strict=True):
            assert ((rows["best_drop"] == x) & (rows["real_drop"] == y)).sum() == int(n)
    eq = drop_points_figure(bids, against="equilibrium_drop")
    assert "equilibrium" in eq.layout.title.text
    with pytest.raises(ValueError, match="against"):
        drop_points_figure(bids, against="cost")
    with_note = cost_figure(debrief.bidders(bids), note=debrief.ASSUMPTIONS)
    assert (
        "no credit" in with_note.layout.annotations[0].text
        and "runner-up" in with_note.layout.annotations[0].text
    )
    bars = cost_figure(debrief.bidders(bids)).data[0]
    assert len(bars.y) == 12 and list(bars.x) == sorted(bars.x) and bars.y[-1].startswith("Hana")


def test_tables_are_named_as_the_dashboard_spells_them(sample):
    # The dashboard and the student page show HDKP-DM82; the store and the joins use HDKPDM82.
    store, session = sample
    bids = debrief.bids(store, session)
    codes = [t.code for t in store.tables(session)]
    spelled = {f"{c[:4]}-{c[4:]}" for c in codes}
    assert set(bids["code"]) == set(codes)  # the data keep the stored code, to join on
    league = debrief.league_table(store, session, bids)
    who = debrief.bidders(bids)
    assert "code" not in league and set(league["table"]) == spelled
    assert "code" not in who and set(who["table"]) == spelled
    assert list(league.columns) == ["place", "name", "table", "score", "rank", "won", "model_loss"]
    # the join behind the league table still finds every player's bids
    assert league["model_loss"].sum() == pytest.approx(bids["model_loss"].sum(), abs=0.1)
    for part in ("drops", "payoffs"):
        shown = debrief.bid_table(bids, part)
        assert len(shown) == len(bids) and set(shown[("", "table")]) == spelled
    with pytest.raises(ValueError, match="part must be one of"):
        debrief.bid_table(bids, "chips")


def test_printed_tables_fit_a_laptop_column(sample):
    # ~88 characters: wider, a notebook column on a laptop wraps the printed lines mid-word.
    store, session = sample
    bids = debrief.bids(store, session)
    shown = {
        "bids, drops": debrief.bid_table(bids.head(8), "drops"),
        "bids, payoffs": debrief.bid_table(bids.head(8), "payoffs"),
        "bidders": debrief.bidders(bids),
        "league": debrief.league_table(store, session, bids),
        "comparison": debrief.comparison_table(bids),
    }
    for name, table in shown.items():
        width = max(len(line) for line in table.to_string().splitlines())
        assert width <= debrief.LINE, f"{name}: {width} characters"
    lines = debrief.assumptions().splitlines()
    assert max(map(len, lines)) <= debrief.LINE and " ".join(lines) == debrief.ASSUMPTIONS
    assert debrief.comparison_table(bids).to_dict() == debrief.comparison(bids)
    drops = debrief.bid_table(bids.head(8), "drops")
    first = bids.iloc[0]
    assert drops.iloc[0][("drop at pot", "real")] == first["real_drop"]
    assert drops.iloc[0][("chips bid", "best")] == first["best_bids"]
    assert debrief.bid_table(bids.head(8), "payoffs").iloc[1][("payoff", "best")] == round(
        bids.iloc[1]["best_payoff"], 2
    )
