"""The inbox (issue 36): everything that waits on a person, gathered from the kinds each app
fills ``clubs.hooks.WAITING_KINDS`` with, and the emails that tell them, once.

**Emails.** When an app announces new waiting items (``clubs.waiting.announce``, after its
commit; matches awaiting approval from the archive's ``MatchesStored``), ``competitions.tasks``
hands the kind and the ids to ``notices_send_task`` (the ``notices`` queue),
which calls ``notices_send``: it asks the kind for the items of those ids with the person
each waits on, and sends each person one email with their items, in their language, through
Django's email framework. Each (person, item) is a ``Notice`` row taken before the email
goes (a unique pair): a task run again, or a second worker, finds it taken and sends
nothing. An email that fails gives its rows back, and the task tries again; rows a worker
took and never sent (it died) are given back and sent by a periodic task
(``notices_retry_stale``).

**How many.** At most ``FIVES_EMAILS_PER_HOUR`` (3) emails an hour reach one person, of
every kind together (reminders too): the times of the hour's emails are kept in the
person's ``NoticeSettings.emailed``, read and written under ``select_for_update``, so a
restart or a second worker counts on from where it was. Past them, and while any item
waits for it, an item's ``Notice`` is held; a periodic task (``notices_digest_send``) sends
the held items that still wait on the person, in one email, once the hour allows. A held
item replaces the held one about the same object (an offer made again is named once, as
it now stands); one no longer waiting (an offer withdrawn) is dropped unsent. The inbox
shows everything at once, as ever.

**Who gets what.** Nobody without an email address; nobody who turned that kind of email off
(``NoticeSettings.off``: the email settings page, or the one-click unsubscribe every email
carries: an opaque token that needs no sign-in, one a person and kind, ``UnsubscribeKey``).

**Language.** A person's emails are in the language of their latest signed-in page
(``competitions.middleware`` keeps it in ``NoticeSettings.language``), else the site's.

**Reminders.** The day before a fixture still to play, both teams' captains get a reminder
(``fixture_reminders_send``, a periodic task of the beat schedule): "the day before" in the
home club's time zone, once a fixture and day (its ``Notice``).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs import waiting
from clubs.models import Membership
from clubs.waiting import Waiting

from .models import Fixture, Notice, NoticeSettings, UnsubscribeKey
from .waiting import TeamNames

REMINDER = "fixture-reminder"
ALL = "all"
SALT = "fives.unsubscribe"
# The links mailed before the unsubscribe keys (a signed payload anyone could read,
# {"u": the user's id, "k": the kind}) keep working this many days after they were signed:
# a link in an email already sent should still unsubscribe (mail clients keep each
# message's List-Unsubscribe, and a link that fails is met with "report spam"), and they
# only ever turned emails off. Then the old form is refused and ``_legacy_read`` may go.
LEGACY_DAYS = 90


def email_kinds() -> dict[str, Any]:
    """Every kind of email a person may turn off, by slug, with its name."""
    kinds = {slug: kind.name for slug, kind in waiting.kinds().items()}
    kinds[REMINDER] = gettext_lazy("reminders of tomorrow's fixtures")
    return kinds


# --- the inbox -----------------------------------------------------------------------------


def inbox_for(user: Any) -> list[Waiting]:
    """Everything that waits on ``user``, the newest first (a fixed number of queries)."""
    return waiting.waiting_for(user)


def inbox_badge(request) -> dict[str, Any]:
    """Context processor: ``inbox_count``, worked out only where a page shows it."""
    user = getattr(request, "user", None)

    @functools.cache
    def count() -> int:
        return len(inbox_for(user)) if user is not None and user.is_authenticated else 0

    return {"inbox_count": count}


# --- settings and unsubscribing ------------------------------------------------------------


def settings_of(user: Any) -> NoticeSettings:
    return NoticeSettings.objects.get_or_create(user=user)[0]


def emails_choose(*, user: Any, wanted: Iterable[str]) -> NoticeSettings:
    """Keep the kinds of email ``user`` wants; every other kind is turned off."""
    wanted = set(wanted)
    chosen = settings_of(user)
    chosen.off = sorted(kind for kind in email_kinds() if kind not in wanted)
    chosen.save(update_fields=["off"])
    return chosen


def email_address_set(*, user: Any, email: str) -> None:
    """Keep ``email`` (checked by the form) as where ``user``'s emails go ("" for none)."""
    email = email.strip()
    if email != user.email:
        user.email = email
        user.save(update_fields=["email"])
        # The links in the emails the old address got no longer speak for this person.
        unsubscribe_keys_rotate(user)


