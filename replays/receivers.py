"""What replays does when the archive announces a change (its hooks filled in ``apps.py``)."""

import logging

from kombu.exceptions import OperationalError as BrokerError

from games.events import Event, HandleClaimed, HandlesMerged, MatchesStored, MatchRemoved

from .head_to_head import head_to_head_apply
from .models import SeatResult
from .pipeline import handle_claimed, handles_merged, scopes_dirty_of
from .tasks import (
    analyses_follow_task,
    matches_forget_task,
    matches_review_task,
    ratings_recompute_task,
    replays_store_task,
)
from .totals import totals_apply

logger = logging.getLogger(__name__)


def on_match_deleting(*, match_id: int) -> None:
    """Take a match about to be deleted out of the running totals, in its transaction: its
    seat results go first, so the rows it leaves read their last play without it."""
    removed = list(SeatResult.objects.filter(match_id=match_id))
    SeatResult.objects.filter(match_id=match_id).delete()
    totals_apply(added=[], removed=removed)
    head_to_head_apply(added=[], removed=removed)


def on_player_merging(*, source, target) -> None:
    """A handle merged into another: its seat results, totals and analysis summaries move
    to the surviving handle in the merge's transaction (without it they would go with the
    old handle), and the ratings are marked dirty (``pipeline.handles_merged``)."""
    handles_merged(source_id=source.pk, target_id=target.pk)


def on_player_claimed(*, player) -> None:
    """A handle became a person's: the all-clubs ratings are marked from its first match,
    in the claim's transaction (``pipeline.handle_claimed``)."""
    handle_claimed(player_id=player.pk)


def on_archive_event(event: Event) -> None:
    """Queue the statistics and ratings of stored matches (and their analyses, for a club
    that analyses every match, and the replays of long ones), or forget a deleted one.

    With the broker unreachable nothing is lost: the periodic catch-up finds matches without
    figures and scopes left dirty (a deleted match's scope is marked by the task it queues,
    so that one is the only event that waits for the broker to come back).
    """
    try:
        if isinstance(event, MatchesStored):
            matches_review_task.delay(list(event.match_ids))
            analyses_follow_task.delay(list(event.match_ids))
            replays_store_task.delay(list(event.match_ids))
        elif isinstance(event, HandlesMerged | HandleClaimed):
            # Its figures moved in the merge's transaction (a claim's stand); the ratings
            # marked in that transaction are owed.
            for scope_id in scopes_dirty_of(club_id=event.club_id):
                ratings_recompute_task.delay(scope_id)
        elif isinstance(event, MatchRemoved):
            matches_forget_task.delay(event.club_id, event.since.isoformat())
    except (BrokerError, ConnectionError, TimeoutError) as exc:
        logger.warning("%s not queued, the broker is unreachable: %s", event, exc)
