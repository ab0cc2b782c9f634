"""Share-value dynamics: when the crash comes, what a share still earns, hold or sell.

The model
---------
A player sees the table but not the order of the draw pile: only which shares are still in it
(``unseen``, ``U`` cards) and how many cards are left (``L = U + 1``, the crash included).
The crash card was shuffled into the last cards of the pile, so at setup it lies uniformly in
the last ``W = crash_shuffled_into_last + 1`` positions (classic: 5). Knowing only that it has
not come up yet, it is uniform over the last ``w = min(W, L)`` cards still in the pile (Bayes:
each window position still in the pile keeps its prior weight ``1/W``). The shares were
shuffled on their own, so their order is uniform and independent of where the crash lies.

From these two facts everything below is exact:

* the crash is card ``k`` of the pile (``k = 1`` is the next card) with chance ``1/w`` for
  ``k > L - w``, else 0; if the game reaches card ``k`` the chance that it is the crash (the
  *hazard*) is ``1 / (L - k + 1)`` inside the window: 1/5, 1/4, 1/3, 1/2, 1 in the classic game;
* the number ``R`` of shares still revealed before the crash is uniform on ``L - w .. L - 1``,
  so ``E[R] = L - (w + 1) / 2``;
* given ``R``, the revealed shares are a uniformly random ``R``-subset of the unseen ones, so a
  company with ``n_c`` unseen shares comes up ``E[R] * n_c / U`` more times on average. Each
  time, every share of it pays one point: that is a held share's **expected premiums to come**
  (linearity of expectation; no independence between companies is needed).

A sale pays the market value now (the shares of that colour held by all players). *Holding to
the crash* earns the premiums to come; selling later needs the sell right again, i.e. another
card with that border colour before the crash (``next_sale_chance``) and winning it or coming
second. ``hold_or_sell`` compares selling now with holding to the crash, which is what holding
is worth if no second chance to sell comes.

The last section weighs the 2013 edition's sell right (sell all, or found a branch) in end
points (``sell_right_options``, ``sell_right_uses``, ``sell_right_by_fill``) and compares the
two editions over simulated games (``compare_editions``, ``edition_summary``); what the
differences are made of, each with its interval, is in ``comparisons`` (re-exported here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from mogul.analysis.mogul.comparisons import (
    SCORE_PARTS,
    Z95,
    chose_the_better,
    edition_comparison,
    length_parts,
    mean_interval,
    model_check,
    score_gap,
    sell_nothing,
)
from mogul.games.mogul.actions import Branch, Sell, Take
from mogul.games.mogul.editions import Edition, edition
from mogul.games.mogul.events import CardRevealed
from mogul.games.mogul.network import branch_gain
from mogul.games.mogul.pile import (
    cards_to_come,
    crash_window,
    expected_premiums,
    expected_reveals,
    next_crash_chance,
    reveal_distribution,
)
from mogul.games.mogul.state import RUNNER_UP, WINNER, GameState, PlayerView
from mogul.kit.bots import bot_factory, play_states
from mogul.kit.simulate import seat_bots, simulate
from mogul.kit.spec import resolve

__all__ = [
    "analyse_position",
    "SCORE_PARTS",
    "SELL_RIGHT_COLUMNS",
    "by_round",
    "chose_the_better",
    "compare_editions",
    "edition_comparison",
    "length_parts",
    "mean_interval",
    "score_gap",
    "sell_nothing",
    "crash_hazard",
    "crash_window",
    "edition_summary",
    "expected_premiums",
    "expected_reveals",
    "game_share_values",
    "hold_or_sell",
    "market_long",
    "model_check",
    "next_crash_chance",
    "next_sale_chance",
    "play_games",
    "reveal_distribution",
    "sell_right_by_fill",
    "sell_right_options",
    "sell_right_table",
    "sell_right_uses",
    "share_values",
    "uses_from_auctions",
]

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
            {"card": k, "round": table.round + k, "p_crash": p_crash, "p_reached": p_reached,
             "hazard": p_crash / p_reached}
        )  # fmt: skip
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
        rows.append({
            "company": company,
            "held": table.players[seat].shares[company] if seat is not None else 0,
            "market_value": market,
            "premiums_to_come": premiums[company],
            "sell_gain": gain,
            "next_sale_chance": chances[company],
            "advice": "sell" if gain > 0 else "hold",
        })  # fmt: skip
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
            rows.append({
                "game": game, "round": state.round, "cards_left": state.cards_left,
                "company": company, "market_value": state.market_value(company),
                "premiums_to_come": premiums[company],
                "premiums_realized": sum(c == company for c in later[i + 1 :]),
            })  # fmt: skip
    return pd.DataFrame(rows, columns=_SHARE_VALUE_COLUMNS)


def share_values(rounds: pd.DataFrame, ed: Edition | str = "classic") -> pd.DataFrame:
    """``game_share_values`` rows for many games at once, from their rounds tables.

    ``rounds`` is ``mogul.kit.runner.simulate(...).rounds`` or a ``GameRecord.table("rounds")``
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
    revealed = pd.get_dummies(table["card"].str.split("/").str[0]).reindex(columns=companies, fill_value=0)
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
        "premiums_to_come": np.where(left[:, None] > 1, unseen * (to_come / u)[:, None], 0.0).ravel(),
        "premiums_realized": (in_game.to_numpy() - so_far.to_numpy()).ravel(),
    }
    return pd.DataFrame(out, columns=_SHARE_VALUE_COLUMNS)


