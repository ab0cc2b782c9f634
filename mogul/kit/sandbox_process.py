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
    if settings.get("one_process"):
        one_process()


# One process per bot: its memory cap is then the whole bot's (threads share it), and no
# process outlives a decision. A seccomp filter (Linux's system-call filter, which needs no
# privileges) ends the process that asks the kernel for a new process; threads stay allowed.
_SYSCALLS = {  # machine: (audit architecture, fork, vfork, clone, clone3); -1 where missing
    "x86_64": (0xC000003E, 57, 58, 56, 435),
    "aarch64": (0xC00000B7, -1, -1, 220, 435),
}
CLONE_THREAD = 0x10000
_ALLOW, _KILL, _NO_SUCH_CALL = 0x7FFF0000, 0x80000000, 0x00050000 | 38  # RET_ERRNO | ENOSYS


def one_process() -> bool:
    """Forbid this process to start others (Linux on x86_64 or aarch64): the kernel kills it
    with SIGSYS if it tries (fork, vfork, clone without CLONE_THREAD), so the referee can name
    it. ``clone3`` answers ENOSYS, so the C library makes its threads with ``clone``. True if
    the filter is in place. No core file is written: the process is made undumpable first.
    """
    machine = os.uname().machine if hasattr(os, "uname") else ""
    if not sys.platform.startswith("linux") or machine not in _SYSCALLS:
        return False
    arch, fork, vfork, clone, clone3 = _SYSCALLS[machine]
    load, jump_eq, jump_set, jump_ge, ret = 0x20, 0x15, 0x45, 0x35, 0x06
    # seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low half on these machines)
    program = [
        (load, 0, 0, 4),
        (jump_eq, 1, 0, arch),
        (ret, 0, 0, _KILL),  # another machine's calls (x86's 32-bit ones): never ours
        (load, 0, 0, 0),
        (jump_ge, 0, 1, 0x40000000),  # x32 calls
        (ret, 0, 0, _KILL),
        (jump_eq, 0, 1, fork),
        (ret, 0, 0, _KILL),
        (jump_eq, 0, 1, vfork),
        (ret, 0, 0, _KILL),
        (jump_eq, 0, 1, clone3),
        (ret, 0, 0, _NO_SUCH_CALL),
        (jump_eq, 1, 0, clone),
        (ret, 0, 0, _ALLOW),
        (load, 0, 0, 16),
        (jump_set, 0, 1, CLONE_THREAD),
        (ret, 0, 0, _ALLOW),
        (ret, 0, 0, _KILL),
    ]

    class Instruction(ctypes.Structure):
        _fields_ = [
            ("code", ctypes.c_ushort),
            ("jt", ctypes.c_ubyte),
            ("jf", ctypes.c_ubyte),
            ("k", ctypes.c_uint32),
        ]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]

    code = (Instruction * len(program))(
        *(Instruction(c, t, f, k & 0xFFFFFFFF) for c, t, f, k in program)
    )
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    prctl.argtypes = [ctypes.c_int, *[ctypes.c_ulong] * 4]
    pr_set_dumpable, pr_set_no_new_privs, pr_set_seccomp, filter_mode = 4, 38, 22, 2
    prctl(pr_set_dumpable, 0, 0, 0, 0)
    if prctl(pr_set_no_new_privs, 1, 0, 0, 0) != 0:
        return False
    filtered = Program(len(program), code)
    return prctl(pr_set_seccomp, filter_mode, ctypes.addressof(filtered), 0, 0) == 0


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
