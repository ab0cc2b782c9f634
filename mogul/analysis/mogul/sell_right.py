"""The 2013 sell right (sell all, or found a branch) in end points, and the two editions compared.

In the 2013 edition whoever uses the sell right sells all their shares of the border colour,
sells none, or founds a branch on that colour's line. Both are counted in end points, "if
nothing else changed": a sale pays ``k * market value`` now and gives up the end bonus of the
``k`` shares sold (one point each); a house adds what ``branch_gain`` says to its owner's end
bonus (each house scores its owner's house count on each of its lines, so a line with ``h``
houses scores ``h * h``: the third house on a line adds 5). Later houses on the same line add
more, so a branch's value here is a floor.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from mogul.analysis.intervals import Z95, mean_over_games
from mogul.games.mogul.actions import Branch, Sell, Take
from mogul.games.mogul.editions import edition
from mogul.games.mogul.network import branch_gain
from mogul.games.mogul.rules import RUNNER_UP, WINNER, GameState
from mogul.kit.bots import bot_factory, play_states, whole_number
from mogul.kit.simulate import seat_bots, simulate
from mogul.kit.spec import resolve

SELL_RIGHT_COLUMNS = (
    "game",
    "round",
    "seat",
    "role",
    "border",
    "houses_on_map",
    "free",
    "shares",
    "market",
    "sell_value",
    "branch_value",
    "choice",
    "station",
    "won_game",
)
"""Columns of ``sell_right_uses``: one row per auction whose sell right was used."""


def sell_right_options(state: GameState) -> pd.DataFrame:
    """The sell right's options of the player to act, each valued in end points (see the module docstring).

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
                rows.append(
                    {"action": str(action), "kind": kind_name, "value": action.count * price}
                )
    table = pd.DataFrame(rows, columns=["action", "kind", "value"])
    return table.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)


def sell_right_uses(
    states: Sequence[GameState], actions: Sequence[Any], game: int = 0
) -> pd.DataFrame:
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
        rows.append(
            {
                "game": game,
                "round": state.round,
                "seat": seat,
                "role": "winner" if state.phase == WINNER else "runner-up",
                "border": border,
                "houses_on_map": sum(len(p.houses) for p in state.players),
                "free": len({b.station for b in branches}),
                "shares": player.shares[border],
                "market": state.market_value(border),
                "sell_value": player.shares[border] * (state.market_value(border) - ed.share_bonus),
                "branch_value": max(gains, default=0),
                "choice": choice,
                "station": action.station if kind is Branch else None,
                "won_game": seat in winners,
            }
        )
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
    whole_number("games", games)
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
    parts = [
        sell_right_uses(states, actions, g)
        for g, (states, actions) in enumerate(play_games(game, bots, games, seed, players))
    ]
    return pd.concat(parts, ignore_index=True)


