"""Every chart of the kit labels itself: a layout check of every figure builder.

No clipped tick labels or titles (automargin, short title lines), legends along the bottom
(never squeezing the plot's width), markers at an axis not clipped, axis titles in words,
and player colours never used for companies (nor the reverse). The colours of the table
badges pass WCAG AA for text. ``tests/figure_cases.py`` builds the figures.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go
import pytest
from figure_cases import BUILDERS, FIGURES

import mogul
import mogul.plots
from mogul.games.mogul.display import badge_colours, card_html
from mogul.kit.colours import SEAT_COLOURS, contrast_ratio
from mogul.plots.template import KIT_TEMPLATE

CLASSIC = mogul.edition("classic")
COMPANY_COLOURS = {c.colour.lower(): c.id for c in CLASSIC.companies}
TITLE_LINE = 46  # characters of a title line that fit a phone (390 px) at the kit's font size


def case(name: str):
    return pytest.param(name, id=name)


def axes(fig: go.Figure) -> list[str]:
    return [k for k in fig.layout.to_plotly_json() if re.fullmatch(r"[xy]axis\d*", k)] or [
        "xaxis",
        "yaxis",
    ]


def resolved(fig: go.Figure, path: str):
    """A layout property as plotly will use it: the figure's own value, else the template's."""
    value = fig.layout
    for part in path.split("."):
        value = getattr(value, part, None)
    if value is None:
        value = fig.layout.template.layout
        for part in re.sub(r"([xy]axis)\d+", r"\1", path).split("."):
            value = getattr(value, part, None)
    return value


def legends(fig: go.Figure) -> list[str]:
    return [k for k in fig.layout.to_plotly_json() if re.fullmatch(r"legend\d*", k)] or ["legend"]


def shown_in_legend(fig: go.Figure) -> list:
    if fig.layout.showlegend is False:
        return []
    return [t for t in fig.data if t.showlegend is not False and t.name]


def trace_colour(trace) -> str | None:
    for colour in (
        getattr(getattr(trace, "line", None), "color", None),
        getattr(trace.marker, "color", None),
    ):
        if isinstance(colour, str):
            return colour.lower()
    return None


def test_every_figure_builder_has_a_case():
    import mogul.plots.credit_mobilier
    import mogul.plots.mogul.board
    import mogul.plots.mogul.game

    modules = (
        mogul.plots,
        mogul.plots.mogul.board,
        mogul.plots.mogul.game,
        mogul.plots.credit_mobilier,
    )
    builders = {
        name
        for module in modules
        for name in getattr(module, "__all__", dir(module))
        if name.endswith("_figure")
    }
    assert builders == set(BUILDERS.values())
    assert set(BUILDERS) <= set(FIGURES)


@pytest.mark.parametrize("name", [case(n) for n in FIGURES])
def test_figure_labels_itself(name):
    fig = FIGURES[name]()
    assert fig.layout.template == KIT_TEMPLATE
    # tick labels and axis titles push the margins instead of being clipped
    for axis in axes(fig):
        assert resolved(fig, f"{axis}.automargin") is True, f"{axis} of {name} has no automargin"
        title = fig.layout[axis].title.text or ""
        assert not re.search(r"//|_|\*\*|\bmod\b", title), (
            f"axis title in code, not words: {title!r}"
        )
    assert resolved(fig, "title.automargin") is True
    for line in (fig.layout.title.text or "").split("<br>"):
        assert len(line) <= TITLE_LINE, f"title line too long for a phone: {line!r}"
    # legends run along the bottom, so they never take half the plot's width
    if shown_in_legend(fig):
        for legend in legends(fig):
            assert resolved(fig, f"{legend}.orientation") == "h", f"{legend} of {name} is vertical"
    # markers at y = 0 (or on any axis) are drawn whole
    for trace in fig.data:
        if trace.type == "scatter" and "markers" in (trace.mode or "lines+markers"):
            assert trace.cliponaxis is False, (
                f"{name}: markers of {trace.name!r} are clipped at the axes"
            )


@pytest.mark.parametrize("name", [case(n) for n in FIGURES])
def test_data_lies_inside_a_fixed_axis_range(name):
    # a range the figure fixes must hold its data: markers are drawn whole at the axes
    # (cliponaxis off), so a point past the range is drawn outside the chart (02's payoff
    # curves ran to k = 9 on an axis cut at 8.5)
    fig = FIGURES[name]()
    for trace in fig.data:
        for letter in "xy":
            ref = getattr(trace, f"{letter}axis", None) or letter
            axis = fig.layout[f"{letter}axis{ref[1:]}"]
            values = getattr(trace, letter, None)
            if axis.range is None or values is None or axis.type not in (None, "linear", "-"):
                continue
            numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
            low, high = sorted(axis.range)
            outside = [v for v in numbers if not low <= v <= high]
            assert not outside, f"{trace.name}: {letter} {outside} outside {axis.range}"


@pytest.mark.parametrize("name", [case(n) for n in FIGURES])
def test_player_colours_are_never_company_colours(name):
    fig = FIGURES[name]()
    for trace in shown_in_legend(fig):
        colour = trace_colour(trace)
        company = COMPANY_COLOURS.get(colour or "")
        if company is not None:  # a company's colour: the legend entry names that company
            assert str(trace.name).split(":")[0] == company, (
                f"{name}: {trace.name!r} drawn in {company}'s colour"
            )
        if colour in {c.lower() for c in SEAT_COLOURS}:  # a player's colour: never a company
            assert str(trace.name).split(":")[0] not in CLASSIC.company_ids, (
                f"{name}: company {trace.name!r} in a seat colour"
            )


def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour (D65)."""
    rgb = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


@pytest.mark.parametrize("seat_colour", SEAT_COLOURS)
def test_seat_colours_are_far_from_every_company_colour(seat_colour):
    for company in CLASSIC.companies:
        distance = (
            sum((a - b) ** 2 for a, b in zip(_lab(seat_colour), _lab(company.colour), strict=True))
            ** 0.5
        )
        assert distance > 25, f"{seat_colour} looks like {company.id} (delta E {distance:.0f})"


@pytest.mark.parametrize("company", [c.id for c in CLASSIC.companies])
@pytest.mark.parametrize("faded", [False, True])
def test_badges_and_cards_pass_wcag_aa(company, faded):
    fill, ink = badge_colours(CLASSIC.company(company).colour, faded)
    assert contrast_ratio(fill, ink) >= 4.5
    card = card_html(CLASSIC, mogul.Card(company, "brown"))
    background, colour = re.search(r"background:(#\w+);color:(#\w+)", card).groups()
    assert contrast_ratio(background, colour) >= 4.5


def test_contrast_ratio_matches_wcag_examples():
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
