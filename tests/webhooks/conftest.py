"""The webhooks tests' personas and receiver: the owner's endpoint at a real receiver on
127.0.0.1 (which production settings refuse: these tests allow private addresses, but
those of the refusal itself)."""

from __future__ import annotations

import pytest

from clubs.models import Club
from webhooks.events import EVENTS
from webhooks.services import endpoint_create

from .receiver import Receiver


@pytest.fixture
def allow_private(settings):
    settings.FIVES_WEBHOOKS_ALLOW_PRIVATE = True


@pytest.fixture
def receiver():
    made = Receiver().start()
    yield made
    made.stop()


def register(owner, receiver, slug="tbilisi-fives-club", events=tuple(EVENTS)):
    """Register ``receiver`` for ``events`` of the club ``slug``; give it the secret."""
    made = endpoint_create(
        actor=owner, club=Club.objects.get(slug=slug), url=receiver.url, events=list(events)
    )
    receiver.secrets.append(made.secret)
    return made


@pytest.fixture
def endpoint(owner, receiver, allow_private):
    return register(owner, receiver)
