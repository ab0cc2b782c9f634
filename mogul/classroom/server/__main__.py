"""Serve the student pages without Jupyter: ``python -m mogul.classroom.server --port 8866``.

Several of these can serve one class on one PostgreSQL store (``--store postgresql+psycopg://...``);
each follows the others' moves through the store. The lecturer's projector page needs a token
(``--token``, else ``$MOGUL_HALL_TOKEN``, else a new one): the command prints its address.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import signal

from mogul.classroom.projector import HALL_URL_ENV, projector_path, student_address
from mogul.classroom.server import PATH, listen, make_app
from mogul.classroom.server.hall import Hall, Limits
from mogul.classroom.store import TableStore

TOKEN_ENV = "MOGUL_HALL_TOKEN"
"""The environment variable holding the projector page's token (``--token`` wins)."""


async def serve(
    store: str | None, ip: str, port: int, token: str | None = None, limits: Limits | None = None
) -> None:
    """Serve until SIGINT or SIGTERM (``limits``: the hall's bounds per page and address)."""
    token = token or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(16)
    everywhere = ip in ("0.0.0.0", "::") or os.environ.get(HALL_URL_ENV)
    address = student_address(port) if everywhere else f"http://{ip}:{port}/{PATH}/"
    hall = Hall(TableStore(store), address=address, limits=limits)
    app = make_app(hall, token)
    server = listen(app, port, ip, hall.limits)
    hall.start()
    print(f"Student page: http://{ip}:{port}/{PATH}/  (store: {hall.store!r})", flush=True)
    print(f"Projector:    http://{ip}:{port}{projector_path()}?token={token}", flush=True)
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, done.set)
    await done.wait()
    hall.stop()
    server.stop()
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
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    limits = Limits(
        pages_per_address=args.pages_per_address,
        connections_per_address=args.connections_per_address,
    )
    asyncio.run(serve(args.store, args.ip, args.port, args.token, limits))


if __name__ == "__main__":
    main()
