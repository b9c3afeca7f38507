# ruff: noqa: F811 (the fixtures imported from test_leagues are arguments here)
"""Mail that cannot flood (issue 55): at most ``FIVES_EMAILS_PER_HOUR`` emails an hour
reach one person, of every kind and sender together; what comes after waits and goes as
one digest once the hour allows, naming what still waits (an offer made again once, as it
now stands; one withdrawn not at all). The clock is driven: ``django.utils.timezone.now``
is the test's, so "two minutes of offers every 1.5 s" take no two minutes. Tasks run
in-process; a real SMTP server (aiosmtpd) receives the emails."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings as django_settings
from django.core.mail import EmailMessage
from django.utils import timezone

from clubs.services import join_request_create
from competitions import inbox
from competitions.league_services import league_invite, league_make
from competitions.models import Notice, NoticeSettings
from competitions.postponements import postponement_offer, postponement_withdraw
from tests.competitions.test_inbox import body, page_of, smtp, speaks  # noqa: F401 (smtp)
from tests.competitions.test_leagues import club, match_day, people  # noqa: F401

pytestmark = pytest.mark.django_db

DIGEST = "The archive sends you only a few emails an hour"


class Clock:
    """The time every ``timezone.now()`` reads, moved on by the test."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    driven = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", driven)
    return driven


def days_after(clock: Clock, *shifts: int) -> list:
    return [clock.now.date() + timedelta(days=shift) for shift in shifts]


def test_a_captain_offering_and_withdrawing_for_two_minutes_mails_three_times_then_a_digest(
    smtp, clock, match_day, people, django_capture_on_commit_callbacks
):
    fixture, *_ = match_day
    levan, sopho = people["levan"], people["sopho"]  # the home captain, the away captain
    speaks(levan, "en")
    speaks(sopho, "en")
    started = clock.now
    # Two minutes of an offer, then its withdrawal, every 1.5 s (80 steps); then an offer
    # that stands.
    for step in range(81):
        if step % 2:
            postponement_withdraw(actor=levan, fixture=fixture)
        else:
            with django_capture_on_commit_callbacks(execute=True):
                days = days_after(clock, 5 + step % 7)
                postponement_offer(actor=levan, fixture=fixture, days=days)
        clock.tick(1.5)
    offers = 41
    fixture.refresh_from_db()
    standing = ", ".join(fixture.offered_days)
    mails = smtp.to(sopho.email)
    assert len(mails) == 3 and not any(DIGEST in body(mail) for mail in mails)
    assert smtp.to(levan.email) == []
    # One item waits for the digest, the offer as it now stands (each offer replaced it).
    [held] = Notice.objects.filter(user=sopho, held=True)
    assert held.key == f"postponement:{fixture.pk}:{int(fixture.offered_at.timestamp())}"
    # The inbox shows it at once, as ever.
    assert f"offers other days ({standing})" in page_of(sopho, "en")

    # Not while the hour is spent; once it allows, one digest, naming the offer once.
    assert inbox.notices_digest_send(now=started + timedelta(minutes=59)) == 0
    assert inbox.notices_digest_send(now=started + timedelta(hours=1, seconds=1)) == 1
    assert inbox.notices_digest_send(now=started + timedelta(hours=1, seconds=2)) == 0
    mails = smtp.to(sopho.email)
    digest = body(mails[-1])
    assert len(mails) == 4 and DIGEST in digest
    assert digest.count("offers other days") == 1 and f"({standing})" in digest
    assert mails[-1]["Subject"].startswith("Fives archive: Tbilisi – Moscow")
    print(
        f"\n{offers} offers and {offers - 1} withdrawals, one every 1.5 s: the away captain "
        f"got {len(mails) - 1} emails, then {sum(DIGEST in body(m) for m in mails)} digest"
    )


