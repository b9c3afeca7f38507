"""The engine's old address, kept for the scripts and notebooks written before the engine
became a distribution of its own (``fives_engine``, in ``engine/``): ``from games.engine
import validate_json`` and ``python -m games.engine validate FILE`` still work. New code
imports ``fives_engine``."""

from fives_engine import *  # noqa: F403 (the old address names what the engine names)
from fives_engine import __all__  # noqa: F401
