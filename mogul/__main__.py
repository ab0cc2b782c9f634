"""``python -m mogul`` and the ``mogul`` console command: the command line (see ``mogul.cli``)."""

import os
import sys

from mogul.cli import main as command_line


def main() -> None:
    """Run the command line and leave with its exit status."""
    code = command_line()
    if code in (130, 143):
        # Interrupted: the games so far and the manifest are saved, and the workers die with this
        # process. Leave at once: the interpreter's exit hooks would join a worker pool that was
        # cut off mid-task, which can wait for ever on a pipe no worker reads any more.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    main()
