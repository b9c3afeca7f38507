"""Fixtures in calendars (issue 36): every feed (a club's, a league's, a team's, a player's)
parsed by the real ``icalendar`` library, each fixture starting at its league's match night
time in its home club's time zone (a Tbilisi fixture at 19:30 Asia/Tbilisi, a New York one
at 19:30 America/New_York) with that zone's VTIMEZONE; lines folded at 75 octets and ended
by CRLF, text with commas, semicolons, a newline and Georgian read back as written; and a
private club's feeds read by its members' secret links only, tried by every role."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from icalendar import Calendar

from clubs.models import Club
from clubs.services import club_create
from competitions.calendars import member_key
from competitions.league_services import (
    fixture_make,
    league_accept,
    league_invite,
    league_make,
    team_make,
)
from competitions.models import Fixture, League, Leg, Team
from competitions.seasons import season_open
from competitions.tournaments import tournament_make
from games.models import Player
from tests.competitions.test_leagues import players
from tests.conftest import join

pytestmark = pytest.mark.django_db

PUBLIC = "tbilisi-fives-club"
NAME, SLUG = "Secret Sixes", "secret-sixes"
DAY, LATER = date(2026, 10, 3), date(2026, 10, 17)
# A team's name with what iCalendar escapes (a comma, a semicolon, a backslash, a newline)
# and Georgian.
ODD_NAME = 'თბილისი, "A"; გუნდი\\ერთი\nდა ორი'
VENUE = "Rustaveli Ave 12, hall 2; upstairs"


@pytest.fixture
def world(django_user_model, owner):
    """Tbilisi (public, Asia/Tbilisi, with a venue) and Secret Sixes (private,
    America/New_York) in a league: a fixture at Tbilisi confirmed with legs, one at Secret
    Sixes to play; a season and a cup of Tbilisi; people of every role."""

    def person(name, **extra):
        return django_user_model.objects.create_user(name, password="a-long-password-7", **extra)

    people = {
        "outsider": person("outsider-acct"),
        "member": person("privmember-acct"),
        "admin": person("privadmin-acct"),
        "staff": person("staff-acct", is_staff=True),
        "organiser": person("organiser-acct"),
    }
    private_owner = person("privowner-acct")
    club_create(owner=private_owner, name=NAME, slug=SLUG)
    Club.objects.filter(slug=SLUG).update(is_private=True, time_zone="America/New_York")
    Club.objects.filter(slug=PUBLIC).update(time_zone="Asia/Tbilisi", venue=VENUE)
    public, private = Club.objects.get(slug=PUBLIC), Club.objects.get(slug=SLUG)
    join(people["member"], SLUG)
    join(people["admin"], SLUG, "admin")
    zurab, ketevan = players(private_owner, SLUG, ["Zurab", "Ketevan"])
    nino, tamar = players(owner, PUBLIC, ["Nino", "Tamar"])
    organiser = people["organiser"]
    league = league_make(actor=organiser, name="City league", legs=["singles", "singles"])
    for club, admin in ((public, owner), (private, private_owner)):
        league_invite(actor=organiser, league=league, club=club)
        league_accept(actor=admin, league=league, club=club)
    home = team_make(
        actor=organiser,
        league=league,
        club=public,
        name="Tbilisi",
        player_ids=[nino, tamar],
        captain_ids=[owner.pk],
    )
    Team.objects.filter(pk=home.pk).update(name=ODD_NAME)
    away = team_make(
        actor=organiser,
        league=league,
        club=private,
        name=f"{NAME} A",
        player_ids=[zurab, ketevan],
        captain_ids=[private_owner.pk],
    )
    played = fixture_make(actor=organiser, league=league, home=home, away=away, day=DAY)
    for number, winner in enumerate(("home", "away"), 1):
        Leg.objects.create(
            fixture=played,
            number=number,
            kind="singles",
            winner=winner,
            home_score=61 if winner == "home" else 30,
            away_score=61 if winner == "away" else 30,
            home_names="Nino",
            away_names="Zurab",
        )
    Fixture.objects.filter(pk=played.pk).update(status=Fixture.Status.CONFIRMED)
    to_play = fixture_make(actor=organiser, league=league, home=away, away=home, day=LATER)
    season = season_open(
        actor=owner, club=public, name="Autumn", first_day=date(2026, 9, 1), last_day=LATER
    )
    cup = tournament_make(
        actor=owner,
        season=season,
        name="October cup",
        kind="knockout",
        first_day=DAY,
        last_day=DAY + timedelta(days=2),
        player_ids=[nino, tamar],
    )
    return {
        "people": people,
        "league": league,
        "home": home,
        "away": away,
        "played": played,
        "to_play": to_play,
        "cup": cup,
        "nino": Player.objects.get(pk=nino),
        "zurab": Player.objects.get(pk=zurab),
        "owner": owner,
    }


def client(user=None):
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser


def read(address, user=None):
    answer = client(user).get(address)
    assert answer.status_code == 200, (address, answer.status_code)
    assert answer["Content-Type"] == "text/calendar; charset=utf-8"
    return answer.content


def parsed(body: bytes) -> Calendar:
    return Calendar.from_ical(body)


def events(calendar: Calendar) -> dict[str, object]:
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def key_of(user, slug=SLUG):
    """The member's secret key, as their club page shows it."""
    page = client(user).get(f"/clubs/{slug}/").content.decode()
    found = re.search(r"/clubs/" + slug + r"/calendar\.ics\?key=([\w-]+)", page)
    assert found, "the club page shows no secret calendar link"
    return found.group(1)


