from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from clubs.models import Membership
        from clubs.waiting import listen
        from games import event_names, guests
        from games.events import player_merging, subscribe
        from replays.extras import register_player_calendar

        from . import audit_actions  # noqa: F401 (the audit actions of tournaments and leagues)
        from .calendar_views import player_calendar_link
        from .event_names import league_leg_names, tournament_names
        from .leg_seats import leg_guests
        from .receivers import on_membership_deleted, on_player_merging
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
        post_delete.connect(
            on_membership_deleted, sender=Membership, dispatch_uid="competitions-calendar-keys"
        )
        # The player's page links to the player's calendar feed.
        register_player_calendar(player_calendar_link)
