"""The auction lab's debrief on the lecturer's dashboard: notebook 09 on the live session.

``debrief(store, session)`` is the game's ``debrief`` face (``GameSpec.faces``): the hall's
dashboard calls it (in a worker thread, when the lecturer asks or rounds end) and draws what
it returns. It reads the session's finished rounds from the store (``rounds_table``, as
notebook 09 reads the sample's export) and shows what notebook 09 shows, made by the same
functions (``mogul.analysis.auction_lab``, ``mogul.plots.auction_lab``): the bids (or drop
points) against the values with the equilibrium drawn, overbidding in first-price sealed
bids, revenue and efficiency beside the theory's, the bids over the rounds. Intervals are
over students. Seats played by bots (the lecturer's "Bots per table") are not the class:
their bids are left out; revenue and efficiency are the rounds', every seat included.
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd

from mogul.analysis import auction_lab as lab
from mogul.analysis.intervals import interval_table, mean_interval
from mogul.classroom.auction_lab.sample import rounds_table
from mogul.games.auction_lab.rules import TITLES
from mogul.games.auction_lab.spec import SPEC
from mogul.plots import auction_lab as figures

__all__ = ["debrief", "theory_settings"]

NO_INTERVAL = "(one student: no interval)"
"""What a table cell says instead of an interval with one student (a mean of one)."""


def _section(title: str, text: str, figure: Any = None, *tables: pd.DataFrame) -> dict:
    """One part of the debrief as the dashboard draws it: a heading, sentences (HTML), tables
    (HTML) and a figure (plotly's JSON text), each optional."""
    cells = "".join(
        table.reset_index().to_html(border=0, classes="debrief-table", na_rep="", index=False)
        for table in tables
    )
    cells = cells.replace("(nan to nan)", NO_INTERVAL)
    return {
        "title": title,
        "html": text + cells,
        "figure": None if figure is None else figure.to_json(),
    }


def _many(count: int, thing: str) -> str:
    """``count`` and ``thing``, plural unless one: "1 table", "3 tables"."""
    return f"{count} {thing}{'s' if count != 1 else ''}"


def _students(count: int) -> str:
    return _many(count, "student")


def theory_settings(theory: pd.DataFrame) -> dict[str, tuple[int, str, int, int]]:
    """The settings each mechanism's equilibrium line is drawn for: (players, values, budget,
    second) of most of its rows (a class plays one setting; the rows' own equilibrium, in
    ``with_theory``, is each row's), in the mechanisms' order (``TITLES``)."""
    out = {}
    for mechanism in [m for m in TITLES if m in set(theory["mechanism"])]:
        rows = theory[theory["mechanism"] == mechanism]
        keys = list(
            zip(rows["players"], rows["values"], rows["budget"], rows["second"], strict=True)
        )
        out[mechanism] = pd.Series(keys).value_counts(sort=True).index[0]
    return out


def _human(store: Any, session: str, rounds: pd.DataFrame) -> pd.Series:
    """True for the rows of a seat a student sits at (not a bot the lecturer seated)."""
    people = {
        (info.code, s.seat) for info in store.tables(session) for s in info.seats if s.is_human
    }
    return pd.Series(
        [(c, s) in people for c, s in zip(rounds["code"], rounds["seat"], strict=True)],
        index=rounds.index,
    )


def _verdict(row: pd.Series) -> str:
    """A sentence on one mechanism's bids beside the equilibrium (``bids_against_values``)."""
    name, mean = TITLES.get(row["mechanism"], row["mechanism"]), row["excess"]
    low, high = row["excess low"], row["excess high"]
    said = f"{name}: {mean:+.2f} chips from the equilibrium on average"
    if pd.isna(low):
        return said + " (one student: no interval)."
    said += f" (95% interval {low:+.2f} to {high:+.2f} over {_students(int(row['students']))})"
    if low > 0:
        return said + ": the class bid above it."
    if high < 0:
        return said + ": the class bid below it."
    return said + ": not clearly different from it."


def debrief(store: Any, session: str) -> dict[str, Any]:
    """The session's debrief: ``{"summary": HTML, "sections": [{"title", "html", "figure"}]}``
    (``figure``: plotly's JSON text, or None). With no finished round yet, only a summary
    that says so."""
    tables = [i for i in store.tables(session) if i.game == SPEC.name]
    try:
        rounds = rounds_table(store, session)
    except ValueError:
        rounds = pd.DataFrame()
    if rounds.empty:
        where = f"at the session's {_many(len(tables), 'auction-lab table')}" if tables else ""
        return {
            "summary": f"No finished round yet {where}: the debrief starts when a round is over.",
            "sections": [],
        }
    theory = lab.with_theory(rounds)
    theory["human"] = _human(store, session, theory).to_numpy()
    # plotly reads a few HTML tags in its texts (a link, bold): a name is only a name there
    theory["student"] = theory["student"].map(html.escape)
    people = theory[theory["human"]]
    if people.empty:
        return {
            "summary": "Only bots have played a finished round so far: the debrief shows the "
            "students' bids, and comes when a student's round is over.",
            "sections": [],
        }
    mechanisms = [m for m in TITLES if m in set(people["mechanism"])]
    rounds_of = people.drop_duplicates(["code", "round"])["mechanism"].value_counts()
    played = ", ".join(f"{TITLES[m]} {rounds_of[m]}" for m in mechanisms)
    left_out = int((~theory["human"]).sum())
    summary = (
        f"{_students(people['student'].nunique())} at {_many(theory['code'].nunique(), 'table')}; "
        f"finished rounds: {played}. Every interval is a 95% interval over students (one "
        "mean per student first, then across students)."
        + (f" The {left_out} bids of bot seats are left out." if left_out else "")
    )
    sections = [_bids(people), *_overbidding(people), _revenue(theory), _learning(people)]
    return {"summary": summary, "sections": sections}


def _bids(people: pd.DataFrame) -> dict:
    settings = theory_settings(people)
    curves, notes = {}, []
    for mechanism, (players, values, budget, second) in settings.items():
        curves[mechanism] = lab.equilibrium_curve(mechanism, int(players), values, budget, second)
        line = f"{TITLES[mechanism]} ({players} bidders, values {values}, budget {budget})"
        if curves[mechanism]["equilibrium"].isna().all():
            line += (
                ": the kit has no equilibrium for these settings (its Mogul thresholds are "
                "computed for values uniform 0..10 and a budget of 10), so no line is drawn"
            )
        else:
            line += f": {lab.ASSUMPTIONS[mechanism]}"
        if people[people["mechanism"] == mechanism]["players"].nunique() > 1:
            line += "; the tables' group sizes differ, the line is the most common one's"
        notes.append(f"<li>{html.escape(line)}</li>")
    table = lab.bids_against_values(people)
    verdicts = "".join(f"<li>{html.escape(_verdict(row))}</li>" for _, row in table.iterrows())
    text = (
        "<p>Each marker is a student's bid (sealed bids) or drop point (English and Mogul's "
        "auction; the winner never dropped) against their value, bigger for more rounds on the "
        "same spot. Solid: the kit's equilibrium in whole chips; dashed: the textbook bid; "
        "dotted: the value itself.</p>"
        f"<ul>{''.join(notes)}</ul>" + (f"<ul>{verdicts}</ul>" if verdicts else "")
    )
    shown = [interval_table(table.set_index("mechanism"))] if len(table) else []
    return _section(
        "Bids against values", text, figures.bids_figure(people, curves, title=""), *shown
    )


def _overbidding(people: pd.DataFrame) -> list[dict]:
    if "first-price" not in set(people["mechanism"]):
        return []
    over = lab.overbidding(people, "first-price")
    text = (
        "<p>One dot per student: the mean of their bid minus the equilibrium bid for the same "
        "value. The dashed line and the band: the class mean and its 95% interval.</p>"
    )
    return [
        _section(
            "Overbidding in first-price sealed bids",
            text,
            figures.overbidding_figure(over, mean_interval(over["over"]), title=""),
        )
    ]


def _revenue(theory: pd.DataFrame) -> dict:
    money = lab.revenue_and_efficiency(theory)
    money = money.set_index("mechanism")
    # two tables, each narrow enough for a phone: revenue, then efficiency, beside the theory's
    revenue = money[["revenue", "revenue low", "revenue high"]].assign(
        equilibrium=money["equilibrium revenue"], textbook=money["textbook revenue"]
    )
    efficiency = money[["efficiency", "efficiency low", "efficiency high"]].assign(
        equilibrium=money["equilibrium efficiency"]
    )
    text = (
        "<p>Revenue: the chips that go to the bank in a round (Mogul's auction has no seller: "
        "0 by its rules); efficiency: the share of rounds won by a highest value. Diamond: the "
        "equilibrium played on the same values; cross: the textbook (revenue equivalence: "
        "the expected second-highest value). Whole chips, the budget and a class that is not "
        "in equilibrium break revenue equivalence here.</p>"
    )
    figure = figures.revenue_figure(money.reset_index(), title="")
    tables = (interval_table(revenue), interval_table(efficiency))
    return _section("Revenue and efficiency", text, figure, *tables)


def _learning(people: pd.DataFrame) -> dict:
    table = lab.learning(people)
    text = (
        "<p>The mean of bid / value (drop point / value in English and Mogul's auction) per "
        "round, across students, with its 95% interval; dashed: the equilibrium's on the same "
        "rows. A class that learns moves towards its dashed line.</p>"
    )
    if table.empty:
        return _section("Bids over the rounds", text + "<p>No bid with a value above 0 yet.</p>")
    return _section("Bids over the rounds", text, figures.learning_figure(table, title=""))
