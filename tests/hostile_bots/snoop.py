"""The audit's attacks on the sandbox's file system (issue 36), in a module of their own.

``Snoop`` lives apart from ``attacks`` so that ``attacks.py`` is another student's bot to it:
the sandbox shows a bot its own module, not the modules beside it.
"""

import os
import socket

from hostile_bots import Honest


def found(paths=(), sockets=()):
    """What can be read or listed among ``paths`` and connected to among ``sockets``."""
    seen = []
    for path in paths:
        try:
            if os.path.isdir(path):
                seen.append(f"{path}: {sorted(os.listdir(path))[:5]}")
            else:
                with open(path, "rb") as f:
                    seen.append(f"{path}: {f.read(40)!r}")
        except OSError:
            pass
    for path in sockets:
        try:
            with socket.socket(socket.AF_UNIX) as line:
                line.settimeout(0.5)
                line.connect(path)
                seen.append(f"the socket {path}")
        except OSError:
            pass
    return seen


class Snoop(Honest):
    """Tries to read, list or connect to what it is given; raises with what it found."""

    name = "snoop"

    def __init__(self, seed=None, paths=(), sockets=()):
        super().__init__(seed)
        self.paths, self.sockets = paths, sockets

    def choose(self, view, legal):
        seen = found(self.paths, self.sockets)
        if seen:
            raise LookupError(f"found {seen}")
        return super().choose(view, legal)
