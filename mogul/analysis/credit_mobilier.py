"""What a Credit Mobilier share is worth: the dividends it still earns before the game ends.

A share costs $1 and pays only dividends (cash is all that counts at the end). In one round
of dividends every share held earns $1 until the treasury runs dry, so one round pays each
share on average ``paid / shares held`` dollars (1 for a full round, less when the money ran
out part way). The **dividends to come** of a company's share as a turn begins is the sum of
that average over every round the company pays from that turn to the end of the game: what
one share held from then on earns, on average over the shares of the company.

Railroad shares earn from their treasury, which fills when their goods (and goods over their
track) move west; the Credit Mobilier (purple) share earns from the construction company's
treasury, which the bank fills with $2 for every section of track anyone builds.

    >>> from mogul.kit.simulate import simulate
    >>> sim = simulate("credit-mobilier", ["dividend"], games=4, players=3, seed=1,
    ...                tables=("games", "treasuries", "dividends"), progress=False)
    >>> values = share_values(sim.treasuries, sim.dividends)
    >>> sorted(values.columns)
    ['company', 'game', 'shares_held', 'to_come', 'treasury', 'turn']

That is an **average**: what the shares already held earn, one with another. What *one more*
share brings its owner is another number, the **marginal value** (``marginal_values``): in
paired games with common random numbers (the same goods, start player and dice, since every
roll comes from the seed and the roll's number) one player buys one extra share for $1 at the
start of a turn, and the difference in that player's final cash is measured. The two differ
because an extra share dilutes the others (a round that runs the treasury dry pays the same
dollars over one more share), because a round stopped part way pays the extra share nothing,
and because the extra share changes who pays out and when (the bots pay out what they own).
A share given for $1 on top of a turn is not what a player can do, though: buying uses up the
turn. ``buy_instead`` sets one share bought (and the turn ended) against the move the bot would
have made, so its gain is the decision's: expected gain against what is given up.

The functions are pure: tables in, tidy frames out (``marginal_values`` and ``buy_instead`` play
their games).
``mogul.plots.credit_mobilier.dividends_to_come_figure`` draws ``by_turn``.

"Analyse this position" (``analyse_position``, the game's face ``"analyse_position"``) has
the same columns as Mogul's, so one widget draws either game's analysis. Credit Mobilier
games last a few hundred decisions, so its rollouts stop after ``horizon`` turns (or at the
end of the game) and read the table there: a seat's ``worth`` is its cash plus half its
stake in every treasury (what ``MonteCarloBot`` scores: money left in a treasury at the end
is lost, so it counts only in part), and a rollout is "won" by the seat whose worth is
highest (shared wins count). At the end of the game worth is the cash alone plus half the
stakes, which ranks as the rules do except for ties on cash.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mogul.analysis import intervals
from mogul.analysis.intervals import Z95
from mogul.analysis.position import action_values
from mogul.games.credit_mobilier.actions import END, Buy
from mogul.games.credit_mobilier.bots import bot_factory, worth
from mogul.games.credit_mobilier.components import COMPANIES, components
from mogul.games.credit_mobilier.determinize import determinize
from mogul.games.credit_mobilier.dice import DIVIDEND, allowance
from mogul.games.credit_mobilier.display import action_label
from mogul.games.credit_mobilier.events import DividendsPaid
from mogul.games.credit_mobilier.rules import STOCK_PRICE, GameState, PlayerView, next_roll
from mogul.games.credit_mobilier.setup import new_game
from mogul.kit.bots import BotFactory, BotSpec, play_out, play_states

__all__ = [
    "analyse_position",
    "buy_by_turn",
    "buy_pooled",
    "buy_table",
    "buy_instead",
    "by_turn",
    "marginal_by_turn",
    "marginal_table",
    "marginal_values",
    "mean_interval",
    "paired_start_difference",
    "pay_out_share",
    "reversed_ties",
    "round_payouts",
    "share_values",
    "start_difference",
    "start_values",
]

COLUMNS = ["game", "turn", "company", "treasury", "shares_held", "to_come"]


def _with_game(frame: pd.DataFrame) -> pd.DataFrame:
    """A simulation's table as it is, or one game's table with ``game`` 0 added."""
    return frame if "game" in frame.columns else frame.assign(game=0)


def round_payouts(dividends: pd.DataFrame) -> pd.DataFrame:
    """One row per round of dividends: ``game``, ``turn``, ``round``, ``company``, ``paid``
    (dollars in all), ``shares`` (held by all players) and ``per_share``: ``paid / shares``,
    or $1 in a round paid while nobody held a share (a share held then would have earned it).

    ``dividends`` is the game's ``dividends`` table (one row per round and seat), of one game
    or of a simulation.
    """
    columns = ["game", "turn", "round", "company", "paid", "shares", "per_share"]
    if dividends.empty:  # a game in which no company paid
        empty = {c: pd.Series(dtype=object if c == "company" else int) for c in columns}
        return pd.DataFrame({**empty, "per_share": pd.Series(dtype=float)})
    rounds = (
        _with_game(dividends)
        .groupby(["game", "turn", "round", "company"], sort=False, as_index=False)[
            ["paid", "shares"]
        ]
        .sum()
    )
    # A round paid while nobody held a share (the rules allow it) paid no one, but a share held
    # then would have earned $1: a company pays only with at least $1 in its treasury.
    held = rounds["shares"] > 0
    rounds["per_share"] = 1.0
    rounds.loc[held, "per_share"] = rounds.loc[held, "paid"] / rounds.loc[held, "shares"]
    return rounds[columns]


def share_values(treasuries: pd.DataFrame, dividends: pd.DataFrame) -> pd.DataFrame:
    """Dividends to come per share, for every game, turn and company.

    ``treasuries`` and ``dividends`` are the game's tables of the same games (one game's, from
    ``record.table(...)``, or a simulation's). One row per game, turn and company, read as the
    turn begins: ``treasury``, ``shares_held``, and ``to_come``: the sum of ``per_share``
    (``round_payouts``) over that company's rounds from this turn on.
    """
    table = _with_game(treasuries)
    if "final" in table.columns:
        table = table[~table["final"].astype(bool)]
    values = table[["game", "turn", "company", "treasury", "shares_held"]].copy()
    payouts = round_payouts(dividends)
    per_turn = payouts.groupby(["game", "company", "turn"], as_index=False)["per_share"].sum()
    # dividends from turn t on = (all the game's dividends) - (those of turns before t)
    merged = values.merge(per_turn, on=["game", "company", "turn"], how="left").fillna(
        {"per_share": 0.0}
    )
    merged = merged.sort_values(["game", "company", "turn"], kind="stable")
    by_company = merged.groupby(["game", "company"], sort=False)["per_share"]
    merged["to_come"] = by_company.transform("sum") - by_company.cumsum() + merged["per_share"]
    out = merged.sort_values(["game", "turn"], kind="stable").reset_index(drop=True)
    out["to_come"] = out["to_come"].round(9)
    return out[COLUMNS]


def by_turn(values: pd.DataFrame, min_games: int = 1) -> pd.DataFrame:
    """Averages of ``share_values`` per turn and company, over the games still running.

    Columns ``turn``, ``company``, ``games`` (games that reached the turn), ``to_come``,
    ``treasury`` and ``shares_held`` (means), and ``low``/``high``: the normal 95% interval of
    ``to_come`` over the games. Turns reached by fewer than ``min_games`` games
    are left out (a few long games would make the end of the curve noise).
    """
    grouped = values.groupby(["turn", "company"], sort=False)
    out = grouped[["to_come", "treasury", "shares_held"]].mean()
    out.insert(0, "games", grouped["game"].nunique())
    half = Z95 * grouped["to_come"].std(ddof=1).fillna(0.0) / out["games"].pow(0.5)
    out["low"] = out["to_come"] - half
    out["high"] = out["to_come"] + half
    out = out.reset_index().sort_values(["turn", "company"], key=_company_order, kind="stable")
    return out[out["games"] >= min_games].reset_index(drop=True)


def start_values(values: pd.DataFrame) -> pd.DataFrame:
    """Per company: the mean dividends to come as the first turn begins with its 95% interval
    (normal, over games), and the chance (share of games) that a share held from then on
    earned $1 or more on average.

    Index: company (railroads, then purple); columns ``to_come``, ``low``, ``high``, ``games``
    and ``earns_its_price``.
    """
    first = values[values["turn"] == values.groupby("game")["turn"].transform("min")]
    grouped = first.groupby("company", sort=False)["to_come"]
    out = pd.DataFrame([mean_interval(v) for _, v in grouped], index=[c for c, _ in grouped])
    out = out.rename(columns={"mean": "to_come", "n": "games"})
    out["earns_its_price"] = grouped.apply(lambda v: float((v >= 1).mean()))
    out.index.name = "company"
    return out.sort_index(key=_company_order)


def _first_turn(values: pd.DataFrame) -> pd.DataFrame:
    """``share_values`` as each game's first turn begins: one row per game and company."""
    return values[values["turn"] == values.groupby("game")["turn"].transform("min")]


