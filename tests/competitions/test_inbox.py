"""Waiting on you (issue 36): each kind of waiting item (a match awaiting approval, a join
request, a league's invitation, a fixture to confirm, a dispute) lands in its person's inbox
page, ``GET /api/v1/inbox/`` and exactly one email, in English, Russian and Georgian, through
a real SMTP server the test starts (aiosmtpd); nobody who unsubscribed gets one; nobody
reads another's inbox; the one-click unsubscribe works without signing in, turns off its
email's kind (every kind when the person chooses) and refuses a forged token, which names
nobody (issue 55); the reminder of tomorrow's fixture goes to both captains once."""

from __future__ import annotations

import base64
import contextlib
import re
import socket
import time
import zlib
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings as django_settings
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from clubs import waiting
from clubs.audit import audit_sentence
from clubs.models import AuditEntry, Club
from clubs.refusals import ClubRefusal
from clubs.services import join_request_create
from competitions import inbox
from competitions.league_results import fixture_dispute, fixture_submit
from competitions.league_services import (
    fixture_reset,
    league_accept,
    league_decline,
    league_invite,
    league_make,
)
from competitions.models import LeagueClub, Notice, NoticeSettings
from competitions.postponements import postponement_offer
from tests.competitions.test_leagues import club
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db

# What each language's email and inbox say (the translations are held here).
WORDS = {
    "en": {"body": "This waits on you in the Fives archive:", "page": "Waiting on you"},
    "ru": {"body": "Вот что ждёт вас в архиве «Пятёрочки»:", "page": "Ждёт вас"},
    "ka": {"body": "აი, რა გელოდებათ ხუთივეს არქივში:", "page": "თქვენ გელოდებათ"},
}


class Kept:
    """An SMTP server's handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list = []
        self.port = 0

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def to(self, address: str) -> list:
        return [message for rcpt, message in self.messages if address in rcpt]


@pytest.fixture
def smtp(settings):
    """A real SMTP server on a free port, and Django's default mailer pointed at it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    kept = Kept()
    kept.port = port
    controller = Controller(kept, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 10},
        }
    }
    try:
        yield kept
    finally:
        controller.stop()


def speaks(user, language: str, email: str | None = None) -> None:
    user.email = email or f"{user.username}@example.org"
    user.save(update_fields=["email"])
    NoticeSettings.objects.update_or_create(user=user, defaults={"language": language})