def check_well_formed(body: bytes) -> None:
    """Lines of at most 75 octets, each ended by CRLF (RFC 5545, 3.1)."""
    assert body.endswith(b"\r\n")
    lines = body.split(b"\r\n")[:-1]
    assert all(b"\n" not in line and b"\r" not in line for line in lines)
    assert max(len(line) for line in lines) <= 75
    assert any(line.startswith(b" ") for line in lines), "nothing folded: the test is too easy"


def check_fixture(event, fixture: Fixture) -> None:
    zone = fixture.home.club.time_zone
    start = event["DTSTART"]
    assert start.params["TZID"] == zone
    assert start.dt == datetime.combine(fixture.day, time(19, 30), tzinfo=ZoneInfo(zone))
    assert start.dt.utcoffset() == ZoneInfo(zone).utcoffset(start.dt)
    assert "DTSTAMP" in event
    assert str(event["URL"]).endswith(f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/")


def check_hidden_visit(event, fixture: Fixture) -> None:
    """A home fixture of a private club hidden from the reader: its day, no zone, no place."""
    assert event["DTSTART"].dt == fixture.day and "TZID" not in event["DTSTART"].params
    assert event["DTEND"].dt == fixture.day + timedelta(days=1)
    assert str(event["LOCATION"]) == "a private club"


def zones_of(calendar: Calendar) -> set[str]:
    return {str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")}


# --- the feeds, parsed ------------------------------------------------------------------


def test_a_public_clubs_feed_has_its_events_and_fixtures_in_the_venues_time_zones(world):
    body = read(f"/clubs/{PUBLIC}/calendar.ics")
    check_well_formed(body)
    calendar = parsed(body)
    assert str(calendar["VERSION"]) == "2.0" and calendar["PRODID"]
    found = events(calendar)
    played, to_play = world["played"], world["to_play"]
    assert set(found) == {
        f"fixture-{played.pk}@fives-archive",
        f"fixture-{to_play.pk}@fives-archive",
        f"event-{world['cup'].pk}@fives-archive",
    }
    home = found[f"fixture-{played.pk}@fives-archive"]
    check_fixture(home, played)
    assert home["DTSTART"].dt.hour == 19 and home["DTSTART"].dt.minute == 30
    assert str(home["DTSTART"].dt.tzinfo) == "Asia/Tbilisi"
    # Text read back as written: commas, semicolons, a backslash, a newline, Georgian.
    assert str(home["SUMMARY"]) == f"{ODD_NAME} v Team 2 (a private club)"
    assert str(home["LOCATION"]) == f"Tbilisi Fives Club, {VENUE}"
    assert "Result: " in str(home["DESCRIPTION"]) and "1, Team 2" in str(home["DESCRIPTION"])
    assert "(confirmed)" in str(home["DESCRIPTION"])
    # The visit to the private club: its name and its time zone hidden from the reader, a
    # whole-day entry of its day.
    away = found[f"fixture-{to_play.pk}@fives-archive"]
    check_hidden_visit(away, to_play)
    assert "Result" not in str(away.get("DESCRIPTION", ""))
    assert NAME.encode() not in body and b"Zurab" not in body
    assert zones_of(calendar) == {"Asia/Tbilisi"}
    assert b"America/New_York" not in body
    # The cup: whole days, its last day included.
    cup = found[f"event-{world['cup'].pk}@fives-archive"]
    assert cup["DTSTART"].dt == DAY and cup["DTEND"].dt == DAY + timedelta(days=3)
    assert str(cup["SUMMARY"]) == "October cup"
    # The raw text escapes what RFC 5545 says (3.3.11).
    assert b"\\," in body and b"\\;" in body and b"\\n" in body and b"\\\\" in body


def test_the_feeds_uids_are_stable(world):
    first = events(parsed(read(f"/clubs/{PUBLIC}/calendar.ics")))
    Fixture.objects.filter(pk=world["to_play"].pk).update(day=LATER + timedelta(days=7))
    again = events(parsed(read(f"/clubs/{PUBLIC}/calendar.ics")))
    assert set(first) == set(again)
    moved = again[f"fixture-{world['to_play'].pk}@fives-archive"]
    assert moved["DTSTART"].dt == LATER + timedelta(days=7)  # a hidden club's: its day


def test_the_league_feed_has_every_fixture_its_private_club_hidden(world):
    body = read(f"/leagues/{world['league'].pk}/calendar.ics")
    check_well_formed(body)
    calendar = parsed(body)
    found = events(calendar)
    assert len(found) == 2
    check_fixture(found[f"fixture-{world['played'].pk}@fives-archive"], world["played"])
    check_hidden_visit(found[f"fixture-{world['to_play'].pk}@fives-archive"], world["to_play"])
    assert zones_of(calendar) == {"Asia/Tbilisi"}
    assert NAME.encode() not in body and b"Zurab" not in body and b"New_York" not in body
    # Its organiser and the private club's member, signed in, read every club's name and
    # every fixture's start in its venue's zone.
    for who in ("organiser", "member"):
        body = read(f"/leagues/{world['league'].pk}/calendar.ics", world["people"][who])
        assert f"{NAME} A".encode() in body
        calendar = parsed(body)
        for fixture in (world["played"], world["to_play"]):
            check_fixture(events(calendar)[f"fixture-{fixture.pk}@fives-archive"], fixture)
        assert zones_of(calendar) == {"Asia/Tbilisi", "America/New_York"}


def test_a_match_night_time_of_the_league_moves_every_start(world):
    League.objects.filter(pk=world["league"].pk).update(match_time=time(18, 0))
    found = events(parsed(read(f"/leagues/{world['league'].pk}/calendar.ics")))
    start = found[f"fixture-{world['played'].pk}@fives-archive"]["DTSTART"].dt
    assert start == datetime.combine(DAY, time(18, 0), tzinfo=ZoneInfo("Asia/Tbilisi"))


def test_a_public_teams_and_players_feeds(world):
    body = read(f"/leagues/{world['league'].pk}/teams/{world['home'].pk}/calendar.ics")
    check_well_formed(body)
    team = parsed(body)
    assert len(events(team)) == 2
    check_fixture(events(team)[f"fixture-{world['played'].pk}@fives-archive"], world["played"])
    visit = events(team)[f"fixture-{world['to_play'].pk}@fives-archive"]
    check_hidden_visit(visit, world["to_play"])
    assert NAME.encode() not in body and b"Zurab" not in body
    body = read(f"/players/{world['nino'].pk}/calendar.ics")
    assert NAME.encode() not in body and b"Zurab" not in body
    player = parsed(body)
    assert set(events(player)) == {
        f"fixture-{world['played'].pk}@fives-archive",
        f"fixture-{world['to_play'].pk}@fives-archive",
        f"event-{world['cup'].pk}@fives-archive",
    }


def test_a_private_clubs_feeds_with_a_members_key_name_the_club(world):
    key = key_of(world["people"]["member"])
    for address in (
        f"/clubs/{SLUG}/calendar.ics",
        f"/leagues/{world['league'].pk}/teams/{world['away'].pk}/calendar.ics",
        f"/players/{world['zurab'].pk}/calendar.ics",
    ):
        body = read(f"{address}?key={key}")  # a calendar application: not signed in
        check_well_formed(body)
        calendar = parsed(body)
        found = events(calendar)
        assert len(found) == 2, address
        for fixture in (world["played"], world["to_play"]):
            check_fixture(found[f"fixture-{fixture.pk}@fives-archive"], fixture)
        visit = found[f"fixture-{world['to_play'].pk}@fives-archive"]
        assert str(visit["LOCATION"]) == NAME
        assert str(visit["SUMMARY"]) == f"{NAME} A v {ODD_NAME}"
        assert str(calendar["X-WR-TIMEZONE"]) == "America/New_York"


# --- who reads a private club's feeds ----------------------------------------------------


def private_addresses(world):
    return (
        f"/clubs/{SLUG}/calendar.ics",
        f"/leagues/{world['league'].pk}/teams/{world['away'].pk}/calendar.ics",
        f"/players/{world['zurab'].pk}/calendar.ics",
    )


@pytest.mark.parametrize(
    ("role", "key", "status"),
    [
        ("anonymous", None, 404),
        ("outsider", None, 404),
        ("member", None, 200),
        ("admin", None, 200),
        ("staff", None, 200),
        ("anonymous", "good", 200),
        ("outsider", "good", 200),
        ("anonymous", "old", 404),
        ("anonymous", "forged", 404),
        ("anonymous", "other-club", 404),
        ("anonymous", "left", 404),
        ("anonymous", "junk", 404),
    ],
)
def test_who_reads_a_private_clubs_feeds(world, role, key, status):
    people = world["people"]
    good = key_of(people["member"])
    keys = {"good": good, "junk": "x" * 200, "forged": good[:-4] + "abcd"}
    if key == "old":
        client(people["member"]).post(f"/clubs/{SLUG}/calendar/reset/")
        keys["old"] = good
        assert key_of(people["member"]) != good
    if key == "other-club":  # a member's key of another club is no key to this one
        join(people["member"], PUBLIC)
        keys["other-club"] = member_key(club=Club.objects.get(slug=PUBLIC), user=people["member"])
    if key == "left":  # a member who left, even once back: their old link is dead
        client(people["member"]).post(f"/clubs/{SLUG}/leave/")
        assert not Club.objects.get(slug=SLUG).is_member(people["member"])
        join(people["member"], SLUG)
        keys["left"] = good
    user = None if role == "anonymous" else people[role]
    for address in private_addresses(world):
        query = f"?key={keys[key]}" if key else ""
        answer = client(user).get(address + query)
        assert answer.status_code == status, (address, role, key)
        if status == 404:
            assert b"BEGIN:VCALENDAR" not in answer.content


def test_the_reset_gives_a_new_link_and_the_old_one_stops_working(world):
    member = world["people"]["member"]
    old = key_of(member)
    assert key_of(member) == old  # the page shows the same link until it is reset
    answer = client(member).post(f"/clubs/{SLUG}/calendar/reset/")
    assert answer.status_code == 302 and answer["Location"].endswith(f"/clubs/{SLUG}/#calendar")
    new = key_of(member)
    assert new != old
    assert client().get(f"/clubs/{SLUG}/calendar.ics?key={old}").status_code == 404
    assert client().get(f"/clubs/{SLUG}/calendar.ics?key={new}").status_code == 200
    # Each member has a key of their own: the admin's still opens the feed.
    admin_key = key_of(world["people"]["admin"])
    assert admin_key != new
    assert client().get(f"/clubs/{SLUG}/calendar.ics?key={admin_key}").status_code == 200
    # No reset for whoever is no member (the club is 404 to them), nor signed out.
    assert (
        client(world["people"]["outsider"]).post(f"/clubs/{SLUG}/calendar/reset/").status_code
        == 404
    )
    assert client().post(f"/clubs/{SLUG}/calendar/reset/").status_code == 302
    assert client().get(f"/clubs/{SLUG}/calendar.ics?key={new}").status_code == 200


def test_a_public_clubs_feeds_are_public(world):
    for address in (
        f"/clubs/{PUBLIC}/calendar.ics",
        f"/leagues/{world['league'].pk}/calendar.ics",
        f"/leagues/{world['league'].pk}/teams/{world['home'].pk}/calendar.ics",
        f"/players/{world['nino'].pk}/calendar.ics",
    ):
        assert client().get(address).status_code == 200, address
    assert client().get("/clubs/no-such-club/calendar.ics").status_code == 404
    assert (
        client().get(f"/leagues/{world['league'].pk}/teams/999999/calendar.ics").status_code == 404
    )


# --- the links on the pages ----------------------------------------------------------------


def test_the_pages_link_to_their_feeds(world):
    people = world["people"]
    league = world["league"].pk
    page = client().get(f"/clubs/{PUBLIC}/").content.decode()
    assert f'value="http://testserver/clubs/{PUBLIC}/calendar.ics"' in page
    assert f'href="webcal://testserver/clubs/{PUBLIC}/calendar.ics"' in page
    assert "Add to calendar" in page and 'data-copy-from="calendar-club"' in page
    assert "calendar/reset/" not in page  # a public club's link is no secret
    page = client().get(f"/leagues/{league}/").content.decode()
    assert f"/leagues/{league}/calendar.ics" in page
    assert f"/leagues/{league}/teams/{world['home'].pk}/calendar.ics" in page
    # The private team's feed is linked for its members only, with their key.
    assert f"/teams/{world['away'].pk}/calendar.ics" not in page
    page = client(people["member"]).get(f"/leagues/{league}/").content.decode()
    key = key_of(people["member"])
    assert f"/teams/{world['away'].pk}/calendar.ics?key={key}" in page
    page = client().get(f"/players/{world['nino'].pk}/").content.decode()
    assert f"/players/{world['nino'].pk}/calendar.ics" in page
    page = client(people["member"]).get(f"/players/{world['zurab'].pk}/").content.decode()
    assert f"/players/{world['zurab'].pk}/calendar.ics?key={key}" in page
    page = client(people["member"]).get(f"/clubs/{SLUG}/").content.decode()
    assert "calendar/reset/" in page and "secret" in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", ("Добавить в календарь", "Скопировать ссылку на календарь")),
        ("ka", ("კალენდარში დამატება", "კალენდრის ბმულის კოპირება")),
    ],
)
def test_the_links_speak_russian_and_georgian(world, language, words):
    browser = client(world["people"]["member"])
    browser.cookies["django_language"] = language
    for address in (f"/clubs/{SLUG}/", f"/leagues/{world['league'].pk}/"):
        page = browser.get(address, headers={"accept-language": language}).content.decode()
        for word in words:
            assert word in page, (address, word)
        assert "Add to calendar" not in page


