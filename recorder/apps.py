from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecorderConfig(AppConfig):
    name = "recorder"
    verbose_name = _("Recorder")

    def ready(self) -> None:
        from clubs.hooks import ARCHIVE_EVENTS

        from .receivers import on_archive_event

        ARCHIVE_EVENTS.fill(on_archive_event)