def paired_start_difference(values: pd.DataFrame, first: str, second: str) -> dict[str, float]:
    """How much more a ``first`` share held from the first turn earns than a ``second`` share,
    game by game on the same games (``share_values``' ``to_come``): ``mean``, ``low``, ``high``
    (its normal 95% interval over the games) and ``n`` (games). Paired, so what the games share
    (their length, how much track was built) drops out of the comparison.

    >>> values = pd.DataFrame({"game": [0, 0, 1, 1], "turn": 1, "company": ["purple", "red"] * 2,
    ...     "to_come": [7.0, 6.0, 5.0, 5.0]})
    >>> paired_start_difference(values, "purple", "red")
    {'mean': 0.5, 'low': -0.48, 'high': 1.48, 'n': 2}
    """
    table = _first_turn(values).pivot(index="game", columns="company", values="to_come")
    return mean_interval(table[first] - table[second])


def start_difference(values: pd.DataFrame, other: pd.DataFrame, company: str) -> dict[str, float]:
    """How much more a ``company`` share held from the first turn earns in the games of
    ``other`` than in those of ``values`` (two simulations, so independent samples): ``mean``
    with its normal 95% interval ``low``, ``high``.

    >>> a = pd.DataFrame({"game": [0, 1], "turn": 1, "company": "blue", "to_come": [2.0, 4.0]})
    >>> b = pd.DataFrame({"game": [0, 1], "turn": 1, "company": "blue", "to_come": [3.0, 3.0]})
    >>> start_difference(a, b, "blue")
    {'mean': 0.0, 'low': -1.96, 'high': 1.96}
    """
    a, b = (_first_turn(v) for v in (values, other))
    a, b = a.loc[a["company"] == company, "to_come"], b.loc[b["company"] == company, "to_come"]
    mean = float(b.mean() - a.mean())
    half = Z95 * float(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)) ** 0.5
    return {"mean": round(mean, 9), "low": round(mean - half, 4), "high": round(mean + half, 4)}


