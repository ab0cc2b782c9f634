"""Credit Mobilier as the generic layer sees it: one ``GameSpec``, registered as "credit-mobilier"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mogul.games.credit_mobilier.actions import parse_action
from mogul.games.credit_mobilier.bots import REGISTRY
from mogul.games.credit_mobilier.components import components
from mogul.games.credit_mobilier.determinize import determinize
from mogul.games.credit_mobilier.display import action_label, table_html
from mogul.games.credit_mobilier.rules import GameState, standings
from mogul.games.credit_mobilier.setup import (
    EDITION,
    deal,
    new_game,
    setup_from_json,
    setup_to_json,
)
from mogul.games.credit_mobilier.tables import RESULT_COLUMNS, TABLES, result_row
from mogul.kit.spec import GameSpec, register


def _new_game(
    edition: str = EDITION, players: int | Sequence[str] = 4, seed: int | None = None, **setup: Any
) -> GameState:
    SPEC.edition(edition)  # raises for another edition's name
    return new_game(players, seed, **setup)


SPEC = register(
    GameSpec(
        name="credit-mobilier",
        title="Credit Mobilier (Max Michael)",
        state_type=GameState,
        player_range=(components().min_players, components().max_players),
        new_game=_new_game,
        deal=deal,
        setup_to_json=setup_to_json,
        setup_from_json=setup_from_json,
        parse_action=parse_action,
        bots=REGISTRY,
        result_columns=RESULT_COLUMNS,
        result_row=result_row,
        standings=standings,
        table_html=table_html,
        action_label=action_label,
        tables=TABLES,
        determinize=determinize,
        batch="mogul.games.credit_mobilier.fast:batch_engine",
        faces={
            "player": "mogul.widgets.credit_mobilier:CreditMobilierPlayer",
            "board": "mogul.plots.credit_mobilier:board_figure",
            "analyse_position": "mogul.analysis.credit_mobilier:analyse_position",
            "analysis": "mogul.analysis.credit_mobilier:",
        },
    )
)
"""The Credit Mobilier game spec (one edition, "credit-mobilier")."""
