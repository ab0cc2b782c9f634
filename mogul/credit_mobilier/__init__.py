"""Credit Mobilier (Max Michael): the companion dice-and-railroad game, as a user imports it.

    >>> from mogul import credit_mobilier as cm
    >>> s = cm.new_game(players=3, seed=7)
    >>> s.names[s.current_player], s.dice
    ('Ann', ('red', 'green', 'blue', 'purple', 'orange'))
    >>> s = s.apply(cm.Buy("green"))     # green dice + the purple wild: two green actions
    >>> s.stocks[0], s.money[0], s.legal_actions()
    (ByCompany(green=1, purple=1), 2, [Buy(company='green'), EndTurn()])

The same contract as Mogul: immutable states, ``legal_actions()``, ``apply()``, ``is_over``,
``final_scores()`` (cash), ``winners()``. The engine is ``mogul.games.credit_mobilier``; this
package re-exports its public names, and ``new_game`` is ``mogul.new_game`` for this game.
"""

from collections.abc import Sequence
from typing import Any

from mogul import games as _games  # noqa: F401 - registers the games
from mogul.games.credit_mobilier.actions import (
    END,
    Action,
    Build,
    Buy,
    EndTurn,
    Move,
    PayRound,
    parse_action,
)
from mogul.games.credit_mobilier.board import COAST, Board, board
from mogul.games.credit_mobilier.bots import REGISTRY, DividendBot, MonteCarloBot
from mogul.games.credit_mobilier.components import (
    COMPANIES,
    CREDIT_MOBILIER,
    RAILROADS,
    components,
)
from mogul.games.credit_mobilier.determinize import determinize
from mogul.games.credit_mobilier.dice import allowance
from mogul.games.credit_mobilier.rules import (
    ByCompany,
    GameState,
    PlayerView,
    Setup,
    legal_actions,
    pay_round,
)
from mogul.games.credit_mobilier.spec import SPEC
from mogul.games.credit_mobilier.tables import (
    dividends_table,
    holdings_table,
    treasuries_table,
    turns_table,
)
from mogul.kit.bots import RandomBot
from mogul.kit.contract import IllegalActionError
from mogul.kit.spec import new_game as _new_game


def new_game(
    players: int | Sequence[str] | None = None, seed: int | None = None, **setup: Any
) -> GameState:
    """``mogul.new_game("credit-mobilier", players, seed, **setup)``: the same call, this game."""
    return _new_game("credit-mobilier", players, seed, **setup)


__all__ = [
    "COAST",
    "COMPANIES",
    "CREDIT_MOBILIER",
    "END",
    "RAILROADS",
    "REGISTRY",
    "SPEC",
    "Action",
    "Board",
    "Build",
    "Buy",
    "ByCompany",
    "DividendBot",
    "EndTurn",
    "GameState",
    "IllegalActionError",
    "MonteCarloBot",
    "Move",
    "PayRound",
    "PlayerView",
    "RandomBot",
    "Setup",
    "allowance",
    "board",
    "components",
    "determinize",
    "dividends_table",
    "holdings_table",
    "legal_actions",
    "new_game",
    "parse_action",
    "pay_round",
    "treasuries_table",
    "turns_table",
]