def mean_interval(sample: Sequence[float] | pd.Series) -> dict[str, float]:
    """The mean of ``sample`` with its normal 95% interval: ``mean``, ``low``, ``high``, ``n``.

    >>> mean_interval([1, 2, 3, 4])
    {'mean': 2.5, 'low': 1.2348, 'high': 3.7652, 'n': 4}
    """
    values = pd.Series(sample, dtype=float).dropna()
    mean, low, high = intervals.mean_interval(values)
    return {"mean": mean, "low": low, "high": high, "n": len(values)}


def pay_out_share(turns: pd.DataFrame, treasuries: pd.DataFrame, company: str) -> dict[str, Any]:
    """How often the players paid ``company`` out when they could, from a simulation's (or one
    game's) ``turns`` and ``treasuries`` tables.

    A turn could pay the company out when its roll allows dividends of that colour (an orange
    die and the colour, ``dice.allowance``) and the treasury held at least $1 as the turn began.
    Returns ``could`` (such turns), ``paid`` (those whose colour and kind were the company's
    dividends) and ``share`` (paid / could).

    >>> turns = pd.DataFrame({"game": [0, 0], "turn": [1, 2], "dice": ["purple orange red red red",
    ...     "purple orange red red red"], "colour": ["purple", "red"], "kind": ["dividends", "build"]})
    >>> money = pd.DataFrame({"game": [0, 0], "turn": [1, 2], "company": ["purple"] * 2,
    ...     "treasury": [2, 2]})
    >>> pay_out_share(turns, money, "purple")
    {'could': 2, 'paid': 1, 'share': 0.5}
    """
    if company not in COMPANIES:
        raise ValueError(f"unknown company {company!r}; allowed: {list(COMPANIES)}")
    money = _with_game(treasuries)
    if "final" in money.columns:
        money = money[~money["final"].astype(bool)]
    money = money.loc[money["company"] == company, ["game", "turn", "treasury"]]
    table = _with_game(turns).merge(money, on=["game", "turn"])
    allowed = table["dice"].map(lambda dice: allowance(dice.split(), company, DIVIDEND) > 0)
    could = table[allowed & (table["treasury"] >= 1)]
    paid = int(((could["colour"] == company) & (could["kind"] == DIVIDEND)).sum())
    return {"could": len(could), "paid": paid, "share": paid / len(could) if len(could) else 0.0}


