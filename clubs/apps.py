from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    label = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        # The club's own actions of the audit trail, with their words (clubs.audit).
        from . import audit_words  # noqa: F401
