"""No single log can hurt a batch or a page: every poison input of the fault and penetration
pass, sent alone and inside a batch of valid logs, ends final (refused with its reason), the
valid logs around it are stored, and no page or answer is a 500 afterwards."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from clubs.models import Club
from games.models import Match, Upload
from games.services.uploads import upload_create
from tests.archive.helpers import valid_log

pytestmark = pytest.mark.django_db


def _text(doc: dict, **raw: str) -> bytes:
    """Return the JSON of ``doc`` with placeholders replaced by raw JSON text (numbers that
    Python would not write, such as 1e400)."""
    text = json.dumps(doc)
    for placeholder, value in raw.items():
        text = text.replace(f'"{placeholder}"', value)
    return text.encode()


def _first_move(doc: dict, **changes) -> dict:
    doc["hands"][0]["moves"][0].update(changes)
    return doc


def _poisons(seed: int) -> dict[str, bytes]:
    """Each poison input as the bytes of one log, all distinct from each other."""
    log = lambda **changes: valid_log(seed, **changes)  # noqa: E731
    deal = log()
    deal["hands"][0]["deal"][0][0] = "5-5\u0000"
    return {
        "name of 150 characters": _text(log(players=["N" * 150, "Giorgi"])),
        "id of 500 characters": _text(log(id="i" * 500)),
        "played_at text of 500": _text(log(played_at="p" * 500)),
        "NUL in a name": _text(log(players=["Ni\u0000no", "Giorgi"])),
        "NUL in the event": _text(log(event="autumn\u0000")),
        "NUL in a tile": _text(deal),
        "lone surrogate in a name": _text(log(players=["\ud800", "Giorgi"])),
        "lone surrogate in the club": _text(log(club="club \udfff")),
        "final scores 1e400": _text(log(final_scores=["INF", 0]), INF="1e400"),
        "points 10**400": _text(_first_move(log(), points=10**400)),
        "points 1e400": _text(_first_move(log(), points="INF"), INF="1e400"),
        "club of 300 characters": _text(log(club="C" * 300)),
        "source of 2000 characters": _text(log(source="s" * 2000)),
        "not UTF-8": b'{"format": "fives/1", "players": ["\xff\xfe"]}',
        "nested 100000 deep": b"[" * 100_000 + b"]" * 100_000,
    }


@pytest.fixture
def send(owner, django_capture_on_commit_callbacks):
    def send(data: bytes, kind: str) -> Upload:
        with django_capture_on_commit_callbacks(execute=True):
            upload = upload_create(uploader=owner, data=data, kind=kind)
        upload.refresh_from_db()
        return upload

    return send


def _no_500_anywhere(client, owner) -> None:
    api = APIClient()
    paths = ["/", "/api/v1/matches/", "/api/v1/clubs/", "/api/v1/players/"]
    paths += [f"/clubs/{slug}/" for slug in Club.objects.values_list("slug", flat=True)]
    for match in Match.objects.all():
        paths += [
            match.get_absolute_url(),
            f"/embed/matches/{match.pk}/",
            f"/api/v1/matches/{match.pk}/",
            f"/api/v1/matches/{match.pk}/hands/",
            f"/api/v1/matches/{match.pk}/replay/",
        ]
    client.force_login(owner)
    paths += [upload.get_absolute_url() for upload in Upload.objects.all()]
    paths += [f"/api/v1/uploads/{pk}/" for pk in Upload.objects.values_list("pk", flat=True)]
    for path in paths:
        getter = api.get if path.startswith("/api/") else client.get
        if path.startswith("/api/v1/uploads/"):
            api.force_authenticate(owner)
        assert getter(path).status_code == 200, path


def test_each_poison_log_alone_is_refused_with_its_reason_and_hurts_no_page(client, owner, send):
    for name, data in _poisons(1).items():
        upload = send(data, "json")
        assert upload.status == Upload.Status.REJECTED, name
        [item] = upload.items.all()
        assert item.report["errors"][0]["code"] == "schema", name
    assert Match.objects.count() == 0
    _no_500_anywhere(client, owner)


def test_poison_logs_in_a_batch_are_refused_alone_and_the_valid_ones_stored(client, owner, send):
    valid = [json.dumps(valid_log(seed)).encode() for seed in range(2, 22)]
    poisons = [data.replace(b"\n", b" ") for data in _poisons(1).values()]
    lines = [line for pair in zip(valid, poisons + [None] * 20, strict=False) for line in pair]
    upload = send(b"\n".join(line for line in lines if line is not None) + b"\n", "ndjson")
    counts = (upload.status, upload.accepted_count, upload.rejected_count)
    assert counts == ("partial", 20, len(poisons))
    assert Match.objects.count() == 20
    _no_500_anywhere(client, owner)


def test_a_played_at_past_the_years_of_a_date_is_stored_as_text_and_hurts_no_page(
    client, owner, send
):
    # ISO 8601, but past year 9999 (or before year 1) once in UTC: valid (FORMAT.md asks
    # no more of played_at), kept and shown as written, with no moment to sort it by; as is
    # a played_at that is no date at all.
    texts = ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00", "last Tuesday"]
    for seed, text in enumerate(texts, start=30):
        upload = send(json.dumps(valid_log(seed, played_at=text)).encode(), "json")
        assert upload.status == Upload.Status.ACCEPTED, text
        match = upload.items.get().match
        assert (match.played_at_text, match.played_at) == (text, None)
        assert text in client.get(match.get_absolute_url()).content.decode()
    _no_500_anywhere(client, owner)
