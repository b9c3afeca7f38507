"""A club's webhook endpoints and each delivery made to them (issue 59, item 1)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club


class Endpoint(models.Model):
    """An address a club's admins asked to be told of the club's events at, with the
    events it takes and its signing secret (a ``whsec_`` base64 key; the previous one still
    signs until ``previous_until`` once rolled)."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="webhook_endpoints", verbose_name=_("club")
    )
    url = models.URLField(_("address"), max_length=500)
    events = models.JSONField(_("told of"), default=list)
    secret = models.CharField(max_length=100)
    previous_secret = models.CharField(max_length=100, blank=True)
    previous_until = models.DateTimeField(null=True, blank=True)
    active = models.BooleanField(_("on"), default=True)
    # Since when every attempt failed (None while it answers); three days of it turns it off.
    failing_since = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One event for one endpoint: its body, kept as sent (its ``webhook-id`` and body stay
    the same through every attempt), and what the last attempt got."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    message_id = models.CharField(max_length=64, db_index=True)
    event = models.CharField(max_length=40)
    body = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_at = models.DateTimeField(null=True, blank=True, db_index=True)
    answer_status = models.PositiveIntegerField(null=True, blank=True)
    answer = models.CharField(max_length=500, blank=True)  # the answer's first bytes, or why
    created_at = models.DateTimeField(auto_now_add=True)
    # When its current run of attempts began (made, or sent again): retried until three days
    # after it.
    since = models.DateTimeField(default=timezone.now)
    last_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        indexes = [models.Index(fields=["status", "next_at"], name="webhooks_due")]

    def __str__(self) -> str:
        return f"{self.event} {self.message_id}"
