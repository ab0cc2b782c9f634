"""What the numbers of a Mogul study are made of, each with its interval.

The differences between two editions and what they are made of (``edition_comparison``,
``length_parts``, ``score_gap``, ``sell_nothing``); how often the bots' sell right took the
option worth most (``chose_the_better``); and whether the premiums model matches what shares
earned (``model_check``). Means and their intervals are ``mogul.analysis.intervals``'. The
inputs are the frames of ``mogul.analysis.mogul``: tables in, tidy frames out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from mogul.analysis.intervals import Z95, difference_interval, mean_interval, mean_over_games
from mogul.games.mogul.editions import edition
from mogul.kit.spec import resolve


def chose_the_better(uses: pd.DataFrame) -> dict[str, float]:
    """How often the sell right was used for the option worth most in end points (``uses`` of
    ``sell_right_table``): selling all, the best branch, or nothing (worth 0). A choice counts
    as the better one when no other option is worth more (ties count).

    Returns ``uses``, ``games``, ``better`` (uses that chose it), ``share`` with ``low`` and
    ``high`` (its normal 95% interval over the games, ``mean_over_games``: the uses of one
    game hang together; every use its own game when ``uses`` has no ``game`` column), and ``sell_not_better`` / ``branch_not_better`` / ``nothing_not_better``
    (the other uses, by what was chosen).
    """
    best = uses[["sell_value", "branch_value"]].clip(lower=0).max(axis=1)
    chosen = uses["sell_value"].where(
        uses["choice"] == "sell", uses["branch_value"].where(uses["choice"] == "branch", 0)
    )
    better = chosen >= best
    games = uses["game"] if "game" in uses.columns else None
    share, low, high = mean_over_games(better, games)
    out: dict[str, float] = {
        "uses": len(uses),
        "games": len(uses) if games is None else int(games.nunique()),
        "better": int(better.sum()),
        "share": share,
        "low": low,
        "high": high,
    }
    for choice in ("sell", "branch", "nothing"):
        out[f"{choice}_not_better"] = int(((uses["choice"] == choice) & ~better).sum())
    return out


def sell_nothing(uses: pd.DataFrame) -> pd.DataFrame:
    """Who used the sell right to do nothing, per edition (``uses`` of ``compare_editions``).

    Columns: ``uses`` (all uses of the sell right), ``nothing`` (uses that did nothing),
    ``by_winner`` and ``by_runner_up`` (of those), ``held_none`` (of those, uses by a seat
    holding no share of the border colour: it had nothing to sell) and ``held_none_share``.
    """
    rows = {}
    for name, group in uses.groupby("edition", sort=False):
        nothing = group[group["choice"] == "nothing"]
        none = int((nothing["held"] == 0).sum()) if "held" in nothing else 0
        rows[name] = {
            "uses": len(group),
            "nothing": len(nothing),
            "by_winner": int((nothing["role"] == "winner").sum()),
            "by_runner_up": int((nothing["role"] == "runner-up").sum()),
            "held_none": none,
            "held_none_share": none / len(nothing) if len(nothing) else float("nan"),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "edition"
    return out


def length_parts(tables: Mapping[str, pd.DataFrame], players: int = 4) -> pd.DataFrame:
    """Why games of one edition are longer or shorter than another's: the pile and the crash.

    The crash lies uniformly in the last ``w`` positions of a pile of ``P`` cards (the crash
    included), so a game reveals ``P - (w - 1) / 2`` cards on average. One row per edition of
    ``tables["games"]`` (``compare_editions``): ``pile`` (cards in the pile once the first is
    revealed, plus that one), ``window`` (``w``), ``model`` (the expected cards), and the
    simulated ``cards`` with ``low`` and ``high`` (95% interval); then ``pile_effect`` and
    ``window_effect``: what each change adds to the expected length against the first row's
    edition (a smaller window moves the crash later: longer games).
    """
    rows = {}
    for name, group in tables["games"].groupby("edition", sort=False):
        ed = edition(name)
        spec, edition_name = resolve(name)
        pile = spec.new_game(edition_name, players, 0).cards_left + 1
        window = ed.crash_shuffled_into_last + 1
        mean, low, high = mean_interval(group["cards"])
        rows[name] = {
            "pile": pile,
            "window": window,
            "model": pile - (window - 1) / 2,
            "cards": mean,
            "low": low,
            "high": high,
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    first = out.iloc[0]
    out["pile_effect"] = out["pile"] - first["pile"]
    out["window_effect"] = (first["window"] - out["window"]) / 2
    out.index.name = "edition"
    return out


SCORE_PARTS = {
    "winner_track": "score track",
    "winner_chips": "chips",
    "winner_shares": "shares held",
    "winner_branches": "houses (branches)",
}
"""The parts of a winning score in ``compare_editions``' games table, and their names."""


