from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReplaysConfig(AppConfig):
    name = "replays"
    verbose_name = _("Replays")

    def ready(self) -> None:
        # Everything replays derives from stored matches follows the archive's events.
        from games.events import match_deleting, player_claimed, player_merging, subscribe

        from .receivers import (
            on_archive_event,
            on_match_deleting,
            on_player_claimed,
            on_player_merging,
        )

        subscribe(on_archive_event)
        match_deleting.connect(on_match_deleting, dispatch_uid="replays-match-deleting")
        player_merging.connect(on_player_merging, dispatch_uid="replays-player-merging")
        player_claimed.connect(on_player_claimed, dispatch_uid="replays-player-claimed")
