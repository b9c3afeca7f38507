from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from clubs.waiting import listen
        from games import event_names, guests
        from games.events import player_merging, subscribe

        from . import audit_actions  # noqa: F401 (the audit actions of tournaments and leagues)
        from .event_names import league_leg_names, tournament_names
        from .leg_seats import leg_guests
        from .receivers import on_player_merging
        from .tasks import on_archive_event, on_waiting
        from .waiting import register_kinds

        # What a match may count for, offered on the upload form and the recorder's set-up.
        event_names.register("tournaments", tournament_names)
        event_names.register("league-legs", league_leg_names)
        # A league leg's visiting players sit in their own club's seats (games.guests).
        guests.register(leg_guests)

        # What competitions keep of a player (tournament entries, league rosters) follows a
        # merge.
        player_merging.connect(on_player_merging, dispatch_uid="competitions-player-merging")
        # What waits on a person in leagues (clubs.waiting), and the emails of every kind
        # (competitions.inbox): sent in a task once announced, matches awaiting approval
        # from the archive's events.
        register_kinds()
        listen(on_waiting)
        subscribe(on_archive_event)