def test_an_offer_withdrawn_while_it_waits_for_the_digest_is_never_sent(
    smtp, clock, match_day, people, django_capture_on_commit_callbacks
):
    fixture, *_ = match_day
    levan, sopho = people["levan"], people["sopho"]
    speaks(sopho, "en")
    for shift in (5, 6, 7, 8):
        with django_capture_on_commit_callbacks(execute=True):
            postponement_offer(actor=levan, fixture=fixture, days=days_after(clock, shift))
        clock.tick(2)
    assert len(smtp.to(sopho.email)) == 3
    assert Notice.objects.filter(user=sopho, held=True).count() == 1
    postponement_withdraw(actor=levan, fixture=fixture)
    assert inbox.notices_digest_send(now=clock.now + timedelta(hours=1)) == 0
    assert not Notice.objects.filter(user=sopho, held=True).exists()
    assert len(smtp.to(sopho.email)) == 3
    # The hour over, a new offer is mailed at once.
    clock.tick(3600)
    with django_capture_on_commit_callbacks(execute=True):
        postponement_offer(actor=levan, fixture=fixture, days=days_after(clock, 9))
    assert len(smtp.to(sopho.email)) == 4


def test_the_hour_counts_every_kind_and_sender_together_and_the_digest_holds_them_all(
    smtp, clock, people, django_capture_on_commit_callbacks, django_user_model
):
    owner, giorgi = people["owner"], people["giorgi"]
    speaks(owner, "ru")
    # Three people ask to join, a fourth and fifth too, then two leagues invite the club.
    for number in range(5):
        asker = django_user_model.objects.create_user(f"asker{number}", password="a-long-pw-7")
        with django_capture_on_commit_callbacks(execute=True):
            join_request_create(user=asker, club=club("tbilisi-fives-club"))
        clock.tick(60)
    for name in ("Spring league", "Summer league"):
        league = league_make(actor=giorgi, name=name, legs=["singles"])
        with django_capture_on_commit_callbacks(execute=True):
            league_invite(actor=giorgi, league=league, club=club("moscow"))
        clock.tick(60)
    assert len(smtp.to(owner.email)) == 3
    assert len(NoticeSettings.objects.get(user=owner).emailed) == 3
    assert Notice.objects.filter(user=owner, held=True).count() == 4
    assert inbox.notices_digest_send(now=clock.now) == 0  # the hour is not over

    clock.tick(3600)
    assert inbox.notices_digest_send() == 1
    digest = smtp.to(owner.email)[-1]
    text = body(digest)
    assert digest["Subject"] == "Архив «Пятёрочки»: что ждёт вас (4)"
    assert text.count("asker") == 2 and text.count("Spring league") + text.count("Summer") == 2
    assert "Архив присылает вам лишь несколько писем в час" in text
    # Two kinds: the body's link of each turns it off; the mail client's button, every one.
    assert text.count("/emails/unsubscribe/") == 2
    every = inbox.unsubscribe_token(owner.pk, inbox.ALL)
    assert digest["List-Unsubscribe"] == (
        f"<{django_settings.FIVES_SITE_URL}/emails/unsubscribe/{every}/>"
    )
    assert not Notice.objects.filter(user=owner, held=True).exists()
    assert Notice.objects.filter(user=owner, sent_at__isnull=False).count() == 7


def test_a_reminder_counts_too_and_waits_for_the_digest_while_still_tomorrow(
    smtp, match_day, people, monkeypatch, django_capture_on_commit_callbacks
):
    fixture, *_ = match_day  # on 2026-10-03
    levan, sopho = people["levan"], people["sopho"]
    speaks(levan, "en")
    speaks(sopho, "en")
    clock = Clock(datetime(2026, 10, 2, 12, tzinfo=UTC))  # the day before
    monkeypatch.setattr(timezone, "now", clock)
    for shift in (5, 6, 7):
        with django_capture_on_commit_callbacks(execute=True):
            postponement_offer(actor=levan, fixture=fixture, days=days_after(clock, shift))
        clock.tick(2)
    assert len(smtp.to(sopho.email)) == 3
    assert inbox.fixture_reminders_send() == 1  # Levan's; Sopho's waits
    assert "Tomorrow: Tbilisi – Moscow" in smtp.to(levan.email)[0]["Subject"]
    clock.tick(3600)
    assert inbox.notices_digest_send() == 1
    reminder = smtp.to(sopho.email)[-1]
    assert reminder["Subject"] == "Fives archive: Tomorrow: Tbilisi – Moscow, 2026-10-03."
    token = inbox.unsubscribe_token(sopho.pk, inbox.REMINDER)
    assert token in reminder["List-Unsubscribe"] and DIGEST in body(reminder)