def uses_from_auctions(
    auctions: pd.DataFrame, games: pd.DataFrame, rounds: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Who used the sell right of each auction, and how, from a simulation's tables.

    ``auctions`` and ``games`` are ``sim.auctions`` and ``sim.games`` of ``mogul.simulate``.
    The winner used the sell right unless they took the card; then the runner-up did.
    Columns: ``game``, ``round``, ``seat``, ``role``, ``choice`` ("sell" when shares were sold,
    "branch" when a house was placed, else "nothing") and ``won_game``; with ``rounds``
    (``sim.rounds``) also ``held``: the shares of the border colour the user held as the round
    began (the auction changes no one's shares before the sell right is used).
    """
    took = auctions["winner_choice"] == "take"
    branch = (
        auctions["branch"].notna()
        if "branch" in auctions
        else pd.Series(False, index=auctions.index)
    )
    sold = auctions["sold"].fillna(0) > 0
    uses = pd.DataFrame(
        {
            "game": auctions["game"],
            "round": auctions["round"],
            "seat": auctions["runner_up"].where(took, auctions["winner"]).astype(int),
            "role": took.map({True: "runner-up", False: "winner"}),
            "choice": [
                "branch" if b else "sell" if s else "nothing"
                for b, s in zip(branch, sold, strict=True)
            ],
        }
    )
    won = set(zip(games.loc[games["won"], "game"], games.loc[games["won"], "seat"], strict=True))
    uses["won_game"] = [(g, s) in won for g, s in zip(uses["game"], uses["seat"], strict=True)]
    if rounds is not None:
        held = rounds.set_index(["game", "round", "seat"])
        keys = list(zip(uses["game"], uses["round"], uses["seat"], strict=True))
        uses["held"] = [
            int(held.at[k, f"shares_{c}"]) for k, c in zip(keys, auctions["border"], strict=True)
        ]
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
        sim = simulate(
            name,
            bots,
            seed,
            games=games,
            players=players,
            tables=("games", "auctions", "rounds"),
            progress=False,
            **simulate_options,
        )
        _, canonical = resolve(name)
        ed = edition(canonical)
        by_game = sim.games.groupby("game")
        # the winning score in parts, from the first winner's row (shared wins score alike)
        top = sim.games[sim.games["won"]].drop_duplicates("game").set_index("game")
        chip_points = top["chips"] // ed.chips_per_point
        share_points = ed.share_bonus * top["shares"]
        out["games"].append(
            pd.DataFrame(
                {
                    "edition": canonical,
                    "cards": by_game["rounds"].first(),
                    "auctions": sim.auctions.groupby("game").size(),
                    "winning_score": by_game["score"].max(),
                    "winners": by_game["won"].sum(),
                    "winner_track": top["points"],
                    "winner_chips": chip_points,
                    "winner_shares": share_points,
                    "winner_branches": top["score"] - top["points"] - chip_points - share_points,
                }
            ).reset_index()
        )
        out["auctions"].append(sim.auctions[["game", "round", "steps"]].assign(edition=canonical))
        out["uses"].append(
            uses_from_auctions(sim.auctions, sim.games, sim.rounds).assign(edition=canonical)
        )
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
    summary = pd.DataFrame(
        {
            "games": by_edition.size(),
            "cards": by_edition["cards"].mean(),
            "auction_moves": auctions.groupby("edition", sort=False)["steps"].mean(),
            "winning_score": by_edition["winning_score"].mean(),
            "sell": share["sell"],
            "branch": share["branch"],
            "nothing": share["nothing"],
            "winner_sells": winners[winners["choice"] == "sell"].groupby("edition").size()
            / per_game,
            "winner_branches": winners[winners["choice"] == "branch"].groupby("edition").size()
            / per_game,
        }
    )
    summary = summary.reindex(order).fillna({"winner_sells": 0.0, "winner_branches": 0.0})
    summary.index.name = "edition"
    return summary


def sell_right_by_fill(uses: pd.DataFrame, step: int = 3, min_uses: int = 1) -> pd.DataFrame:
    """The sell right's value as the map fills: ``uses`` (2013 rows) grouped by houses on the map.

    Groups of ``step`` house counts (0-2, 3-5, ...; index ``houses``, labelled by the group's
    first count); groups of fewer than ``min_uses`` uses are left out (a mean of a handful of
    uses is noise). Columns: ``uses``, ``games`` (games with a use in the group); ``sell`` and
    ``branch`` (mean ``sell_value`` and ``branch_value``), and ``gap`` (the paired difference
    sell minus branch, use by use), each with ``_low``/``_high``: its normal 95% interval over
    the games (``mean_over_games``; every use its own game when ``uses`` has no ``game``
    column); ``best`` (mean of the larger of the two); ``free`` (mean free stations on the
    line); ``chose_branch`` and ``chose_sell`` (share of uses).
    """
    whole_number("step", step)
    whole_number("min_uses", min_uses)
    data = uses.assign(
        houses=(uses["houses_on_map"] // step) * step,
        best=uses[["sell_value", "branch_value"]].max(axis=1),
        gap=uses["sell_value"] - uses["branch_value"],
        chose_branch=uses["choice"] == "branch",
        chose_sell=uses["choice"] == "sell",
    )
    if "game" not in data.columns:
        data = data.assign(game=range(len(data)))
    rows = {}
    for houses, group in data.groupby("houses"):
        row: dict[str, float] = {"uses": len(group), "games": group["game"].nunique()}
        for name, column in (("sell", "sell_value"), ("branch", "branch_value"), ("gap", "gap")):
            row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_over_games(
                group[column], group["game"]
            )
        for column in ("best", "free", "chose_branch", "chose_sell"):
            row[column] = float(group[column].mean())
        rows[houses] = row
    out = pd.DataFrame.from_dict(rows, orient="index").astype({"uses": int, "games": int})
    out.index.name = "houses"
    return out[out["uses"] >= min_uses]


USES = ("sell", "branch", "nothing")
"""What a use of the sell right did (``choice`` of ``uses_from_auctions``)."""


def use_shares(uses: pd.DataFrame) -> pd.DataFrame:
    """Share of the sell right's uses that sold, founded a branch or did nothing, per edition,
    with 95% intervals computed over games.

    ``uses`` is ``compare_editions(...)["uses"]``. The games are the independent units: the
    uses within one game hang together (the same players, the same map), so the interval is
    the ratio estimator's with the games as clusters: share = uses of that kind / all uses,
    its variance G/(G-1) * sum over games of (kind_g - share * uses_g)^2 / (all uses)^2, for G
    games with a use (the interval cut to 0..1). Index (``edition``, ``use``); columns
    ``share``, ``low``, ``high``, ``se`` (its standard error), ``uses`` (of that kind), ``games``.

    >>> uses = pd.DataFrame({"edition": "x", "game": [0, 0, 1, 1],
    ...                      "choice": ["sell", "sell", "sell", "nothing"]})
    >>> use_shares(uses).loc[("x", "sell"), ["share", "low", "high", "uses"]].round(3).tolist()
    [0.75, 0.26, 1.0, 3.0]
    """
    rows = []
    for name, group in uses.groupby("edition", sort=False):
        per_game = pd.crosstab(group["game"], group["choice"]).reindex(
            columns=list(USES), fill_value=0
        )
        totals = per_game.sum(axis=1)
        n, games = float(totals.sum()), len(per_game)
        for use in USES:
            share = float(per_game[use].sum()) / n
            residual = per_game[use] - share * totals
            variance = games / max(games - 1, 1) * float((residual**2).sum()) / n**2
            half = Z95 * variance**0.5
            rows.append(
                {
                    "edition": name,
                    "use": use,
                    "share": share,
                    "low": max(0.0, share - half),
                    "high": min(1.0, share + half),
                    "se": variance**0.5,
                    "uses": int(per_game[use].sum()),
                    "games": games,
                }
            )
    return pd.DataFrame(rows).set_index(["edition", "use"])


def use_share_table(uses: pd.DataFrame) -> pd.DataFrame:
    """``use_shares`` of two editions as a table that fits a notebook column: per use, each
    edition's share with its 95% interval ("66.9% (66.0 to 67.9)"), ``difference (points)``:
    the second edition's share minus the first's in percentage points with its interval (the
    editions are simulated apart: independent samples), and ``differs``: whether that
    interval leaves out 0 (only then is it a difference)."""
    shares = use_shares(uses)
    editions = list(dict.fromkeys(shares.index.get_level_values("edition")))
    if len(editions) != 2:
        raise ValueError(f"use_share_table compares two editions, got {editions}")
    first, second = (shares.loc[e] for e in editions)

    def pct(share: float, low: float, high: float) -> str:
        return f"{share:.1%} ({100 * low:.1f} to {100 * high:.1f})"

    diff = second["share"] - first["share"]
    half = Z95 * (second["se"] ** 2 + first["se"] ** 2) ** 0.5
    table = pd.DataFrame(
        {
            editions[0]: [pct(*first.loc[u, ["share", "low", "high"]]) for u in USES],
            editions[1]: [pct(*second.loc[u, ["share", "low", "high"]]) for u in USES],
            "difference (points)": [
                f"{100 * d:+.1f} ({100 * (d - h):+.1f} to {100 * (d + h):+.1f})"
                for d, h in zip(diff, half, strict=True)
            ],
            "differs": ((diff - half > 0) | (diff + half < 0)).tolist(),
        },
        index=pd.Index(list(USES), name="use"),
    )
    return table


def fill_table(by_fill: pd.DataFrame) -> pd.DataFrame:
    """``sell_right_by_fill`` as a table that fits a notebook column: per group of houses,
    ``uses``, ``sell`` and ``branch`` each with its 95% interval over games ("2.01 (1.83 to
    2.19)"), ``sell - branch`` (their paired difference, with its interval), and how
    often the bots chose a branch and a sale (``built/sold``), in percent of the uses.

    >>> by_fill = pd.DataFrame({"uses": [610], "sell": [1.234], "sell_low": [1.11],
    ...     "sell_high": [1.35], "branch": [2.95], "branch_low": [2.87], "branch_high": [3.04],
    ...     "gap": [-1.72], "gap_low": [-1.85], "gap_high": [-1.6], "free": [6.64],
    ...     "chose_branch": [0.98], "chose_sell": [0.02]}, index=pd.Index([0], name="houses"))
    >>> fill_table(by_fill).iloc[0].astype(str).tolist()
    ['610', '1.23 (1.11 to 1.35)', '2.95 (2.87 to 3.04)', '-1.72 (-1.85 to -1.60)', '98%/2%']
    """

    def with_interval(column: str) -> list[str]:
        return [
            f"{m:.2f} ({lo:.2f} to {hi:.2f})"
            for m, lo, hi in zip(
                by_fill[column], by_fill[f"{column}_low"], by_fill[f"{column}_high"], strict=True
            )
        ]

    return pd.DataFrame(
        {
            "uses": by_fill["uses"],
            "sell": with_interval("sell"),
            "branch": with_interval("branch"),
            "sell - branch": with_interval("gap"),
            "built/sold": [
                f"{b:.0%}/{s:.0%}"
                for b, s in zip(by_fill["chose_branch"], by_fill["chose_sell"], strict=True)
            ],
        },
        index=by_fill.index,
    )
