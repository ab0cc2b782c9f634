"""What a Mogul share is worth as the crash nears: hazard, premiums to come, hold or sell (the model is
in the package docstring, ``mogul.analysis.mogul``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from math import comb

import numpy as np
import pandas as pd

from mogul.games.mogul.editions import Edition, edition
from mogul.games.mogul.events import CardRevealed
from mogul.games.mogul.pile import (
    cards_to_come,
    crash_window,
    expected_premiums,
    reveal_distribution,
)
from mogul.games.mogul.rules import GameState, PlayerView

Table = GameState | PlayerView
"""Anything that shows the table: a full state or one seat's view."""


def crash_hazard(table: Table) -> pd.DataFrame:
    """One row per card still in the pile (``card`` 1 = the next card to be revealed).

    Columns: ``card``; ``round`` (the round that card would start); ``p_crash`` (chance the
    crash is this card); ``p_reached`` (chance the game is still running when it turns);
    ``hazard`` (chance it is the crash, given the game reaches it: ``p_crash / p_reached``).
    """
    left, w = cards_to_come(table), crash_window(table)
    rows = []
    for k in range(1, left + 1):
        in_window = k > left - w
        p_crash = 1 / w if in_window else 0.0
        p_reached = (left - k + 1) / w if in_window else 1.0
        rows.append(
            {
                "card": k,
                "round": table.round + k,
                "p_crash": p_crash,
                "p_reached": p_reached,
                "hazard": p_crash / p_reached,
            }
        )
    return pd.DataFrame(rows, columns=["card", "round", "p_crash", "p_reached", "hazard"])


def next_sale_chance(table: Table) -> dict[str, float]:
    """Chance that another card with each border colour is revealed before the crash.

    With ``k`` unseen cards of that border among ``U``: ``1 - E_R[C(U-k, R) / C(U, R)]``, where
    ``C(U-k, R) / C(U, R)`` is the hypergeometric chance that ``R`` shares drawn without
    replacement hold none of the ``k``.
    """
    unseen = table.unseen
    u = len(unseen)
    dist = reveal_distribution(table)
    out = {}
    for company in table.edition.company_ids:
        k = sum(card.border == company for card in unseen)
        miss = sum(p * comb(u - k, r) / comb(u, r) for r, p in dist.items()) if u else 1.0
        out[company] = 1.0 - miss
    return out


def hold_or_sell(table: Table, seat: int | None = None) -> pd.DataFrame:
    """Selling a share now against holding it to the crash, per company (index: company).

    Columns: ``held`` (the seat's shares; the viewing seat by default, 0 for a full state
    without ``seat``); ``market_value`` (points one share sells for now); ``premiums_to_come``
    (points one share held to the crash is expected to earn); ``sell_gain`` (market value
    minus premiums to come: what selling one share now gains over holding it to the crash);
    ``next_sale_chance`` (chance another card with this border comes before the crash);
    ``advice`` ("sell" when ``sell_gain > 0``, else "hold").

    Selling also lowers the market value for everyone else; the table ignores that.
    """
    if seat is None:
        seat = getattr(table, "seat", None)
    premiums = expected_premiums(table)
    chances = next_sale_chance(table)
    rows = []
    for company in table.edition.company_ids:
        market = table.market_value(company)
        gain = market - premiums[company]
        rows.append(
            {
                "company": company,
                "held": table.players[seat].shares[company] if seat is not None else 0,
                "market_value": market,
                "premiums_to_come": premiums[company],
                "sell_gain": gain,
                "next_sale_chance": chances[company],
                "advice": "sell" if gain > 0 else "hold",
            }
        )
    return pd.DataFrame(rows).set_index("company")


# --- over whole games ------------------------------------------------------------------------


def game_share_values(states: Sequence[GameState], game: int = 0) -> pd.DataFrame:
    """One row per round and company for one game, from its states in order.

    Uses the states in which a share was revealed (the auction is about to open). Columns:
    ``game``, ``round``, ``cards_left``, ``company``, ``market_value``, ``premiums_to_come``
    (the model's expectation at that moment) and ``premiums_realized`` (how often the company
    really came up later in this game: what a share held to the crash did earn).
    """
    reveals = [s for s in states if any(type(e) is CardRevealed for e in s.events)]
    companies = states[0].edition.company_ids if states else ()
    later = [s.revealed.company for s in reveals]
    rows = []
    for i, state in enumerate(reveals):
        premiums = expected_premiums(state)
        for company in companies:
            rows.append(
                {
                    "game": game,
                    "round": state.round,
                    "cards_left": state.cards_left,
                    "company": company,
                    "market_value": state.market_value(company),
                    "premiums_to_come": premiums[company],
                    "premiums_realized": sum(c == company for c in later[i + 1 :]),
                }
            )
    return pd.DataFrame(rows, columns=_SHARE_VALUE_COLUMNS)