# --- the marginal value of one more share ----------------------------------------------------


def _colour_of(action: Any) -> str | None:
    return getattr(action, "colour", None) or getattr(action, "company", None)


class _ColoursReversed:
    """A bot offered the legal actions with the colours in reverse order within each kind."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name = f"{getattr(inner, 'name', type(inner).__name__)}-reversed"
        self.understands = getattr(inner, "understands", None)

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        kinds = list(dict.fromkeys(type(a) for a in legal_actions))

        def key(action: Any) -> tuple[int, int]:
            colour = _colour_of(action)
            return kinds.index(type(action)), -COMPANIES.index(colour) if colour in COMPANIES else 0

        return self.inner.choose(view, sorted(legal_actions, key=key))


def reversed_ties(bot: BotSpec) -> BotFactory:
    """A factory for ``bot`` (a name such as ``"dividend"``) that breaks its ties between colours
    the other way: it is offered the legal actions of each kind (build, move, buy, pay) last
    colour first (blue before red, purple first), the kinds in their usual order. A bot that
    takes the first of equally good actions then favours the other end of the colour order;
    compare the two to see what the tie order decides."""
    inner = bot_factory(bot)

    def make(seed: int | None = None) -> _ColoursReversed:
        return _ColoursReversed(inner(seed))

    return BotFactory(make, (), True)


def _play_on(
    state: GameState, bots: Sequence[Any], owner: int, turns: Sequence[int] = ()
) -> tuple[dict[str, Any], dict[int, tuple[GameState, dict[str, Any]]]]:
    """Play ``state`` to the end: the owner's final ``cash``, the owner's ``dividends`` per
    company and each company's ``average`` payout per share (``per_share`` summed over its
    rounds); and for each of ``turns`` the state at which it began with the tallies so far."""
    states, _ = play_states(state, bots, forced=False)
    tally = {
        "cash": states[-1].money[owner],
        "dividends": dict.fromkeys(COMPANIES, 0),
        "average": dict.fromkeys(COMPANIES, 0.0),
    }
    starts: dict[int, tuple[GameState, dict[str, Any]]] = {}
    wanted = set(turns)
    for k, state in enumerate(states):
        # The dividends paid by the move that made this state (the first state's, before the play).
        paid = [e for e in state.events if type(e) is DividendsPaid] if k else []
        for event in paid:
            held = sum(s[event.company] for s in state.stocks)
            tally["dividends"][event.company] += event.paid[owner]
            tally["average"][event.company] += sum(event.paid) / held if held else 1.0
        if state.turn in wanted and state.turn not in starts and not state.is_over:
            starts[state.turn] = (state, {k: dict(tally[k]) for k in ("dividends", "average")})
    return tally, starts


def marginal_values(
    bots: BotSpec | Sequence[BotSpec] = "dividend",
    games: int = 100,
    players: int = 3,
    seed: int = 0,
    turns: Sequence[int] = (1,),
    companies: Sequence[str] = COMPANIES,
) -> pd.DataFrame:
    """What one more share adds to its owner's final cash, from paired games.

    Game ``i`` is dealt from seed ``seed + i``; its owner is seat ``i % players`` (so every
    seat owns in turn; the start player is dealt from the seed). The game is played once as
    it is; at the start of each of ``turns`` it reaches, it is also played out from that
    state with the owner buying one extra share of the company for $1. The pair shares its
    random numbers: the same goods and dice, since every roll comes from the seed and the
    roll's number, and bots that choose from what they see alone (``traits["stochastic"]``
    false, as ``DividendBot``; stochastic bots are refused). A pair is left out when the owner
    has no $1 or the company has no share left in the box.

    One row per game, turn and company: ``game``, ``owner``, ``turn``, ``company``,
    ``cash_gain`` (final cash with the share minus without it: the $1 price is in it),
    ``value`` (``cash_gain + 1``: what the share adds, its price given back),
    ``dividends_gain`` (the owner's dividends from that company from the turn on, with minus
    without), ``others_gain`` (the same for the other companies) and ``average`` (the
    company's average payout per share from that turn on, in the game without the extra
    share: the ``to_come`` of ``share_values``).
    """
    specs = [bots] * players if isinstance(bots, str | BotFactory) or callable(bots) else list(bots)
    if len(specs) != players:
        raise ValueError(
            f"marginal_values needs one bot per seat: {players} seats, {len(specs)} bots"
        )
    unknown = [c for c in companies if c not in COMPANIES]
    if unknown:
        raise ValueError(f"unknown companies {unknown}; allowed: {list(COMPANIES)}")
    if not turns or any(isinstance(t, bool) or not isinstance(t, int) or t < 1 for t in turns):
        raise ValueError(f"turns must be whole numbers from 1 on, got {list(turns)!r}")
    factories = [bot_factory(spec) for spec in specs]
    for make in factories:
        if getattr(make(0), "traits", {}).get("stochastic", True):
            raise ValueError(
                "marginal_values pairs games by their dice alone, so it needs bots whose choices are "
                f"not random (traits['stochastic'] false, as 'dividend'); got {make(0)!r}"
            )
    cap = components().stock_per_company
    rows = []
    for i in range(games):
        owner = i % players
        bots_ = [make(seed + i) for make in factories]
        base, starts = _play_on(new_game(players, seed=seed + i), bots_, owner, turns)
        for turn, (start, before) in sorted(starts.items()):
            if start.money[owner] < STOCK_PRICE:
                continue
            for company in companies:
                if cap is not None and sum(s[company] for s in start.stocks) >= cap:
                    continue
                money = list(start.money)
                money[owner] -= STOCK_PRICE
                stocks = list(start.stocks)
                stocks[owner] = stocks[owner].add(company)
                extra = start._replace(money=tuple(money), stocks=tuple(stocks))
                more, _ = _play_on(extra, [make(seed + i) for make in factories], owner)
                gains = {
                    c: more["dividends"][c] - (base["dividends"][c] - before["dividends"][c])
                    for c in COMPANIES
                }
                rows.append(
                    {
                        "game": i,
                        "owner": owner,
                        "turn": turn,
                        "company": company,
                        "cash_gain": more["cash"] - base["cash"],
                        "value": more["cash"] - base["cash"] + STOCK_PRICE,
                        "dividends_gain": gains[company],
                        "others_gain": sum(gains.values()) - gains[company],
                        "average": round(base["average"][company] - before["average"][company], 9),
                    }
                )
    columns = [
        "game",
        "owner",
        "turn",
        "company",
        "cash_gain",
        "value",
        "dividends_gain",
        "others_gain",
        "average",
    ]
    return pd.DataFrame(rows, columns=columns)


def marginal_by_turn(pairs: pd.DataFrame) -> pd.DataFrame:
    """``marginal_values`` summed up per turn and company, each mean with its 95% interval.

    Columns: ``turn``, ``company``, ``pairs``; ``value``, ``value_low``, ``value_high`` (what
    one more share adds to final cash, price given back); ``average``, ``average_low``,
    ``average_high`` (the average payout per share on the same games); ``gap`` with
    ``gap_low``/``gap_high`` (value minus average, paired); ``dividends_gain``,
    ``others_gain`` (means); ``expected_gain``: the mean value minus the $1 price (a buy on
    these terms pays on average when it is above 0; the interval says how sure that is, and
    is not itself the decision).
    """
    rows = []
    for (turn, company), g in pairs.groupby(["turn", "company"], sort=False):
        value = mean_interval(g["value"])
        average = mean_interval(g["average"])
        gap = mean_interval(g["value"] - g["average"])
        rows.append(
            {
                "turn": turn,
                "company": company,
                "pairs": value["n"],
                "value": value["mean"],
                "value_low": value["low"],
                "value_high": value["high"],
                "average": average["mean"],
                "average_low": average["low"],
                "average_high": average["high"],
                "gap": gap["mean"],
                "gap_low": gap["low"],
                "gap_high": gap["high"],
                "dividends_gain": float(g["dividends_gain"].mean()),
                "others_gain": float(g["others_gain"].mean()),
                "expected_gain": value["mean"] - STOCK_PRICE,
            }
        )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    return out.sort_values(
        ["turn", "company"], key=_company_order, kind="stable", ignore_index=True
    )


def _company_order(column: pd.Series | pd.Index) -> pd.Series | pd.Index:
    """Sort key: companies in the game's order (red, yellow, green, blue, purple)."""
    if column.name != "company":
        return column
    return column.map(lambda c: COMPANIES.index(c) if c in COMPANIES else len(COMPANIES))


