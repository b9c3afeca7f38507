from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecorderConfig(AppConfig):
    name = "recorder"
    verbose_name = _("Recorder")

    def ready(self) -> None:
        from games.events import subscribe

        from .receivers import on_archive_event

        subscribe(on_archive_event)
