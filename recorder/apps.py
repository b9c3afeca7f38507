from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecorderConfig(AppConfig):
    name = "recorder"
    verbose_name = _("Recorder")
