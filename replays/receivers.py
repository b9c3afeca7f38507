"""What replays does when the archive announces a change (subscribed in ``apps.py``)."""

from games.events import Event, MatchesStored, MatchRemoved

from .tasks import matches_forget_task, matches_review_task


def on_archive_event(event: Event) -> None:
    """Queue the statistics and ratings of stored matches, or forget a deleted one."""
    if isinstance(event, MatchesStored):
        matches_review_task.delay(list(event.match_ids))
    elif isinstance(event, MatchRemoved):
        matches_forget_task.delay(event.club_id, event.since.isoformat())
