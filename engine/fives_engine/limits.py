"""The limits of a ``fives/1`` log: what the archive's database can store and read back.

Every log the engine calls valid must fit the archive's columns, so the engine refuses
(``schema`` errors, naming the JSON path and the limit) anything beyond these, and the
archive never has to cut or guess. Each limit names the column it matches (``games/models.py``);
change both together.

Strings anywhere in a log (field names and values, known fields or not) may hold neither
U+0000 (PostgreSQL text and ``jsonb`` cannot store it) nor a lone surrogate, U+D800..U+DFFF
without its pair (it is not text: it cannot be written as UTF-8). ``json.loads`` yields
both from ``"\\u0000"`` and ``"\\ud800"`` escapes; bytes that are not UTF-8 are refused
before that (``not-utf8``).
"""

from __future__ import annotations

# --- strings: the most characters of each ------------------------------------------------

MAX_PLAYER_NAME = 100  # players[]: Player.handle, max_length=100
MAX_ID = 200  # id: Match.external_id, max_length=200
MAX_CLUB = 200  # club: Club.name, max_length=200
MAX_EVENT = 1000  # event: Match.event, max_length=1000
MAX_PLAYED_AT = 100  # played_at: Match.played_at_text, max_length=100
MAX_SOURCE = 1000  # source: Match.source, max_length=1000
MAX_TILE_TEXT = 20  # a tile as written ("5-3"); longer is no tile (never stored)

# The metadata fields and their limits, in the order the parser reads them.
MAX_METADATA: dict[str, int] = {
    "id": MAX_ID,
    "club": MAX_CLUB,
    "event": MAX_EVENT,
    "played_at": MAX_PLAYED_AT,
    "source": MAX_SOURCE,
}

# --- numbers ------------------------------------------------------------------------------

# Every number the parser reads (a move's claimed ``points``, ``final_scores``, seats,
# leaders, teams) and the per-count options of a ruleset (``target``, ``hand_size``) are
# finite (1e400 reads as infinity) and at most this in size: Move.claimed is a float
# column, final_scores and rules are JSON, seats are small integers, so any bound the
# game never comes near does; 10**9 is exact as a float and as a 32-bit integer.
MAX_NUMBER = 10**9

# Hand.index is a small integer column (PostgreSQL smallint: 0..32767).
MAX_HANDS = 32767

# How much of a JSON path a message names: a path deeper than this stops growing.
MAX_PATH = 300