_SHARE_VALUE_COLUMNS = [
    "game", "round", "cards_left", "company", "market_value", "premiums_to_come", "premiums_realized",
]  # fmt: skip


def market_long(rounds: pd.DataFrame) -> pd.DataFrame:
    """A wide rounds table (``market_<company>`` columns) as long rows: game, round, company, value.

    Accepts ``GameRecord.table("rounds")`` (one game) or many games' tables concatenated with a
    ``game`` column. The final "crash" rows are dropped (no auction opens then).
    """
    df = rounds.copy()
    if "game" not in df.columns:
        df["game"] = 0
    if "card" in df.columns:
        df = df[df["card"] != "crash"]
    markets = [c for c in df.columns if c.startswith("market_")]
    df = df.drop_duplicates(["game", "round"])[["game", "round", *markets]]
    long = df.melt(
        id_vars=["game", "round"], value_vars=markets, var_name="company", value_name="market_value"
    )
    long["company"] = long["company"].str.removeprefix("market_")
    return long.sort_values(["game", "round"], kind="stable").reset_index(drop=True)


def by_round(values: pd.DataFrame) -> pd.DataFrame:
    """Averages per round and company over the games still running at that round.

    ``values`` is a long table (``simulate_share_values`` or ``market_long``). Returns one row
    per (round, company) with the mean of every numeric column present among
    ``market_value``, ``premiums_to_come``, ``premiums_realized``, and ``games`` (how many
    games reached that round's auction).
    """
    columns = [c for c in ("market_value", "premiums_to_come", "premiums_realized") if c in values.columns]
    grouped = values.groupby(["round", "company"], sort=False)
    out = grouped[columns].mean()
    out["games"] = grouped["game"].nunique()
    out = out.reset_index()
    order = {c: i for i, c in enumerate(dict.fromkeys(values["company"]))}
    out["_order"] = out["company"].map(order)
    return out.sort_values(["round", "_order"]).drop(columns="_order").reset_index(drop=True)


# --- analyse this position ---------------------------------------------------------------------


