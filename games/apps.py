from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Matches and uploads")

    def ready(self):
        from . import signin  # noqa: F401  (counts wrong passwords per address)
