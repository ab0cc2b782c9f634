"""Credit Mobilier drawn: the board, the dice, and charts of treasuries, dividends and stock.

* ``board_figure(state, highlight)``: the goods squares (rows A-D north to south, columns 1-6
  west to east), the Pacific Coast to the west, every track space (free ones dotted, built
  ones in their railroad's colour), the goods pawns, and the actions in ``highlight`` (legal
  builds as dashed sections, legal moves as arrows).
* ``dice_html(state)``: the five dice of the player on turn; dice the turn has used are grey,
  dice that do not count for the turn's colour and kind are faded.
* ``treasuries_figure``, ``dividends_figure``, ``stock_figure``: one game's tables
  (``record.table("treasuries")`` ...) as charts; ``dividends_to_come_figure``: the simulated
  study of ``mogul.analysis.credit_mobilier``.

Companies are drawn in their screen colours from ``data/credit-mobilier/components.json``
and named by their colour words, as on the buttons and in the log. The board's trace list is
fixed (``BOARD_TRACES``), so a live figure can be updated in place (``board_data``).
"""

from mogul.plots.credit_mobilier.board import (
    BOARD_TRACES,
    board_data,
    board_figure,
    board_title,
    company_colours,
    dice_faces,
    dice_html,
)
from mogul.plots.credit_mobilier.charts import (
    dividends_figure,
    dividends_to_come_figure,
    marginal_value_figure,
    stock_figure,
    treasuries_figure,
)

__all__ = [
    "BOARD_TRACES",
    "board_data",
    "board_figure",
    "board_title",
    "company_colours",
    "dice_faces",
    "dice_html",
    "dividends_figure",
    "dividends_to_come_figure",
    "marginal_value_figure",
    "stock_figure",
    "treasuries_figure",
]
