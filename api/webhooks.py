"""API v1 of a club's webhooks (issue 59, item 1), for its owner and admins: the endpoints
(registered with ``url`` and ``events``, answered with the ``secret`` once), each one's
events and state, a new secret, and the delivery log with "send again". Thin: who may see
the club here (a private club is 404 to outsiders), who may manage it in the services (403),
an address refused as 400 ``webhook-address``."""

from __future__ import annotations

import json

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response

from webhooks import services
from webhooks.events import EVENTS
from webhooks.forms import EndpointForm
from webhooks.models import Delivery, Endpoint
from webhooks.tasks import deliveries_prompt

from .clubs import ClubScoped
from .common import Cursor
from .inputs import FormInput
from .views import ERROR


class EndpointSerializer(serializers.ModelSerializer):
    events = serializers.ListField(child=serializers.ChoiceField(choices=list(EVENTS)))
    active = serializers.BooleanField(help_text=_("whether deliveries are sent to it"))
    failing_since = serializers.DateTimeField(
        allow_null=True, help_text=_("since when every attempt failed (null: it answers)")
    )
    disabled_at = serializers.DateTimeField(
        allow_null=True, help_text=_("when it was turned off after three days of failing")
    )

    class Meta:
        model = Endpoint
        fields = ["id", "url", "events", "active", "failing_since", "disabled_at", "created_at"]


class EndpointMadeSerializer(EndpointSerializer):
    secret = serializers.CharField(
        help_text=_("the signing secret (whsec_...), shown this once: keep it")
    )
    previous_until = serializers.DateTimeField(
        allow_null=True, help_text=_("until when the previous secret signs too")
    )

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret", "previous_until"]


class EndpointInput(FormInput):
    form_class = EndpointForm
    plain_choices = ("events",)


class EndpointChangeSerializer(serializers.Serializer):
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(EVENTS)), min_length=1, required=False
    )
    active = serializers.BooleanField(required=False, help_text=_("turn it on or off"))


class DeliverySerializer(serializers.ModelSerializer):
    webhook_id = serializers.CharField(source="message_id", help_text=_("its webhook-id"))
    status = serializers.ChoiceField(choices=Delivery.Status.values)
    answer_status = serializers.IntegerField(
        allow_null=True, help_text=_("the last answer's HTTP status (null: no answer)")
    )
    answer = serializers.CharField(help_text=_("the last answer's first bytes, or why none"))
    payload = serializers.SerializerMethodField(help_text=_("the body sent"))

    class Meta:
        model = Delivery
        fields = [
            "id",
            "webhook_id",
            "event",
            "status",
            "attempts",
            "answer_status",
            "answer",
            "created_at",
            "last_at",
            "delivered_at",
            "next_at",
            "payload",
        ]

    def get_payload(self, delivery: Delivery) -> dict:
        return json.loads(delivery.body)


class WebhookScoped(ClubScoped):
    def endpoint(self) -> Endpoint:
        club = self.admin_club()
        return get_object_or_404(
            Endpoint.objects.select_related("club"), club=club, pk=self.kwargs["pk"]
        )


class ClubWebhooks(WebhookScoped, generics.ListAPIView):
    """A club's webhook endpoints (GET), or a new one (POST), its owner and admins only."""

    serializer_class = EndpointSerializer
    pagination_class = Cursor

    def get_queryset(self):
        return services.endpoints_of(club=self.admin_club()).order_by()

    @extend_schema(
        request=EndpointInput,
        responses={201: EndpointMadeSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, slug: str):
        """Register an endpoint for some of the club's events; the answer holds its signing
        secret, shown this once."""
        club = self.admin_club()
        data = EndpointInput(data=request.data)
        data.is_valid(raise_exception=True)
        made = services.endpoint_create(actor=request.user, club=club, **data.validated_data)
        return Response(EndpointMadeSerializer(made).data, status=status.HTTP_201_CREATED)


class ClubWebhook(WebhookScoped):
    @extend_schema(responses={200: EndpointSerializer, 403: ERROR, 404: ERROR})
    def get(self, request, slug: str, pk: int):
        """An endpoint: its address, events and state."""
        return Response(EndpointSerializer(self.endpoint()).data)

    @extend_schema(
        request=EndpointChangeSerializer,
        responses={200: EndpointSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def patch(self, request, slug: str, pk: int):
        """Change the events an endpoint takes, or turn it on or off."""
        found = self.endpoint()
        data = EndpointChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = services.endpoint_change(actor=request.user, endpoint=found, **data.validated_data)
        return Response(EndpointSerializer(done).data)

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request, slug: str, pk: int):
        """Delete an endpoint and its log."""
        services.endpoint_delete(actor=request.user, endpoint=self.endpoint())
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubWebhookSecret(WebhookScoped):
    @extend_schema(request=None, responses={200: EndpointMadeSerializer, 403: ERROR, 404: ERROR})
    def post(self, request, slug: str, pk: int):
        """Make a new signing secret, shown this once; the previous one signs too for a day
        (both signatures are sent), while the receiver takes the new one."""
        rolled = services.secret_roll(actor=request.user, endpoint=self.endpoint())
        return Response(EndpointMadeSerializer(rolled).data)


class ClubWebhookDeliveries(WebhookScoped, generics.ListAPIView):
    """An endpoint's delivery log, newest first: each event sent, its state, the last
    answer's status and first bytes, the attempts."""

    serializer_class = DeliverySerializer
    pagination_class = Cursor

    def get_queryset(self):
        return services.deliveries_of(endpoint=self.endpoint()).order_by()


class ClubWebhookResend(WebhookScoped):
    @extend_schema(
        request=None, responses={202: DeliverySerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    )
    def post(self, request, slug: str, pk: int, delivery: int):
        """Send a delivery again, with its webhook-id and body."""
        found = get_object_or_404(
            Delivery.objects.select_related("endpoint__club"),
            endpoint=self.endpoint(),
            pk=delivery,
        )
        again = services.delivery_resend(actor=request.user, delivery=found)
        deliveries_prompt([again.pk])
        return Response(DeliverySerializer(again).data, status=status.HTTP_202_ACCEPTED)
