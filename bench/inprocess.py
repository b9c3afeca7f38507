"""What the benches that load the archive in their own process share: a batch of matches
stored through the services, and an answer timed in-process with the queries it took.
Call these after ``django.setup()``."""

from __future__ import annotations

import time


def tasks_held() -> None:
    """Queue the follow-up tasks nowhere: the bench runs the services itself, batch by batch
    (without a broker, tasks would otherwise run in-process as each upload is made)."""
    from fivesite.celery import app

    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"


def store_batch(user, lines: list[bytes], club=None) -> list[int]:
    """Store NDJSON ``lines`` as one upload of ``user`` (into ``club``, or the clubs the
    documents name), processed here; return the ids of the matches it brought."""
    from games.services.ingest import upload_process
    from games.services.uploads import upload_create

    upload = upload_create(uploader=user, data=b"\n".join(lines), kind="ndjson", club=club)
    upload_process(upload_id=upload.pk)
    return list(upload.items.exclude(match_id=None).values_list("match_id", flat=True))


def counted_get(client, path: str):
    """Ask ``client`` for ``path``; return (milliseconds, queries, the response)."""
    from django.db import connection

    queries: list[str] = []

    def counted(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        started = time.perf_counter()
        response = client.get(path)
        if getattr(response, "streaming", False):
            for _chunk in response.streaming_content:
                pass
        milliseconds = (time.perf_counter() - started) * 1000
    return milliseconds, len(queries), response
