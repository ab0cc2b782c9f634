"""Mogul's widgets: ``GamePlayer`` (``player``), ``ShareValueDashboard`` (``dashboard``) and
``PositionAnalysis`` (``analysis``)."""

from mogul.widgets.mogul.analysis import PositionAnalysis
from mogul.widgets.mogul.dashboard import ShareValueDashboard
from mogul.widgets.mogul.player import GamePlayer

__all__ = ["GamePlayer", "PositionAnalysis", "ShareValueDashboard"]