def analyse_position(
    table: Table,
    seat: int | None = None,
    rollouts: int = 2000,
    policy: str = "random",
    seed: int = 0,
) -> pd.DataFrame:
    """What each legal action of the seat to move is worth to ``seat``, by playing it out.

    For ``rollouts`` hidden piles consistent with what ``seat`` sees (``determinize``: unseen
    shares shuffled, the crash placed by the crash rule), every legal action is played on
    the same pile (common random numbers) and then every seat is played to the crash by
    ``policy`` ("random": uniformly random legal actions; "value": ``ValueBot``).
    ``seat`` defaults to the seat to move. The batch simulator (``mogul.games.mogul.fast``)
    plays the classic edition; other editions use the readable engine (slower).

    One row per legal action, in ``legal_actions()`` order: ``action`` (its text),
    ``mean_score`` of ``seat`` with a 95% interval (``score_low``, ``score_high``: mean +- 1.96
    standard errors), ``win_chance`` (shared wins count) with a 95% Wilson interval
    (``win_low``, ``win_high``; Wilson (1927), "Probable inference, the law of succession,
    and statistical inference", JASA 22(158)), and ``rollouts``.
    """
    from mogul.games.mogul.display import action_label

    if getattr(table, "is_over", True) or table.current is None:
        raise ValueError("the game is over: there is no decision left to analyse")
    if policy not in ("random", "value"):
        raise ValueError(f"policy must be 'random' or 'value', got {policy!r}")
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be a whole number >= 1, got {rollouts!r}")
    n = len(table.players)
    seat = table.current if seat is None else seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat number from 0 to {n - 1}, got {seat!r}")
    view = table if isinstance(table, PlayerView) and table.seat == seat else table_view(table, seat)
    legal = list(table.legal_actions()) if isinstance(table, GameState) else _legal_of(view)
    scores, keys = _position_rollouts(view, legal, rollouts, policy, seed)
    own = scores[:, :, seat].astype(float)  # rollout x action
    won = (keys[:, :, seat] == keys.max(axis=2)).astype(float)
    mean, spread = own.mean(axis=0), own.std(axis=0, ddof=1) if rollouts > 1 else np.zeros(len(legal))
    half = 1.96 * spread / np.sqrt(rollouts)
    chance = won.mean(axis=0)
    low, high = _wilson(chance, rollouts)
    return pd.DataFrame({
        "action": [action_label(table, a) for a in legal],
        "mean_score": mean, "score_low": mean - half, "score_high": mean + half,
        "win_chance": chance, "win_low": low, "win_high": high, "rollouts": rollouts,
    })  # fmt: skip


def table_view(table: Table, seat: int) -> PlayerView:
    """``seat``'s view of a state (a view of another seat keeps its table, seen from ``seat``)."""
    if isinstance(table, GameState):
        return table.view(seat)
    return table._replace(seat=seat)


def _legal_of(view: PlayerView) -> list:
    import random

    from mogul.games.mogul.determinize import determinize

    return list(determinize(view, random.Random(0)).legal_actions())


def _wilson(p: np.ndarray, n: int, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def _position_rollouts(view: PlayerView, legal: list, rollouts: int, policy: str, seed: int):
    """(scores, keys), each rollout x action x seat: the batch simulator, else the readable engine."""
    try:
        from mogul.games.mogul import fast

        fast.check_edition(view.edition)
    except ValueError:
        pass
    else:
        return fast.rollouts(view, legal, rollouts, policy, seed)
    import random

    from mogul.games.mogul.bots import REGISTRY
    from mogul.games.mogul.determinize import determinize
    from mogul.games.mogul.rules import standings
    from mogul.kit.bots import play_out

    rng = random.Random(seed)
    n = len(view.players)
    scores = np.zeros((rollouts, len(legal), n), np.int64)
    keys = np.zeros_like(scores)
    for r in range(rollouts):
        state = determinize(view, rng)
        for b, action in enumerate(legal):
            bots = [REGISTRY[policy](seed=rng.getrandbits(32)) for _ in range(n)]
            final = play_out(state.apply(action), bots)
            scores[r, b] = final.final_scores()
            keys[r, b] = [score * 100 + shares for score, shares in standings(final)]
    return scores, keys
# --- the 2013 edition: the sell right as the map fills, and the two editions side by side -------
#
# In the 2013 edition whoever uses the sell right sells all their shares of the border colour,
# sells none, or founds a branch on that colour's line. Both are counted in end points, "if
# nothing else changed": a sale pays ``k * market value`` now and gives up the end bonus of the
# ``k`` shares sold (one point each); a house adds what ``branch_gain`` says to its owner's end
# bonus (each house scores its owner's house count on each of its lines, so a line with ``h``
# houses scores ``h * h``: the third house on a line adds 5). Later houses on the same line add
# more, so a branch's value here is a floor.

SELL_RIGHT_COLUMNS = (
    "game", "round", "seat", "role", "border", "houses_on_map", "free", "shares", "market",
    "sell_value", "branch_value", "choice", "station", "won_game",
)  # fmt: skip
"""Columns of ``sell_right_uses``: one row per auction whose sell right was used."""


def sell_right_options(state: GameState) -> pd.DataFrame:
    """The sell right's options of the player to act, each valued in end points (see above).

    One row per option, best first (ties in the game's order): ``action`` (its text, as in
    records), ``kind`` ("sell", "branch" or "nothing") and ``value``. Empty when the player to
    act holds no sell right.
    """
    rows = []
    if state.phase in (WINNER, RUNNER_UP):
        ed = state.edition
        seat = state.current_player
        player = state.players[seat]
        price = state.market_value(state.revealed.border) - ed.share_bonus
        for action in state.legal_actions():
            kind = type(action)
            if kind is Branch:
                value = branch_gain(ed, player.houses, action.station, action.move_from)
                rows.append({"action": str(action), "kind": "branch", "value": value})
            elif kind is Sell:
                kind_name = "sell" if action.count else "nothing"
                rows.append({"action": str(action), "kind": kind_name, "value": action.count * price})
    table = pd.DataFrame(rows, columns=["action", "kind", "value"])
    return table.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)


