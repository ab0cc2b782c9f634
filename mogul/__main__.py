"""``python -m mogul``: the command line (see ``mogul.cli``)."""

import os
import sys

from mogul.cli import main

code = main()
if code in (130, 143):
    # Interrupted: the games so far and the manifest are saved, and the workers die with this
    # process. Leave at once: the interpreter's exit hooks would join a worker pool that was
    # cut off mid-task, which can wait for ever on a pipe no worker reads any more.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
sys.exit(code)