def test_a_feed_speaks_its_clubs_language(world):
    Club.objects.filter(slug=PUBLIC).update(language="ru")
    found = events(parsed(read(f"/clubs/{PUBLIC}/calendar.ics")))
    description = str(found[f"fixture-{world['played'].pk}@fives-archive"]["DESCRIPTION"])
    assert "Командная лига: City league" in description


# --- the club's venue ------------------------------------------------------------------------


def test_an_admin_sets_the_venue_on_the_settings_page_and_through_the_api(world):
    owner = world["owner"]
    page = client(owner).get(f"/clubs/{PUBLIC}/settings/").content.decode()
    assert 'name="venue"' in page
    data = {
        "name": "Tbilisi Fives Club",
        "time_zone": "Asia/Tbilisi",
        "language": "en",
        "default_ruleset": "all-fives",
        "venue": "  Vake park, hall 3  ",
    }
    answer = client(owner).post(f"/clubs/{PUBLIC}/settings/", data)
    assert answer.status_code == 302
    assert Club.objects.get(slug=PUBLIC).venue == "Vake park, hall 3"
    answer = client(owner).post(f"/clubs/{PUBLIC}/settings/", {**data, "venue": "x" * 201})
    assert answer.status_code == 200 and Club.objects.get(slug=PUBLIC).venue == "Vake park, hall 3"
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(owner)
    answer = api.patch(f"/api/v1/clubs/{PUBLIC}/", {"venue": "Saburtalo"}, format="json")
    assert answer.status_code == 200 and answer.json()["venue"] == "Saburtalo"
    found = events(parsed(read(f"/clubs/{PUBLIC}/calendar.ics")))
    assert str(found[f"fixture-{world['played'].pk}@fives-archive"]["LOCATION"]) == (
        "Tbilisi Fives Club, Saburtalo"
    )


