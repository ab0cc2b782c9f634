"""A command run in the background and watched by what it prints, never by the clock.

Tests that interrupt a run must interrupt it after some games have finished. Sleeping a few
seconds first is a guess that fails on a loaded machine (the imports alone can take longer),
so ``Watched`` reads the run's progress bar from stderr and ``wait_for_games`` returns as soon
as the bar shows that many finished games.
"""

from __future__ import annotations

import re
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

# tqdm's bar: "  3%|▎         | 12/400 [00:01<00:30, 9.5game/s]"
_BAR = re.compile(r"\| *(\d+)/(\d+) \[")


def _sigint_at_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Watched:
    """``args`` running as a child process; its stdout and stderr are collected as they come."""

    def __init__(self, args: Sequence[str], **popen) -> None:
        # Ctrl-C as at a terminal: a shell starts a background job (``make test &``, a CI
        # runner's) with SIGINT ignored, and a child keeps that, so Python would never raise
        # KeyboardInterrupt and every Ctrl-C test would wait out its timeout.
        popen.setdefault("preexec_fn", _sigint_at_default)
        self.proc = subprocess.Popen(
            list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen
        )
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._readers = [
            threading.Thread(target=self._read, args=(stream, into), daemon=True)
            for stream, into in ((self.proc.stdout, self._out), (self.proc.stderr, self._err))
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, into: list[bytes]) -> None:
        for chunk in iter(lambda: stream.read1(4096), b""):
            into.append(chunk)

    @property
    def err(self) -> str:
        """What the command has written to stderr so far."""
        return b"".join(self._err).decode(errors="replace")

    def games_done(self) -> int:
        """The finished games the progress bar shows last (0 before the bar appears)."""
        found = _BAR.findall(self.err)
        return int(found[-1][0]) if found else 0

    def wait_for_games(self, at_least: int = 1, timeout: float = 300) -> int:
        """Wait until the bar shows ``at_least`` finished games; fail if the command ends first."""
        end = time.monotonic() + timeout
        while (done := self.games_done()) < at_least:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"the command ended (exit {self.proc.returncode}) first:\n{self.err}"
                )
            if time.monotonic() > end:
                raise AssertionError(
                    f"no {at_least} games finished in {timeout} s:\n{self.err[-2000:]}"
                )
            time.sleep(0.05)
        return done

    def interrupt(self, timeout: float = 60) -> tuple[str, str]:
        """Send Ctrl-C, wait for the command to end; its whole (stdout, stderr)."""
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
            signals = [line for line in status.splitlines() if line.startswith("Sig")]
            raise AssertionError(
                f"still running {timeout} s after Ctrl-C ({', '.join(signals)}); its stderr "
                f"ends: {self.err[-1500:]!r}"
            ) from None
        for reader in self._readers:
            reader.join(timeout=10)
        return b"".join(self._out).decode(errors="replace"), self.err
