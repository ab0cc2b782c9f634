"""Serve the student pages without Jupyter: ``python -m mogul.classroom.server --port 8866``.

Several of these can serve one class on one PostgreSQL store (``--store postgresql+psycopg://...``);
each follows the others' moves through the store. The lecturer's projector page needs a token
(``--token``, else ``$MOGUL_HALL_TOKEN``, else a new one): the command prints its address.

``--practice [GAME]`` is for one student alone, no lecturer: a table of one person against
bots (``--bots value,value,value``; default three of the game's value bot), in a store of its
own that is gone when the server stops (unless ``--store``); the command prints the address
that opens the student page at that table (``--open``: in the browser; listening beyond this
machine, ``--ip 0.0.0.0``, also its QR code for a phone), and a new game is a button at game
over. No projector page.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import logging
import os
import secrets
import signal
import tempfile
import webbrowser
from pathlib import Path

from mogul.classroom.projector import (
    HALL_URL_ENV,
    projector_path,
    student_address,
    table_address,
)
from mogul.classroom.server import PATH, listen, make_app
from mogul.classroom.server.hall import Hall, practice_table
from mogul.classroom.server.limits import Limits
from mogul.classroom.store import TableStore

TOKEN_ENV = "MOGUL_HALL_TOKEN"
"""The environment variable holding the projector page's token (``--token`` wins)."""


async def serve(
    store: str | None,
    ip: str,
    port: int,
    token: str | None = None,
    limits: Limits | None = None,
    practice: tuple[str | None, list[str] | None] | None = None,
    open_browser: bool = False,
) -> None:
    """Serve until SIGINT or SIGTERM (``limits``: the hall's bounds per page and address;
    ``practice``: (game, bots) of a practice table to make and print, with no projector)."""
    token = token or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(16)
    everywhere = ip in ("0.0.0.0", "::") or os.environ.get(HALL_URL_ENV)
    address = student_address(port) if everywhere else f"http://{ip}:{port}/{PATH}/"
    with contextlib.ExitStack() as cleanup:
        if practice is not None and store is None:  # a store of its own, gone at the end
            folder = cleanup.enter_context(
                tempfile.TemporaryDirectory(prefix="mogul-practice-", ignore_cleanup_errors=True)
            )
            store = str(Path(folder) / "practice.sqlite")
        tables = TableStore(store)
        table = None if practice is None else practice_table(tables, *practice)
        hall = Hall(tables, address=address, limits=limits, practice=practice is not None)
        app = make_app(hall, None if practice is not None else token)
        server = listen(app, port, ip, hall.limits)
        hall.start()
        if table is None:
            print(f"Student page: http://{ip}:{port}/{PATH}/  (store: {hall.store!r})", flush=True)
            print(f"Projector:    http://{ip}:{port}{projector_path()}?token={token}", flush=True)
        else:
            url = table_address(address, table.code)
            bots = ", ".join(s.kind for s in table.seats if not s.is_human)
            qr = io.StringIO()
            if everywhere:  # a phone on the network scans it
                import segno  # the projector's, already checked

                segno.make(url, error="m").terminal(out=qr, compact=True)
            print(f"Practice: {url}  ({table.edition} against {bots}; Ctrl-C stops it)")
            print(qr.getvalue(), end="", flush=True)
        done = asyncio.Event()
        loop = asyncio.get_running_loop()
        if table is not None and open_browser:  # a browser in the terminal would hold the loop
            loop.run_in_executor(None, webbrowser.open, url)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, done.set)
        await done.wait()
        hall.stop()
        server.stop()
        if hall.executor is not None:  # the store's calls under way end before it closes
            await loop.run_in_executor(None, hall.executor.shutdown)
        hall.store.close()


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m mogul.classroom.server", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--store",
        help="the table store: a SQLite file or a database URL (default: $MOGUL_CLASSROOM)",
    )
    parser.add_argument(
        "--ip", default="127.0.0.1", help="the address to listen on (0.0.0.0: every network)"
    )
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument(
        "--token", help=f"the projector page's token (default: ${TOKEN_ENV}, else a new one)"
    )
    default = Limits()
    parser.add_argument(
        "--pages-per-address",
        type=int,
        default=default.pages_per_address,
        help="open student pages one address may hold (a whole class may share one address: "
        "keep it above the class size; default %(default)s)",
    )
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=default.connections_per_address,
        help="open HTTP connections one address may hold (default %(default)s)",
    )
    parser.add_argument(
        "--practice",
        nargs="?",
        const="",
        metavar="GAME",
        help="one student alone against bots: make a table of GAME (a game or edition; default "
        "the default game) and print the address that opens it",
    )
    parser.add_argument(
        "--bots",
        help="with --practice: the bots at the table, comma-separated (default: three of the "
        "game's value bot)",
    )
    parser.add_argument(
        "--open", action="store_true", help="with --practice: open the address in the browser"
    )
    args = parser.parse_args(argv)
    practice = None
    if args.practice is not None:
        bots = [b.strip() for b in args.bots.split(",")] if args.bots else None
        practice = (args.practice or None, bots)
        check = TableStore("sqlite://")
        try:  # a typo in the game or a bot is said now, before anything starts
            practice_table(check, *practice)
        except ValueError as err:
            parser.error(str(err))
        finally:
            check.close()
    elif args.bots or args.open:
        parser.error("--bots and --open go with --practice")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    limits = Limits(
        pages_per_address=args.pages_per_address,
        connections_per_address=args.connections_per_address,
    )
    asyncio.run(serve(args.store, args.ip, args.port, args.token, limits, practice, args.open))


if __name__ == "__main__":
    main()
