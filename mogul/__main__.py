"""``python -m mogul``: the command line (see ``mogul.cli``)."""

import sys

from mogul.cli import main

sys.exit(main())