def share_values(rounds: pd.DataFrame, ed: Edition | str = "classic") -> pd.DataFrame:
    """``game_share_values`` rows for many games at once, from their rounds tables.

    ``rounds`` is ``mogul.simulate(...).rounds`` or a ``GameRecord.table("rounds")``
    (a missing ``game`` column means one game). The unseen shares are worked out from the
    table: the box, minus the shares held as round 1 opens (the deal), minus the cards revealed
    so far. That holds for every game dealt from the full box (any seeded game); for a
    scripted, shorter deck use ``game_share_values(states)``.
    """
    ed = edition(ed)
    window = ed.crash_shuffled_into_last + 1
    companies = list(ed.company_ids)
    in_box = Counter(card.company for card in ed.cards)
    df = rounds if "game" in rounds.columns else rounds.assign(game=0)
    # The deal: every share held as round 1 opens (no share has been taken yet).
    first = df[df["round"] == df.groupby("game")["round"].transform("min")]
    dealt = first.groupby("game", sort=False)[[f"shares_{c}" for c in companies]].sum()
    dealt.columns = companies
    # One row per game and round in which a share was revealed; which company came up.
    table = df[df["card"] != "crash"].drop_duplicates(["game", "round"])
    revealed = pd.get_dummies(table["card"].str.split("/").str[0]).reindex(
        columns=companies, fill_value=0
    )
    revealed = revealed.astype(int)
    so_far = revealed.groupby(table["game"].to_numpy()).cumsum()  # revealed up to this round
    in_game = revealed.groupby(table["game"].to_numpy()).transform("sum")  # revealed in the game
    dealt_here = dealt.loc[table["game"]].to_numpy()
    unseen = pd.Series(in_box).reindex(companies).to_numpy() - dealt_here - so_far.to_numpy()
    pile = sum(in_box.values()) - dealt_here.sum(axis=1) + 1  # the pile before the first reveal
    left = pile - table["round"].to_numpy()
    to_come = left - (np.minimum(window, left) + 1) / 2
    u = np.maximum(left - 1, 1)
    out = {
        "game": np.repeat(table["game"].to_numpy(), len(companies)),
        "round": np.repeat(table["round"].to_numpy(), len(companies)),
        "cards_left": np.repeat(left, len(companies)),
        "company": np.tile(companies, len(table)),
        "market_value": table[[f"market_{c}" for c in companies]].to_numpy().ravel(),
        "premiums_to_come": np.where(
            left[:, None] > 1, unseen * (to_come / u)[:, None], 0.0
        ).ravel(),
        "premiums_realized": (in_game.to_numpy() - so_far.to_numpy()).ravel(),
    }
    return pd.DataFrame(out, columns=_SHARE_VALUE_COLUMNS)


_SHARE_VALUE_COLUMNS = [
    "game",
    "round",
    "cards_left",
    "company",
    "market_value",
    "premiums_to_come",
    "premiums_realized",
]


def by_round(values: pd.DataFrame) -> pd.DataFrame:
    """Averages per round and company over the games still running at that round.

    ``values`` is a long table (``share_values``). Returns one row
    per (round, company) with the mean of every numeric column present among
    ``market_value``, ``premiums_to_come``, ``premiums_realized``, and ``games`` (how many
    games reached that round's auction).
    """
    columns = [
        c for c in ("market_value", "premiums_to_come", "premiums_realized") if c in values.columns
    ]
    grouped = values.groupby(["round", "company"], sort=False)
    out = grouped[columns].mean()
    out["games"] = grouped["game"].nunique()
    out = out.reset_index()
    order = {c: i for i, c in enumerate(dict.fromkeys(values["company"]))}
    out["_order"] = out["company"].map(order)
    return out.sort_values(["round", "_order"]).drop(columns="_order").reset_index(drop=True)


def crossing_rounds(values: pd.DataFrame, resamples: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Per company, the first round in which selling beats holding on average, with its 95%
    bootstrap interval over games.

    ``values`` is ``share_values`` for many games. A company's **crossing round** is the first
    round in which the mean market value exceeds the mean premiums to come (both over the games
    still running at that round, as ``by_round`` averages them). Rounds of one game are not
    independent, so the interval resamples whole games: ``resamples`` times, games drawn with
    replacement (a generator seeded with ``seed``), the crossing round found again, and the
    2.5% and 97.5% quantiles of those rounds kept (the percentile bootstrap; Efron &
    Tibshirani, 1993, ch. 13). Returns one row per company (in ``values``' order): ``round``,
    ``low``, ``high`` (``<NA>`` where the market never overtakes the premiums).
    """
    companies = list(dict.fromkeys(values["company"]))
    games = pd.Index(values["game"].unique())
    rounds = np.sort(values["round"].unique())
    gap = values["market_value"].to_numpy() - values["premiums_to_come"].to_numpy()
    g = games.get_indexer(values["game"])
    r = np.searchsorted(rounds, values["round"].to_numpy())
    c = pd.Index(companies).get_indexer(values["company"])
    gaps = np.zeros((len(games), len(rounds), len(companies)))
    gaps[g, r, c] = gap
    running = np.zeros((len(games), len(rounds)))
    running[g, r] = 1.0
    rng = np.random.default_rng(seed)
    weights = np.vstack(
        [np.ones(len(games)), rng.multinomial(len(games), [1 / len(games)] * len(games), resamples)]
    )  # row 0: the games as they are; the rest: resampled games
    total = (weights @ gaps.reshape(len(games), -1)).reshape(-1, len(rounds), len(companies))
    count = weights @ running
    above = total > 0  # the mean gap is above 0 where its total is (count > 0 where a game ran)
    above &= (count > 0)[:, :, None]
    # the first round above 0, per resample and company (-1: never)
    first = np.where(above.any(axis=1), rounds[above.argmax(axis=1)], -1)
    out = pd.DataFrame(index=pd.Index(companies, name="company"))
    for name, row in (
        ("round", first[0]),
        ("low", _quantile_round(first[1:], 0.025)),
        ("high", _quantile_round(first[1:], 0.975)),
    ):
        out[name] = pd.array([None if x < 0 else int(x) for x in row], dtype="Int64")
    return out


def _quantile_round(rounds: np.ndarray, q: float) -> np.ndarray:
    """Per column, the ``q`` quantile of whole rounds (one of the rounds drawn; -1: none crossed)."""
    return np.quantile(rounds, q, axis=0, method="inverted_cdf")
