from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from clubs.hooks import (
            ARCHIVE_EVENTS,
            AUDIT_ACTIONS,
            COUNTS_FOR,
            PLAYER_CALENDAR,
            PLAYER_MERGING,
            WAITING_KINDS,
            WAITING_LISTENERS,
        )
        from clubs.models import Membership

        from . import audit_actions, receivers, waiting
        from .calendar_views import player_calendar_link
        from .event_names import league_leg_names, tournament_names
        from .models import League, Team
        from .tasks import on_archive_event, on_waiting

        # The audit actions of tournaments and leagues (clubs.audit).
        AUDIT_ACTIONS.fill(*audit_actions.ACTIONS)
        # What a match may count for, offered on the upload form and the recorder's set-up.
        COUNTS_FOR.fill(tournament_names, league_leg_names)
        # What competitions keep of a player (tournament entries, league rosters) follows a
        # merge.
        PLAYER_MERGING.fill(receivers.on_player_merging)
        # What waits on a person in leagues (clubs.waiting), and the emails of every kind
        # (competitions.inbox): sent in a task once announced, matches awaiting approval
        # from the archive's events.
        WAITING_KINDS.fill(*waiting.KINDS)
        WAITING_LISTENERS.fill(on_waiting)
        ARCHIVE_EVENTS.fill(on_archive_event)
        # The player's page links to the player's calendar feed.
        PLAYER_CALENDAR.fill(player_calendar_link)

        # Django's own signals. A person who leaves a club loses their calendar link to it.
        post_delete.connect(
            receivers.on_membership_deleted,
            sender=Membership,
            dispatch_uid="competitions-calendar-keys",
        )
        # Each team's side, which ingest reads to seat a leg's visiting players as their own
        # club's (games.guests), follows the team in the change's transaction.
        post_save.connect(receivers.on_team_saved, sender=Team, dispatch_uid="leg-side-team")
        post_delete.connect(receivers.on_team_deleted, sender=Team, dispatch_uid="leg-side-gone")
        post_save.connect(receivers.on_league_saved, sender=League, dispatch_uid="leg-side-league")
        m2m_changed.connect(
            receivers.on_roster_changed, sender=Team.roster.through, dispatch_uid="leg-side-roster"
        )
