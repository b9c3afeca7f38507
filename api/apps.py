from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from webhooks.hooks import PAYLOADS

        from .payloads import PAYLOADS as MADE_HERE

        # A webhook's data holds the fields of the API's answer for its object.
        PAYLOADS.fill(*MADE_HERE)
