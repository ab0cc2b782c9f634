"""Colours the whole kit shares: one per seat, for tables, buttons and charts alike."""

SEAT_COLOURS = (
    "#8c564b",
    "#2ca02c",
    "#d4a017",
    "#1f77b4",
    "#e377c2",
    "#7f7f7f",
    "#17becf",
    "#bcbd22",
)
"""One colour per seat: the five Mogul companies (brown, green, yellow, blue, pink), then greys."""
