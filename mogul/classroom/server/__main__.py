"""The class's server: ``mogul classroom`` (``python -m mogul.classroom.server`` alike).

It serves the student page, and behind the lecturer's token (``--token``, else
``$MOGUL_HALL_TOKEN``, else a new one) the projector page and the lecturer's dashboard, on the
table store ``--store`` (``--db``; default ``$MOGUL_CLASSROOM``, else ``classroom.sqlite``
here). Once it listens it prints the three addresses: the student page's on this machine's
network address when it listens on every network (``--ip 0.0.0.0``), the lecturer's two on
this machine.

Several processes serve one class on one PostgreSQL store (``--store postgresql+psycopg://...``),
each following the others' moves by the store's NOTIFY. ``--workers N`` (Linux) starts N of them
on the one address and port: each listens with SO_REUSEPORT and the system spreads the
connections over them; a worker killed is started again; SIGINT or SIGTERM stops them all;
they share the token. Not with SQLite: a SQLite file takes one writer at a time, so one
process serves it. Elsewhere, start one process per ``--port`` on the same store and put them
behind one address with nginx (an upstream of the ports, ``proxy_http_version 1.1``,
``proxy_set_header Upgrade $http_upgrade`` and ``Connection "upgrade"`` for the WebSockets;
every student then comes from the proxy's address: raise ``--pages-per-address`` and
``--connections-per-address`` above the class).

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
import socket
import sys
import tempfile
import traceback
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tornado.netutil

from mogul.classroom.database import database_url, default_url
from mogul.classroom.projector import (
    HALL_URL_ENV,
    projector_path,
    student_address,
    table_address,
)
from mogul.classroom.server import PATH, listen, make_app
from mogul.classroom.server.hall import Hall, practice_table, warm_up
from mogul.classroom.server.limits import Limits
from mogul.classroom.store import TableStore

LOG = logging.getLogger("mogul.classroom.server")
TOKEN_ENV = "MOGUL_HALL_TOKEN"
"""The environment variable holding the lecturer's token (``--token`` wins)."""
EVERYWHERE = ("0.0.0.0", "::")
"""Addresses that listen on every network: the students' devices reach the server."""


def student_page(ip: str, port: int) -> str:
    """The student page's address: listening on every network (or given ``$MOGUL_HALL_URL``)
    the one the students' devices reach, this machine's there; else on ``ip``."""
    if ip in EVERYWHERE or os.environ.get(HALL_URL_ENV):
        return student_address(port)
    return f"http://{_host(ip)}:{port}/{PATH}/"


def _host(ip: str) -> str:
    """``ip`` as a URL's host: the lecturer's own machine when it listens everywhere."""
    return "127.0.0.1" if ip in EVERYWHERE else f"[{ip}]" if ":" in ip else ip


def addresses(ip: str, port: int, token: str, store: TableStore, workers: int = 1) -> str:
    """What the command prints once it serves: the student page (``student_page``), the
    lecturer's dashboard and the projector page (on this machine)."""
    processes = f"{workers} processes, " if workers > 1 else ""
    host, url = _host(ip), store.engine.url
    where = url.database if url.drivername == "sqlite" and url.database else url
    return (
        f"Student page:   {student_page(ip, port)}  ({processes}store: {where})\n"
        f"Your dashboard: http://{host}:{port}/{PATH}/dashboard?token={token}\n"
        f"Projector page: http://{host}:{port}{projector_path()}?token={token}\n"
        "(Ctrl-C stops the server)"
    )


