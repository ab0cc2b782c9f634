"""Colours the whole kit shares: one per seat, and how to write text on a coloured box.

Seat colours mark players (a border in the table, lines and markers in charts). They are
chosen away from the colours of the games' companies (brown, green, yellow, blue, pink), so
a player's line never reads as a company: ``tests/test_figures_layout.py`` checks the distance.
"""

from __future__ import annotations

from functools import cache

SEAT_COLOURS = (
    "#6a3d9a",  # purple
    "#e4570e",  # orange
    "#00a6b6",  # teal
    "#333333",  # charcoal
    "#c0143c",  # crimson
    "#8c8c8c",  # grey
    "#9e7bd0",  # lavender
    "#4d4d00",  # olive
)
"""One colour per seat (players, bots, entrants), none of them a company's colour."""

DARK_TEXT = "#1a1a1a"
LIGHT_TEXT = "#ffffff"


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """The WCAG 2 relative luminance of a ``#rrggbb`` colour (0 black .. 1 white)."""
    text = colour.lstrip("#")
    r, g, b = (int(text[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast_ratio(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two colours (1 .. 21; text needs 4.5 for level AA)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@cache  # a page draws the same few colours for every seat's view, on every move
def text_colour(background: str) -> str:
    """Dark or white text, whichever reads better on ``background``."""
    dark, light = contrast_ratio(background, DARK_TEXT), contrast_ratio(background, LIGHT_TEXT)
    return DARK_TEXT if dark >= light else LIGHT_TEXT


@cache
def readable_fill(colour: str, ratio: float = 4.5) -> str:
    """``colour``, darkened just enough that white or dark text on it reaches ``ratio``."""
    text = colour.lstrip("#")
    rgb = [int(text[i : i + 2], 16) for i in (0, 2, 4)]
    fill = colour
    for _ in range(40):
        fill = "#" + "".join(f"{c:02x}" for c in rgb)
        if contrast_ratio(fill, text_colour(fill)) >= ratio:
            break
        rgb = [round(c * 0.95) for c in rgb]
    return fill
