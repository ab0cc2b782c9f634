"""Untrusted bots: every decision under a time limit, in a process of the bot's own.

In a class tournament the bots are the students'. A bot may raise, loop for ever, answer
with something that is not a legal action, fail to start, call ``sys.exit``, eat memory,
or try to reach the game it plays (``sys._getframe(1).f_locals``) or shared objects. The
runner therefore treats every bot that is not one of the kit's own (a bot class, a factory,
anything but a registry name) as untrusted:

* it runs in a ``Sandbox``: a fresh Python process holding only the bot (sent by
  cloudpickle, so classes written in a notebook work). Each decision sends the seat's view
  (a copy) and the legal actions and waits at most ``time_limit`` seconds; a bot that does
  not answer in time is killed. The child's memory is capped (Linux and macOS) and it dies
  with its parent, so an interrupted run leaves no busy process behind. The game itself,
  with the hidden pile, never enters the bot's process.
* whatever goes wrong becomes a ``BotFailure`` with a reason (``start``, ``raised``,
  ``timeout``, ``illegal``, ``crashed``) and the offending detail; the runner notes it in
  its ``failures`` table with the game, seat and step, and goes on with the other games.

With ``sandbox=False`` untrusted bots run in the game's process: exceptions and illegal
answers are still caught and named, but a loop cannot be stopped, memory is not capped, and
the bot can reach the game through the call stack. Use it only for bots you trust.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from mogul.kit.bots import bot_name, offered

REASONS = ("start", "raised", "timeout", "illegal", "crashed")
TIME_LIMIT = 5.0
"""Default seconds a bot may think about one decision (and to start)."""
MEMORY_LIMIT = 1 << 30
"""Default bytes of memory a sandboxed bot may add to its process."""


@dataclass(frozen=True)
class Failure:
    """One bot failure: where it happened, which bot, why, and what the runner did."""

    game: int
    seat: int
    bot: str
    step: int  # decisions made in the game before this one
    reason: str  # one of REASONS
    detail: str  # the error message or the offending value
    outcome: str  # "forfeit" (the game is dropped) or "replaced" (a fallback bot took over)


class BotFailure(Exception):
    """A bot could not give a legal decision; ``reason`` is one of ``REASONS``."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason, self.detail))


def describe(err: BaseException) -> str:
    """An error as "Type: message", cut to a readable length."""
    text = f"{type(err).__name__}: {err}"
    return text if len(text) <= 300 else text[:297] + "..."


def checked(action: Any, legal: Any) -> Any:
    """``action`` if it is one of ``legal``; else ``BotFailure("illegal", ...)``."""
    try:
        ok = any(action == option and type(action) is type(option) for option in legal)
    except Exception:  # an answer whose == raises is not an action either
        ok = False
    if not ok:
        shown = repr(action)
        shown = shown if len(shown) <= 120 else shown[:117] + "..."
        raise BotFailure("illegal", f"answered {shown}; legal: {', '.join(map(str, legal))}")
    return action


def build(factory: Any, seed: int | None) -> Any:
    """A fresh bot, ``factory(seed)``; a bot that cannot start is ``BotFailure("start", ...)``."""
    try:
        return factory(seed)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # SystemExit too
        raise BotFailure("start", describe(err)) from None


def ask(bot: Any, view: Any, legal: list[Any]) -> Any:
    """The bot's legal decision, in this process; failures become ``BotFailure``."""
    options = offered(bot, legal)
    if not options:
        return legal[0]  # nothing the bot understands: the first legal action, as ``decide`` does
    try:
        action = bot.choose(view, options)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # SystemExit too: a student's bot must not end the run
        raise BotFailure("raised", describe(err)) from None
    return checked(action, options)


