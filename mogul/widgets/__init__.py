"""ipywidgets apps built from the kit's pieces (no rules inside)."""

from mogul.widgets.auction import AuctionExplorer
from mogul.widgets.game import GamePlayer, GameTable, ShareValueDashboard

__all__ = ["AuctionExplorer", "GamePlayer", "GameTable", "ShareValueDashboard"]