def score_gap(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The gap in winning scores between two editions, split into its parts.

    One row per part of the score (``SCORE_PARTS``, then ``total``), with the mean of the
    first edition, of the second, and the ``gap`` (second minus first) with ``low`` and
    ``high``, its normal 95% interval (independent games). The parts add up to the total.
    """
    games = tables["games"]
    names = list(dict.fromkeys(games["edition"]))
    if len(names) != 2:
        raise ValueError(f"score_gap compares two editions; the tables hold {names}")
    a, b = (games[games["edition"] == n] for n in names)
    rows = {}
    for column, label in [*SCORE_PARTS.items(), ("winning_score", "total")]:
        gap, low, high = difference_interval(a[column], b[column])
        rows[label] = {
            names[0]: float(a[column].mean()),
            names[1]: float(b[column].mean()),
            "gap": gap,
            "low": low,
            "high": high,
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "part"
    return out


def _per_game(tables: Mapping[str, pd.DataFrame], name: str) -> dict[str, pd.Series]:
    """One edition's per-game measures, indexed by game (see ``edition_comparison``)."""
    games = tables["games"][tables["games"]["edition"] == name].set_index("game")
    auctions = tables["auctions"][tables["auctions"]["edition"] == name]
    uses = tables["uses"][tables["uses"]["edition"] == name]
    won = uses[uses["won_game"]]
    per_winner = games["winners"]

    def count(choice: str) -> pd.Series:
        n = won[won["choice"] == choice].groupby("game").size()
        return n.reindex(games.index, fill_value=0) / per_winner

    return {
        "cards": games["cards"],
        "auction_moves": auctions.groupby("game")["steps"].mean(),
        "winning_score": games["winning_score"],
        "winner_sells": count("sell"),
        "winner_branches": count("branch"),
    }


def edition_comparison(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Two editions' games side by side, each measure with its 95% interval over the games.

    Rows: ``cards`` (revealed, crash included), ``auction_moves`` (mean bids and drops per
    auction of a game), ``winning_score``, ``winner_sells`` and ``winner_branches`` (sales and
    branches per game by its winners, a shared win split). Columns: per edition its mean with
    ``<edition> low`` and ``<edition> high``; then ``difference`` (second minus first) with
    ``low`` and ``high``. A difference is one when its interval excludes 0.
    """
    names = list(dict.fromkeys(tables["games"]["edition"]))
    if len(names) != 2:
        raise ValueError(f"edition_comparison compares two editions; the tables hold {names}")
    a, b = (_per_game(tables, n) for n in names)
    rows = {}
    for measure in a:
        row: dict[str, float] = {}
        for name, values in ((names[0], a[measure]), (names[1], b[measure])):
            mean, low, high = mean_interval(values)
            row.update({name: mean, f"{name} low": low, f"{name} high": high})
        row["difference"], row["low"], row["high"] = difference_interval(a[measure], b[measure])
        rows[measure] = row
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "measure"
    return out


def model_check(values: pd.DataFrame) -> pd.DataFrame:
    """Is the premiums model right? Per company, over the rows of ``share_values`` of many games:
    the mean ``premiums_to_come`` and ``premiums_realized``, their ``difference`` with ``low`` and
    ``high`` (95% interval, over games: the rounds of one game are not independent), ``z`` (the
    difference in standard errors) and ``games``.

    ``chance`` (the same in every row) is the chance that, if the model is exact, at least one of
    the companies lies as many standard errors from 0 as the farthest does (companies taken as
    independent): a small number says the differences are more than sampling noise.
    """
    rows = {}
    for company, group in values.groupby("company", sort=False):
        per_game = (
            (group["premiums_realized"] - group["premiums_to_come"]).groupby(group["game"]).mean()
        )
        diff = float((group["premiums_realized"] - group["premiums_to_come"]).mean())
        se = float(per_game.std(ddof=1)) / len(per_game) ** 0.5
        rows[company] = {
            "premiums_to_come": float(group["premiums_to_come"].mean()),
            "premiums_realized": float(group["premiums_realized"].mean()),
            "difference": diff,
            "low": diff - Z95 * se,
            "high": diff + Z95 * se,
            "z": diff / se,
            "games": len(per_game),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "company"
    farthest = float(out["z"].abs().max())
    one = math.erfc(farthest / math.sqrt(2))  # two-sided, one company
    out["chance"] = 1 - (1 - one) ** len(out)
    return out
