"""Signals sent inside the transaction of a change, for what other apps keep of the archive's
rows and must carry along with it. ``games`` never imports those apps: they connect in their
app config. (What is derived from stored matches follows ``games.events`` instead, after the
commit.)"""

from __future__ import annotations

from django.dispatch import Signal

# A handle of a club is merged into another of the same club: sent with ``source`` and
# ``target`` (players) inside the merge's transaction, after the matches moved and before
# ``source`` is deleted (with everything that still points at it).
player_merging = Signal()