def marginal_table(marginal: pd.DataFrame) -> pd.DataFrame:
    """``marginal_by_turn`` as a table that fits a laptop's notebook column: one row per turn
    and company, ``value`` written with its 95% interval, the other means rounded to cents.

    >>> row = pd.DataFrame([{"turn": 1, "company": "red", "value": 0.4, "value_low": -2.6,
    ...     "value_high": 3.5, "average": 6.571, "dividends_gain": -0.63, "others_gain": -1.61,
    ...     "expected_gain": -0.6}])
    >>> marginal_table(row).iloc[0].astype(str).tolist()
    ['1', 'red', '0.40 (-2.60 to 3.50)', '6.57', '-0.63', '-1.61', '-0.6']
    """
    value = marginal.apply(
        lambda r: f"{r.value:.2f} ({r.value_low:.2f} to {r.value_high:.2f})", axis=1
    )
    table = marginal[["turn", "company"]].assign(value=value)
    for column in ("average", "dividends_gain", "others_gain", "expected_gain"):
        table[column] = marginal[column].round(2)
    return table


# --- buy one share, or let the bot move ------------------------------------------------------


def buy_instead(
    bots: BotSpec = "dividend",
    games: int = 100,
    players: int = 3,
    seed: int = 0,
    turns: Sequence[int] = (1,),
) -> pd.DataFrame:
    """What buying one share gains its buyer against what it gives up, from paired games.

    Game ``i`` is dealt from seed ``seed + i`` and played by ``bots`` (every seat). As each of
    ``turns`` begins, the player to move (the **buyer**) has a choice: the game is played on
    once as the bot plays it (what buying gives up: the bot's own move of the turn), and once
    for every company the roll lets the buyer buy, with the buyer buying one share of it for
    $1 and ending the turn: the buy uses up the turn's action, as in the game. The pair shares
    its random numbers (the same dice, since every roll comes from the seed and the roll's
    number; bots that choose from what they see alone, as ``DividendBot``). The games are
    played to the end in the batch simulator on the readable engine's dice (scripted into
    the states), which ends them in the readable engine's tables.

    One row per game, turn and company: ``game``, ``turn``, ``buyer`` (seat), ``company``,
    ``gain`` (the buyer's final cash with the buy minus with the bot's move: the $1 price is
    in it), ``dividends_gain`` (the dividends the buyer receives from the turn on, with minus
    without) and ``spent_gain`` (the dollars the buyer spends on shares from the turn on, with
    minus without, the $1 of this share included): ``gain = dividends_gain - spent_gain``.
    """

    if isinstance(bots, str | BotFactory) or callable(bots):
        make = bot_factory(bots)
    else:
        raise ValueError(f"buy_instead plays one bot in every seat; got {bots!r}")
    if getattr(make(0), "traits", {}).get("stochastic", True):
        raise ValueError(
            "buy_instead pairs games by their dice alone, so it needs a bot whose choices are not "
            f"random (traits['stochastic'] false, as 'dividend'); got {make(0)!r}"
        )
    if not turns or any(isinstance(t, bool) or not isinstance(t, int) or t < 1 for t in turns):
        raise ValueError(f"turns must be whole numbers from 1 on, got {list(turns)!r}")
    keys, starts = [], []  # (game, turn, buyer, company or None), the state played on
    for i in range(games):
        state = new_game(players, seed=seed + i)
        for turn in sorted(set(turns)):
            seats = [make(seed + i) for _ in range(players)]
            state = play_states(
                state, seats, keep_states=False, forced=False, until=lambda s, t=turn: s.turn >= t
            )[0][-1]
            if state.is_over:
                break
            buyer = state.current
            keys.append((i, turn, buyer, None))
            starts.append(state)
            for action in state.legal_actions():
                if isinstance(action, Buy):
                    bought = state.apply(action)
                    if bought.turn == state.turn and not bought.is_over:  # dice left: stop
                        bought = bought.apply(END)
                    keys.append((i, turn, buyer, action.company))
                    starts.append(bought)
    columns = ["game", "turn", "buyer", "company", "gain", "dividends_gain", "spent_gain"]
    if not starts:
        return pd.DataFrame(columns=columns)
    ends = _play_on_readable_dice(starts, bots)
    cash = ends.money
    held = ends.tables["stocks"][:, :players].sum(axis=2)
    rows, base = [], None
    for k, (game, turn, buyer, company) in enumerate(keys):
        start_money = starts[k].money[buyer] + (company is not None) * STOCK_PRICE
        start_held = sum(starts[k].stocks[buyer]) - (company is not None)
        spent = int(held[k, buyer]) - start_held
        received = int(cash[k, buyer]) - start_money + spent
        if company is None:
            base = (int(cash[k, buyer]), received, spent)
            continue
        rows.append(
            {
                "game": game,
                "turn": turn,
                "buyer": buyer,
                "company": company,
                "gain": int(cash[k, buyer]) - base[0],
                "dividends_gain": received - base[1],
                "spent_gain": spent - base[2],
            }
        )
    return pd.DataFrame(rows, columns=columns)


