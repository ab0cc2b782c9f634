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
    state = mogul.new_game("classic", players=["Ann", "Ben", "Cy"], deck=["green/brown", "crash"],
                           starting_shares=[["brown/green"], ["brown/blue"], []], start_player=0,
                           chips=list(chips))  # fmt: skip
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
    # In the class Ann dropped at once (pot 0): 0 points instead of 1.8, an under-bid.
    rows = {r["seat"]: r for r in debrief.auction_bids(played(["drop", "drop"]))}
    ann, ben, cy = rows[0], rows[1], rows[2]
    assert (ann["real_drop"], ann["equilibrium_drop"], ann["best_drop"]) == (0, None, 1)
    assert (ann["real_payoff"], ann["best_payoff"], ann["cost"], ann["verdict"]) == (0.0, 1.8, 1.8, "under-bid")
    # Ben cannot bid: whatever he planned, he drops when his turn comes (at pot 1 against
    # the equilibrium), so his drop at 0 costs nothing.
    assert (ben["real_drop"], ben["equilibrium_drop"], ben["best_drop"], ben["cost"], ben["verdict"]) == (
        0, 1, 0, 0.0, "best response")  # fmt: skip
    # Cy won without dropping: that counts as "stay in", and staying in is as good as any plan.
    assert (cy["real_drop"], cy["equilibrium_drop"], cy["best_drop"], cy["equilibrium_payoff"]) == (None, 0, 1, 0.0)
    assert all(r["round"] == 1 and r["card"] == "green/brown" and not r["credit"] for r in rows.values())


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
    assert len(bids) == sum(len(store.record(t.code).table("auctions")) * 4 for t in store.tables(session))
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
    costly = bids["cost"] > 0
    assert (bids.loc[~costly, "verdict"] == "best response").all()
    over = bids["verdict"] == "over-bid"
    assert (bids.loc[over, "real_drop"].fillna(99) > bids.loc[over, "best_drop"]).all()
    under = bids["verdict"] == "under-bid"
    assert (bids.loc[under, "real_drop"] < bids.loc[under, "best_drop"]).all()
    # against equilibrium opponents no drop point beats the equilibrium (payoff_curve's docs)
    assert (bids["best_payoff"] <= bids["equilibrium_payoff"] + 1e-4).all()
    assert (bids["best_payoff"] == bids["equilibrium_payoff"]).mean() > 0.9
    assert over.any() and under.any() and costly.any()


def test_bidders_and_the_league_table(sample):
    store, session = sample
    bids = debrief.bids(store, session)
    who = debrief.bidders(bids)
    assert len(who) == 12 and who["total_cost"].is_monotonic_decreasing
    assert (who[["over-bid", "under-bid", "best response"]].sum(axis=1) == who["auctions"]).all()
    # the stand-in who always drops at pot 1 leaves most auctions too early
    hana = who.set_index("name").loc["Hana"]
    assert hana["under-bid"] > hana["over-bid"] + hana["best response"]
    league = debrief.league_table(store, session, bids)
    assert len(league) == 12 and league["score"].is_monotonic_decreasing
    assert league["won"].sum() == 3 and set(league.loc[league["won"], "rank"]) == {1}
    assert league["place"].iloc[0] == 1 and league["bidding_cost"].sum() == pytest.approx(who["total_cost"].sum(), abs=0.1)


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
    above = {"best response": 0, "over-bid": 1, "under-bid": -1}  # real drop against best response
    for trace in fig.data[:-1]:
        assert {(y > x) - (y < x) for x, y in zip(trace.x, trace.y, strict=True)} == {above[trace.name]}
    eq = drop_points_figure(bids, against="equilibrium_drop")
    assert "equilibrium" in eq.layout.title.text
    with pytest.raises(ValueError, match="against"):
        drop_points_figure(bids, against="cost")
    bars = cost_figure(debrief.bidders(bids)).data[0]
    assert len(bars.y) == 12 and list(bars.x) == sorted(bars.x) and bars.y[-1].startswith("Hana")
