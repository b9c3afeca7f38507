from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from games import guests
        from games.events import player_merging

        from . import audit_actions  # noqa: F401 (the audit actions of tournaments and leagues)
        from .leg_seats import leg_guests
        from .receivers import on_player_merging

        # A league leg's visiting players sit in their own club's seats (games.guests).
        guests.register(leg_guests)

        # What competitions keep of a player (tournament entries, league rosters) follows a
        # merge.
        player_merging.connect(on_player_merging, dispatch_uid="competitions-player-merging")
