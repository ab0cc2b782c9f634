"""ipywidgets apps built from the kit's pieces (no rules inside).

``GamePlayer`` and ``GameTable`` (``player``), ``ShareValueDashboard`` (``dashboard``) and
``AuctionExplorer`` (``auction``).
"""

from mogul.widgets.auction import AuctionExplorer
from mogul.widgets.dashboard import ShareValueDashboard
from mogul.widgets.player import GamePlayer, GameTable

__all__ = ["AuctionExplorer", "GamePlayer", "GameTable", "ShareValueDashboard"]
