from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from clubs.models import Membership
        from games.events import player_merging
        from replays.extras import register_player_calendar

        from . import audit_actions  # noqa: F401 (the audit actions of tournaments and leagues)
        from .calendar_views import player_calendar_link
        from .receivers import on_membership_deleted, on_player_merging

        # What competitions keep of a player (tournament entries, league rosters) follows a
        # merge.
        player_merging.connect(on_player_merging, dispatch_uid="competitions-player-merging")
        post_delete.connect(
            on_membership_deleted, sender=Membership, dispatch_uid="competitions-calendar-keys"
        )
        # The player's page links to the player's calendar feed.
        register_player_calendar(player_calendar_link)
