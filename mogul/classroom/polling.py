"""Following the table store from a page: ``poll`` every few tenths of a second.

The student page and the lecturer dashboard both redraw when the store changed. A kernel has
an event loop in a notebook and in a Voila page; ``Polling`` runs ``poll`` on it until stopped,
and a failed poll (a database hiccup) is reported by the page and the polling goes on.
"""

from __future__ import annotations

import asyncio


class Polling:
    """A page that reads the store every ``poll_seconds``: it defines ``poll`` and ``poll_failed``."""

    poll_seconds: float
    _task: asyncio.Task | None = None

    def poll(self) -> bool:
        """Read the store; redraw and return True if something changed."""
        raise NotImplementedError

    def poll_failed(self, error: Exception) -> None:
        """Show that the store could not be read (the polling goes on)."""
        raise NotImplementedError

    def start_polling(self) -> None:
        """Poll the store from the kernel's event loop (in a notebook or a Voila page)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (plain Python, tests): call poll() yourself
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._poll_forever())

    def stop_polling(self) -> None:
        """Stop the polling task."""
        if self._task is not None:
            self._task.cancel()

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                self.poll()
            except Exception as err:  # a database hiccup: say so, keep polling
                self.poll_failed(err)
