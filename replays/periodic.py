"""Periodic tasks of statistics and ratings (Celery beat, or the in-process beat)."""

from celery import shared_task

from games.tasks import RETRY

from .analysis import analyses_earlier, analyses_requeue_stuck
from .open_data import open_data_due
from .pipeline import matches_unreviewed, scopes_dirty
from .puzzles import puzzles_make
from .tasks import matches_review_task, ratings_recompute_task


@shared_task(**RETRY)
def statistics_catch_up_task() -> int:
    """Review stored matches that have no figures yet and recompute ratings left dirty (their
    tasks were lost with a broker or a worker); return how many tasks were sent."""
    sent = 0
    unreviewed = matches_unreviewed()
    for start in range(0, len(unreviewed), 200):
        matches_review_task.delay(unreviewed[start : start + 200])
        sent += 1
    for scope_id in scopes_dirty():
        ratings_recompute_task.delay(scope_id)
        sent += 1
    return sent


@shared_task(**RETRY)
def analyses_requeue_task() -> int:
    """Send again the analyses whose task or worker was lost (queued or running with no sign
    of life for ``FIVES_ANALYSIS_STUCK_AFTER`` seconds); return how many."""
    return analyses_requeue_stuck()


@shared_task(**RETRY)
def analyses_earlier_task() -> int:
    """Ask, within each club's daily bound, for the analyses of the earlier matches of the
    clubs that want them (``analyses_earlier``); return how many."""
    return analyses_earlier()


@shared_task(**RETRY)
def open_data_task() -> list[str]:
    """Write last month's open data once it is over, and a month's again when its public
    matches changed (``replays.open_data.open_data_due``); return the months written."""
    return open_data_due()


@shared_task(**RETRY)
def puzzles_make_task() -> dict[str, int]:
    """Make puzzles from the analyses of public clubs' matches done since the last run
    (``replays.puzzles.puzzles_make``, at most 200 matches a run); return the counts."""
    return puzzles_make(limit=200)