def sell_right_uses(states: Sequence[GameState], actions: Sequence[Any], game: int = 0) -> pd.DataFrame:
    """One row per use of the sell right in one game (``actions[i]`` leads from ``states[i]``).

    The sell right is used once per auction: by the winner unless they take the card, else
    by the runner-up. Columns (``SELL_RIGHT_COLUMNS``): ``role`` ("winner"/"runner-up"),
    ``border`` (the line / the colour to sell), ``houses_on_map`` (all players' houses before
    the decision), ``free`` (free stations on that line), ``shares`` (own shares of the border
    colour), ``market`` (its market value), ``sell_value`` (points a sale of all of them adds
    at the end: ``shares * (market - share bonus)``), ``branch_value`` (the most a branch adds
    to the end bonus now; 0 with no free station or in the classic game), ``choice`` ("sell",
    "branch" or "nothing"), ``station`` (of a branch) and ``won_game`` (the seat won the game).
    """
    final = states[-1]
    winners = set(final.winners()) if final.is_over else set()
    rows = []
    for state, action in zip(states, actions, strict=False):
        if state.phase not in (WINNER, RUNNER_UP) or type(action) is Take:
            continue
        ed = state.edition
        seat = state.current_player
        player = state.players[seat]
        border = state.revealed.border
        branches = [a for a in state.legal_actions() if type(a) is Branch]
        gains = [branch_gain(ed, player.houses, b.station, b.move_from) for b in branches]
        kind = type(action)
        choice = "branch" if kind is Branch else "sell" if action.count > 0 else "nothing"
        rows.append({
            "game": game, "round": state.round, "seat": seat,
            "role": "winner" if state.phase == WINNER else "runner-up", "border": border,
            "houses_on_map": sum(len(p.houses) for p in state.players),
            "free": len({b.station for b in branches}), "shares": player.shares[border],
            "market": state.market_value(border),
            "sell_value": player.shares[border] * (state.market_value(border) - ed.share_bonus),
            "branch_value": max(gains, default=0), "choice": choice,
            "station": action.station if kind is Branch else None, "won_game": seat in winners,
        })  # fmt: skip
    return pd.DataFrame(rows, columns=list(SELL_RIGHT_COLUMNS))


def play_games(
    game: str, bots: Sequence[Any], games: int = 100, seed: int = 0, players: int | None = None
) -> Iterator[tuple[list[GameState], list[Any]]]:
    """Play ``games`` games with the same bots in the same seats; yield (states, actions) each.

    ``bots`` as for ``mogul.simulate`` (names such as ``"value"``, classes or factories),
    repeated to fill ``players`` seats. Game ``g`` is dealt from seed ``seed + g`` and its bots
    are seeded from it, so the same arguments give the same games.
    """
    spec, edition_name = resolve(game)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {games!r}")
    factories = [bot_factory(b, spec.bots) for b in seat_bots(bots, players)]
    spec.check_players(edition_name, len(factories))
    for g in range(games):
        deal_seed = seed + g
        state = spec.new_game(edition_name, len(factories), deal_seed)
        seated = [make(deal_seed * 1000 + i) for i, make in enumerate(factories)]
        yield play_states(state, seated)


