"""What the recorder does when the archive announces a change (subscribed in ``apps.py``):
a live match's watchers are sent to the stored match once its ratings are in."""

import logging

from games.events import Event, MatchesRated, MatchesStored

from . import live

logger = logging.getLogger(__name__)


def on_archive_event(event: Event) -> None:
    """Send the watchers of finished live matches to their stored matches: once the club's
    ratings are brought up to date, or at once for a match that will not be rated (awaiting
    an admin's approval)."""
    try:
        if isinstance(event, MatchesRated):
            live.live_rated(club_id=event.club_id)
        elif isinstance(event, MatchesStored):
            live.live_unrated(match_ids=event.match_ids)
    except Exception:  # the change is committed: the watchers' pages still ask again
        logger.exception("live matches not told of %s", event)
