from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Matches and uploads")

    def ready(self):
        # signin counts wrong passwords per address; tasks registers the tasks the services
        # send by name (games.services.uploads.PROCESS_TASK); audit_words registers the
        # archive's actions of a club's audit trail (clubs.audit); db registers the lookup
        # ``any_of`` on every field.
        from . import audit_words, db, signin, tasks  # noqa: F401
        from .waiting import register_kinds

        # What waits on a club's admins: matches awaiting approval, join requests
        # (clubs.waiting, gathered by competitions.inbox).
        register_kinds()
