"""What every player knows about the draw pile: where the crash can be, what is still to come.

A player sees which shares are still in the pile (``unseen``, ``U`` cards) and how many cards
are left (``cards_left = L``, the crash card included), never their order. The crash card was
shuffled into the last cards of the pile, so at setup it lies uniformly in the last
``W = crash_shuffled_into_last + 1`` positions (classic: 5). Knowing only that it has not come
up yet, it is uniform over the last ``w = min(W, L)`` cards still in the pile. The shares were
shuffled on their own, so their order is uniform and independent of where the crash lies.
``mogul.analysis`` builds the share-value analysis on these facts.

The functions take anything that shows the table: a ``GameState`` or a seat's ``PlayerView``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any


def cards_to_come(table: Any) -> int:
    """Cards left in the pile, the crash included; 0 once the crash has come."""
    return 0 if table.is_over else table.cards_left


def crash_window(table: Any) -> int:
    """How many of the remaining cards may be the crash: ``min(W, cards left)``."""
    return min(table.edition.crash_shuffled_into_last + 1, cards_to_come(table))


def next_crash_chance(table: Any) -> float:
    """Chance that the next card is the crash: 0 until the pile is down to the last ``W``
    cards, then ``1 / L``: 1/5, 1/4, 1/3, 1/2, 1 in the classic game."""
    left = cards_to_come(table)
    return 1 / left if 0 < left <= crash_window(table) else 0.0


def reveal_distribution(table: Any) -> dict[int, float]:
    """Chance of each number of shares still revealed before the crash (uniform on ``L-w..L-1``)."""
    left, w = cards_to_come(table), crash_window(table)
    if left == 0:
        return {0: 1.0}
    return {r: 1 / w for r in range(left - w, left)}


def expected_reveals(table: Any) -> float:
    """Expected number of shares still revealed before the crash: ``L - (w + 1) / 2``."""
    left = cards_to_come(table)
    return left - (crash_window(table) + 1) / 2 if left else 0.0


def premium_outlook(table: Any, company: str) -> float:
    """Premiums one share of ``company`` is still expected to earn before the crash.

    Every unseen share is equally likely to be among those revealed before the crash, so the
    company comes up ``E[R] * n_c / U`` more times on average (``n_c`` of its shares among the
    ``U`` unseen), paying one point per share each time. The revealed card's premiums are
    already paid, so they do not count.
    """
    unseen = table.unseen
    if not unseen:
        return 0.0
    # ``unseen`` is sorted by company, so the company's shares sit together: find their span.
    count = bisect_right(unseen, (company, "\uffff")) - bisect_left(unseen, (company,))
    return count * expected_reveals(table) / len(unseen)


def expected_premiums(table: Any) -> dict[str, float]:
    """``premium_outlook`` for every company, in the edition's company order."""
    return {company: premium_outlook(table, company) for company in table.edition.company_ids}