def test_the_organiser_sets_when_fixtures_start_and_the_clubs_trails_say_so(world):
    from clubs.models import AuditEntry

    league = world["league"]
    address = f"/leagues/{league.pk}/match-time/"
    page = client(world["people"]["organiser"]).get(f"/leagues/{league.pk}/").content.decode()
    assert address in page and 'value="19:30"' in page
    assert (
        "Fixtures start at 19:30, in the home club"
        in client().get(f"/leagues/{league.pk}/").content.decode()
    )
    assert address not in client(world["owner"]).get(f"/leagues/{league.pk}/").content.decode()
    before = AuditEntry.objects.filter(action="league-changed").count()
    for who in (world["owner"], world["people"]["member"], world["people"]["outsider"]):
        assert client(who).post(address, {"match_time": "18:00"}).status_code == 403
    assert client().post(address, {"match_time": "18:00"}).status_code == 302  # to sign in
    organiser = client(world["people"]["organiser"])
    assert organiser.post(address, {"match_time": "half past"}).status_code == 302
    assert League.objects.get(pk=league.pk).match_time == time(19, 30)
    assert organiser.post(address, {"match_time": "18:15"}).status_code == 302
    assert League.objects.get(pk=league.pk).match_time == time(18, 15)
    # One entry in the trail of each of its two clubs.
    assert AuditEntry.objects.filter(action="league-changed").count() == before + 2
    found = events(parsed(read(f"/leagues/{league.pk}/calendar.ics", world["people"]["member"])))
    start = found[f"fixture-{world['to_play'].pk}@fives-archive"]["DTSTART"].dt
    assert start == datetime.combine(LATER, time(18, 15), tzinfo=ZoneInfo("America/New_York"))


