"""API v1 of the inbox (issue 36): everything that waits on the signed-in person, as their
inbox page lists it. Nobody reads another's. Thin view: the items come from
``competitions.inbox``."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions import inbox

from .views import ERROR


class InboxItemSerializer(serializers.Serializer):
    kind = serializers.CharField(
        help_text=_(
            "approval, join-request, league-invitation, fixture-confirm or dispute: what waits"
        )
    )
    key = serializers.CharField(help_text=_("the item's own key, the same in its email"))
    title = serializers.CharField(help_text=_("what waits, in the reader's language"))
    where = serializers.CharField(help_text=_("the club or league it belongs to"))
    url = serializers.CharField(help_text=_("the page that does it"))
    since = serializers.DateTimeField(help_text=_("since when it waits"))


class InboxSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text=_("how many things wait"))
    items = InboxItemSerializer(many=True, help_text=_("the newest first"))


class Inbox(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scope = "read"

    @extend_schema(responses={200: InboxSerializer, 401: ERROR, 403: ERROR})
    def get(self, request):
        """Everything that waits on you: matches awaiting your approval, join requests,
        league invitations of your clubs, fixtures to confirm, disputes to resolve."""
        items = inbox.inbox_for(request.user)
        rows = [
            {
                "kind": item.kind,
                "key": item.key,
                "title": item.title,
                "where": item.where,
                "url": settings.FIVES_SITE_URL + item.url,
                "since": item.since,
            }
            for item in items
        ]
        return Response(InboxSerializer({"count": len(rows), "items": rows}).data)
