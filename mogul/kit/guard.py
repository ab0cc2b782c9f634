"""Untrusted bots: every decision under a time limit, in a process of the bot's own.

In a class tournament the bots are the students'. A bot may raise, loop for ever, answer
with something that is not a legal action, fail to start, call ``sys.exit``, eat memory,
or try to reach the game it plays (``sys._getframe(1).f_locals``) or shared objects. The
runner therefore treats every bot that is not one of the kit's own (a bot class, a factory,
anything but a registry name) as untrusted:

* it runs in a ``Sandbox``: a fresh Python process holding only the bot (sent by
  cloudpickle, so classes written in a notebook work), inside a bubblewrap sandbox where
  the system has one (see below: its own process IDs, no network, a read-only
  view of Python and the kit, a cleared environment). Each decision sends the seat's view
  (a copy) and the legal actions and waits at most ``time_limit`` seconds; a bot that does
  not answer in time is killed. It runs in one process: the first process it starts ends
  it (``sandbox_process.one_process``), so its memory cap is the whole bot's. Its memory,
  processor time, threads and output are capped from before its code is loaded, and loading
  its code is held to the time limit. It answers with the action's text, which the referee parses and
  checks: nothing from the bot's process is unpickled. The game itself, with the hidden
  pile, never enters the bot's process.
* whatever goes wrong becomes a ``BotFailure`` with a reason (``start``, ``raised``,
  ``timeout``, ``illegal``, ``crashed``, ``forbidden``: it started a process) and the
  offending detail; the runner notes it in its ``failures`` table with the game, seat and
  step, and goes on with the other games.

With ``sandbox=False`` untrusted bots run in the game's process: exceptions and illegal
answers are still caught and named, but a loop cannot be stopped, memory is not capped, and
the bot can reach the game through the call stack. Use it only for bots you trust.

Where the bot's process runs: bubblewrap (``bwrap``, Debian's ``bubblewrap`` package, the tool Flatpak uses) starts the
bot's Python in namespaces of its own: its own process IDs (it sees no other process, so it
cannot signal the referee or another bot, and every process it starts dies with it), no
network, and a file system of its own holding a small writable ``/tmp`` and read-only views
of what a bot needs (``bot_views``): the interpreter, the standard library and the installed
packages, the kit's ``mogul`` folder and its data, and the files of the bot's own modules.
Not the folders on ``sys.path`` as such: they hold the current folder, an editable install's
project root and the referee's script's folder, with the class's store, exports, ``.git``,
other students' bots and seed files. The environment is cleared. Run as root, the bot also gives up root
and becomes a user of its own (``bot_uid()``), so that the kernel counts its processes
apart from every other bot's (it exempts root from that count).

One process per bot needs Linux's seccomp on x86_64 or aarch64; elsewhere a bot may start
up to ``PROCESS_LIMIT`` processes, and those still running when its next game starts are
named ``forbidden`` and killed.

Where bubblewrap is missing or cannot create namespaces (a locked-down container, macOS,
Windows), ``bwrap()`` warns once and the kit falls back to a plain process with the same
limits (memory, CPU time, one process, output), the same ``sys.path`` and a cleared
environment, but no namespaces: such a bot could still see other processes and read what the
user may read. Set
``MOGUL_SANDBOX=process`` to choose the fallback on purpose.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import pickle
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from mogul.kit.bots import BotFailure, offered

REASONS = ("start", "raised", "timeout", "illegal", "crashed", "forbidden")
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
    fork would carry the game's memory along; in a bubblewrap sandbox where there is one,
    see ``bwrap``) and sends it the factory with cloudpickle, so a bot class
    defined in a notebook travels too. ``new_game(seed)`` builds a fresh bot there and
    returns its name; ``choose(view, legal)`` returns its decision or raises ``BotFailure``.
    After a failure the process is gone; the next ``new_game`` starts another. ``close()``
    ends it and everything it started.

    Nothing the bot's process sends is unpickled: it answers with short JSON messages, an
    action as its text, which ``parse`` (the game's ``parse_action``) reads and ``legal``
    checks. Without ``parse`` the text must be that of one of the legal actions.
    """

    def __init__(
        self,
        factory: Any,
        time_limit: float = TIME_LIMIT,
        memory_limit: int | None = MEMORY_LIMIT,
        parse: Callable[[str], Any] | None = None,
    ):
        self.factory = factory
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.parse = parse
        self.process: subprocess.Popen | None = None
        self.sock: socket.socket | None = None
        self.output: Any = None  # the bot's stdout and stderr, a file capped at OUTPUT_LIMIT
        self.name = "bot"
        self._own = (
            0  # processes below ours that are the sandbox's own (bwrap's and the bot's Python)
        )
        self._host = 0  # the bot's Python process, as this process sees it
        self._views: tuple[list[str], list[str]] | None = None  # see ``bot_views``

    # -- starting and talking ---------------------------------------------------------------

    def _start(self) -> None:
        import cloudpickle

        program = bwrap()
        payload = cloudpickle.dumps(self.factory)
        if self._views is None:
            self._views = bot_views(payload)
        shown, path = self._views
        ours, theirs = socket.socketpair()
        self.output = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the sandbox
        command = [sys.executable, "-I", "-c", _HOST, str(theirs.fileno()), json.dumps(path)]
        if program:
            command = [program, *sandbox_args(program, shown), *command]
        try:
            self.process = subprocess.Popen(
                command,
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=self.output,
                stderr=self.output,
                env=bot_env(),
                start_new_session=True,
            )
        finally:
            theirs.close()
        self.sock = ours
        own = program is not None and os.getuid() == 0  # root: the bot gets a user of its own
        settings = {
            "memory": self.memory_limit,
            "cpu": CPU_LIMIT,
            "output": OUTPUT_LIMIT,
            "uid": bot_uid() if own else None,
            "processes": 1 + PROCESS_LIMIT if own else _processes_of(os.getuid()) + PROCESS_LIMIT,
            "one_process": True,
        }
        deadline = time.monotonic() + STARTUP
        self._send(pickle.dumps(settings), deadline)
        self._send(payload, deadline)
        self._expect("up", deadline, "start", f"the sandbox did not start within {STARTUP:g} s")
        tree = _descendants(self.process.pid)
        self._own = len(tree)
        self._host = tree[-1] if program and tree else self.process.pid
        # From here on the bot's own code runs (its module is imported): held to the time limit.
        self._expect(
            "ready",
            time.monotonic() + self.time_limit,
            "start",
            f"the bot's code did not load within {self.time_limit:g} s",
        )

    def _send(self, payload: bytes, deadline: float) -> None:
        self.sock.settimeout(max(0.001, deadline - time.monotonic()))
        self.sock.sendall(len(payload).to_bytes(4, "big") + payload)

    def _receive(self, deadline: float) -> list[str]:
        """One reply: a JSON list of strings, at most ANSWER_BYTES long, before ``deadline``."""
        size = int.from_bytes(self._read(4, deadline), "big")
        if size > ANSWER_BYTES:
            raise BotFailure("illegal", f"sent a reply of {size} bytes (at most {ANSWER_BYTES})")
        try:
            reply = json.loads(self._read(size, deadline).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            reply = None
        if not (isinstance(reply, list) and reply and all(isinstance(part, str) for part in reply)):
            raise BotFailure("illegal", "sent something that is not the sandbox's reply")
        return reply

    def _read(self, size: int, deadline: float) -> bytes:
        data = b""
        while len(data) < size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            self.sock.settimeout(left)
            chunk = self.sock.recv(min(size - len(data), 1 << 16))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def _expect(self, word: str, deadline: float, late: str, message: str) -> None:
        reply = self._talk(None, deadline, late, message)
        if reply[0] != word:
            self.close()
            raise BotFailure("start", f"the sandbox answered {reply[0][:40]!r} while starting")

    def _talk(self, message: Any, deadline: float, late: str, message_late: str) -> list[str]:
        """Send ``message`` (unless None) and return the reply; every failure closes the sandbox."""
        try:
            if message is not None:
                self._send(pickle.dumps(message), deadline)
            reply = self._receive(deadline)
        except TimeoutError:
            self.close()
            raise BotFailure(late, message_late) from None
        except BotFailure:
            self.close()
            raise
        except (EOFError, OSError):
            how = self._ended()
            self.close()
            if how == STARTED_A_PROCESS:
                raise BotFailure("forbidden", how) from None
            raise BotFailure("crashed", f"the bot's process ended ({how})") from None
        if reply[0] == "error":
            reason = reply[1] if len(reply) > 2 and reply[1] in REASONS else "raised"
            raise BotFailure(reason, _cut(reply[-1], 300))
        return reply

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "it closed its line to the referee"
        if code < 0 or code > 128:
            number = -code if code < 0 else code - 128
            name = (
                signal.Signals(number).name
                if number in signal.Signals._value2member_map_
                else str(number)
            )
            return {
                "SIGXCPU": f"used more than {CPU_LIMIT:g} s of processor time",
                "SIGXFSZ": f"printed more than {OUTPUT_LIMIT} bytes",
                "SIGSYS": STARTED_A_PROCESS,
            }.get(name, f"killed by {name}")
        return f"exit code {code}"

    def _call(self, message: Any, late: str) -> list[str]:
        if self.process is None:
            try:
                self._start()
            except BotFailure:
                raise
            except (EOFError, OSError, TimeoutError) as err:
                how = self._ended() if self.process is not None else describe(err)
                self.close()
                raise BotFailure("start", f"the sandbox did not start ({how})") from None
        return self._talk(
            message,
            time.monotonic() + self.time_limit,
            late,
            f"no answer within {self.time_limit:g} s",
        )

    # -- the bot's side of a game -----------------------------------------------------------

    def new_game(self, seed: int | None) -> str:
        """Build a fresh bot from ``seed`` in the child; returns its name."""
        if self.process is not None:
            self._check_between_games()
        self.name = _cut(self._call(("new", seed), "start")[-1], 80)
        return self.name

    def choose(self, view: Any, legal: list[Any]) -> Any:
        """The bot's decision for ``view``, read from its text and checked against ``legal``."""
        text = self._call(("choose", view, list(legal)), "timeout")[-1]
        try:
            action = self.parse(text) if self.parse else next(a for a in legal if str(a) == text)
        except Exception:
            raise BotFailure(
                "illegal",
                f"answered {_cut(text, 120)!r}, not an action; legal: {', '.join(map(str, legal))}",
            ) from None
        return checked(action, legal)

    def _check_between_games(self) -> None:
        """No process may outlive the decision that started it; a long-lived sandbox is renewed."""
        strays = len(_descendants(self.process.pid)) - self._own
        if strays > 0:
            self.close()
            raise BotFailure(
                "forbidden", f"left {strays} process{'es' * (strays > 1)} running after its answers"
            )
        if _cpu_seconds(self._host) > CPU_LIMIT / 2:  # before the kernel's limit ends it mid-game
            self.close()

    def close(self) -> None:
        """End the bot's process and every process it started (at once: a looping bot does not finish)."""
        if self.process is not None:
            with contextlib.suppress(OSError, AttributeError):
                os.killpg(
                    self.process.pid, signal.SIGKILL
                )  # the sandbox's session (fallback: the bot's)
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.sock.close()
            self.output.close()
        self.process = self.sock = self.output = None


STARTUP = 20.0
"""Seconds a sandbox may take to start its interpreter and import the kit (about 0.3 s idle).

No code of the bot runs in that time; loading the bot's code is held to the time limit."""
CPU_LIMIT = 600.0
"""Seconds of processor time a sandbox's process may use (each process it starts, too)."""
PROCESS_LIMIT = 8
"""Threads a bot may start (the kernel counts them as processes: a bot may start no process,
see ``sandbox_process.one_process``). Sandboxed by root, the bot has a user of its own and
this is exact; otherwise the kernel counts all the user's processes, so it is the room left
beyond those running when the sandbox starts (root without namespaces: no limit)."""
STARTED_A_PROCESS = "tried to start a process: a bot runs in one process, and the sandbox ended it"
"""A bot's failure when it asked for a second process (reason ``forbidden``)."""
OUTPUT_LIMIT = 1 << 20
"""Bytes a bot may print (stdout and stderr together, kept in a file)."""
ANSWER_BYTES = 1 << 16
"""The longest reply the referee reads from a bot's process."""

_HOST = (
    "import sys, json; sys.path[:] = json.loads(sys.argv[2]); "
    "from mogul.kit.sandbox_process import serve; serve(int(sys.argv[1]))"
)


def _cut(text: str, length: int) -> str:
    text = str(text)
    return text if len(text) <= length else text[: length - 3] + "..."


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid``, parents before children (an empty list once it is gone)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
                parents.setdefault(int(stat[stat.rindex(b")") + 2 :].split()[1]), []).append(
                    int(entry)
                )
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        children = sorted(parents.get(todo.pop(0), []))
        out += children
        todo += children
    return out


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rindex(b")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _processes_of(uid: int) -> int:
    """How many processes (threads included: the kernel counts those) ``uid`` runs now."""
    count = 0
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry}/task"))
            except OSError:
                pass
    return count


# --- where the bot's process runs: bubblewrap, or a plain process -------------------------

BOT_UIDS = range(1 << 30, (1 << 30) + (1 << 24))
"""The users a bot may run as when the referee runs as root: one drawn afresh per sandbox
(no account has them; a bot reads only what everyone may read)."""
TMP_BYTES = 16 << 20
"""Size of the sandbox's writable /tmp."""
ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/tmp",
    "PYTHONDONTWRITEBYTECODE": "1",
    "OPENBLAS_NUM_THREADS": "1",  # numerical libraries: one thread, no surprise processes
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
"""The whole environment a bot sees (nothing of the referee's: no passwords, no store URL)."""
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.cache")


def bot_uid() -> int:
    """A user ID of its own for a bot sandboxed by root."""
    return random.SystemRandom().choice(BOT_UIDS)


def bot_env() -> dict[str, str]:
    """The environment a bot's process starts with."""
    return dict(ENV)


@functools.cache
def bwrap() -> str | None:
    """The ``bwrap`` program if it can make a sandbox here; else None, after one warning."""
    if os.environ.get("MOGUL_SANDBOX", "").lower() == "process":
        return None
    path = shutil.which("bwrap") if sys.platform.startswith("linux") else None
    why = "" if path else "bubblewrap (bwrap) is not installed"
    if path:
        try:
            probe = subprocess.run(
                [path, *sandbox_args(path), sys.executable, "-I", "-c", "pass"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=30,
                env=bot_env(),
            )
            why = (
                ""
                if probe.returncode == 0
                else probe.stderr.decode(errors="replace").strip()[-200:]
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            why = str(err)
    if not sys.platform.startswith("linux"):
        why = f"namespaces need Linux (this is {sys.platform})"
    if why:
        warnings.warn(
            f"Students' bots run without namespaces: {why}. They keep their limits (time, memory, "
            "processes, output) but could see other processes and read your files. On Debian/Ubuntu: "
            "apt-get install bubblewrap (make test installs it).",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return path


def sandbox_args(program: str, paths: Iterable[str] = ()) -> list[str]:
    """bwrap's arguments (after the program, before the command) for a bot's sandbox."""
    root = os.getuid() == 0
    if root:  # real root: no user namespace (so the bot can become nobody), the rest unshared
        spaces = [
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
        ]
    else:
        spaces = ["--unshare-all"]
    args = [*spaces, "--die-with-parent", "--new-session", "--proc", "/proc", "--dev", "/dev"]
    # The bot's own /tmp first: the views come after it, so a kit or venv that lives under
    # /tmp (a clone there, as CI may make) is laid over it instead of hidden by it.
    args += ["--size", str(TMP_BYTES), "--perms", "1777", "--tmpfs", "/tmp"]
    args += _views([*SYSTEM, *_python_paths(), *paths])
    args += [
        "--remount-ro",
        "/",
        "--chdir",
        "/tmp",
        "--clearenv",
    ]
    for key, value in ENV.items():
        args += ["--setenv", key, value]
    return [*args, "--"]


def _python_paths() -> list[str]:
    """Where this Python lives: its prefixes and the real interpreter's folder."""
    real = os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))
    return [
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        real,
        os.path.dirname(os.path.abspath(sys.executable)),
    ]


def _views(paths: Iterable[str]) -> list[str]:
    """Read-only binds of ``paths`` (each once, outermost first) and their parent folders."""
    args: list[str] = []
    bound: list[str] = []
    made: set[str] = {"/"}
    for path in sorted({os.path.abspath(p or ".") for p in paths}, key=lambda p: (p.count("/"), p)):
        if not os.path.exists(path) or any(
            path == b or path.startswith(b.rstrip("/") + "/") for b in bound
        ):
            continue
        real = os.path.realpath(path)
        if os.path.islink(path) and os.path.dirname(path) == "/" and real.startswith("/usr/"):
            args += ["--symlink", os.path.relpath(real, "/"), path]  # /lib -> usr/lib (merged /usr)
            bound.append(path)
            continue
        parent = os.path.dirname(path)
        missing = []
        while parent not in made:
            missing.append(parent)
            parent = os.path.dirname(parent)
        for folder in reversed(missing):  # 0755 even where the real folder is private (/root)
            args += ["--perms", "0755", "--dir", folder]
            made.add(folder)
        args += ["--ro-bind", path, path]
        bound.append(path)
        made.add(path)
    return args


def bot_views(payload: bytes) -> tuple[list[str], list[str]]:
    """What a bot's sandbox shows besides Python and the system, and the bot's ``sys.path``.

    Shown, read-only: the kit's package folder (``mogul``, not the folder that holds it) and
    its data folder, the user's installed packages if Python imports from them, and the files
    of the bot's own code (``bot_files``). Not the folders on this process's ``sys.path``:
    the current folder, the project root of an editable install and the folder of the
    referee's script hold the store, exports, other bots and seed files. The bot's
    ``sys.path`` is this one's, less the folders the sandbox does not show, plus the folder
    holding the kit where it is missing (an editable install may find the kit another way).
    """
    import site

    from mogul.kit.data import data_path

    kit = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # mogul/kit/guard.py
    shown = [kit, str(data_path())]
    user = site.getusersitepackages()
    if user in sys.path:
        shown.append(user)
    shared = [*shown, *_python_paths(), *SYSTEM]
    shown += bot_files(payload, shared)
    everything = [*shown, *_python_paths()]
    path = [
        folder
        for folder in dict.fromkeys(os.path.abspath(p or ".") for p in sys.path)
        if any(_inside(folder, v) or _inside(v, folder) for v in everything)
    ]
    if os.path.dirname(kit) not in path:
        path.append(os.path.dirname(kit))
    return shown, path


def bot_files(payload: bytes, shared: Iterable[str] = ()) -> list[str]:
    """The files of the bot's own code: the modules its pickle names, and those they import.

    Starting from every module that ``payload`` (the bot's factory, pickled) names, each
    module outside ``shared`` folders (the standard library, installed packages, the kit)
    gives its file, its packages' ``__init__.py`` files, and the modules its globals come
    from, in turn (but not a package's submodules: another module's import puts them there).
    ``__main__`` (a notebook, the referee's script) is left out: cloudpickle sends what is
    defined there by value. So a student's ``alice.py`` brings ``alice.py`` and the helpers it
    imports, never ``bob.py`` beside it; a module a bot imports only inside a function, or a
    data file it opens, is not there. (The modules named are ones the referee has imported:
    a bot's module runs in the referee when it is imported there, so this shows it nothing
    its module could not already have read.)
    """
    import pickletools
    import types

    shared = [os.path.abspath(p) for p in shared]
    names: set[str] = set()
    try:
        for _, arg, _ in pickletools.genops(payload):
            if isinstance(arg, str) and len(arg) < 300:
                names.update(arg.split())
    except Exception:  # a pickle it cannot read: no files (the bot then fails to load, named)
        pass
    todo = [sys.modules[n] for n in sorted(names) if n in sys.modules]
    seen: set[str] = {"__main__"}
    files: list[str] = []
    while todo:
        module = todo.pop()
        name = getattr(module, "__name__", None)
        if not isinstance(name, str) or name in seen:
            continue
        seen.add(name)
        file = getattr(module, "__file__", None)
        if not isinstance(file, str) or any(_inside(os.path.abspath(file), s) for s in shared):
            continue
        files.append(os.path.abspath(file))
        parts = name.split(".")
        todo += [sys.modules.get(".".join(parts[:i])) for i in range(1, len(parts))]
        for value in list(vars(module).values()):
            if isinstance(value, types.ModuleType):
                # A package holds each of its submodules that anyone imported: not its code.
                if not str(getattr(value, "__name__", "")).startswith(name + "."):
                    todo.append(value)
                continue
            try:
                source = getattr(value, "__module__", None)
            except Exception:  # an object whose attributes raise tells nothing
                source = None
            if isinstance(source, str):
                todo.append(sys.modules.get(source))
    return sorted(set(files))


def _inside(path: str, folder: str) -> bool:
    """True if ``path`` is ``folder`` or lies below it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")