# --- on a phone ------------------------------------------------------------------------------

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ka"])
def test_a_member_copies_the_secret_link_on_a_phone(browser, live_server, world, language):
    """The club page's calendar section and the league page's links fit a 390 px screen; the
    copy button copies the member's secret link, and that link reads the feed."""
    signed = Client()
    signed.force_login(world["people"]["member"])
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": signed.cookies["sessionid"].value,
                "url": live_server.url,
            },
            {"name": "django_language", "value": language, "url": live_server.url},
        ]
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        page.goto(f"{live_server.url}/clubs/{SLUG}/#calendar")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#calendar").screenshot(path=str(ARTIFACTS / f"calendar-club-{language}.png"))
        page.locator('[data-copy-from="calendar-club"]').tap()
        done = "Link copied" if language == "en" else "ბმული დაკოპირდა"
        page.wait_for_function(
            "done => document.querySelector('[data-copy-from=\"calendar-club\"]').textContent"
            " === done",
            arg=done,
        )
        copied = page.evaluate("navigator.clipboard.readText()")
        assert re.fullmatch(rf"{live_server.url}/clubs/{SLUG}/calendar\.ics\?key=[\w-]+", copied)
        feed = context.request.get(copied)  # what a calendar application would fetch
        assert feed.status == 200 and b"BEGIN:VCALENDAR" in feed.body()
        page.goto(f"{live_server.url}/leagues/{world['league'].pk}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#calendar-league-link").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"calendar-league-{language}.png"))
    finally:
        context.close()
    assert errors == []
