"""What the lecturer projects while students join: the address, and per table its code and QR code.

The student page's address comes from ``$MOGUL_HALL_URL`` or this machine's address on the
local network; each table's QR code (made here with ``segno``: nothing is fetched) opens the
page with the table's code filled in. ``mogul.classroom.lecturer`` shows ``projector_html``
when the lecturer presses "Projector view".
"""

from __future__ import annotations

import html
import os
import socket
import urllib.parse

from mogul.classroom.table import TableInfo, pretty_code

try:
    import segno
except ModuleNotFoundError as err:  # the kit without its classroom extra
    raise ModuleNotFoundError(
        'the classroom\'s QR codes need segno: pip install "mogul-kit[classroom]"', name=err.name
    ) from err

HALL_URL_ENV = "MOGUL_HALL_URL"
"""The environment variable giving the student page's address (else this machine's, port 8866)."""


def student_address(port: int = 8866, path: str = "mogul/hall/") -> str:
    """The student page's address: ``$MOGUL_HALL_URL``, else this machine's address on the
    local network (no packet is sent to find it), port ``port``, path ``path``."""
    if os.environ.get(HALL_URL_ENV):
        return os.environ[HALL_URL_ENV]
    ip = "127.0.0.1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # UDP: picks the outgoing interface, sends nothing
            ip = s.getsockname()[0]
        except OSError:
            pass
    return f"http://{ip}:{port}/{path}"


def table_address(address: str, code: str) -> str:
    """The student page with table ``code`` filled in (what the table's QR code holds)."""
    return f"{address}{'&' if '?' in address else '?'}table={pretty_code(code)}"


def qr_svg(text: str, scale: int = 5) -> str:
    """A QR code of ``text`` as inline SVG (made here: nothing is fetched)."""
    return segno.make(text, error="m").svg_inline(scale=scale, border=2)


def seats_joined(infos: list[TableInfo]) -> tuple[int, int]:
    """(people's seats taken, people's seats) over ``infos``: bots' seats are not counted."""
    people = [s for info in infos for s in info.seats if s.is_human]
    return sum(1 for s in people if s.name is not None), len(people)


def projector_path(session: str | None = None, base_url: str = "/") -> str:
    """The projector page's path on the server (for the dashboard's link), of ``session``
    (None: the newest session)."""
    query = "" if session is None else "?" + urllib.parse.urlencode({"session": session})
    return f"{base_url.rstrip('/')}/mogul/hall/projector{query}"


def projector_html(infos: list[TableInfo], address: str) -> str:
    """What to project while students join: the address, then per table its code in large type,
    a QR code that opens the student page with the code filled in, and its free seats."""
    taken, total = seats_joined(infos)
    cards = []
    for info in infos:
        free = len(info.free_seats)
        state = "full" if not free else f"{free} seat{'s' if free != 1 else ''} free"
        cards.append(
            f'<div class="mogul-projector-table"><div class="mogul-card-code">{pretty_code(info.code)}</div>'
            f"{qr_svg(table_address(address, info.code), scale=4)}<div>{state}</div></div>"
        )
    return (
        "<style>.mogul-projector{font:1.4em/1.3 Helvetica,Arial,sans-serif}"
        ".mogul-projector-grid{display:flex;flex-wrap:wrap;gap:1.2em}"
        ".mogul-projector-table{border:2px solid #444;border-radius:10px;padding:.5em;text-align:center}"
        ".mogul-projector .mogul-card-code{font:bold 2.2em/1.1 monospace;letter-spacing:.06em}</style>"
        f'<div class="mogul-projector"><div>Open <b style="font-size:1.4em">{html.escape(address)}</b> '
        "and type your table's code, or scan its QR code.</div>"
        f'<div class="mogul-joined"><b>{taken} of {total}</b> seats joined</div>'
        f'<div class="mogul-projector-grid">{"".join(cards)}</div></div>'
    )
