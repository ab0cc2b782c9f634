"""What a student's page shows: its seat's *view* (``seat_view``: the game's table drawing and
move labels from its spec, whose turn it is in one line, the turn timer, sealed bids as a
number field), the game's "how to play", and the ``Turn`` a table was at in the newest views
drawn (which refutes most clicks of a room clicking at once without a read of the store).
``mogul.classroom.server.hall`` sends them to the pages."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mogul.classroom.table import (
    ENDED,
    PAUSED,
    PLAYING,
    WAITING,
    TableInfo,
    not_playing,
    pretty_code,
    seat_labels,
)
from mogul.kit.session import last_events
from mogul.kit.spec import GameSpec, resolve

LOG_LINES = 8
"""How many of the game's last events a view shows."""


def howto_html(spec: GameSpec) -> str:
    """The game's "how to play" for the student page: ``howto.html`` in the game's own place in
    the classroom (``mogul/classroom/<game>/``), or one line naming the game."""
    folder = spec.name.replace("-", "_")
    try:
        return (resources.files("mogul.classroom") / folder / "howto.html").read_text(
            encoding="utf-8"
        )
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return f"<p>You are playing {html.escape(spec.title)}.</p>"


def sealed_seats(info: TableInfo, state: Any) -> tuple[int, ...]:
    """The seats of table ``info`` that may still move in any order now (sealed bids), else
    () (also for a table not playing)."""
    if state is None or state.is_over or info.status != PLAYING:
        return ()
    simultaneous = resolve(info.edition)[0].simultaneous
    return simultaneous(state) if simultaneous else ()


def number_move(moves: list[list[str]]) -> dict[str, Any] | None:
    """Moves that are one word and every whole number of a range ("bid 0" ... "bid 10") as
    a number field: the word, lowest and highest; None for other moves."""
    words = [action.split() for _, action in moves]
    if len(words) < 2 or any(len(w) != 2 or not w[1].isdigit() for w in words):
        return None
    numbers = [int(w[1]) for w in words]
    if len({w[0] for w in words}) != 1 or numbers != list(range(numbers[0], numbers[-1] + 1)):
        return None
    return {"word": words[0][0], "low": numbers[0], "high": numbers[-1]}


def status_line(
    info: TableInfo, state: Any, seat: int, held: Mapping[int, str] | None = None
) -> str:
    """One line for the student at ``seat``: whose move it is, or why nothing happens
    (sealed bids: whether their bid is in, and how many are; ``held``: the bids that wait for
    their seat's turn, by seat: only the seat's own is told)."""
    held = held or {}
    if info.status == WAITING:
        taken = sum(1 for s in info.seats if s.name is not None)
        return f"Waiting for players: {taken} of {len(info.seats)} seats taken."
    if info.status == PAUSED:
        return "<b>Paused</b> by your lecturer: wait a moment."
    if info.status == ENDED:
        return "<b>This table was ended</b> by your lecturer."
    if state.is_over:
        winners = state.winners()
        if winners == [seat] or winners == (seat,):
            return "<b>Game over. You win!</b>"
        best = html.escape(" and ".join(state.names[s] for s in winners))
        return f"<b>Game over.</b> {best} {'wins' if len(winners) == 1 else 'share the win'}."
    mover = state.current_player
    bidders = sealed_seats(info, state)
    if bidders:
        told = f"({len(state.names) - len(bidders) + len(held)} of {len(state.names)} bids in)"
        if seat in bidders and seat not in held:
            return f"<b>Your bid</b>: seal it below {told}."
        mine = f" ({html.escape(held[seat])})" if seat in held else ""
        return f"<b>Your bid is in{mine}.</b> Waiting for the others {told}."
    if mover == seat:
        phase = getattr(state, "phase", None)
        return "<b>Your move</b>" + (f" ({html.escape(str(phase))})." if phase else ".")
    return f"Waiting for <b>{html.escape(state.names[mover])}</b>."


