"""The client side of the fault tests, run as its own process against the throwaway
services: ``send N`` uploads N distinct logs (one line per upload: ``ok ID`` when the archive
answered, ``refused ERROR`` when it could not), ``probe ID...`` prints what became of them,
``web PATH...`` what the archive answers, and in how long."""

from __future__ import annotations

import json
import sys
import time

import django


def send(count: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections

    from clubs.models import Club
    from clubs.services import club_create
    from fives_engine.simulate import simulate_match
    from games.services.uploads import upload_create

    user, _ = get_user_model().objects.get_or_create(username="fault-client")
    club = Club.objects.filter(slug="fault-club").first() or club_create(
        owner=user, name="Fault club", slug="fault-club"
    )
    for number in range(count):
        doc = simulate_match("muggins", 2, seed=number) | {"id": f"fault-{number}"}
        # What Django does at the start of every web request: drop a broken connection.
        close_old_connections()
        try:
            upload = upload_create(
                uploader=user, data=json.dumps(doc).encode(), kind="json", club=club
            )
        except Exception as exc:  # the database is down: the client got no answer
            print(f"refused {type(exc).__name__}", flush=True)
            time.sleep(0.2)
            continue
        print(f"ok {upload.pk}", flush=True)
        time.sleep(0.03)


def probe(ids: list[int]) -> None:
    from django.db.models import Count

    from games.models import Match, Upload, UploadItem

    uploads = Upload.objects.filter(pk__in=ids)
    print(
        json.dumps(
            {
                "found": uploads.count(),
                "pending": uploads.filter(status=Upload.Status.PENDING).count(),
                "accepted": uploads.filter(status=Upload.Status.ACCEPTED).count(),
                "other": uploads.exclude(
                    status__in=[Upload.Status.PENDING, Upload.Status.ACCEPTED]
                ).count(),
                "matches": Match.objects.filter(upload__in=ids).count(),
                "all_matches": Match.objects.count(),
                "items_twice": UploadItem.objects.values("upload_id", "index")
                .annotate(n=Count("id"))
                .filter(n__gt=1)
                .count(),
            }
        ),
        flush=True,
    )


def web(paths: list[str]) -> None:
    """Ask the archive for each path through Django's whole request handling (middleware,
    views, the error handlers) as a web server would: one JSON line of status, Retry-After,
    content type and the start of the body per path."""
    from django.test import Client

    client = Client(raise_request_exception=False)
    for path in paths:
        began = time.monotonic()
        answer = client.get(path, secure=True, HTTP_ACCEPT_LANGUAGE="en")
        print(
            json.dumps(
                {
                    "path": path,
                    "seconds": time.monotonic() - began,
                    "status": answer.status_code,
                    "retry_after": answer.get("Retry-After"),
                    "type": answer.get("Content-Type", ""),
                    "body": answer.content[:2000].decode("utf-8", "replace"),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    django.setup()
    if sys.argv[1] == "send":
        send(int(sys.argv[2]))
    elif sys.argv[1] == "web":
        web(sys.argv[2:])
    else:
        probe([int(value) for value in sys.argv[2:]])