def sell_right_table(
    game: str, bots: Sequence[Any], games: int = 100, seed: int = 0, players: int | None = None
) -> pd.DataFrame:
    """``sell_right_uses`` of ``games`` games played by ``play_games``, in one table."""
    parts = [sell_right_uses(states, actions, g) for g, (states, actions) in enumerate(play_games(game, bots, games, seed, players))]
    return pd.concat(parts, ignore_index=True)


def uses_from_auctions(auctions: pd.DataFrame, games: pd.DataFrame, rounds: pd.DataFrame | None = None) -> pd.DataFrame:
    """Who used the sell right of each auction, and how, from a simulation's tables.

    ``auctions`` and ``games`` are ``sim.auctions`` and ``sim.games`` of ``mogul.simulate``.
    The winner used the sell right unless they took the card; then the runner-up did.
    Columns: ``game``, ``round``, ``seat``, ``role``, ``choice`` ("sell" when shares were sold,
    "branch" when a house was placed, else "nothing") and ``won_game``; with ``rounds``
    (``sim.rounds``) also ``held``: the shares of the border colour the user held as the round
    began (the auction changes no one's shares before the sell right is used).
    """
    took = auctions["winner_choice"] == "take"
    branch = auctions["branch"].notna() if "branch" in auctions else pd.Series(False, index=auctions.index)
    sold = auctions["sold"].fillna(0) > 0
    uses = pd.DataFrame({
        "game": auctions["game"], "round": auctions["round"],
        "seat": auctions["runner_up"].where(took, auctions["winner"]).astype(int),
        "role": took.map({True: "runner-up", False: "winner"}),
        "choice": ["branch" if b else "sell" if s else "nothing" for b, s in zip(branch, sold, strict=True)],
    })  # fmt: skip
    won = set(zip(games.loc[games["won"], "game"], games.loc[games["won"], "seat"], strict=True))
    uses["won_game"] = [(g, s) in won for g, s in zip(uses["game"], uses["seat"], strict=True)]
    if rounds is not None:
        held = rounds.set_index(["game", "round", "seat"])
        keys = list(zip(uses["game"], uses["round"], uses["seat"], strict=True))
        uses["held"] = [int(held.at[k, f"shares_{c}"]) for k, c in zip(keys, auctions["border"], strict=True)]
    return uses


def compare_editions(
    bots: Sequence[Any],
    games: int = 200,
    seed: int = 0,
    players: int = 4,
    editions: Sequence[str] = ("classic", "rio-grande"),
    **simulate_options: Any,
) -> dict[str, pd.DataFrame]:
    """Simulate each edition with the same bots in the same seats (``mogul.simulate``).

    Returns three tables with an ``edition`` column: ``"games"``, one row per game (``cards``:
    cards revealed with the crash; ``auctions``; ``winning_score``; ``winners``: seats that
    share the win; the winning score in parts: ``winner_track`` (points on the score track:
    premiums, sales, credits), ``winner_chips`` (1 per full 5 chips), ``winner_shares`` and
    ``winner_branches`` (the 2013 end bonuses)); ``"auctions"``, one row per auction (``round``, ``steps``: bids and drops);
    ``"uses"``, the sell right's use in each auction (``uses_from_auctions``, with ``held``). Other keywords
    go to ``mogul.simulate`` (``workers``, ``executor`` ...).
    """
    out: dict[str, list[pd.DataFrame]] = {"games": [], "auctions": [], "uses": []}
    for name in editions:
        sim = simulate(name, bots, games, seed, players=players, tables=("games", "auctions", "rounds"),
                       progress=False, **simulate_options)  # fmt: skip
        _, canonical = resolve(name)
        ed = edition(canonical)
        by_game = sim.games.groupby("game")
        # the winning score in parts, from the first winner's row (shared wins score alike)
        top = sim.games[sim.games["won"]].drop_duplicates("game").set_index("game")
        chip_points = top["chips"] // ed.chips_per_point
        share_points = ed.share_bonus * top["shares"]
        out["games"].append(pd.DataFrame({
            "edition": canonical, "cards": by_game["rounds"].first(), "auctions": sim.auctions.groupby("game").size(),
            "winning_score": by_game["score"].max(), "winners": by_game["won"].sum(),
            "winner_track": top["points"], "winner_chips": chip_points, "winner_shares": share_points,
            "winner_branches": top["score"] - top["points"] - chip_points - share_points,
        }).reset_index())  # fmt: skip
        out["auctions"].append(sim.auctions[["game", "round", "steps"]].assign(edition=canonical))
        out["uses"].append(uses_from_auctions(sim.auctions, sim.games, sim.rounds).assign(edition=canonical))
    return {name: pd.concat(frames, ignore_index=True) for name, frames in out.items()}


