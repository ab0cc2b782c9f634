"""Serve the student pages without Jupyter: ``python -m mogul.classroom.server --port 8866``.

Several of these can serve one class on one PostgreSQL store (``--store postgresql+psycopg://...``);
each follows the others' moves through the store.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal

from mogul.classroom.server import PATH, make_app
from mogul.classroom.server.hall import Hall
from mogul.classroom.store import TableStore


async def serve(store: str | None, ip: str, port: int) -> None:
    """Serve until SIGINT or SIGTERM."""
    hall = Hall(TableStore(store))
    app = make_app(hall)
    server = app.listen(port, address=ip, xheaders=False)
    hall.start()
    print(f"Student page: http://{ip}:{port}/{PATH}/  (store: {hall.store!r})", flush=True)
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
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    asyncio.run(serve(args.store, args.ip, args.port))


if __name__ == "__main__":
    main()
