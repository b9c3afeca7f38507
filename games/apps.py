from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Matches and uploads")

    def ready(self):
        # signin counts wrong passwords per address; tasks registers the tasks the services
        # send by name (games.services.uploads.PROCESS_TASK); db registers the lookup
        # ``any_of`` on every field.
        from clubs.hooks import AUDIT_ACTIONS, WAITING_KINDS

        from . import audit_words, db, signin, tasks, waiting  # noqa: F401

        # The archive's actions of a club's audit trail (clubs.audit).
        AUDIT_ACTIONS.fill(*audit_words.ACTIONS)
        # What waits on a club's admins: matches awaiting approval, join requests
        # (clubs.waiting, gathered by competitions.inbox).
        WAITING_KINDS.fill(*waiting.KINDS)
