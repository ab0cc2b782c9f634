"""The audit's attacks on the referee (issue 27), one bot each.

Each plays like ``Honest`` unless its attack works; an attack that works either shows in
the referee (a file appears, a run stops) or makes the bot raise with what it found, so a
test that sees no such failure knows the attack was contained.
"""

import contextlib
import os
import pickle
import random
import signal
import socket
import subprocess
import sys
import time

import mogul
from hostile_bots import Honest


class _RunsInTheReferee:
    """Unpickled, it creates ``path``: proof that the bot's code ran where it was unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


class PickleAnswer(Honest):
    """Answers with a crafted pickle written straight onto its line to the referee."""

    name = "pickle-answer"

    def __init__(self, seed=None, marker="/nonexistent"):
        super().__init__(seed)
        self.marker = marker

    def choose(self, view, legal):
        line = socket.socket(fileno=os.dup(int(sys.argv[1])))  # the sandbox's line to the referee
        payload = pickle.dumps(("ok", _RunsInTheReferee(self.marker)))
        line.sendall(len(payload).to_bytes(4, "big") + payload)
        time.sleep(0.2)  # the referee reads this first
        return super().choose(view, legal)


def old_plan(seed, games, seats):
    """The seeds as the kit drew them before issue 27: one random.Random for deals and bots."""
    rng = random.Random(seed)
    plans = []
    for _ in range(games):
        deal = rng.getrandbits(32)
        plans.append((deal, [rng.getrandbits(32) for _ in range(seats)]))
    return plans


def recover_deal(bot_seed, seats=3, run_seeds=range(300), games=24):
    """The audit's attack: find the run seed whose stream holds ``bot_seed``; the deal seed before it."""
    for run_seed in run_seeds:
        for deal, bots in old_plan(run_seed, games, seats):
            if bot_seed in bots:
                return deal
    return None


class SeedSpy(Honest):
    """Works out the deal from its own seed, and says so at its first decision if it can."""

    name = "seed-spy"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.deal = None if seed is None else recover_deal(seed)

    def choose(self, view, legal):
        if self.deal is not None:
            dealt = mogul.new_game(players=len(view.players), seed=self.deal)
            pile = [dealt.revealed, *dealt.deck]  # the cards in the order they come up
            if view.revealed == pile[view.round - 1]:
                raise LookupError(f"predicted the pile from my seed (deal seed {self.deal})")
        return super().choose(view, legal)


class Saboteur(Honest):
    """Kills every other sandbox it can see and sends the referee Ctrl-C, then plays on."""

    name = "saboteur"

    def choose(self, view, legal):
        me = os.getpid()
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != me:
                try:
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        if b"mogul.kit.guard" in f.read():
                            os.kill(int(entry), signal.SIGKILL)
                except OSError:
                    pass
        with contextlib.suppress(OSError):
            os.kill(os.getppid(), signal.SIGINT)
        return super().choose(view, legal)