def _signature(key: UnsubscribeKey) -> str:
    text = f"{key.nonce}:{key.user_id}:{key.kind}"
    return salted_hmac(SALT, text, algorithm="sha256").hexdigest()[:32]


def unsubscribe_token(user_id: int, kind: str) -> str:
    """The token of the link that turns ``kind`` of email (or ``ALL``) off for the person:
    their key's nonce and its signature, nothing readable (the key made the first time)."""
    key, _made = UnsubscribeKey.objects.get_or_create(
        user_id=user_id, kind=kind, defaults={"nonce": secrets.token_urlsafe(18)}
    )
    return f"{key.nonce}.{_signature(key)}"


def unsubscribe_keys_rotate(user: Any) -> None:
    """Revoke ``user``'s unsubscribe links: they answer 404, the next emails carry new ones."""
    UnsubscribeKey.objects.filter(user=user).delete()


def unsubscribe_read(token: str) -> tuple[Any, str] | None:
    """Return the person and kind of a token, or None when it is forged, revoked or
    unknown."""
    if ":" in token:  # never in a key's token (a nonce, a dot, hex digits)
        return _legacy_read(token)
    nonce, _dot, signature = token.partition(".")
    key = None
    if nonce and signature:
        key = UnsubscribeKey.objects.filter(nonce=nonce).select_related("user").first()
    if key is None or not constant_time_compare(signature, _signature(key)):
        return None
    return (key.user, key.kind) if key.kind == ALL or key.kind in email_kinds() else None


def _legacy_read(token: str) -> tuple[Any, str] | None:
    """Read a token of the old form (``LEGACY_DAYS``): its person and kind, or None."""
    try:
        data = signing.loads(token, salt=SALT, max_age=timedelta(days=LEGACY_DAYS))
    except signing.BadSignature:  # an expired one too
        return None
    kind = data.get("k") if isinstance(data, dict) else None
    if kind != ALL and kind not in email_kinds():
        return None
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    return (user, kind) if user is not None else None


def unsubscribe(*, user: Any, kind: str) -> NoticeSettings:
    """Turn ``kind`` of email (or every kind: ``ALL``) off for ``user``."""
    with transaction.atomic():
        chosen = NoticeSettings.objects.select_for_update().get_or_create(user=user)[0]
        off = set(chosen.off) | ({ALL} if kind == ALL else {kind})
        chosen.off = sorted(off)
        chosen.save(update_fields=["off"])
    return chosen


def language_remember(user: Any, language: str) -> None:
    NoticeSettings.objects.update_or_create(user=user, defaults={"language": language})


# --- sending -------------------------------------------------------------------------------


def _link(path: str) -> str:
    return settings.FIVES_SITE_URL + path


def _recipients(user_ids: Iterable[int]) -> dict[int, tuple[Any, str, set[str]]]:
    """The people of ``user_ids`` with an email address: (user, language, kinds off)."""
    users = get_user_model().objects.filter(pk__in=set(user_ids)).exclude(email="")
    chosen = {row.user_id: row for row in NoticeSettings.objects.filter(user__in=users)}
    found = {}
    for user in users:
        row = chosen.get(user.pk)
        language = (row.language if row else "") or settings.LANGUAGE_CODE
        found[user.pk] = (user, language, set(row.off) if row else set())
    return found


def _take(user: Any, keys: list[str]) -> list[str]:
    """Take the notices of ``keys`` for ``user``; return the keys taken now (not before)."""
    taken = []
    for key in keys:
        try:
            with transaction.atomic():
                Notice.objects.create(user=user, key=key)
        except IntegrityError:
            continue
        taken.append(key)
    return taken


