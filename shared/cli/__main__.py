"""``python -m shared.cli``: the ``memorylayer`` command."""

import sys

from shared.cli import main

sys.exit(main())
