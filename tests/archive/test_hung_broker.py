"""A broker that takes connections and never answers (a Redis stalled, a half-open network)
does not hold an upload's request: the hand-over gives up after the broker's socket timeout,
the upload is kept pending, and the sweep sends it again (issue 34, item 7's neighbour: such
an upload's request waited for good). A real socket that listens and never answers; the
process's own Celery app pointed at it."""

from __future__ import annotations

import socket
import threading

import pytest
from django.conf import settings

from games.models import Upload
from games.services.uploads import hand_over
from tests.celery_worker import _reset_connections

pytestmark = pytest.mark.django_db


@pytest.fixture
def hung_broker():
    """The app's broker: a port on 127.0.0.1 that accepts connections and never answers."""
    from fivesite.celery import app

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    saved = (app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options)
    app.conf.broker_url = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    app.conf.task_always_eager = False
    app.conf.broker_transport_options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    _reset_connections(app)
    try:
        yield
    finally:
        _reset_connections(app)
        app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options = saved
        listener.close()


def test_a_broker_that_never_answers_leaves_the_upload_pending(owner, hung_broker):
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"] <= 5
    upload = Upload.objects.create(
        uploader=owner, kind="json", raw=b"", size=1, content_hash="0" * 64
    )
    outcome: list[bool] = []
    # In a thread, so that a hand-over that waits for good fails this test instead of
    # holding the run: the broker's timeout is 5 s, the test waits twelve times that.
    sender = threading.Thread(target=lambda: outcome.append(hand_over(upload.pk)), daemon=True)
    sender.start()
    sender.join(60)
    assert not sender.is_alive(), "the hand-over still waits on a broker that never answers"
    assert outcome == [False]
    upload.refresh_from_db()
    assert upload.status == Upload.Status.PENDING