def _kind_and_id(key: str) -> tuple[str, int] | None:
    """The kind and the object's id an item's key names ("postponement:12:1767..."), or
    None for a key of no kind known now."""
    kind, _colon, rest = key.partition(":")
    object_id = rest.split(":", 1)[0]
    if (kind in waiting.kinds() or kind == REMINDER) and object_id.isdigit():
        return kind, int(object_id)
    return None


def _subject(key: str) -> str:
    """What an item's key is about, its kind and object ("postponement:12"): a held item
    replaces the held one of its subject."""
    return ":".join(key.split(":")[:2])


def _person(user: Any) -> NoticeSettings:
    """``user``'s settings, their row locked till the transaction ends: one person's emails
    are counted and decided one at a time, whichever worker sends them."""
    return NoticeSettings.objects.select_for_update().get_or_create(user=user)[0]


def _recent(mine: NoticeSettings, now: datetime) -> list[str]:
    hour_ago = now - timedelta(hours=1)
    return [stamp for stamp in mine.emailed if datetime.fromisoformat(stamp) > hour_ago]


def _spend(mine: NoticeSettings, now: datetime) -> str | None:
    """Count an email now to the person of ``mine`` (locked); return its time, or None when
    the hour's emails (``FIVES_EMAILS_PER_HOUR``) are spent."""
    recent = _recent(mine, now)
    if len(recent) >= settings.FIVES_EMAILS_PER_HOUR:
        return None
    stamp = now.isoformat()
    mine.emailed = [*recent, stamp]
    mine.save(update_fields=["emailed"])
    return stamp


def _give_back(user: Any, stamp: str) -> None:
    """An email that failed is not counted."""
    with transaction.atomic():
        mine = _person(user)
        if stamp in mine.emailed:
            mine.emailed.remove(stamp)
            mine.save(update_fields=["emailed"])


def _hold(user: Any, keys: list[str]) -> None:
    """Hold the notices of ``keys`` for the digest, each in place of the held one of its
    subject (an offer made again is named once, as it now stands)."""
    subjects = {_subject(key) for key in keys}
    held = Notice.objects.filter(user=user, held=True).exclude(key__in=keys)
    older = [row.pk for row in held if _subject(row.key) in subjects]
    Notice.objects.filter(pk__in=older).delete()
    Notice.objects.filter(user=user, key__in=keys).update(held=True)


