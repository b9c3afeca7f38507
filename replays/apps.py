from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReplaysConfig(AppConfig):
    name = "replays"
    verbose_name = _("Replays")

    def ready(self) -> None:
        # Everything replays derives from stored matches follows the archive's events.
        from clubs.hooks import (
            ARCHIVE_EVENTS,
            HOME_NOTES,
            MATCH_DELETING,
            PLAYER_CLAIMED,
            PLAYER_MERGING,
        )

        from .puzzle_views import daily_puzzle_note
        from .receivers import (
            on_archive_event,
            on_match_deleting,
            on_player_claimed,
            on_player_merging,
        )

        ARCHIVE_EVENTS.fill(on_archive_event)
        MATCH_DELETING.fill(on_match_deleting)
        PLAYER_MERGING.fill(on_player_merging)
        PLAYER_CLAIMED.fill(on_player_claimed)
        HOME_NOTES.fill(daily_puzzle_note)
