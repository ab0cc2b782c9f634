"""ipywidgets apps built from the kit's pieces (no rules inside).

``GamePlayer`` and ``GameTable`` (``player``), ``ShareValueDashboard`` (``dashboard``) and
``AuctionExplorer`` (``auction``), ``PositionAnalysis`` (``analysis``);
``CreditMobilierPlayer`` (``credit_mobilier``).
"""

import gc

from mogul.widgets.analysis import PositionAnalysis
from mogul.widgets.auction import AuctionExplorer
from mogul.widgets.credit_mobilier import CreditMobilierPlayer
from mogul.widgets.dashboard import ShareValueDashboard
from mogul.widgets.player import GamePlayer, GameTable

__all__ = ["AuctionExplorer", "CreditMobilierPlayer", "GamePlayer", "GameTable", "PositionAnalysis", "ShareValueDashboard"]

# An app answers clicks and slider moves; a full garbage collection walks every object in
# the kernel (over 200,000 once pandas, plotly and ipywidgets are loaded) and took 110 ms in
# the middle of an update. The modules loaded by now live as long as the kernel, so they are
# moved out of the collector's way once, after clearing what is already garbage.
gc.collect()
gc.freeze()
