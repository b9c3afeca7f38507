from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReplaysConfig(AppConfig):
    name = "replays"
    verbose_name = _("Replays")

    def ready(self) -> None:
        # Everything replays derives from stored matches follows the archive's events.
        from games.events import player_merging, subscribe

        from . import audit_actions  # noqa: F401 (the audit actions of events and leagues)
        from .receivers import on_archive_event, on_player_merging

        subscribe(on_archive_event)
        # What replays keeps of a player (event entries, league rosters) follows a merge.
        player_merging.connect(on_player_merging, dispatch_uid="replays-player-merging")