async def serve(
    store: str | None,
    ip: str,
    port: int,
    token: str | None = None,
    limits: Limits | None = None,
    practice: tuple[str | None, list[str] | None] | None = None,
    open_browser: bool = False,
    sockets: list[socket.socket] | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM (``limits``: the hall's bounds per page and address;
    ``practice``: (game, bots) of a practice table to make and print, with no projector;
    ``sockets``: bound already, one of ``--workers``, which prints nothing)."""
    token = token or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(16)
    address = student_page(ip, port)
    everywhere = ip in EVERYWHERE or os.environ.get(HALL_URL_ENV)
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
        server = listen(app, port, ip, hall.limits, sockets)
        hall.start()
        if sockets is not None:
            LOG.info("a worker serves (pid %d)", os.getpid())
        elif table is None:
            print(addresses(ip, port, token, hall.store), flush=True)
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


def workers_refused(store: str | None, practice: bool) -> str | None:
    """Why ``--workers`` above 1 cannot run here (None: it can): it needs PostgreSQL, and Linux
    (its ``SO_REUSEPORT`` spreads the connections over the processes)."""
    if practice:
        return "--workers goes without --practice: a practice table is one student's"
    if not sys.platform.startswith("linux") or not hasattr(socket, "SO_REUSEPORT"):
        return (
            "--workers above 1 needs Linux (its SO_REUSEPORT spreads the connections over the "
            "processes); here start one process per --port on one PostgreSQL store and put them "
            "behind one address with a proxy such as nginx, or serve with one process"
        )
    if database_url(store or default_url()).startswith("sqlite"):
        return (
            "--workers above 1 needs a PostgreSQL store (--store postgresql+psycopg://...): a "
            "SQLite file takes one writer at a time, so more processes would only wait for "
            "each other; one process serves a SQLite store"
        )
    return None


def run_workers(
    count: int,
    ip: str,
    port: int,
    work: Callable[[list[socket.socket]], None],
    ready: Callable[[int], None],
) -> int:
    """Run ``work`` in ``count`` forked processes, each on sockets of its own bound to
    ``ip:port`` with ``SO_REUSEPORT`` (the system spreads new connections over them), call
    ``ready(port)`` once all are started, and wait. A worker killed by a signal is started
    again; SIGINT or SIGTERM here stops them all. Returns the exit status: 0, or 1 if a worker
    failed."""
    taken = tornado.netutil.bind_sockets(port, ip)  # nobody is on it, not even another hall
    port = taken[0].getsockname()[1]
    for sock in taken:
        sock.close()
    workers: dict[int, int] = {}  # pid -> its number
    stopping = False

    def stop(_signal: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    def start(number: int) -> None:
        sockets = tornado.netutil.bind_sockets(port, ip, reuse_port=True)
        pid = os.fork()
        if pid == 0:  # the worker
            status = 1
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)  # its own, once it serves
                signal.signal(signal.SIGINT, signal.default_int_handler)
                work(sockets)
                status = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(status)
        for sock in sockets:  # else the system would still hand this socket connections
            sock.close()
        workers[pid] = number

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for number in range(count):
        start(number)
    ready(port)
    failed = 0
    while workers:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        number = workers.pop(pid, None)
        if number is None:
            continue
        if os.WIFSIGNALED(status) and not stopping:
            LOG.warning(
                "worker %d (pid %d) was killed by signal %d: starting it again",
                number + 1,
                pid,
                os.WTERMSIG(status),
            )
            start(number)
        elif os.waitstatus_to_exitcode(status) != 0:
            failed = 1
    return failed


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="mogul classroom",
        description=__doc__.splitlines()[0].replace("``", ""),
        epilog=__doc__.split("\n\n")[2].replace("``", ""),  # several processes
    )
    parser.add_argument(
        "--store",
        "--db",
        help="the table store: a SQLite file, or postgresql+psycopg://... for several processes "
        "(default: $MOGUL_CLASSROOM, else classroom.sqlite here)",
    )
    parser.add_argument(
        "--ip", default="127.0.0.1", help="the address to listen on (0.0.0.0: every network)"
    )
    parser.add_argument("--port", type=int, default=8866, help="default %(default)s")
    parser.add_argument(
        "--token",
        help=f"the lecturer's token, for the dashboard and the projector (default: ${TOKEN_ENV}, "
        "else a new one each time)",
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
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="N server processes on this one address and port (Linux, PostgreSQL store only; "
        "elsewhere one process per port behind a proxy such as nginx; default 1). The bounds "
        "per address hold in each process",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error(f"--port {args.port}: choose a port from 1 to 65535")
    if args.workers < 1:
        parser.error(f"--workers {args.workers}: one process or more")
    if args.workers > 1 and (why := workers_refused(args.store, args.practice is not None)):
        parser.error(why)
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
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s"
    )
    # a line per page load and socket would scroll the printed links away (refusals still show)
    logging.getLogger("tornado.access").setLevel(logging.WARNING)
    limits = Limits(
        pages_per_address=args.pages_per_address,
        connections_per_address=args.connections_per_address,
    )
    if args.workers == 1:
        asyncio.run(serve(args.store, args.ip, args.port, args.token, limits, practice, args.open))
        return
    token = args.token or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(16)  # one for all
    store = TableStore(args.store)  # its tables made once, not by every worker at the same time
    store.close()
    warm_up()  # once, before the fork: every worker starts with the games loaded

    def work(sockets: list[socket.socket]) -> None:
        asyncio.run(serve(args.store, args.ip, args.port, token, limits, sockets=sockets))

    def ready(port: int) -> None:
        print(addresses(args.ip, port, token, store, args.workers), flush=True)

    raise SystemExit(run_workers(args.workers, args.ip, args.port, work, ready))


if __name__ == "__main__":
    main()
