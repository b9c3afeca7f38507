from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from clubs.waiting import listen
        from games.events import player_merging, subscribe

        from . import audit_actions  # noqa: F401 (the audit actions of tournaments and leagues)
        from .receivers import on_player_merging
        from .tasks import on_archive_event, on_waiting
        from .waiting import register_kinds

        # What competitions keep of a player (tournament entries, league rosters) follows a
        # merge.
        player_merging.connect(on_player_merging, dispatch_uid="competitions-player-merging")
        # What waits on a person in leagues (clubs.waiting), and the emails of every kind
        # (competitions.inbox): sent in a task once announced, matches awaiting approval
        # from the archive's events.
        register_kinds()
        listen(on_waiting)
        subscribe(on_archive_event)
