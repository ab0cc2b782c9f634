"""What runs inside a bot's sandbox process: its limits, then the bot, answering in plain text.

The referee's side is ``mogul.kit.guard``; this module is the other end of the socket. It
sends back only short JSON lists of strings, so nothing from a bot's process is ever
unpickled by the referee.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import pickle
import signal
import socket
import sys
from typing import Any

from mogul.kit.bots import bot_name
from mogul.kit.guard import BotFailure, _cut, ask, build, describe


def serve(fd: int) -> None:
    """The sandbox process: take its limits and the bot's factory, then build bots and answer.

    Everything it sends back is a short JSON list of strings: nothing from here is unpickled
    by the referee.
    """
    sock = socket.socket(fileno=fd)
    sock.settimeout(None)
    die_with_parent()
    settings = pickle.loads(_frame(sock))
    factory_bytes = _frame(sock)
    _limit(settings)
    _reply(sock, ["up"])
    try:  # the bot's own code runs from here on (its module is imported)
        factory = pickle.loads(factory_bytes)
    except BaseException as err:  # noqa: BLE001 - the bot's class cannot be found or rebuilt here
        factory = _Unloadable(describe(err))
    _reply(sock, ["ready"])
    bot = None
    while True:
        try:
            message = pickle.loads(_frame(sock))
        except (EOFError, OSError):
            return
        try:
            if message[0] == "new":
                bot = build(factory, message[1])
                reply = ["ok", bot_name(bot)]
            else:
                _, view, legal = message
                reply = [
                    "ok",
                    str(ask(bot, view, legal)),
                ]  # the same checks as in the game's process
        except BotFailure as err:
            reply = ["error", err.reason, err.detail]
        except BaseException as err:  # noqa: BLE001 - a bot whose name raises, say
            reply = ["error", "start" if message[0] == "new" else "raised", describe(err)]
        _reply(sock, reply)


def _frame(sock: socket.socket) -> bytes:
    def exactly(size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = sock.recv(size - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    return exactly(int.from_bytes(exactly(4), "big"))


def _reply(sock: socket.socket, reply: list[str]) -> None:
    payload = json.dumps([_cut(part, 2000) for part in reply]).encode()
    sock.sendall(len(payload).to_bytes(4, "big") + payload)


def _limit(settings: dict[str, Any]) -> None:
    """Give up root (in a sandbox, where the referee is root) and set the bot's limits."""
    if settings["uid"] is not None:
        os.setgroups([])
        os.setgid(settings["uid"])
        os.setuid(settings["uid"])
    try:
        import resource
    except ImportError:  # Windows: no limits but the time limit
        return
    for name, value in (
        ("RLIMIT_CPU", settings["cpu"]),
        ("RLIMIT_FSIZE", settings["output"]),
        ("RLIMIT_NPROC", settings["processes"]),
    ):
        with contextlib.suppress(ValueError, OSError, AttributeError):
            resource.setrlimit(getattr(resource, name), (int(value), int(value)))
    cap_memory(settings["memory"])
    with contextlib.suppress(ValueError, OSError, AttributeError):
        signal.signal(
            signal.SIGXFSZ, signal.SIG_DFL
        )  # too much output ends the process, named as such


class _Unloadable:
    """Stands in for a bot factory that could not be unpickled: fails to start with the reason."""

    def __init__(self, why: str):
        self.why = why

    def __call__(self, seed: Any) -> Any:
        raise RuntimeError(f"the bot could not be loaded in its sandbox: {self.why}")


def die_with_parent() -> None:
    """Linux: the child gets SIGKILL when its parent dies (no orphaned looping bots)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL


def cap_memory(extra: int | None) -> None:
    """Cap the child's address space at what it has now plus ``extra`` bytes, where possible."""
    if not extra:
        return
    try:
        import resource

        used = _address_space()
        if used:
            resource.setrlimit(resource.RLIMIT_AS, (used + extra, used + extra))
    except (ImportError, ValueError, OSError):
        pass


def _address_space() -> int:
    try:
        with open(f"/proc/{os.getpid()}/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0