class Sandbox:
    """A bot in a fresh Python process of its own, asked one decision at a time.

    ``Sandbox(factory, time_limit)`` starts the process (a new interpreter, not a fork: a
    fork would carry the game's memory along) and sends it the factory with cloudpickle, so
    a bot class defined in a notebook travels too. ``new_game(seed)`` builds a fresh bot
    there and returns its name; ``choose(view, legal)`` returns its decision or raises
    ``BotFailure``. After a timeout or crash the process is gone; the next ``new_game``
    starts another. ``close()`` ends it.
    """

    def __init__(self, factory: Any, time_limit: float = TIME_LIMIT, memory_limit: int | None = MEMORY_LIMIT):
        self.factory = factory
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.process: subprocess.Popen | None = None
        self.conn: Any = None
        self.name = "bot"

    def _start(self) -> None:
        import cloudpickle

        ours, theirs = multiprocessing.Pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _HOST, str(theirs.fileno())], pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self.conn = ours
        self.conn.send((list(sys.path), self.memory_limit))  # first the path, to find the bot's module
        self.conn.send_bytes(cloudpickle.dumps(self.factory))
        if not self.conn.poll(STARTUP):  # the interpreter and the kit's imports; the bot comes next
            self.close()
            raise BotFailure("start", f"the sandbox did not start within {STARTUP:g} s")
        self.conn.recv()

    def _call(self, message: Any, limit: float, late: str) -> Any:
        try:
            if self.process is None:
                self._start()
            self.conn.send(message)
            if not self.conn.poll(limit):
                self.close()
                raise BotFailure(late, f"no answer within {limit:g} s")
            reply = self.conn.recv()
        except (EOFError, OSError):
            code = self.process.poll() if self.process is not None else None
            self.close()
            raise BotFailure("crashed", f"the bot's process ended (exit code {code})") from None
        if reply[0] == "error":
            raise BotFailure(reply[1], reply[2])
        return reply[1]

    def new_game(self, seed: int | None) -> str:
        """Build a fresh bot from ``seed`` in the child; returns its name."""
        self.name = self._call(("new", seed), self.time_limit, "start")
        return self.name

    def choose(self, view: Any, legal: list[Any]) -> Any:
        """The bot's decision for ``view``, checked against ``legal``."""
        return checked(self._call(("choose", view, list(legal)), self.time_limit, "timeout"), legal)

    def close(self) -> None:
        """End the child process (at once: a looping bot does not get to finish)."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.conn.close()
        self.process = self.conn = None


STARTUP = 20.0
"""Seconds a sandbox may take to start its interpreter and import the kit (about 0.3 s idle)."""

_HOST = "import sys; from mogul.kit.guard import serve; serve(int(sys.argv[1]))"


def serve(fd: int) -> None:
    """The sandbox process: receive the bot's factory, then build bots and answer decisions."""
    import pickle
    from multiprocessing.connection import Connection

    conn = Connection(fd)
    _die_with_parent()
    path, memory_limit = conn.recv()
    sys.path[:] = path
    try:
        factory = pickle.loads(conn.recv_bytes())
    except Exception as err:  # the bot's class cannot be found or rebuilt here
        factory = _Unloadable(describe(err))
    cap_memory(memory_limit)
    conn.send(("ready",))
    bot = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if message[0] == "new":
                bot = build(factory, message[1])
                reply: tuple = ("ok", bot_name(bot))
            else:
                _, view, legal = message
                reply = ("ok", ask(bot, view, legal))  # the same checks as in the game's process
        except BotFailure as err:
            reply = ("error", err.reason, err.detail)
        except BaseException as err:  # noqa: BLE001 - a bot whose name raises, say
            reply = ("error", "start" if message[0] == "new" else "raised", describe(err))
        try:
            conn.send(reply)
        except Exception as err:  # an answer that cannot be sent back is not an action
            conn.send(("error", "illegal", f"answered something that is not an action ({describe(err)})"))


class _Unloadable:
    """Stands in for a bot factory that could not be unpickled: fails to start with the reason."""

    def __init__(self, why: str):
        self.why = why

    def __call__(self, seed: Any) -> Any:
        raise RuntimeError(f"the bot could not be loaded in its sandbox: {self.why}")


def _die_with_parent() -> None:
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