class Forker(Honest):
    """Leaves processes behind: ``sleep 601`` and a forked copy of itself that waits."""

    name = "forker"

    def choose(self, view, legal):
        if not getattr(self, "forked", False):
            self.forked = True
            subprocess.Popen(["sleep", "601"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
        return super().choose(view, legal)


class Splitter(Honest):
    """Splits its memory over 8 processes of 100 MB each (a cap per process would hold 800 MB)."""

    name = "splitter"

    def choose(self, view, legal):
        if not getattr(self, "split", False):
            self.split = True
            for _ in range(8):
                if os.fork() == 0:
                    held = bytearray(100 << 20)
                    time.sleep(600 if held else 0)
                    os._exit(0)
        return super().choose(view, legal)


class ForkBomb(Honest):
    """Starts processes until it cannot; says how many it got."""

    name = "fork-bomb"

    def choose(self, view, legal):
        started = []
        for _ in range(200):
            try:
                started.append(subprocess.Popen(["sleep", "602"]))
            except OSError:
                break
        raise RuntimeError(f"started {len(started)} processes")


def _hog_at_load():
    held = bytearray(3 << 30)  # 3 GB taken while the bot's code loads, before any decision
    return Honest, held


def _slow_at_load():
    time.sleep(20)
    return Honest


class LoadHog:
    """A bot whose code takes 3 GB as it loads (as a module allocating at import would)."""

    def __reduce__(self):
        return (_hog_at_load, ())

    def __call__(self, seed=None):
        return Honest(seed)


class SlowLoad:
    """A bot whose code takes 20 s to load (as a slow import would)."""

    def __reduce__(self):
        return (_slow_at_load, ())

    def __call__(self, seed=None):
        return Honest(seed)


class Shouter(Honest):
    """Prints 40 MB at each decision."""

    name = "shouter"

    def choose(self, view, legal):
        sys.stdout.write("x" * (40 << 20))
        sys.stdout.flush()
        return super().choose(view, legal)


class Spy(Honest):
    """Looks for the referee's secrets: its environment, its memory, the network."""

    name = "spy"

    def __init__(self, seed=None, port=0):
        super().__init__(seed)
        self.port = port

    def choose(self, view, legal):
        found = [f"{k}={v}" for k, v in os.environ.items() if "MOGUL" in k]
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != os.getpid():
                try:
                    with open(f"/proc/{entry}/environ", "rb") as f:
                        if b"MOGUL_CLASSROOM" in f.read():
                            found.append(f"the environment of process {entry}")
                except OSError:
                    pass
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            found.append(f"a connection to port {self.port}")
        except OSError:
            pass
        if found:
            raise LookupError(f"found {found}")
        return super().choose(view, legal)


class Vandal(Honest):
    """Tries to rewrite the kit's own source and to leave a file in the referee's folder."""

    name = "vandal"

    def __init__(self, seed=None, target="", folder=""):
        super().__init__(seed)
        self.target, self.folder = target, folder

    def choose(self, view, legal):
        done = []
        for path, mode in ((self.target, "a"), (os.path.join(self.folder, "vandal.txt"), "w")):
            try:
                with open(path, mode) as f:
                    f.write("# rewritten by a student's bot\n")
                done.append(path)
            except OSError:
                pass
        if done:
            raise PermissionError(f"wrote {done}")
        return super().choose(view, legal)


class CalledValue(Honest):
    """A student's bot that takes the name of the kit's "value" bot."""

    name = "value"


class CalledGreekValue(Honest):
    """The same with a look-alike: a Cyrillic a and e."""

    name = "vаluе"


# --- what already held before issue 27, kept as tests --------------------------------------


class HugeAnswer(Honest):
    """Answers with 10 MB of text."""

    name = "huge-answer"

    def choose(self, view, legal):
        return "bid" * 3_500_000


class RawHugeReply(Honest):
    """Writes a reply of 100 MB (announced) straight onto its line."""

    name = "raw-huge-reply"

    def choose(self, view, legal):
        line = socket.socket(fileno=os.dup(int(sys.argv[1])))
        line.sendall((100 << 20).to_bytes(4, "big") + b"[" * 1000)
        time.sleep(5)


class StubbornSleeper(Honest):
    """Ignores every signal it can and sleeps."""

    name = "stubborn-sleeper"

    def choose(self, view, legal):
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
            signal.signal(sig, signal.SIG_IGN)
        time.sleep(600)


class HardExit(Honest):
    """Ends its process with os._exit at its first decision."""

    name = "hard-exit"

    def choose(self, view, legal):
        os._exit(0)


class ClosesFiles(Honest):
    """Closes every file descriptor it has, its line to the referee too."""

    name = "closes-files"

    def choose(self, view, legal):
        os.closerange(0, 1024)
        return super().choose(view, legal)


class BigAllocation(Honest):
    """Asks for 4 GB at a decision."""

    name = "big-allocation"

    def choose(self, view, legal):
        self.held = bytearray(4 << 30)
        return super().choose(view, legal)


class KitPatcher(Honest):
    """Patches the kit in its process so that anything passes, then answers nonsense."""

    name = "kit-patcher"

    def choose(self, view, legal):
        from mogul.kit import guard

        guard.checked = lambda action, legal: action
        guard.ask = lambda bot, view, legal: "sell everything"
        return "sell everything"


class GcSpy(Honest):
    """Looks through every object in its process for a game state with a pile."""

    name = "gc-spy"

    def choose(self, view, legal):
        import gc

        for thing in gc.get_objects():
            if hasattr(type(thing), "legal_actions") and getattr(thing, "deck", None):
                raise LookupError("found a game state with its pile")
        return super().choose(view, legal)
