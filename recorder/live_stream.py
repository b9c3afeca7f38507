"""The live tables' event streams: Server-Sent Events fed from Redis pub/sub.

Why this way: a watcher only listens, so a one-way stream is all it needs. Server-Sent Events
are plain HTTP (through nginx, cookies and the session as any page, no second protocol),
and the browser reconnects by itself, saying the last event it saw (``Last-Event-ID``):
this stream then sends what changed since, read from the database, so a watcher that lost
its connection catches up. lichess's broadcasts and Django's own Channels-less guides do
the same for one-way updates. Holding hundreds of open streams calls for an event loop, not
a thread each: these views are async and are served by an ASGI server (gunicorn with
uvicorn's workers, ``fivesite.asgi``) at the ``/live/stream/`` addresses, which nginx sends
there (deploy/nginx-site.conf); every other page stays on gunicorn's threads.

Each process keeps one Redis subscription (``Hub``: a pattern over every live channel) and
hands its messages to the streams it serves; a message says which revision it follows, and
a stream that finds a gap (or the hub reconnected) reads what it lacks from the database.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import redis.asyncio as redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, StreamingHttpResponse

from clubs.models import Club

from . import live
from .models import LiveMatch

logger = logging.getLogger(__name__)

# A comment line this often keeps an idle stream open through proxies and tells a dead one.
KEEPALIVE_SECONDS = 15
# The browser's wait before it reconnects (milliseconds).
RETRY_MS = 1000
# A stream that falls this far behind (a stalled reader) catches up from the database.
QUEUE_SIZE = 64
# Told to a queue when messages may have been lost: catch up from the database.
CATCH_UP = object()
# Told by ``_messages`` when nothing came for KEEPALIVE_SECONDS.
KEEPALIVE = object()


class Hub:
    """One pattern subscription of this process, fanned out to the streams it serves."""

    def __init__(self) -> None:
        self.queues: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self.task: asyncio.Task | None = None
        self.subscribed: asyncio.Event | None = None

    async def join(self, channel: str) -> asyncio.Queue:
        """Return a queue of the messages of ``channel`` from now on."""
        if self.task is None or self.task.done():
            self.subscribed = asyncio.Event()
            self.task = asyncio.create_task(self._listen())
        assert self.subscribed is not None
        await asyncio.wait_for(self.subscribed.wait(), timeout=10)
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_SIZE)
        self.queues[channel].add(queue)
        return queue

    def leave(self, channel: str, queue: asyncio.Queue) -> None:
        self.queues[channel].discard(queue)
        if not self.queues[channel]:
            del self.queues[channel]

    def _tell_all(self, message: Any) -> None:
        for queues in self.queues.values():
            for queue in queues:
                self._put(queue, message)

    @staticmethod
    def _put(queue: asyncio.Queue, message: Any) -> None:
        try:
            queue.put_nowait(message)
        except asyncio.QueueFull:
            # A reader this far behind reads the database instead of the backlog.
            while not queue.empty():
                queue.get_nowait()
            queue.put_nowait(CATCH_UP)

    async def _listen(self) -> None:
        first = True
        while True:
            try:
                client = redis.Redis.from_url(settings.REDIS_URL)
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe("fives:live*")
                    if not first:
                        self._tell_all(CATCH_UP)  # what came meanwhile is in the database
                    first = False
                    assert self.subscribed is not None
                    self.subscribed.set()
                    async for message in pubsub.listen():
                        if message["type"] != "pmessage":
                            continue
                        channel = message["channel"].decode()
                        data = message["data"]
                        parsed = json.loads(data)
                        for queue in list(self.queues.get(channel, ())):
                            self._put(queue, (parsed, data))
            except (OSError, ConnectionError, redis.RedisError) as exc:
                logger.warning("live streams lost Redis, again in a second: %s", exc)
                await asyncio.sleep(1)


HUB = Hub()


def _event(change_id: int | None, data: bytes | str) -> bytes:
    text = data.decode() if isinstance(data, bytes) else data
    head = f"id: {change_id}\n" if change_id is not None else ""
    return f"{head}data: {text}\n\n".encode()


def _after(request: HttpRequest) -> int:
    """The last revision the watcher saw: the browser's ``Last-Event-ID`` on a reconnect,
    else ``?after=`` (the page's own, from what it was drawn with)."""
    for value in (request.headers.get("Last-Event-ID"), request.GET.get("after")):
        try:
            return max(0, int(value or ""))
        except ValueError:
            continue
    return 0


def _stream(events: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def _briefly(function: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``function`` run from the stream, its database connection closed after it: a stream
    waits for hours, and each holds its request's thread (Django runs a request's sync code
    in a thread of its own), so a connection kept open would be one per watcher, past what
    PostgreSQL allows (100 by default). The stream's session and club checks run in the
    same thread, so this closes theirs too."""

    def run(*args: Any) -> Any:
        try:
            return function(*args)
        finally:
            connection.close()

    return sync_to_async(run)


def _live_of(user: Any, pk: int) -> LiveMatch | None:
    return LiveMatch.objects.visible_to(user).filter(pk=pk).first()


def _since(pk: int, after: int) -> dict[str, Any]:
    current = LiveMatch.objects.select_related("match", "upload").get(pk=pk)
    return live.live_since(current, after)


async def _messages(queue: asyncio.Queue) -> AsyncIterator[Any]:
    """The queue's messages, and ``KEEPALIVE`` whenever none came for a while."""
    while True:
        try:
            yield await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
        except TimeoutError:
            yield KEEPALIVE


def _ended(change: dict[str, Any]) -> bool:
    return bool((change.get("end") or {}).get("url") or (change.get("end") or {}).get("abandoned"))


def _asgi(request: HttpRequest) -> None:
    """Refuse a stream asked of a WSGI server (gunicorn's threads, the tests' client): it
    would hold a thread for as long as the watcher stays. nginx sends the streams to the
    ASGI server; the pages ask for them only where it runs (``FIVES_LIVE_STREAMS``)."""
    if not isinstance(request, ASGIRequest):
        raise Http404("the live streams are served by the ASGI server (docs/deploy.md)")


async def live_stream(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """A live match's changes as they happen (``live.live_since`` each): ``id`` is the
    revision. The stream ends once the watchers are sent to the stored match."""
    _asgi(request)
    user = await request.auser()
    if await _briefly(_live_of)(user, pk) is None:
        raise Http404
    channel = live.channel_of(pk)
    queue = await HUB.join(channel)

    async def events() -> AsyncIterator[bytes]:
        seen = _after(request)
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            # First what the watcher lacks (told even when nothing: the page knows it is on).
            change = await _briefly(_since)(pk, seen)
            seen = change["revision"]
            yield _event(seen, json.dumps(change))
            if _ended(change):
                return
            async for message in _messages(queue):
                if message is KEEPALIVE:
                    yield b": keep-alive\n\n"
                    continue
                if message is CATCH_UP or message[0].get("previous") != seen:
                    change = await _briefly(_since)(pk, seen)
                    data: bytes | str = json.dumps(change)
                else:
                    change, data = message
                if change["revision"] > seen:
                    seen = change["revision"]
                    yield _event(seen, data)
                    if _ended(change):
                        return
        finally:
            HUB.leave(channel, queue)

    return _stream(events())


def _club_of(user: Any, slug: str) -> Club | None:
    return Club.objects.visible_to(user).filter(slug=slug).first()


def _tables(club: Club) -> str:
    return json.dumps({"tables": live.club_tables(club)})


async def club_live_stream(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """A club night's tables as they change: all of them first (and again after a gap),
    then each table as it changes (``{"table": ...}``)."""
    _asgi(request)
    user = await request.auser()
    club = await _briefly(_club_of)(user, slug)
    if club is None:
        raise Http404
    channel = live.club_channel_of(club.pk)
    queue = await HUB.join(channel)

    async def events() -> AsyncIterator[bytes]:
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            yield _event(None, await _briefly(_tables)(club))
            async for message in _messages(queue):
                if message is KEEPALIVE:
                    yield b": keep-alive\n\n"
                elif message is CATCH_UP:
                    yield _event(None, await _briefly(_tables)(club))
                else:
                    yield _event(None, b'{"table": ' + message[1] + b"}")
        finally:
            HUB.leave(channel, queue)

    return _stream(events())
