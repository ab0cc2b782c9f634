"""Mogul as the generic layer sees it: one ``GameSpec`` for both editions, registered as "mogul"."""

from __future__ import annotations

from mogul.games.mogul.actions import parse_action
from mogul.games.mogul.bots import REGISTRY
from mogul.games.mogul.determinize import determinize
from mogul.games.mogul.display import action_label, table_html
from mogul.games.mogul.editions import EDITION_FILES, edition
from mogul.games.mogul.rules import GameState, Setup, standings
from mogul.games.mogul.setup import deal, new_game, setup_from_json, setup_to_json
from mogul.games.mogul.tables import RESULT_COLUMNS, auction_rows, result_row, round_rows
from mogul.kit.spec import GameSpec, register


def _player_range(name: str) -> tuple[int, int]:
    ed = edition(name)
    return ed.min_players, ed.max_players


def _deal(setup: Setup) -> GameState:
    return deal(edition(setup.edition), setup)


_EDITIONS = tuple(dict.fromkeys(edition(name).name for name in EDITION_FILES))

SPEC = register(
    GameSpec(
        name="mogul",
        title="Mogul (Michael Schacht)",
        editions=_EDITIONS,
        aliases={alias: edition(alias).name for alias in EDITION_FILES if alias not in _EDITIONS},
        state_type=GameState,
        player_range=_player_range,
        new_game=new_game,
        deal=_deal,
        setup_to_json=setup_to_json,
        setup_from_json=setup_from_json,
        parse_action=parse_action,
        bots=REGISTRY,
        result_columns=RESULT_COLUMNS,
        result_row=result_row,
        standings=standings,
        table_html=table_html,
        action_label=action_label,
        tables={"rounds": round_rows, "auctions": auction_rows},
        determinize=determinize,
        batch="mogul.games.mogul.fast_batch:batch_engine",
        faces={
            "player": "mogul.widgets.mogul:GamePlayer",
            "board": "mogul.plots.mogul.board:board_figure",
            "analyse_position": "mogul.analysis.mogul:analyse_position",
            "analysis": "mogul.analysis.mogul:",
        },
    )
)
"""The Mogul game spec (editions "classic" and "rio-grande")."""