def _play_on_readable_dice(starts: Sequence[GameState], bots: BotSpec) -> Any:
    """``fast.play_states`` of ``starts`` with every roll of their games scripted as the readable
    engine rolls it (``rules.next_roll``): the readable engine's games, at batch speed."""
    from mogul.games.credit_mobilier import fast  # compiled code: loaded when first needed

    count, rolls = 256, {}
    while True:
        scripted = []
        for state in starts:
            setup = state.setup
            if len(rolls.get(setup.seed, ())) < count:
                rolls[setup.seed] = tuple(next_roll(setup, n) for n in range(count))
            scripted.append(state._replace(setup=setup._replace(dice=rolls[setup.seed])))
        ends = fast.play_states(scripted, bots)
        if (ends.turns <= count).all():  # no game rolled past its script
            return ends
        count *= 2


def buy_by_turn(pairs: pd.DataFrame) -> pd.DataFrame:
    """``buy_instead`` summed up per turn and company: ``pairs`` and the means of ``gain``
    (with its 95% interval over the games, ``gain_low``/``gain_high``), ``dividends_gain`` and
    ``spent_gain``. A mean gain above 0 means buying gained on average what the bot's move
    would have; the interval says how far another sample of games could move it."""
    rows = []
    for (turn, company), g in pairs.groupby(["turn", "company"], sort=False):
        gain = mean_interval(g["gain"])
        rows.append(
            {
                "turn": turn,
                "company": company,
                "pairs": gain["n"],
                "gain": gain["mean"],
                "gain_low": gain["low"],
                "gain_high": gain["high"],
                "dividends_gain": float(g["dividends_gain"].mean()),
                "spent_gain": float(g["spent_gain"].mean()),
            }
        )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    return out.sort_values(
        ["turn", "company"], key=_company_order, kind="stable", ignore_index=True
    )


