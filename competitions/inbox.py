"""The inbox (issue 36): everything that waits on a person, gathered from the kinds each app
registers with ``clubs.waiting``, and the emails that tell them, once.

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

**Who gets what.** Nobody without an email address; nobody who turned that kind of email off
(``NoticeSettings.off``: the email settings page, or the one-click unsubscribe every email
carries, a signed token that needs no sign-in).

**Language.** A person's emails are in the language of their latest signed-in page
(``competitions.middleware`` keeps it in ``NoticeSettings.language``), else the site's.

**Reminders.** The day before a fixture still to play, both teams' captains get a reminder
(``fixture_reminders_send``, a periodic task of the beat schedule): "the day before" in the
home club's time zone, once a fixture and day (its ``Notice``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import timedelta
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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs import waiting
from clubs.models import Membership
from clubs.waiting import Waiting

from .models import Fixture, Notice, NoticeSettings
from .waiting import TeamNames

REMINDER = "fixture-reminder"
ALL = "all"
SALT = "fives.unsubscribe"


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


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A signed token that turns ``kind`` of email (or ``ALL``) off for the person."""
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[Any, str] | None:
    """Return the person and kind of a token, or None when it is forged or unknown."""
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
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


def _send(user: Any, kind: str, items: list[dict[str, str]], subject: str) -> None:
    """Send one email to ``user`` (in the active language) listing ``items``."""
    token = unsubscribe_token(user.pk, kind)
    everything = _link(reverse("replays:unsubscribe", args=[unsubscribe_token(user.pk, ALL)]))
    context = {
        "user": user,
        "items": items,
        "kind_name": email_kinds()[kind],
        "unsubscribe": _link(reverse("replays:unsubscribe", args=[token])),
        "settings_url": _link(reverse("replays:email-settings")),
        "inbox_url": _link(reverse("replays:inbox")),
    }
    message = EmailMessage(
        subject=subject,
        body=render_to_string("competitions/email/notice.txt", context),
        to=[user.email],
        headers={
            # RFC 8058: a mail client's own button posts here and the person is out of all.
            "List-Unsubscribe": f"<{everything}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.send()  # through Django's default mailer (settings.MAILERS, from EMAIL_URL)


def _deliver(user: Any, language: str, kind: str, items: list[Waiting]) -> int:
    """Take the items' notices and send them in one email; give them back if it fails."""
    keys = _take(user, [item.key for item in items])
    if not keys:
        return 0
    chosen = [item for item in items if item.key in keys]
    with translation.override(language):
        words = [{"title": i.title, "where": i.where, "url": _link(i.url)} for i in chosen]
        if len(words) == 1:
            subject = _("Fives archive: %(title)s") % {"title": words[0]["title"]}
        else:
            subject = _("Fives archive: what waits on you (%(count)s)") % {"count": len(words)}
        try:
            _send(user, kind, words, subject[:200])
        except Exception:
            Notice.objects.filter(user=user, key__in=keys).delete()  # a retry sends them
            raise
    Notice.objects.filter(user=user, key__in=keys).update(sent_at=timezone.now())
    return 1


def notices_send(kind: str, ids: Iterable[int]) -> int:
    """Send each person the items of ``kind`` that the objects of ``ids`` make wait on them,
    once, in one email, in their language. Return the number of emails sent."""
    ids = list(ids)
    found = waiting.kinds()[kind].of(ids)
    people = _recipients(item.user_id for item in found)
    sent = 0
    for language in sorted({language for _user, language, _off in people.values()}):
        with translation.override(language):
            items = waiting.kinds()[kind].of(ids)  # the words in this language
        by_user: dict[int, list[Waiting]] = {}
        for item in items:
            person = people.get(item.user_id)
            if person is None or person[1] != language or {kind, ALL} & person[2]:
                continue
            by_user.setdefault(item.user_id, []).append(item)
        for user_id, mine in by_user.items():
            sent += _deliver(people[user_id][0], language, kind, mine)
    return sent


def notices_retry_stale(now=None) -> int:
    """Send again what a worker took and never sent (it died between taking an item's
    ``Notice`` and sending its email): the rows taken ``FIVES_NOTICES_STALE_AFTER`` seconds
    ago and not sent are given back, and their items sent as if just announced (a reminder
    is taken again by the next look for tomorrow's fixtures). Return the emails sent."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.FIVES_NOTICES_STALE_AFTER)
    stale = Notice.objects.filter(sent_at__isnull=True, created_at__lt=cutoff)
    kinds: dict[str, set[int]] = {}
    for key in stale.values_list("key", flat=True):
        kind, _colon, rest = key.partition(":")
        object_id = rest.split(":", 1)[0]
        if kind in waiting.kinds() and object_id.isdigit():
            kinds.setdefault(kind, set()).add(int(object_id))
    stale.delete()
    return sum(notices_send(kind, sorted(ids)) for kind, ids in kinds.items())


# --- reminders -----------------------------------------------------------------------------


def _reminder(fixture: Fixture, user_id: int, names: TeamNames, member_of: set[int]) -> Waiting:
    return Waiting(
        kind=REMINDER,
        key=f"{REMINDER}:{fixture.pk}:{fixture.day.isoformat()}",
        user_id=user_id,
        title=_("Tomorrow: %(fixture)s.") % {"fixture": names.fixture(fixture, member_of)},
        where=fixture.league.name,
        url=reverse("replays:league-fixture", args=[fixture.league_id, fixture.pk]),
        since=fixture.league.created_at,
    )


def fixtures_tomorrow(now=None) -> list[Fixture]:
    """The fixtures to play whose day is tomorrow in their home club's time zone."""
    now = now or timezone.now()
    days = {(now + timedelta(days=shift)).date() for shift in (0, 1, 2)}
    fixtures = (
        Fixture.objects.filter(status=Fixture.Status.TO_PLAY, day__in=days)
        .select_related("league", "home__club", "away__club")
        .prefetch_related("home__captains", "away__captains")
        .order_by("pk")
    )
    return [
        fixture
        for fixture in fixtures
        if now.astimezone(ZoneInfo(fixture.home.club.time_zone)).date() + timedelta(days=1)
        == fixture.day
    ]


def fixture_reminders_send(now=None) -> int:
    """Remind both teams' captains (still members of their team's club) of tomorrow's
    fixtures, once a fixture and day. Return the number of emails sent."""
    fixtures = fixtures_tomorrow(now)
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
    people = _recipients(pk for _f, _t, pk in pairs)
    names = TeamNames(fixtures)
    sent = 0
    for fixture, team, user_id in pairs:
        person = people.get(user_id)
        clubs = member_of.get(user_id, set())
        if person is None or team.club_id not in clubs or {REMINDER, ALL} & person[2]:
            continue
        with translation.override(person[1]):
            item = _reminder(fixture, user_id, names, clubs)
        sent += _deliver(person[0], person[1], REMINDER, [item])
    return sent