def edition_summary(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per edition from ``compare_editions``: game length, auctions, winning score and
    the sell right's uses.

    Columns: ``games``; ``cards`` (mean cards revealed, the crash included); ``auction_moves``
    (mean bids and drops per auction); ``winning_score`` (mean); ``sell``, ``branch``,
    ``nothing`` (share of the sell right's uses); ``winner_sells`` and ``winner_branches``
    (sales and branches per game by the game's winners, shared wins counted for each winner).
    """
    games, auctions, uses = tables["games"], tables["auctions"], tables["uses"]
    order = list(dict.fromkeys(games["edition"]))
    by_edition = games.groupby("edition", sort=False)
    share = pd.crosstab(uses["edition"], uses["choice"], normalize="index")
    share = share.reindex(index=order, columns=["sell", "branch", "nothing"], fill_value=0.0)
    winners = uses[uses["won_game"]]
    per_game = by_edition["winners"].sum()  # winning seats over all games
    summary = pd.DataFrame({
        "games": by_edition.size(),
        "cards": by_edition["cards"].mean(),
        "auction_moves": auctions.groupby("edition", sort=False)["steps"].mean(),
        "winning_score": by_edition["winning_score"].mean(),
        "sell": share["sell"], "branch": share["branch"], "nothing": share["nothing"],
        "winner_sells": winners[winners["choice"] == "sell"].groupby("edition").size() / per_game,
        "winner_branches": winners[winners["choice"] == "branch"].groupby("edition").size() / per_game,
    })  # fmt: skip
    summary = summary.reindex(order).fillna({"winner_sells": 0.0, "winner_branches": 0.0})
    summary.index.name = "edition"
    return summary


def sell_right_by_fill(uses: pd.DataFrame, step: int = 3, min_uses: int = 1) -> pd.DataFrame:
    """The sell right's value as the map fills: ``uses`` (2013 rows) grouped by houses on the map.

    Groups of ``step`` house counts (0-2, 3-5, ...; index ``houses``, labelled by the group's
    first count); groups of fewer than ``min_uses`` uses are left out (a mean of a handful of
    uses is noise). Columns: ``uses``; ``sell`` and ``branch`` (mean ``sell_value`` and
    ``branch_value``) with ``sell_low``/``sell_high`` and ``branch_low``/``branch_high``
    (normal 95% intervals); ``best`` (mean of the larger of the two); ``free`` (mean free
    stations on the line); ``chose_branch`` and ``chose_sell`` (share of uses).
    """
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise ValueError(f"step must be a whole number >= 1, got {step!r}")
    if isinstance(min_uses, bool) or not isinstance(min_uses, int) or min_uses < 1:
        raise ValueError(f"min_uses must be a whole number >= 1, got {min_uses!r}")
    data = uses.assign(
        houses=(uses["houses_on_map"] // step) * step,
        best=uses[["sell_value", "branch_value"]].max(axis=1),
        chose_branch=uses["choice"] == "branch",
        chose_sell=uses["choice"] == "sell",
    )
    grouped = data.groupby("houses")
    half = {c: Z95 * grouped[c].std(ddof=1).fillna(0.0) / grouped.size() ** 0.5 for c in ("sell_value", "branch_value")}
    out = pd.DataFrame({
        "uses": grouped.size(),
        "sell": grouped["sell_value"].mean(),
        "branch": grouped["branch_value"].mean(),
        "best": grouped["best"].mean(),
        "free": grouped["free"].mean(),
        "chose_branch": grouped["chose_branch"].mean(),
        "chose_sell": grouped["chose_sell"].mean(),
    })  # fmt: skip
    out["sell_low"], out["sell_high"] = out["sell"] - half["sell_value"], out["sell"] + half["sell_value"]
    out["branch_low"], out["branch_high"] = out["branch"] - half["branch_value"], out["branch"] + half["branch_value"]
    return out[out["uses"] >= min_uses]