def _send(user: Any, kinds: list[str], items: list[dict[str, str]], subject: str, digest: bool):
    """Send one email to ``user`` (in the active language) listing ``items`` of ``kinds``."""
    names = email_kinds()
    links = {
        kind: _link(reverse("competitions:unsubscribe", args=[unsubscribe_token(user.pk, kind)]))
        for kind in (*kinds, ALL)
    }
    context = {
        "user": user,
        "items": items,
        "digest": digest,
        "kinds": [{"name": names[kind], "unsubscribe": links[kind]} for kind in kinds],
        "settings_url": _link(reverse("competitions:email-settings")),
        "inbox_url": _link(reverse("competitions:inbox")),
    }
    message = EmailMessage(
        subject=subject,
        body=render_to_string("competitions/email/notice.txt", context),
        to=[user.email],
        headers={
            # RFC 8058: a mail client's own button posts here, and turns off the email's
            # kind, as its body's link does (a digest of several kinds: every email).
            "List-Unsubscribe": f"<{links[kinds[0] if len(kinds) == 1 else ALL]}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.send()  # through Django's default mailer (settings.MAILERS, from EMAIL_URL)


def _mail(user: Any, language: str, items: list[Waiting], stamp: str, digest: bool) -> int:
    """Send ``items`` to ``user`` in one email and mark their notices sent. If it fails, its
    count is given back, and its notices: a digest's held again, an announcement's deleted
    (the task's retry takes them again); then it raises."""
    keys = [item.key for item in items]
    kinds = [kind for kind in email_kinds() if any(item.kind == kind for item in items)]
    with translation.override(language):
        words = [{"title": i.title, "where": i.where, "url": _link(i.url)} for i in items]
        if len(words) == 1:
            subject = _("Fives archive: %(title)s") % {"title": words[0]["title"]}
        else:
            subject = _("Fives archive: what waits on you (%(count)s)") % {"count": len(words)}
        try:
            _send(user, kinds, words, subject[:200], digest)
        except Exception:
            _give_back(user, stamp)
            notices = Notice.objects.filter(user=user, key__in=keys)
            if digest:
                notices.update(held=True)
            else:
                notices.delete()
            raise
    Notice.objects.filter(user=user, key__in=keys).update(sent_at=timezone.now())
    return 1


def _deliver(user: Any, language: str, kind: str, items: list[Waiting]) -> int:
    """Take the items' notices and send them in one email, if the person's emails of the
    hour allow and nothing of theirs waits for the digest; else hold them for it. Return
    the emails sent."""
    with transaction.atomic():
        mine = _person(user)
        keys = _take(user, [item.key for item in items])
        if not keys:
            return 0
        queued = Notice.objects.filter(user=user, held=True).exclude(key__in=keys).exists()
        stamp = None if queued else _spend(mine, timezone.now())
        if stamp is None:
            _hold(user, keys)
            return 0
    return _mail(user, language, [item for item in items if item.key in keys], stamp, False)


def _announce(kind: str, of: Callable[[], list[Waiting]]) -> int:
    """Send each person the items of ``kind`` that ``of()`` finds waiting on them, once, in
    one email, in their language. Return the number of emails sent."""
    people = _recipients(item.user_id for item in of())
    sent = 0
    for language in sorted({language for _user, language, _off in people.values()}):
        with translation.override(language):
            items = of()  # the words in this language
        by_user: dict[int, list[Waiting]] = {}
        for item in items:
            person = people.get(item.user_id)
            if person is None or person[1] != language or {kind, ALL} & person[2]:
                continue
            by_user.setdefault(item.user_id, []).append(item)
        for user_id, mine in by_user.items():
            sent += _deliver(people[user_id][0], language, kind, mine)
    return sent


def notices_send(kind: str, ids: Iterable[int]) -> int:
    """Send each person the items of ``kind`` that the objects of ``ids`` make wait on them,
    once, in one email, in their language. Return the number of emails sent."""
    ids = list(ids)
    return _announce(kind, lambda: waiting.kinds()[kind].of(ids))


def notices_retry_stale(now=None) -> int:
    """Send again what a worker took and never sent (it died between taking an item's
    ``Notice`` and sending its email): the rows taken ``FIVES_NOTICES_STALE_AFTER`` seconds
    ago and not sent (nor held for a digest) are given back, and their items sent as if
    just announced (a reminder is taken again by the next look for tomorrow's fixtures).
    Return the emails sent."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.FIVES_NOTICES_STALE_AFTER)
    stale = Notice.objects.filter(sent_at__isnull=True, held=False, created_at__lt=cutoff)
    kinds: dict[str, set[int]] = {}
    for key in stale.values_list("key", flat=True):
        found = _kind_and_id(key)
        if found is not None and found[0] != REMINDER:
            kinds.setdefault(found[0], set()).add(found[1])
    stale.delete()
    return sum(notices_send(kind, sorted(ids)) for kind, ids in kinds.items())


# --- the digest ----------------------------------------------------------------------------


def _still_waiting(user_id: int, rows: list[Notice], off: set[str], now) -> dict[str, Waiting]:
    """The items of the held ``rows`` that still wait on the person (in the active
    language), by subject: asked of their kinds again, not remembered."""
    ids: dict[str, set[int]] = {}
    for row in rows:
        found = _kind_and_id(row.key)
        if found is not None and not {found[0], ALL} & off:
            ids.setdefault(found[0], set()).add(found[1])
    current = {}
    for kind, kind_ids in ids.items():
        if kind == REMINDER:
            items = reminders_of(kind_ids, now)
        else:
            items = waiting.kinds()[kind].of(sorted(kind_ids))
        current |= {_subject(item.key): item for item in items if item.user_id == user_id}
    return current


def _digest_send(user_id: int, now) -> int:
    """Send the person of ``user_id`` their held items still waiting, in one email, if the
    hour allows (the rest dropped). Return the emails sent (0 or 1)."""
    person = _recipients([user_id]).get(user_id)
    with transaction.atomic():
        held = Notice.objects.filter(user_id=user_id, held=True)
        if person is None:  # no address now: nothing to send, ever
            held.delete()
            return 0
        user, language, off = person
        mine = _person(user)
        rows = list(held.order_by("pk"))  # read after the lock: as the last worker left them
        if not rows or len(_recent(mine, now)) >= settings.FIVES_EMAILS_PER_HOUR:
            return 0
        with translation.override(language):
            current = _still_waiting(user_id, rows, off, now)
        keys = [item.key for item in current.values()]
        told = set(
            Notice.objects.filter(user=user, key__in=keys, held=False).values_list("key", flat=True)
        )
        items = []
        for row in rows:
            item = current.get(_subject(row.key))
            if item is None or item.key in told:
                row.delete()  # no longer waiting, or told already
                continue
            # Taken now: a worker that dies sending it leaves a stale row, sent again later.
            row.key, row.held, row.created_at = item.key, False, now
            row.save(update_fields=["key", "held", "created_at"])
            items.append(item)
        if not items:
            return 0
        stamp = _spend(mine, now)
    items.sort(key=lambda item: (item.since, item.key), reverse=True)
    return _mail(user, language, items, stamp, True)


def notices_digest_send(now=None) -> int:
    """Send each person whose items were held (their emails of the hour spent) one email of
    those still waiting on them, once the hour allows; an item no longer waiting (an offer
    withdrawn) is dropped unsent. Return the emails sent."""
    now = now or timezone.now()
    people = set(Notice.objects.filter(held=True).values_list("user_id", flat=True))
    return sum(_digest_send(user_id, now) for user_id in sorted(people))


# --- reminders -----------------------------------------------------------------------------


def _reminder(fixture: Fixture, user_id: int, names: TeamNames, member_of: set[int]) -> Waiting:
    return Waiting(
        kind=REMINDER,
        key=f"{REMINDER}:{fixture.pk}:{fixture.day.isoformat()}",
        user_id=user_id,
        title=_("Tomorrow: %(fixture)s.") % {"fixture": names.fixture(fixture, member_of)},
        where=fixture.league.name,
        url=reverse("competitions:league-fixture", args=[fixture.league_id, fixture.pk]),
        since=fixture.league.created_at,
    )


def fixtures_tomorrow(now=None, ids: Iterable[int] | None = None) -> list[Fixture]:
    """The fixtures to play (of ``ids``, else all) whose day is tomorrow in their home
    club's time zone."""
    now = now or timezone.now()
    days = {(now + timedelta(days=shift)).date() for shift in (0, 1, 2)}
    fixtures = (
        Fixture.objects.filter(status=Fixture.Status.TO_PLAY, day__in=days)
        .select_related("league", "home__club", "away__club")
        .prefetch_related("home__captains", "away__captains")
        .order_by("pk")
    )
    if ids is not None:
        fixtures = fixtures.filter(pk__in=list(ids))
    return [
        fixture
        for fixture in fixtures
        if now.astimezone(ZoneInfo(fixture.home.club.time_zone)).date() + timedelta(days=1)
        == fixture.day
    ]


def reminders_of(ids: Iterable[int] | None = None, now=None) -> list[Waiting]:
    """The reminders of tomorrow's fixtures (of ``ids``, else all), one for each captain of
    either team still a member of the team's club, in the active language."""
    fixtures = fixtures_tomorrow(now, ids)
    pairs = [
        (fixture, team, captain.pk)
        for fixture in fixtures
        for team in (fixture.home, fixture.away)
        for captain in team.captains.all()
    ]
    member_of: dict[int, set[int]] = {}
    for user_id, club_id in Membership.objects.filter(
        user_id__in={pk for _f, _t, pk in pairs}
    ).values_list("user_id", "club_id"):
        member_of.setdefault(user_id, set()).add(club_id)
    names = TeamNames(fixtures)
    return [
        _reminder(fixture, user_id, names, member_of[user_id])
        for fixture, team, user_id in pairs
        if team.club_id in member_of.get(user_id, set())
    ]


def fixture_reminders_send(now=None) -> int:
    """Remind both teams' captains (still members of their team's club) of tomorrow's
    fixtures, once a fixture and day. Return the number of emails sent."""
    return _announce(REMINDER, lambda: reminders_of(now=now))
