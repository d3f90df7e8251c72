"""``python -m shared.cli``: the ``memorylayer`` command."""

import sys

from shared.cli import main

if __name__ == "__main__":
    sys.exit(main())
