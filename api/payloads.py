"""An event's ``data`` for webhooks (``webhooks.hooks.PAYLOADS``): the fields of the API's
answer for the object, made by the very serializer that answers for it, as a reader who is
not signed in would be answered (the endpoint's club's admins asked for it; the links are
the archive's own address, ``FIVES_SITE_URL``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from rest_framework.request import Request

from competitions.models import Fixture
from games.models import Match, Upload
from replays.analysis import analysis_state

from .analysis import MatchAnalysisSerializer
from .league_answers import fixture_answer
from .serializers import MatchSerializer, UploadSerializer


class _SiteRequest(HttpRequest):
    """A request as if made to the archive's own address, for the answers' links."""

    def __init__(self) -> None:
        super().__init__()
        site = urlsplit(settings.FIVES_SITE_URL)
        self._site_scheme, self._site_host = site.scheme or "http", site.netloc
        self.user = AnonymousUser()

    def _get_scheme(self) -> str:
        return self._site_scheme

    def get_host(self) -> str:
        return self._site_host


def _context() -> dict[str, Any]:
    return {"request": Request(_SiteRequest())}


@dataclass(frozen=True)
class MatchPayload:
    kind: str = "match"

    def data(self, object_id: int) -> dict[str, Any] | None:
        match = (
            Match.objects.select_related("club")
            .prefetch_related("seats__player")
            .filter(pk=object_id)
            .first()
        )
        return None if match is None else dict(MatchSerializer(match, context=_context()).data)


@dataclass(frozen=True)
class UploadPayload:
    kind: str = "upload"

    def data(self, object_id: int) -> dict[str, Any] | None:
        upload = Upload.objects.select_related("club").filter(pk=object_id).first()
        return None if upload is None else dict(UploadSerializer(upload, context=_context()).data)


@dataclass(frozen=True)
class AnalysisPayload:
    kind: str = "analysis"

    def data(self, object_id: int) -> dict[str, Any] | None:
        match = Match.objects.filter(pk=object_id).first()
        if match is None:
            return None
        return dict(MatchAnalysisSerializer(analysis_state(match=match)).data)


@dataclass(frozen=True)
class FixturePayload:
    kind: str = "fixture"

    def data(self, object_id: int) -> dict[str, Any] | None:
        fixture = Fixture.objects.select_related("league").filter(pk=object_id).first()
        return None if fixture is None else dict(fixture_answer(fixture, AnonymousUser()))


PAYLOADS = (MatchPayload(), UploadPayload(), AnalysisPayload(), FixturePayload())
