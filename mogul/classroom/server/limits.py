"""How much of the hall one client may take: the bounds per page and per address
(``Limits``), the token bucket that keeps them (``Bucket``), and the sentences a page gets when
it goes past them (``FLOODED``; any error cut to ``MAX_ERROR`` characters by ``bounded``)."""

from __future__ import annotations

import time
from dataclasses import dataclass

MAX_ERROR = 300
"""The longest error sentence sent to a page (one quoting a page's own long input is cut)."""
FLOODED = "too many requests from this page at once: wait a second, then try again"
"""The one sentence a page flooding the hall gets (its requests beyond its limit are dropped)."""


@dataclass(frozen=True)
class Limits:
    """How much of the hall one client may take, so that one socket or one address cannot fill
    the room (issue 36). Many students may share ONE address (a university network behind one
    router), so the bounds per address are for a lecture hall of several hundred; a page (one
    WebSocket: one student's tab) gets the tight ones.

    ``pages_per_address``: open student pages from one address (a class of 500 with some tabs
    reloading; 1,500 sockets from one client are not a class). ``connections_per_address``:
    open TCP connections from one address, pages and page loads together (at most half the
    process's file limit). ``joins_per_page``: (burst, seconds per
    further join) on one page; a student joins once, maybe again after a typo.
    ``joins_per_address``: the same for one address (the whole class joining in a minute).
    ``header_seconds``: how long a connection may take to send a request's headers, or sit
    idle between requests (a slow client holding sockets open). ``refusals_per_page``: (burst,
    seconds per further one) of a page's requests that are refused (out of turn, too late,
    malformed): past it, what the page sends is dropped unread, and it is told so in one
    sentence (issue 39: a flood of refused clicks kept a server busy for a minute). A move that
    is played costs nothing, so a student playing fast against bots is never held up.
    """

    pages_per_address: int = 600
    connections_per_address: int = 1000
    joins_per_page: tuple[int, float] = (4, 5.0)
    joins_per_address: tuple[int, float] = (600, 0.1)
    header_seconds: float = 10.0
    refusals_per_page: tuple[int, float] = (20, 0.1)


class Bucket:
    """A token bucket: ``burst`` at once, then one more every ``seconds``."""

    def __init__(self, burst: int, seconds: float) -> None:
        self.burst, self.seconds = burst, seconds
        self.tokens, self.at = float(burst), time.monotonic()

    def ready(self) -> bool:
        """True if there is a token to spend (none is spent)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) / self.seconds)
        self.at = now
        return self.tokens >= 1

    def take(self) -> bool:
        """Spend one token if there is one (True), else False."""
        if not self.ready():
            return False
        self.tokens -= 1
        return True

    @property
    def wait(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1 - self.tokens) * self.seconds)


def bounded(message: str) -> str:
    """``message`` cut to ``MAX_ERROR`` characters (an error may quote what a page sent)."""
    return message if len(message) <= MAX_ERROR else message[: MAX_ERROR - 1] + "\u2026"


__all__ = ["FLOODED", "MAX_ERROR", "Bucket", "Limits", "bounded"]
