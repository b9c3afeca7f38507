from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        from clubs.hooks import (
            ARCHIVE_EVENTS,
            AUDIT_ACTIONS,
            TOOL_EVENTS,
            WAITING_KINDS,
            WAITING_LISTENERS,
        )

        from . import audit_actions, receivers
        from .hooks import PAYLOADS
        from .waiting import KINDS

        # The club's audit trail says who registered, changed or deleted an endpoint.
        AUDIT_ACTIONS.fill(*audit_actions.ACTIONS)
        # The events of the apps below, each turned into deliveries by a task (webhooks
        # queue): matches stored (the archive's events), fixtures submitted and disputed
        # (what waits on a captain or an organiser), and the rest told as tool events.
        ARCHIVE_EVENTS.fill(receivers.on_archive_event)
        WAITING_LISTENERS.fill(receivers.on_waiting)
        TOOL_EVENTS.fill(receivers.on_tool_event)
        # An endpoint turned off waits on its club's admins (the inbox tells them).
        WAITING_KINDS.fill(*KINDS)
        # A live table has no API answer: its webhook's data is said here.
        PAYLOADS.fill(receivers.LIVE_PAYLOAD)