def seat_view(
    info: TableInfo,
    states: list[Any],
    seat: int,
    clock: tuple[float | None, float, frozenset[int]],
    now: float,
    held: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """What the page of ``seat`` shows, as JSON-ready data: the line, the table, the moves it
    may make (with their step and the table's version), the turn timer; the game's
    ``seat_panel`` face (what this seat alone may know) above the table; sealed bids
    (``held``: seats whose bid waits for its turn) as a number field for each seat that has
    not bid."""
    view: dict[str, Any] = {
        "type": "view",
        "table": info.code,
        "pretty": pretty_code(info.code),
        "seat": seat,
        "name": info.seats[seat].name or "",
        "status": info.status,
        "version": info.version,
        "step": len(states) - 1,
        "moves": [],
        "number": None,
        "panel": "",
        "timer": None,
        "timeouts": [],
    }
    if not states:
        taken = ", ".join(html.escape(s.name) for s in info.seats if s.name)
        view.update(line=status_line(info, None, seat), table_html=f"<p>At the table: {taken}.</p>")
        return view
    state = states[-1]
    spec = resolve(info.edition)[0]
    labels = [
        "you" if s.seat == seat else label
        for s, label in zip(info.seats, seat_labels(info), strict=True)
    ]
    held = held or {}
    panel = spec.face("seat_panel")
    bidders = [s for s in sealed_seats(info, state) if s not in held]
    view.update(
        line=status_line(info, state, seat, held),
        table_html=spec.table_html(state, (), last_events(states, LOG_LINES), labels),
        panel=panel(state, seat) if panel is not None else "",
    )
    mine = seat in bidders if bidders else state.current_player == seat
    if info.status == PLAYING and not state.is_over and mine:
        view["moves"] = [[spec.action_label(state, a), str(a)] for a in state.legal_actions()]
        if bidders:  # a sealed bid: one number field instead of a button per amount
            view["number"] = number_move(view["moves"])
            if view["number"] is not None:
                view["moves"] = []
    seconds, since, timed_out = clock
    if seconds is not None and info.status == PLAYING and not state.is_over:
        mover = state.current_player
        if bidders and any(info.seats[s].is_human for s in bidders):
            view["timer"] = {
                "seconds": seconds,
                "left": max(0.0, seconds - (now - since)),
                "who": "you" if seat in bidders else "the last bidders",
            }
        elif info.seats[mover].is_human:
            view["timer"] = {
                "seconds": seconds,
                "left": max(0.0, seconds - (now - since)),
                "who": "you" if mover == seat else state.names[mover],
            }
    view["timeouts"] = [
        f"Time ran out for {state.names[states[s].current_player]}: a bot made move {s + 1} for them."
        for s in sorted(timed_out)[-3:]
        if s < len(states)
    ]
    return view


@dataclass(frozen=True)
class Turn:
    """Where a table was in the newest views the hall drew of it: its version, step and status,
    and the seat to move (None: nobody) with its name."""

    version: int
    step: int
    status: str
    mover: int | None
    name: str = ""
    sealed: bool = False  # seats bid in any order, from any step of the round: the store judges

    @classmethod
    def of(cls, info: TableInfo, states: list[Any]) -> Turn:
        """The turn of a snapshot (``info``, ``states``)."""
        state = states[-1] if states else None
        if state is None or state.is_over or info.status != PLAYING:
            return cls(info.version, len(states) - 1, info.status, None)
        mover = state.current_player
        sealed = bool(sealed_seats(info, state))
        return cls(info.version, len(states) - 1, info.status, mover, state.names[mover], sealed)

    def refutes(self, seat: int, step: Any) -> str | None:
        """Why a click of ``seat`` at ``step`` cannot be a move while the table is at this
        turn's version (the store's own sentence: a step already past, or at this step a table
        not playing or another seat's turn), else None: the store judges it."""
        if isinstance(step, bool) or not isinstance(step, int) or step > self.step or self.sealed:
            return None  # the store says what is wrong
        if step < self.step:
            return (
                f"too late: the table moved on since your page showed it (step {step}, now "
                f"{self.step}); look at the table and choose again"
            )
        if self.status != PLAYING:
            return not_playing(self.status)
        if self.mover is not None and self.mover != seat:
            return f"it is {self.name}'s turn, not yours"
        return None


__all__ = [
    "LOG_LINES",
    "Turn",
    "howto_html",
    "number_move",
    "sealed_seats",
    "seat_view",
    "status_line",
]
