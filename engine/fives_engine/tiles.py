"""Tiles of the double-six set, as small integers for speed.

A tile is an ``int`` id in 0..27; ``LOW[t]`` and ``HIGH[t]`` are its pips (low <= high).
Logs write tiles as ``"a-b"`` in any order; the order matters only for the lead tile,
whose ``a`` faces west. ``parse_tile`` turns the text into ``(id, a, b)``.
"""

from __future__ import annotations

from typing import Final

LOW: Final[list[int]] = []
HIGH: Final[list[int]] = []
TILE_ID: Final[dict[tuple[int, int], int]] = {}

for _low in range(7):
    for _high in range(_low, 7):
        TILE_ID[(_low, _high)] = TILE_ID[(_high, _low)] = len(LOW)
        LOW.append(_low)
        HIGH.append(_high)

ALL_TILES: Final[tuple[int, ...]] = tuple(range(len(LOW)))
SET_SIZE: Final = len(ALL_TILES)  # 28
PIPS: Final[list[int]] = [LOW[t] + HIGH[t] for t in ALL_TILES]
IS_DOUBLE: Final[list[bool]] = [LOW[t] == HIGH[t] for t in ALL_TILES]
# NAME[t] is the canonical spelling "low-high", used when a log did not spell it.
NAME: Final[list[str]] = [f"{LOW[t]}-{HIGH[t]}" for t in ALL_TILES]

# "a-b" -> (tile id, a, b) for every spelling of every tile.
TILE_BY_TEXT: Final[dict[str, tuple[int, int, int]]] = {}
for _a in range(7):
    for _b in range(7):
        TILE_BY_TEXT[f"{_a}-{_b}"] = (TILE_ID[(_a, _b)], _a, _b)


def parse_tile(text: object) -> tuple[int, int, int] | None:
    """Return ``(tile id, first pip, second pip)`` for ``"a-b"``, or None if it is no tile."""
    if type(text) is not str:
        return None
    return TILE_BY_TEXT.get(text)
