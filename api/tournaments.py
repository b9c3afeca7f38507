"""API v1 of a club's events: the list and each event's schedule with its results, read by
whoever may see the club (a private club is 404 to outsiders); made, changed and deleted by
its owner and admins (signed in, or a token with the manage scope). Thin views: the rules
are in ``competitions.tournaments``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from clubs.models import Club
from competitions.forms import TournamentForm
from competitions.models import Tournament
from competitions.tournaments import (
    PASSED_OVER,
    tournament_change,
    tournament_delete,
    tournament_make,
    tournament_schedule,
)

from .access import ReadOrManage
from .inputs import FormInput
from .seasons import PlayerRowSerializer
from .views import ERROR


class EventPlayerSerializer(serializers.Serializer):
    seed = serializers.IntegerField(help_text=_("1 for the highest club rating when drawn"))
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.handle")


class EventSerializer(serializers.ModelSerializer):
    season = serializers.IntegerField(source="season_id")
    players = EventPlayerSerializer(many=True, source="entries")

    class Meta:
        model = Tournament
        fields = ["id", "season", "name", "kind", "first_day", "last_day", "legs", "players"]


class FixtureSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    a = serializers.IntegerField(
        allow_null=True, help_text=_("a player's id; null: a bye or not known yet")
    )
    b = serializers.IntegerField(
        allow_null=True, help_text=_("a player's id; null: a bye or not known yet")
    )
    a_name = serializers.CharField(allow_blank=True)
    b_name = serializers.CharField(allow_blank=True)
    state = serializers.ChoiceField(choices=["played", "to-play", "waiting", "bye"])
    match_id = serializers.IntegerField(allow_null=True)
    played_at = serializers.DateTimeField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True, help_text=_("null: not played, or a draw"))
    score = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text=_("a's score, then b's")
    )
    how = serializers.ChoiceField(
        choices=["named", "in-order"],
        allow_null=True,
        help_text=_(
            "named: the match's log names the event; in-order: taken by its day and the order "
            "played; null: no match yet"
        ),
    )


class PassedOverSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    a_name = serializers.CharField()
    b_name = serializers.CharField()
    reason = serializers.ChoiceField(choices=PASSED_OVER)
    words = serializers.CharField(help_text=_("why, in the reader's language"))


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    fixtures = FixtureSerializer(many=True)
    bye = serializers.IntegerField(allow_null=True, help_text=_("who sits this round out"))
    bye_name = serializers.CharField(allow_blank=True)


class EventTableRowSerializer(PlayerRowSerializer):
    difference = serializers.IntegerField()
    league_points = serializers.IntegerField()


class EventScheduleSerializer(serializers.Serializer):
    event = EventSerializer()
    rounds = RoundSerializer(many=True)
    table = EventTableRowSerializer(many=True, help_text=_("a round-robin's table; a cup: empty"))
    champion = serializers.IntegerField(allow_null=True, help_text=_("a cup's winner, once known"))
    champion_name = serializers.CharField(allow_blank=True)
    played = serializers.IntegerField()
    to_play = serializers.IntegerField(help_text=_("fixtures still to play"))
    passed_over = PassedOverSerializer(
        many=True,
        help_text=_("matches of two of its players that the event did not count, and why"),
    )


class EventWriteSerializer(FormInput):
    form_class = TournamentForm
    optional = ("season", "kind")  # making asks for them; a change keeps them
    help_texts = {"season": _("the season's id (making)"), "players": _("the players' ids")}
    plain_choices = ("legs",)


def _club(request, slug: str) -> Club:
    return get_object_or_404(Club.objects.visible_to(request.user), slug=slug)


def _schedule(event: Tournament) -> dict:
    return EventScheduleSerializer({"event": event, **tournament_schedule(event)}).data


class ClubTournaments(ReadOrManage):
    @extend_schema(responses={200: EventSerializer(many=True), 404: ERROR})
    def get(self, request, slug: str):
        """A club's events, the latest first."""
        club = _club(request, slug)
        events = (
            Tournament.objects.filter(season__club=club)
            .prefetch_related("entries__player")
            .order_by("-first_day", "-id")
        )
        return Response(EventSerializer(events, many=True).data)

    @extend_schema(
        request=EventWriteSerializer,
        responses={201: EventScheduleSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, slug: str):
        """Make an event in one of the club's open seasons (owner and admins): its players
        are seeded by club rating and its schedule drawn."""
        club = _club(request, slug)
        data = EventWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        if "season" not in given or "kind" not in given:
            raise serializers.ValidationError(
                {
                    name: [_("This field is required.")]
                    for name in ("season", "kind")
                    if name not in given
                }
            )
        season = get_object_or_404(club.seasons.all(), pk=given["season"])
        event = tournament_make(
            actor=request.user,
            season=season,
            kind=given["kind"],
            **TournamentForm.arguments(given),
        )
        return Response(_schedule(event), status=status.HTTP_201_CREATED)


class ClubTournament(ReadOrManage):
    def event(self) -> Tournament:
        club = _club(self.request, self.kwargs["slug"])
        return get_object_or_404(
            Tournament.objects.select_related("season__club"),
            season__club=club,
            pk=self.kwargs["pk"],
        )

    @extend_schema(responses={200: EventScheduleSerializer, 404: ERROR})
    def get(self, request, slug: str, pk: int):
        """An event's schedule (a round-robin's rounds, a cup's bracket) with the results
        so far, what is still to play, and a round-robin's table."""
        return Response(_schedule(self.event()))

    @extend_schema(
        request=EventWriteSerializer,
        responses={200: EventScheduleSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def put(self, request, slug: str, pk: int):
        """Change an event's name, days, legs or players (owner and admins; its season and
        kind stay): new players draw the schedule again."""
        event = self.event()
        data = EventWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        event = tournament_change(
            actor=request.user, event=event, **TournamentForm.arguments(given)
        )
        return Response(_schedule(event))

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request, slug: str, pk: int):
        """Delete an event (owner and admins); its matches stay in the archive."""
        tournament_delete(actor=request.user, event=self.event())
        return Response(status=status.HTTP_204_NO_CONTENT)