def page_of(user, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    answer = client.get("/inbox/")
    assert answer.status_code == 200
    return answer.content.decode()


def api_of(user, language: str) -> dict:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    client.force_authenticate(user)
    answer = client.get("/api/v1/inbox/")
    assert answer.status_code == 200
    return answer.json()


def body(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def check_one(smtp, user, language, kind, before: int) -> dict:
    """The item of ``kind`` waits on ``user``: in their inbox page and API answer, and in
    exactly one new email to them, in ``language``. Return the API's item."""
    items = [item for item in api_of(user, language)["items"] if item["kind"] == kind]
    assert len(items) == 1, items
    item = items[0]
    assert item["url"].startswith(django_settings.FIVES_SITE_URL + "/")
    shown = page_of(user, language)
    assert WORDS[language]["page"] in shown
    assert f'data-kind="{kind}"' in shown
    mails = smtp.to(user.email)
    assert len(mails) == before + 1, [m["Subject"] for m in mails]
    mail = mails[-1]
    text = body(mail)
    assert WORDS[language]["body"] in text
    assert item["title"] in text and item["url"] in text
    assert item["title"] in mail["Subject"]
    assert mail["List-Unsubscribe"].startswith(f"<{django_settings.FIVES_SITE_URL}/emails/")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/emails/unsubscribe/" in text
    return item


@pytest.mark.parametrize("language", ["en", "ru", "ka"])
def test_each_waiting_item_lands_in_the_inbox_the_api_and_one_email(
    language, smtp, people, match_day, django_capture_on_commit_callbacks, django_user_model
):
    p = people
    fixture, singles, pairs = match_day
    for name in ("owner", "levan", "sopho", "giorgi"):
        speaks(p[name], language)
    owner = p["owner"]

    # A join request: the club's owner is told.
    dato = django_user_model.objects.create_user("dato", password="a-long-password-7")
    with django_capture_on_commit_callbacks(execute=True):
        join_request_create(user=dato, club=club("tbilisi-fives-club"))
    check_one(smtp, owner, language, "join-request", 0)

    # A member's match in a club that approves uploads: its admins are told.
    Club.objects.filter(slug="tbilisi-fives-club").update(requires_approval=True)
    with django_capture_on_commit_callbacks(execute=True):
        waits = store_match(p["levan"], ["Nino", "Levan"], seed=91, played_at="2026-11-01")
    assert waits.approval == "pending"
    item = check_one(smtp, owner, language, "approval", 1)
    assert item["key"] == f"approval:{waits.pk}"

    # A league's invitation: the invited club's owner and admins are told.
    league = league_make(actor=p["giorgi"], name="Winter league", legs=["singles"])
    with django_capture_on_commit_callbacks(execute=True):
        league_invite(actor=p["giorgi"], league=league, club=club("moscow"))
    check_one(smtp, owner, language, "league-invitation", 2)

    # A fixture submitted by the home captain: the away captain is told.
    with django_capture_on_commit_callbacks(execute=True):
        fixture_submit(actor=p["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    check_one(smtp, p["sopho"], language, "fixture-confirm", 0)
    assert smtp.to(p["levan"].email) == []  # the submitter waits on nobody but the other side

    # The away captain disputes: the organiser is told.
    with django_capture_on_commit_callbacks(execute=True):
        fixture_dispute(actor=p["sopho"], fixture=fixture, reason="Leg 2 was a friendly")
    item = check_one(smtp, p["giorgi"], language, "dispute", 0)
    assert "Leg 2 was a friendly" in item["title"]
    assert not [i for i in api_of(p["sopho"], language)["items"] if i["kind"] == "fixture-confirm"]

    # The organiser resets it; the home captain offers other days: the away captain is told.
    fixture_reset(actor=p["giorgi"], fixture=fixture)
    fixture.refresh_from_db()
    offered = [timezone.localdate() + timedelta(days=10)]
    with django_capture_on_commit_callbacks(execute=True):
        postponement_offer(actor=p["levan"], fixture=fixture, days=offered)
    item = check_one(smtp, p["sopho"], language, "postponement", 1)
    # The day as the reader's language writes it, as the pages do (issue 56, item 7).
    written = offered[0].isoformat() if language == "en" else offered[0].strftime("%d.%m.%Y")
    assert written in item["title"]

    # Once: every kind sent again (a retry, a second worker) sends nothing more.
    count = len(smtp.messages)
    for kind, ids in (
        ("join-request", [dato.join_requests.get().pk]),
        ("approval", [waits.pk]),
        ("league-invitation", [LeagueClub.objects.get(league=league).pk]),
        ("dispute", [fixture.pk]),
        ("postponement", [fixture.pk]),
    ):
        assert inbox.notices_send(kind, ids) == 0
    assert len(smtp.messages) == count == 6
    assert Notice.objects.filter(sent_at__isnull=False).count() == 6


def test_nobody_who_unsubscribed_gets_an_email_and_the_link_needs_no_sign_in(
    smtp, people, django_capture_on_commit_callbacks, django_user_model
):
    owner = people["owner"]
    speaks(owner, "en")
    first = django_user_model.objects.create_user("dato", password="a-long-password-7")
    with django_capture_on_commit_callbacks(execute=True):
        join_request_create(user=first, club=club("tbilisi-fives-club"))
    [mail] = smtp.to(owner.email)
    one_click = mail["List-Unsubscribe"].strip("<>").removeprefix(django_settings.FIVES_SITE_URL)

    # A forged token changes nothing: the page says so and answers 404.
    anonymous = Client()
    forged = one_click.replace("/unsubscribe/", "/unsubscribe/x")
    assert anonymous.post(forged, {"List-Unsubscribe": "One-Click"}).status_code == 404
    other = inbox.unsubscribe_token(owner.pk, "all")[:-3] + "abc"
    assert anonymous.post(f"/emails/unsubscribe/{other}/").status_code == 404
    assert NoticeSettings.objects.get(user=owner).off == []

    # The body's link opens a page without signing in; its button turns the kind off.
    link = next(line for line in body(mail).splitlines() if "/emails/unsubscribe/" in line)
    path = link.split(django_settings.FIVES_SITE_URL, 1)[1].strip()
    shown = anonymous.get(path)
    assert shown.status_code == 200 and b"No more emails about join requests" in shown.content
    assert NoticeSettings.objects.get(user=owner).off == []  # a GET changes nothing
    assert anonymous.post(path).status_code == 200
    assert NoticeSettings.objects.get(user=owner).off == ["join-request"]

    second = django_user_model.objects.create_user("eka", password="a-long-password-6")
    with django_capture_on_commit_callbacks(execute=True):
        join_request_create(user=second, club=club("tbilisi-fives-club"))
    assert len(smtp.to(owner.email)) == 1  # no new email
    assert len(page_of(owner, "en").split('data-kind="join-request"')) == 3  # both listed

    # The mail client's one-click POST (RFC 8058) turns off the email's kind, and only it.
    league = league_make(actor=people["giorgi"], name="Spring league", legs=["singles"])
    with django_capture_on_commit_callbacks(execute=True):
        league_invite(actor=people["giorgi"], league=league, club=club("moscow"))
    invited = smtp.to(owner.email)[-1]
    assert "Spring league" in invited["Subject"]
    one_click = invited["List-Unsubscribe"].strip("<>")
    one_click = one_click.removeprefix(django_settings.FIVES_SITE_URL)
    answer = anonymous.post(one_click, "List-Unsubscribe=One-Click", content_type="text/plain")
    assert answer.status_code == 200
    assert NoticeSettings.objects.get(user=owner).off == ["join-request", "league-invitation"]

    # The page of a kind's link offers every email off: chosen, nothing more comes.
    shown = anonymous.get(one_click).content.decode()
    assert 'name="what" value="all"' in shown and "No more emails about league invitations" in shown
    assert anonymous.post(one_click, {"what": "all"}).status_code == 200
    assert "all" in NoticeSettings.objects.get(user=owner).off
    summer = league_make(actor=people["giorgi"], name="Summer league", legs=["singles"])
    with django_capture_on_commit_callbacks(execute=True):
        league_invite(actor=people["giorgi"], league=summer, club=club("moscow"))
    assert len(smtp.to(owner.email)) == 2


def test_the_email_settings_page_chooses_the_emails(
    smtp, people, django_capture_on_commit_callbacks, django_user_model
):
    owner = people["owner"]
    client = Client()
    client.force_login(owner)
    assert client.get("/settings/emails/").status_code == 200
    answer = client.post(
        "/settings/emails/", {"email": "nino@example.org", "wanted": ["league-invitation"]}
    )
    assert answer.status_code == 302
    owner.refresh_from_db()
    assert owner.email == "nino@example.org"
    dato = django_user_model.objects.create_user("dato", password="a-long-password-7")
    league = league_make(actor=people["giorgi"], name="Spring league", legs=["singles"])
    with django_capture_on_commit_callbacks(execute=True):
        join_request_create(user=dato, club=club("tbilisi-fives-club"))  # turned off
        league_invite(actor=people["giorgi"], league=league, club=club("moscow"))
    assert [m["Subject"] for m in smtp.to(owner.email)] == [
        "Fives archive: The league “Spring league” invites Moscow: accept or decline."
    ]
    refused = client.post("/settings/emails/", {"email": "<script>"}).content.decode()
    assert "<script>" not in refused


def test_nobody_reads_another_s_inbox(people, match_day, django_capture_on_commit_callbacks):
    p = people
    fixture, singles, pairs = match_day
    fixture_submit(actor=p["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    assert [i["kind"] for i in api_of(p["sopho"], "en")["items"]] == ["fixture-confirm"]
    for who in ("ana", "levan", "giorgi", "owner"):  # not the other side's captain
        assert api_of(p[who], "en") == {"count": 0, "items": []}
        assert 'data-kind="' not in page_of(p[who], "en")
    assert APIClient().get("/api/v1/inbox/").status_code in (401, 403)
    assert Client().get("/inbox/").status_code == 302  # to the sign-in page

    # A private club's team is named to the other side as the league's pages name it.
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    [item] = api_of(p["sopho"], "en")["items"]
    assert "Tbilisi" not in item["title"] and "(a private club)" in item["title"]


def test_the_badge_counts_what_waits_with_a_fixed_number_of_queries(
    people, match_day, django_assert_max_num_queries
):
    p = people
    client = Client()
    client.force_login(p["sopho"])
    client.get("/leagues/")
    with django_assert_max_num_queries(20) as before:
        first = client.get("/leagues/").content.decode()
    assert 'class="badge"' not in first
    fixture, singles, pairs = match_day
    fixture_submit(actor=p["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    with django_assert_max_num_queries(len(before.captured_queries) + 6) as after:
        shown = client.get("/leagues/").content.decode()
    assert '<span class="badge">1</span>' in shown
    assert len(after.captured_queries) - len(before.captured_queries) <= 6


def test_the_inbox_page_asks_what_waits_once_and_its_badge_counts_it(
    people, match_day, monkeypatch
):
    p = people
    fixture, singles, pairs = match_day
    fixture_submit(actor=p["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    asked = []
    found = waiting.waiting_for
    monkeypatch.setattr(waiting, "waiting_for", lambda user: asked.append(user) or found(user))
    client = Client()
    client.force_login(p["sopho"])
    shown = client.get("/inbox/").content.decode()
    assert asked == [p["sopho"]]
    assert '<span class="badge">1</span>' in shown


def test_a_club_declines_a_league_s_invitation(people):
    p = people
    league = league_make(actor=p["giorgi"], name="Spring league", legs=["singles"])
    league_invite(actor=p["giorgi"], league=league, club=club("moscow"))
    with pytest.raises(PermissionDenied):
        league_decline(actor=p["sopho"], league=league, club=club("moscow"))
    league_decline(actor=p["owner"], league=league, club=club("moscow"))
    assert not LeagueClub.objects.filter(league=league).exists()
    entry = AuditEntry.objects.filter(club=club("moscow")).latest("pk")
    assert audit_sentence(entry) == "declined the invitation to the league “Spring league”"
    with pytest.raises(ClubRefusal):
        league_decline(actor=p["owner"], league=league, club=club("moscow"))
    # Through the API: invited again, declined; an accepted invitation is not declined.
    league_invite(actor=p["giorgi"], league=league, club=club("moscow"))
    api = APIClient()
    api.force_authenticate(p["owner"])
    path = f"/api/v1/leagues/{league.pk}/clubs/moscow/decline/"
    assert api.post(path).status_code == 200
    assert api.post(path).json()["error"]["code"] == "league-not-invited"
    league_invite(actor=p["giorgi"], league=league, club=club("moscow"))
    league_accept(actor=p["owner"], league=league, club=club("moscow"))
    answer = api.post(path)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "league-accepted-already"
    # On the page: the owner's button.
    league_two = league_make(actor=p["giorgi"], name="Summer league", legs=["singles"])
    league_invite(actor=p["giorgi"], league=league_two, club=club("moscow"))
    client = Client()
    client.force_login(p["owner"])
    assert b"/clubs/moscow/decline/" in client.get(f"/leagues/{league_two.pk}/").content
    answer = client.post(f"/leagues/{league_two.pk}/clubs/moscow/decline/")
    assert answer.status_code == 302
    assert not LeagueClub.objects.filter(league=league_two).exists()


def test_the_day_before_a_fixture_both_captains_are_reminded_once(smtp, people, match_day):
    p = people
    speaks(p["levan"], "ka")
    speaks(p["sopho"], "ru")
    speaks(p["owner"], "en")  # no captain: not reminded
    Club.objects.filter(slug="tbilisi-fives-club").update(time_zone="Asia/Tbilisi")
    assert any(
        entry["task"] == "competitions.tasks.fixture_reminders_task"
        for entry in django_settings.CELERY_BEAT_SCHEDULE.values()
    )
    two_days_before = datetime(2026, 10, 1, 12, tzinfo=UTC)
    assert inbox.fixture_reminders_send(now=two_days_before) == 0
    # 2026-10-02 21:30 UTC is already the 3rd in Tbilisi (UTC+4): not the day before there.
    assert inbox.fixture_reminders_send(now=datetime(2026, 10, 2, 21, 30, tzinfo=UTC)) == 0
    day_before = datetime(2026, 10, 2, 12, tzinfo=UTC)
    assert inbox.fixture_reminders_send(now=day_before) == 2
    assert inbox.fixture_reminders_send(now=day_before) == 0  # idempotent
    [georgian] = smtp.to(p["levan"].email)
    [russian] = smtp.to(p["sopho"].email)
    assert "ხვალ: Tbilisi – Moscow, 03.10.2026" in georgian["Subject"]
    assert "Завтра: Tbilisi – Moscow, 03.10.2026" in russian["Subject"]
    assert smtp.to(p["owner"].email) == []


def test_email_url_is_read_as_the_database_s_url_is():
    from fivesite.settings import mailer

    assert mailer("", debug=True)["BACKEND"].endswith("console.EmailBackend")
    local = mailer("")  # production without EMAIL_URL: this machine's SMTP server
    assert (local["OPTIONS"]["host"], local["OPTIONS"]["port"]) == ("localhost", 25)
    smtp = mailer("smtp://fives:p%40ss@smtp.example:587")
    assert smtp["BACKEND"].endswith("smtp.EmailBackend")
    assert smtp["OPTIONS"] | {"timeout": 0} == {
        "host": "smtp.example",
        "port": 587,
        "username": "fives",
        "password": "p@ss",
        "use_ssl": False,
        "use_tls": True,
        "timeout": 0,
    }
    tls = mailer("smtps://smtp.example")["OPTIONS"]
    assert (tls["port"], tls["use_ssl"], tls["use_tls"]) == (465, True, False)
    plain = mailer("smtp://127.0.0.1:2525")["OPTIONS"]
    assert (plain["port"], plain["use_ssl"], plain["use_tls"]) == (2525, False, False)
    with pytest.raises(Exception, match="EMAIL_URL"):
        mailer("http://smtp.example")


def test_an_email_a_dead_worker_took_and_never_sent_is_sent_later_once(
    smtp, people, django_user_model
):
    owner = people["owner"]
    speaks(owner, "en")
    dato = django_user_model.objects.create_user("dato", password="a-long-password-7")
    asked = join_request_create(user=dato, club=club("tbilisi-fives-club"))  # not committed
    # A worker took the item's notice, then died before sending (no email went).
    Notice.objects.create(user=owner, key=f"join-request:{asked.pk}")
    assert inbox.notices_send("join-request", [asked.pk]) == 0  # taken: not sent twice
    assert inbox.notices_retry_stale() == 0  # not stale yet
    later = timezone.now() + timedelta(seconds=django_settings.FIVES_NOTICES_STALE_AFTER + 1)
    assert inbox.notices_retry_stale(now=later) == 1
    assert inbox.notices_retry_stale(now=later) == 0
    [mail] = smtp.to(owner.email)
    assert "dato asks to join the club." in mail["Subject"]
    assert Notice.objects.get(user=owner).sent_at is not None


def test_the_api_guide_and_schema_name_the_inbox_and_every_field():
    from pathlib import Path

    from api.inbox import InboxItemSerializer, InboxSerializer

    guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    assert "`GET /api/v1/inbox/`" in guide
    assert "`POST /api/v1/leagues/{id}/clubs/{slug}/decline/`" in guide
    fields = set(InboxItemSerializer().fields) | set(InboxSerializer().fields)
    assert [field for field in sorted(fields) if f"`{field}`" not in guide] == []
    for kind in inbox.email_kinds():
        if kind != inbox.REMINDER:
            assert f"`{kind}`" in guide
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    answer = schema["paths"]["/api/v1/inbox/"]["get"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/Inbox")
    item = schema["components"]["schemas"]["InboxItem"]
    assert set(item["properties"]) == set(InboxItemSerializer().fields)


def test_a_person_s_emails_speak_the_language_of_their_latest_page(owner):
    client = Client()
    client.force_login(owner)
    client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="ru")
    assert NoticeSettings.objects.get(user=owner).language == "ru"
    client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="ka")
    assert NoticeSettings.objects.get(user=owner).language == "ka"
    # An API token's request is no page the person reads: it changes nothing.
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    api.get("/api/v1/inbox/")
    assert NoticeSettings.objects.get(user=owner).language == "ka"


def readable(token: str) -> bytes:
    """Every byte a reader gets from ``token`` by base64-decoding its parts (and inflating
    a compressed one, as Django's signing compresses)."""
    found = b""
    for part in re.split(r"[.:]", token):
        try:
            decoded = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        except ValueError:
            continue
        found += decoded
        with contextlib.suppress(zlib.error):
            found += zlib.decompress(decoded)
    return found


def test_an_unsubscribe_token_names_nobody_is_signed_and_turns_off_its_kind_only(
    people, django_user_model
):
    zurab = django_user_model.objects.create_user("zurab", password="a-long-pw-7", id=987654)
    token = inbox.unsubscribe_token(zurab.pk, "postponement")
    # The old token was readable: its payload named the user's id.
    old = signing.dumps({"u": zurab.pk, "k": "postponement"}, salt=inbox.SALT, compress=True)
    assert b'"u":987654' in readable(old)
    # The new one names nobody and nothing: a nonce and a digest.
    assert "987654" not in token and b"987654" not in readable(token)
    assert b'"u"' not in readable(token) and b"postponement" not in readable(token)
    # One a person and kind, the same in every email; another kind's, another person's differ.
    assert inbox.unsubscribe_token(zurab.pk, "postponement") == token
    assert inbox.unsubscribe_token(zurab.pk, "dispute") != token
    assert inbox.unsubscribe_token(people["sopho"].pk, "postponement") != token
    assert inbox.unsubscribe_read(token) == (zurab, "postponement")

    # Tampered: any character of the nonce or the digest, or another token's digest.
    nonce, digest = token.split(".")
    other = inbox.unsubscribe_token(zurab.pk, "dispute").split(".")[1]
    flip = {"a": "b", "b": "a"}
    for forged in (
        f"{nonce}.{other}",
        f"{nonce}.{digest[:-1]}{flip.get(digest[-1], 'a')}",
        f"{nonce[:-1]}{'A' if nonce[-1] != 'A' else 'B'}.{digest}",
        nonce,
        f".{digest}",
    ):
        assert inbox.unsubscribe_read(forged) is None, forged
    anonymous = Client()
    answer = anonymous.post(f"/emails/unsubscribe/{nonce}.{other}/", {"what": "all"})
    assert answer.status_code == 404
    assert NoticeSettings.objects.filter(user=zurab, off__len__gt=0).count() == 0

    # One click (RFC 8058) turns off the token's kind only.
    path = f"/emails/unsubscribe/{token}/"
    answer = anonymous.post(path, "List-Unsubscribe=One-Click", content_type="text/plain")
    assert answer.status_code == 200
    assert NoticeSettings.objects.get(user=zurab).off == ["postponement"]
    # Its page offers every email off, and the person chooses it.
    shown = anonymous.get(path).content.decode()
    assert "No more emails about days offered for a fixture" in shown
    assert 'name="what" value="all"' in shown
    anonymous.post(path, {"what": "all"})
    assert NoticeSettings.objects.get(user=zurab).off == ["all", "postponement"]

    # A new address revokes the links the old one got: they answer 404.
    inbox.email_address_set(user=zurab, email="zurab@example.org")
    assert inbox.unsubscribe_read(token) is None
    assert anonymous.get(path).status_code == 404
    assert inbox.unsubscribe_token(zurab.pk, "postponement") != token


def test_a_link_of_the_old_form_still_unsubscribes_for_its_days(people):
    sopho = people["sopho"]
    old = signing.dumps({"u": sopho.pk, "k": "postponement"}, salt=inbox.SALT, compress=True)
    answer = Client().post(
        f"/emails/unsubscribe/{old}/", "List-Unsubscribe=One-Click", content_type="text/plain"
    )
    assert answer.status_code == 200
    assert NoticeSettings.objects.get(user=sopho).off == ["postponement"]

    class Then(signing.TimestampSigner):
        def timestamp(self):
            return signing.b62_encode(int(time.time()) - (inbox.LEGACY_DAYS + 1) * 86400)

    expired = Then(salt=inbox.SALT).sign_object({"u": sopho.pk, "k": "all"}, compress=True)
    assert inbox.unsubscribe_read(expired) is None
    assert Client().post(f"/emails/unsubscribe/{expired}/").status_code == 404
    forged = signing.dumps({"u": sopho.pk, "k": "all"}, salt="another", compress=True)
    assert inbox.unsubscribe_read(forged) is None
