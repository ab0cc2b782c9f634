"""Mogul's board as one figure: the game's ``board`` face (``GameSpec.faces``).

An edition with a railway map (2013) shows the map with the houses (``network_figure``);
the classic game has no board beyond the cards in front of each player, so its board is
the shares each player holds, stacked by company, with the card on offer named.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from mogul.plots.mogul.network import network_figure
from mogul.plots.template import KIT_TEMPLATE


def board_figure(state: Any, height: int = 320) -> go.Figure:
    """The table of ``state`` as a figure: the map (2013) or the shares in front of each player."""
    ed = state.edition
    if getattr(ed, "stations", None):
        return network_figure(state, height=max(height, 420))
    names = list(state.names)
    fig = go.Figure()
    for company in ed.company_ids:
        fig.add_bar(
            x=names,
            y=[p.shares[company] for p in state.players],
            name=company,
            marker={"color": ed.colours()[company]},
            hovertemplate=f"%{{x}}: %{{y}} {company} ({ed.company(company).name})<extra></extra>",
        )
    offer = f", round {state.round}: {state.revealed}" if state.revealed is not None else ""
    fig.update_layout(
        template=KIT_TEMPLATE,
        barmode="stack",
        title=f"Shares held{offer}",
        xaxis_title="player",
        yaxis_title="shares held",
        height=height,
    )
    return fig
