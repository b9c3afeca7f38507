"""The webhooks' actions in a club's audit trail (``clubs.audit``), each with its name and its
words, the endpoint named by its address as it was then. Filled into the trail when webhooks
is ready (``WebhooksConfig.ready``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.audit import Actions


def _endpoint(words: Callable[[], str]) -> Callable[[dict[str, Any], str], str | None]:
    """Return the words of an endpoint's entry, said when it names the address."""

    def said(detail: dict[str, Any], person: str) -> str | None:
        url = str(detail.get("url") or "")
        return words() % {"url": url} if url else None

    return said


ACTIONS = Actions()
WEBHOOK_CREATED = ACTIONS.add(
    "webhook-created",
    gettext_lazy("registered a webhook"),
    _endpoint(lambda: _("registered the webhook %(url)s")),
)
WEBHOOK_CHANGED = ACTIONS.add(
    "webhook-changed",
    gettext_lazy("changed a webhook"),
    _endpoint(lambda: _("changed the webhook %(url)s")),
)
WEBHOOK_SECRET = ACTIONS.add(
    "webhook-secret",
    gettext_lazy("made a new secret of a webhook"),
    _endpoint(lambda: _("made a new secret of the webhook %(url)s")),
)
WEBHOOK_DELETED = ACTIONS.add(
    "webhook-deleted",
    gettext_lazy("deleted a webhook"),
    _endpoint(lambda: _("deleted the webhook %(url)s")),
)
