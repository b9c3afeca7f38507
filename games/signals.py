"""Signals sent inside the transaction of a change, for what other apps keep of the archive's
rows and must carry along with it, or write of the change (a club's audit trail): what they
do commits or rolls back with it. ``games`` never imports those apps: they connect in their
app config. (What is derived from stored matches follows ``games.events`` instead, after the
commit.)"""

from __future__ import annotations

from django.dispatch import Signal

# A handle of a club is merged into another of the same club: sent with ``source`` and
# ``target`` (players), ``actor`` (the admin who merged them) and ``matches`` (how many
# moved) inside the merge's transaction, after the matches moved and before ``source`` is
# deleted (with everything that still points at it).
player_merging = Signal()

# A handle of a club is renamed by one of its admins: sent with ``player`` (renamed),
# ``actor``, ``before`` and ``after`` (the handles) inside the rename's transaction.
player_renamed = Signal()

# Matches awaiting their club's approval are decided by one of its admins: sent with
# ``club``, ``actor``, ``matches`` (their uploads and uploaders loaded, in id order) and
# ``approve`` inside the review's transaction, once the matches are saved.
matches_reviewed = Signal()

# An upload is about to be deleted, or is run again: sent with ``upload`` and ``actor`` (who
# asked; None for the system) before it changes, inside its transaction where it has one.
upload_deleting = Signal()
upload_running_again = Signal()