def buy_pooled(pairs: pd.DataFrame) -> pd.DataFrame:
    """``buy_instead`` pooled over the companies: one row per turn and one for all the pairs
    (index ``turn``: the turn's number as text, or ``"all"``), with ``pairs``, ``gain`` and its
    95% interval (``low``, ``high``) and ``sd``, the standard deviation of one pair's gain.

    Games are the units: a game gives one pair per company its roll allowed, so the interval is
    computed over the games' summed gains (``intervals.mean_over_games``).
    """
    parts = [(str(t), g) for t, g in pairs.groupby("turn", sort=True)] + [("all", pairs)]
    rows = {}
    for name, g in parts:
        mean, low, high = intervals.mean_over_games(g["gain"], g["game"])
        rows[name] = {
            "pairs": len(g),
            "gain": mean,
            "low": low,
            "high": high,
            "sd": float(g["gain"].std(ddof=1)),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "turn"
    return out


def buy_table(summary: pd.DataFrame) -> pd.DataFrame:
    """``buy_by_turn`` as a table that fits a notebook column: ``gain`` written with its 95%
    interval, the other means rounded to cents.

    >>> row = pd.DataFrame([{"turn": 1, "company": "red", "pairs": 365, "gain": -0.05,
    ...     "gain_low": -2.56, "gain_high": 2.47, "dividends_gain": -1.734, "spent_gain": -1.68}])
    >>> buy_table(row).iloc[0].astype(str).tolist()
    ['1', 'red', '365', '-0.05 (-2.56 to 2.47)', '-1.73', '-1.68']
    """
    gain = summary.apply(lambda r: f"{r.gain:.2f} ({r.gain_low:.2f} to {r.gain_high:.2f})", axis=1)
    table = summary[["turn", "company", "pairs"]].assign(gain=gain)
    for column in ("dividends_gain", "spent_gain"):
        table[column] = summary[column].round(2)
    return table


# --- analyse this position ------------------------------------------------------------------------


POLICIES = ("dividend", "random")
"""Who plays every seat after the action: ``DividendBot`` or uniformly random legal actions."""

ENGINES = ("auto", "readable")
"""Where the rollouts are played: the batch simulator or the readable engine."""

TREASURY_WEIGHT = 0.5
"""The part of a seat's stake in a treasury its worth counts (as ``MonteCarloBot``'s default)."""


def analyse_position(
    table: GameState | PlayerView,
    seat: int | None = None,
    rollouts: int = 24,
    policy: str = "dividend",
    seed: int = 0,
    horizon: int = 6,
    engine: str = "auto",
) -> pd.DataFrame:
    """What each legal action of the seat to move is worth to ``seat``, by playing it out.

    For ``rollouts`` futures of the dice (``determinize``: the table as ``seat`` sees it, new
    rolls from a seed), every legal action is played on the same future (common random
    numbers) and then every seat by ``policy`` for ``horizon`` more turns. ``seat`` defaults
    to the seat to move. ``engine="auto"`` plays the rollouts in the batch simulator
    (``fast.play_after``; with the dividend policy it ends every rollout in the readable
    engine's table, so the figures are the same), ``"readable"`` in the readable engine.

    One row per legal action, in ``legal_actions()`` order: ``action`` (its button text),
    ``mean_score`` (the seat's worth after the rollouts, see the module docstring) with a 95%
    interval (``score_low``, ``score_high``: mean +- 1.96 standard errors), ``win_chance``
    (highest worth, shared wins count) with a 95% Wilson interval (``win_low``,
    ``win_high``) and ``rollouts``.
    """
    if table.is_over:
        raise ValueError("the game is over: there is no decision left to analyse")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(map(repr, POLICIES))}, got {policy!r}")
    for name, value in (("rollouts", rollouts), ("horizon", horizon)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    n = len(table.money)
    seat = table.current if seat is None else seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat number from 0 to {n - 1}, got {seat!r}")
    view = table.view(seat) if isinstance(table, GameState) else table._replace(seat=seat)
    rng = random.Random(seed)
    futures = [determinize(view, rng) for _ in range(rollouts)]
    legal = futures[0].legal_actions()
    factory = bot_factory(policy)
    labels = [action_label(futures[0], a) for a in legal]
    if engine == "auto":
        from mogul.games.credit_mobilier import fast  # compiled code: loaded when first needed

        tables = fast.play_after(futures, legal, view.turn + horizon, factory, seed)
        worths = fast.worths(tables, TREASURY_WEIGHT)  # rollouts x actions x seats
        best = worths.max(axis=-1)
        sharing = (worths == best[..., None]).sum(axis=-1)
        own = worths[..., seat]
        return action_values(labels, own, np.where(own == best, 1 / sharing, 0.0))
    own = np.zeros((rollouts, len(legal)))
    won = np.zeros((rollouts, len(legal)))
    last = view.turn + horizon  # each rollout stops as this turn begins
    for r, future in enumerate(futures):
        for i, action in enumerate(legal):
            bots = [factory(future.setup.seed + s) for s in range(n)]
            end = play_out(future.apply(action), bots, until=lambda s: s.turn >= last)
            worths = [worth(end, s, TREASURY_WEIGHT) for s in range(n)]
            best = max(worths)
            own[r, i] = worths[seat]
            won[r, i] = 1 / worths.count(best) if worths[seat] == best else 0.0
    return action_values(labels, own, won)
