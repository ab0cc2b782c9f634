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

The functions are pure: tables in, tidy frames out (``marginal_values`` plays its games).
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
from mogul.games.credit_mobilier.bots import bot_factory, worth
from mogul.games.credit_mobilier.components import COMPANIES, components
from mogul.games.credit_mobilier.determinize import determinize
from mogul.games.credit_mobilier.display import action_label
from mogul.games.credit_mobilier.events import DividendsPaid
from mogul.games.credit_mobilier.rules import STOCK_PRICE, GameState, PlayerView
from mogul.games.credit_mobilier.setup import new_game
from mogul.kit.bots import BotFactory, BotSpec, play_out, play_states

__all__ = [
    "analyse_position",
    "by_turn",
    "marginal_by_turn",
    "marginal_table",
    "marginal_values",
    "mean_interval",
    "reversed_ties",
    "round_payouts",
    "share_values",
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


def mean_interval(sample: Sequence[float] | pd.Series) -> dict[str, float]:
    """The mean of ``sample`` with its normal 95% interval: ``mean``, ``low``, ``high``, ``n``.

    >>> mean_interval([1, 2, 3, 4])
    {'mean': 2.5, 'low': 1.2348, 'high': 3.7652, 'n': 4}
    """
    values = pd.Series(sample, dtype=float).dropna()
    mean, low, high = intervals.mean_interval(values)
    return {"mean": mean, "low": low, "high": high, "n": len(values)}


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
    ``others_gain`` (means); ``worth_buying``: "yes" when the value's interval lies above the
    $1 price, "no" when below, "can't tell" when it holds $1.
    """
    rows = []
    for (turn, company), g in pairs.groupby(["turn", "company"], sort=False):
        value = mean_interval(g["value"])
        average = mean_interval(g["average"])
        gap = mean_interval(g["value"] - g["average"])
        if value["low"] > STOCK_PRICE:
            verdict = "yes"
        elif value["high"] < STOCK_PRICE:
            verdict = "no"
        else:
            verdict = "can't tell"
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
                "worth_buying": verdict,
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
    ...     "worth_buying": "can't tell"}])
    >>> marginal_table(row).iloc[0].astype(str).tolist()
    ['1', 'red', '0.40 (-2.60 to 3.50)', '6.57', '-0.63', '-1.61', "can't tell"]
    """
    value = marginal.apply(
        lambda r: f"{r.value:.2f} ({r.value_low:.2f} to {r.value_high:.2f})", axis=1
    )
    table = marginal[["turn", "company"]].assign(value=value)
    for column in ("average", "dividends_gain", "others_gain"):
        table[column] = marginal[column].round(2)
    table["worth_buying"] = marginal["worth_buying"]
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
