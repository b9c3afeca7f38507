"""``python -m games.engine``: the engine's command line at its old address."""

import sys

from fives_engine.__main__ import main

sys.exit(main())