def test_a_reminder_held_past_its_day_is_dropped(smtp, match_day, people, monkeypatch):
    sopho = people["sopho"]
    speaks(sopho, "en")
    clock = Clock(datetime(2026, 10, 2, 12, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", clock)
    NoticeSettings.objects.filter(user=sopho).update(emailed=[clock.now.isoformat()] * 3)
    assert inbox.fixture_reminders_send() == 0
    assert Notice.objects.filter(user=sopho, held=True).count() == 1
    clock.tick(86400)  # the fixture's own day: "tomorrow" would be wrong
    assert inbox.notices_digest_send() == 0
    assert not Notice.objects.filter(user=sopho).exists() and smtp.to(sopho.email) == []


def test_the_number_an_hour_is_a_setting(smtp, settings, people, django_user_model):
    settings.FIVES_EMAILS_PER_HOUR = 5
    owner = people["owner"]
    speaks(owner, "en")
    for number in range(6):
        asker = django_user_model.objects.create_user(f"asker{number}", password="a-long-pw-7")
        inbox.notices_send(
            "join-request", [join_request_create(user=asker, club=club("moscow")).pk]
        )
    assert len(smtp.to(owner.email)) == 5
    assert Notice.objects.filter(user=owner, held=True).count() == 1


def test_an_email_that_fails_is_not_counted(smtp, people, monkeypatch, django_user_model):
    owner = people["owner"]
    speaks(owner, "en")
    asker = django_user_model.objects.create_user("dato", password="a-long-password-7")
    asked = join_request_create(user=asker, club=club("moscow"))
    sent = EmailMessage.send

    def refused(self, *args, **kwargs):
        raise OSError("the SMTP server is away")

    monkeypatch.setattr(EmailMessage, "send", refused)
    with pytest.raises(OSError):
        inbox.notices_send("join-request", [asked.pk])
    assert NoticeSettings.objects.get(user=owner).emailed == []
    assert not Notice.objects.filter(user=owner).exists()  # the task's retry takes it again
    monkeypatch.setattr(EmailMessage, "send", sent)
    assert inbox.notices_send("join-request", [asked.pk]) == 1
    assert len(NoticeSettings.objects.get(user=owner).emailed) == 1


def test_a_digest_that_fails_holds_its_items_again(smtp, people, monkeypatch, django_user_model):
    owner = people["owner"]
    speaks(owner, "en")
    hour_ago = (timezone.now() - timedelta(minutes=59)).isoformat()
    NoticeSettings.objects.filter(user=owner).update(emailed=[hour_ago] * 3)
    asker = django_user_model.objects.create_user("dato", password="a-long-password-7")
    inbox.notices_send("join-request", [join_request_create(user=asker, club=club("moscow")).pk])
    assert Notice.objects.filter(user=owner, held=True).count() == 1
    monkeypatch.setattr(EmailMessage, "send", lambda self: (_ for _ in ()).throw(OSError()))
    later = timezone.now() + timedelta(minutes=2)
    with pytest.raises(OSError):
        inbox.notices_digest_send(now=later)
    assert Notice.objects.filter(user=owner, held=True).count() == 1
    assert NoticeSettings.objects.get(user=owner).emailed == []  # the old three are past
    monkeypatch.undo()
    assert inbox.notices_digest_send(now=later) == 1
    assert "dato asks to join the club." in smtp.to(owner.email)[0]["Subject"]


def test_the_digest_is_a_periodic_task_of_the_beat_schedule():
    assert any(
        entry["task"] == "competitions.tasks.notices_digest_task"
        for entry in django_settings.CELERY_BEAT_SCHEDULE.values()
    )
    assert django_settings.FIVES_EMAILS_PER_HOUR == 3
