"""Mogul's analyses: share-value dynamics (when the crash comes, what a share still earns, hold or
sell; ``share_values``), "analyse this position" (``position``), the 2013 sell right and the two
editions (``sell_right``, ``comparisons``). Everything is re-exported here.

The model
---------
A player sees the table but not the order of the draw pile: only which shares are still in it
(``unseen``, ``U`` cards) and how many cards are left (``L = U + 1``, the crash included).
The crash card was shuffled into the last cards of the pile, so at setup it lies uniformly in
the last ``W = crash_shuffled_into_last + 1`` positions (classic: 5). Knowing only that it has
not come up yet, it is uniform over the last ``w = min(W, L)`` cards still in the pile (Bayes:
each window position still in the pile keeps its prior weight ``1/W``). The shares were
shuffled on their own, so their order is uniform and independent of where the crash lies.

From these two facts everything below is exact:

* the crash is card ``k`` of the pile (``k = 1`` is the next card) with chance ``1/w`` for
  ``k > L - w``, else 0; if the game reaches card ``k`` the chance that it is the crash (the
  *hazard*) is ``1 / (L - k + 1)`` inside the window: 1/5, 1/4, 1/3, 1/2, 1 in the classic game;
* the number ``R`` of shares still revealed before the crash is uniform on ``L - w .. L - 1``,
  so ``E[R] = L - (w + 1) / 2``;
* given ``R``, the revealed shares are a uniformly random ``R``-subset of the unseen ones, so a
  company with ``n_c`` unseen shares comes up ``E[R] * n_c / U`` more times on average. Each
  time, every share of it pays one point: that is a held share's **expected premiums to come**
  (linearity of expectation; no independence between companies is needed).

A sale pays the market value now (the shares of that colour held by all players). *Holding to
the crash* earns the premiums to come; selling later needs the sell right again, i.e. another
card with that border colour before the crash (``next_sale_chance``) and winning it or coming
second. ``hold_or_sell`` compares selling now with holding to the crash, which is what holding
is worth if no second chance to sell comes.

The last section weighs the 2013 edition's sell right (sell all, or found a branch) in end
points (``sell_right_options``, ``sell_right_uses``, ``sell_right_by_fill``) and compares the
two editions over simulated games (``compare_editions``, ``edition_summary``); what the
differences are made of, each with its interval, is in ``comparisons`` (re-exported here).
"""

from mogul.analysis.intervals import Z95, interval_table, mean_interval
from mogul.analysis.mogul.comparisons import (
    SCORE_PARTS,
    chose_the_better,
    edition_comparison,
    length_parts,
    model_check,
    score_gap,
    sell_nothing,
)
from mogul.analysis.mogul.position import analyse_position
from mogul.analysis.mogul.sell_right import (
    SELL_RIGHT_COLUMNS,
    compare_editions,
    edition_summary,
    fill_table,
    play_games,
    sell_right_by_fill,
    sell_right_options,
    sell_right_table,
    sell_right_uses,
    use_share_table,
    use_shares,
    uses_from_auctions,
)
from mogul.analysis.mogul.share_values import (
    Table,
    by_round,
    crash_hazard,
    crossing_rounds,
    game_share_values,
    hold_or_sell,
    next_sale_chance,
    share_values,
)
from mogul.games.mogul.pile import (
    crash_window,
    expected_premiums,
    expected_reveals,
    next_crash_chance,
    reveal_distribution,
)

__all__ = [
    "Table",
    "Z95",
    "analyse_position",
    "SCORE_PARTS",
    "SELL_RIGHT_COLUMNS",
    "by_round",
    "chose_the_better",
    "compare_editions",
    "edition_comparison",
    "length_parts",
    "mean_interval",
    "score_gap",
    "sell_nothing",
    "crash_hazard",
    "crossing_rounds",
    "crash_window",
    "edition_summary",
    "fill_table",
    "expected_premiums",
    "expected_reveals",
    "game_share_values",
    "hold_or_sell",
    "interval_table",
    "model_check",
    "next_crash_chance",
    "next_sale_chance",
    "play_games",
    "reveal_distribution",
    "sell_right_by_fill",
    "sell_right_options",
    "sell_right_table",
    "sell_right_uses",
    "share_values",
    "use_share_table",
    "use_shares",
    "uses_from_auctions",
]
