"""The organiser's evening: the matches that wait approved (or rejected) in one action, once
confirmed; the audit trail in words, in the reader's language; times in the club's zone,
named; the club's zone picked from IANA names; the upload pages say when approval is skipped."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.test import Client

from clubs import services as club_services
from clubs.models import AuditEntry, Club
from games import events
from games.models import Match, Upload
from games.services.matches import matches_review
from replays.models import Rating, SeatResult
from tests.clubs.conftest import log, send

pytestmark = pytest.mark.django_db
SLUG = "tbilisi-fives-club"
TEN_FORTY = datetime(2026, 11, 30, 10, 40, tzinfo=UTC)


def signed_in(user, **headers) -> Client:
    client = Client(**headers)
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def club() -> Club:
    return Club.objects.get(slug=SLUG)


@pytest.fixture
def six_waiting(owner, member, django_capture_on_commit_callbacks):
    """Six matches of Levan (a member) that wait for approval in the Tbilisi club."""
    Club.objects.filter(slug=SLUG).update(requires_approval=True)
    with django_capture_on_commit_callbacks(execute=True):
        upload = send(member, *[log(seed) for seed in range(1, 7)])
    matches = [item.match for item in upload.items.order_by("index")]
    assert [match.approval for match in matches] == ["pending"] * 6
    return matches


def approved_count() -> int:
    return Match.objects.filter(club__slug=SLUG, approval="approved").count()


# --- approving in one action ----------------------------------------------------------------


def test_six_matches_are_approved_in_one_action_and_counted_once(
    six_waiting, owner, member, django_capture_on_commit_callbacks, monkeypatch
):
    told = []
    original = events.announce
    monkeypatch.setattr(
        "games.services.matches.announce", lambda event: told.append(event) or original(event)
    )
    with django_capture_on_commit_callbacks(execute=True):
        decided = matches_review(
            actor=owner, club=club(), match_ids=[m.pk for m in six_waiting], approve=True
        )
    assert len(decided) == 6 and approved_count() == 6
    # one announcement for the batch, naming all six
    assert [sorted(event.match_ids) for event in told] == [sorted(m.pk for m in six_waiting)]
    entries = AuditEntry.objects.filter(club=club(), action="match-approved")
    assert sorted(entry.detail["match"] for entry in entries) == sorted(m.pk for m in six_waiting)
    assert {entry.subject for entry in entries} == {member}
    # statistics once per seat, ratings as if each match were rated once
    assert SeatResult.objects.filter(match__in=six_waiting).count() == 12
    ratings = Rating.objects.filter(scope__club__slug=SLUG)
    assert sorted(rating.matches for rating in ratings) == [6, 6]


def test_a_batch_is_all_or_nothing(six_waiting, owner):
    matches_review(actor=owner, club=club(), match_ids=[six_waiting[0].pk], approve=True)
    with pytest.raises(club_services.ClubRefusal):
        matches_review(
            actor=owner, club=club(), match_ids=[m.pk for m in six_waiting], approve=True
        )
    assert approved_count() == 1


def test_the_page_asks_before_it_approves_all_then_approves_them_at_once(six_waiting, owner):
    client = signed_in(owner)
    manage = client.get(f"/clubs/{SLUG}/manage/").content.decode()
    assert "Approve selected" in manage and "Approve all (6)" in manage
    shown = {"shown": [m.pk for m in six_waiting], "scope": "all"}
    asked = client.post(f"/clubs/{SLUG}/review/", shown)
    assert asked.status_code == 200 and "Approve 6 matches?" in asked.content.decode()
    assert "there is no undo" in asked.content.decode()
    assert approved_count() == 0  # asking is not deciding
    done = client.post(f"/clubs/{SLUG}/review/", shown | {"confirmed": "1"}, follow=True)
    assert "6 matches approved." in done.content.decode()
    assert approved_count() == 6
    assert "Nothing waits." in done.content.decode()


def test_the_chosen_matches_are_rejected_with_one_reason(six_waiting, owner, member):
    client = signed_in(owner)
    chosen = {"match": [six_waiting[0].pk, six_waiting[2].pk], "decision": "reject"}
    refused = client.post(f"/clubs/{SLUG}/review/", chosen | {"confirmed": "1"}, follow=True)
    assert "Say why the match is rejected" in refused.content.decode()
    client.post(f"/clubs/{SLUG}/review/", chosen | {"confirmed": "1", "reason": "Wrong night"})
    rejected = Match.objects.filter(approval="rejected", approval_reason="Wrong night")
    assert set(rejected) == {six_waiting[0], six_waiting[2]}
    assert Match.objects.filter(approval="pending").count() == 4


def test_a_member_may_not_approve(six_waiting, member):
    answer = signed_in(member).post(
        f"/clubs/{SLUG}/review/", {"match": [six_waiting[0].pk], "confirmed": "1"}
    )
    assert answer.status_code == 403 and approved_count() == 0


# --- the audit trail in words ---------------------------------------------------------------


@pytest.fixture
def trail(six_waiting, owner):
    club_services.invitation_create(actor=owner, club=club(), days=7, max_uses=1)
    matches_review(actor=owner, club=club(), match_ids=[six_waiting[0].pk], approve=True)
    matches_review(
        actor=owner, club=club(), match_ids=[six_waiting[1].pk], approve=False, reason="Twice"
    )
    club_services.club_update(actor=owner, club=club(), time_zone="Asia/Tbilisi")


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            [
                "made an invitation link (valid 7 days, 1 use)",
                "approved match {0} (sent by levan)",
                "rejected match {1} (sent by levan): “Twice”",
                "changed the club's settings: time zone: Asia/Tbilisi",
            ],
        ),
        (
            "ru",
            [
                "создание ссылки-приглашения (действует 7 дней, 1 использование)",
                "одобрение матча {0} (прислал(а) levan)",
                "отклонение матча {1} (прислал(а) levan): «Twice»",
                "изменение настроек клуба: часовой пояс: Asia/Tbilisi",
            ],
        ),
        (
            "ka",
            [
                "მოწვევის ბმულის შექმნა (მოქმედებს 7 დღე, 1 გამოყენება)",
                "დადასტურდა მატჩი {0} (გამომგზავნი: levan)",
                "უარყოფილია მატჩი {1} (გამომგზავნი: levan): „Twice“",
                "კლუბის პარამეტრების შეცვლა: სასაათო სარტყელი: Asia/Tbilisi",
            ],
        ),
    ],
)
def test_the_audit_trail_says_each_action_in_words(trail, six_waiting, owner, language, said):
    page = signed_in(owner, HTTP_ACCEPT_LANGUAGE=language).get(f"/clubs/{SLUG}/audit/")
    text = page.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    for sentence in said:
        assert sentence.format(six_waiting[0].pk, six_waiting[1].pk) in text
    assert "max_uses" not in text and "reason:" not in text and "days:" not in text


# --- times in the club's zone ---------------------------------------------------------------


def test_a_clubs_things_show_in_its_zone_named(six_waiting, owner, member):
    Club.objects.filter(slug=SLUG).update(time_zone="Asia/Tbilisi")
    AuditEntry.objects.filter(club=club()).update(created_at=TEN_FORTY)
    Upload.objects.update(created_at=TEN_FORTY)
    Match.objects.update(created_at=TEN_FORTY)
    upload = six_waiting[0].upload
    # the reader is in Berlin: the club's things stay in the club's zone
    reader = signed_in(owner)
    reader.cookies["tz"] = "Europe/Berlin"
    for address in (f"/clubs/{SLUG}/audit/", f"/uploads/{upload.pk}/", f"/clubs/{SLUG}/manage/"):
        text = reader.get(address).content.decode()
        assert "2026-11-30 14:40 (Asia/Tbilisi)" in text, address
        assert "10:40" not in text and "11:40" not in text, address
    assert "2026-11-30 14:40 (Asia/Tbilisi)" in reader.get("/uploads/").content.decode()


def test_elsewhere_times_are_the_readers_named_and_a_bad_zone_is_ignored(owner):
    token_time = datetime(2026, 11, 30, 10, 40, tzinfo=UTC)
    from games.tokens import token_create

    token, _key = token_create(user=owner, name="bot", scopes=["read"])
    type(token).objects.filter(pk=token.pk).update(last_used_at=token_time)
    reader = signed_in(owner)
    reader.cookies["tz"] = "Europe%2FMoscow"  # as the site's script writes it
    assert "2026-11-30 13:40 (Europe/Moscow)" in reader.get("/settings/tokens/").content.decode()
    reader.cookies["tz"] = "Mars/Olympus_Mons"
    assert "2026-11-30 10:40 (UTC)" in reader.get("/settings/tokens/").content.decode()


def test_a_matchs_own_offset_stays_as_played(owner, django_capture_on_commit_callbacks):
    Club.objects.filter(slug=SLUG).update(time_zone="Asia/Tbilisi")
    with django_capture_on_commit_callbacks(execute=True):
        send(owner, log(3, played_at="2026-10-04T19:00:00+01:00"))
    text = Client().get(f"/clubs/{SLUG}/").content.decode()
    # (Its day and its time each kept on one line, in spans of their own.)
    assert "2026-10-04 19:00 UTC+01:00" in re.sub(r"<[^>]+>", "", text)


def test_a_new_clubs_zone_is_picked_from_iana_names_starting_at_the_readers(owner):
    reader = signed_in(owner)
    reader.cookies["tz"] = "Asia/Tbilisi"
    form = reader.get("/clubs/new/").content.decode()
    assert 'list="time-zones"' in form and '<option value="Europe/Moscow">' in form
    assert 'value="Asia/Tbilisi"' in form and 'value="UTC" ' not in form
    answer = reader.post(
        "/clubs/new/",
        {
            "name": "Batumi",
            "slug": "batumi",
            "time_zone": "Asia/Yerevan",
            "language": "ka",
            "default_ruleset": "all-fives",
        },
    )
    assert answer.status_code == 302, answer.context["form"].errors
    assert Club.objects.get(slug="batumi").time_zone == "Asia/Yerevan"
    refused = reader.post(
        "/clubs/new/",
        {
            "name": "Poti",
            "slug": "poti",
            "time_zone": "Georgia/Poti",
            "language": "ka",
            "default_ruleset": "all-fives",
        },
    )
    assert refused.status_code == 200 and not Club.objects.filter(slug="poti").exists()


# --- approval skipped, said -----------------------------------------------------------------


def test_the_upload_pages_say_when_an_admins_uploads_skip_approval(
    owner, member, club_admin, django_capture_on_commit_callbacks
):
    Club.objects.filter(slug=SLUG).update(requires_approval=True)
    assert "skip the approval" in signed_in(club_admin).get("/uploads/new/").content.decode()
    assert "skip the approval" not in signed_in(member).get("/uploads/new/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        mine = send(club_admin, log(4))
        theirs = send(member, log(5))
    said = "counted at once, without approval"
    assert said in signed_in(club_admin).get(f"/uploads/{mine.pk}/").content.decode()
    assert said not in signed_in(member).get(f"/uploads/{theirs.pk}/").content.decode()


# --- on a phone -----------------------------------------------------------------------------

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
def phone(live_server, owner):
    """A 390x844 browser in Tbilisi, signed in as Nino (the club's owner)."""
    from playwright.sync_api import sync_playwright

    from tests.recorder.helpers import PHONE, launch

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(
            viewport=PHONE, base_url=live_server.url, timezone_id="Asia/Tbilisi"
        )
        context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )
        yield context
        context.close()
        browser.close()


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_six_matches_are_approved_in_one_action(six_waiting, phone, owner):
    from playwright.sync_api import expect

    from clubs.services import invitation_create

    # An invitation link is one long word: it wraps rather than widen the page.
    invitation_create(actor=owner, club=Club.objects.get(slug=SLUG), days=7, max_uses=5)
    ARTIFACTS.mkdir(exist_ok=True)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/clubs/{SLUG}/manage/")
    boxes = page.locator('#review input[name="match"], form.review input[name="match"]')
    expect(boxes).to_have_count(6)
    page.screenshot(path=ARTIFACTS / "organiser-review-phone.png", full_page=False)
    # nothing sideways: the queue fits the phone's width
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.get_by_role("button", name="Approve all (6)").click()
    expect(page.locator(".messages, [role=status], body").first).to_contain_text(
        "6 matches approved."
    )
    assert len(asked) == 1 and "(6)" in asked[0] and "no undo" in asked[0]
    assert [url.split(page.url.split("/clubs/")[0])[-1] for url in posts] == [
        f"/clubs/{SLUG}/review/"
    ]
    assert approved_count() == 6
    assert AuditEntry.objects.filter(action="match-approved").count() == 6
    expect(page.get_by_text("Nothing waits.")).to_be_visible()
    page.screenshot(path=ARTIFACTS / "organiser-approved-phone.png", full_page=False)
    # The browser told its zone: a new club starts in it, and times are the club's, named.
    page.goto("/clubs/new/")
    expect(page.locator("#id_time_zone")).to_have_value("Asia/Tbilisi")
    assert {c["name"]: c["value"] for c in phone.cookies()}["tz"] == "Asia%2FTbilisi"
    page.reload()  # the archive read the zone from the cookie, too
    assert 'value="Asia/Tbilisi"' in page.content()
    # The match list's "Player" filter suggests the handles as they are typed.
    page.goto("/")
    page.locator("#id_player").press_sequentially("nin")
    expect(page.locator('#player-names option[value="Nino"]')).to_have_count(1)
    page.screenshot(path=ARTIFACTS / "find-by-name-phone.png", full_page=False)
    assert errors == []
