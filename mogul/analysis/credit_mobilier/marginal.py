"""One more share in paired games: its marginal value (``marginal_values``), and one share
bought instead of the bot's move (``buy_instead``), each over games that share their dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from mogul.analysis import intervals
from mogul.analysis.credit_mobilier.share_values import company_order, mean_interval
from mogul.games.credit_mobilier.actions import END, Buy
from mogul.games.credit_mobilier.bots import bot_factory
from mogul.games.credit_mobilier.components import COMPANIES, components
from mogul.games.credit_mobilier.events import DividendsPaid
from mogul.games.credit_mobilier.rules import STOCK_PRICE, GameState, next_roll
from mogul.games.credit_mobilier.setup import new_game
from mogul.kit.bots import BotFactory, BotSpec, play_states
from mogul.kit.checks import is_whole

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


def _check_turns(turns: Sequence[int]) -> None:
    if not turns or not all(is_whole(t) and t >= 1 for t in turns):
        raise ValueError(f"turns must be whole numbers from 1 on, got {list(turns)!r}")


def _deterministic(make: BotFactory, analysis: str) -> BotFactory:
    """``make`` if its bots choose from what they see alone, else a ``ValueError``."""
    if getattr(make(0), "traits", {}).get("stochastic", True):
        raise ValueError(
            f"{analysis} pairs games by their dice alone, so it needs bots whose choices are "
            f"not random (traits['stochastic'] false, as 'dividend'); got {make(0)!r}"
        )
    return make


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
    _check_turns(turns)
    factories = [_deterministic(bot_factory(spec), "marginal_values") for spec in specs]
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
    return out.sort_values(["turn", "company"], key=company_order, kind="stable", ignore_index=True)


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
    if not (isinstance(bots, str | BotFactory) or callable(bots)):
        raise ValueError(f"buy_instead plays one bot in every seat; got {bots!r}")
    make = _deterministic(bot_factory(bots), "buy_instead")
    _check_turns(turns)
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
    return out.sort_values(["turn", "company"], key=company_order, kind="stable", ignore_index=True)


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
