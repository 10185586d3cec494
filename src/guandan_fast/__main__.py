"""``python -m guandan_fast``: the ``guandan-fast`` command line."""

import sys

from .cli import main

sys.exit(main())
