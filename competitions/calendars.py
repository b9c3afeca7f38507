"""Fixtures in calendars (issue 36): iCalendar feeds (RFC 5545) of a club's events, a
league's fixtures, a team's and a player's, written with the ``icalendar`` library (which
folds lines at 75 octets, ends them with CRLF and escapes text).

**When.** A league fixture has a day only: it starts at its league's match night time
(``League.match_time``, 19:30 unless the organiser says otherwise) on that day, in the time
zone of its home team's club, the venue (``DTSTART;TZID=Asia/Tbilisi:...T193000``, with the
zone's ``VTIMEZONE``); it gives no end, since the archive does not know one. A club's event
(a tournament: a club night, a cup) has days, not hours: it is a whole-day event from its
first day to its last (``VALUE=DATE``), the days the club counts in its own time zone.

**Where.** The home club's name, and its venue when the club gave one (the club setting
``venue``); a private club hidden from the reader reads "a private club", and its home
fixtures are whole-day entries of their day (a start would tell its time zone).

**What.** The summary names the two teams (as ``league_shown`` shows them to the reader);
the description gives the league and, once the legs are in, the result and its state
(awaiting confirmation, confirmed, disputed). An event's description gives its kind, its
season and what is played; its champion or leader once all is played. Each entry has a
stable ``UID`` (``fixture-12@fives-archive``), the moment the feed was made as ``DTSTAMP``
and the page's address as ``URL``. A feed speaks its club's language (a league's: the
reader's).

**Who.** A public club's feeds (its events, its teams', its players') are public. A private
club's are read by its members and staff when signed in, and by a calendar application
through a member's secret link: ``?key=`` a key worked out from a nonce kept for the member
(``CalendarKey``) with the site's secret key, so the table alone gives no link. The member
resets it (a new nonce) and the old link answers 404, as does a forged key, a key of a
member who left, and no key. A league's feed is public: its private clubs read as its pages
show them to the reader.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, vText

from clubs.audit import record
from clubs.dates import day_after
from clubs.ids import id_of
from clubs.models import Club, Membership
from clubs.refusals import ClubRefusal
from clubs.zones import zone_of
from games.models import Player

from . import audit_actions
from .league_permissions import is_organiser
from .league_selectors import legs_in_order
from .league_shown import LeagueSight, ShownFixture, hidden_clubs
from .models import CalendarKey, Fixture, League, Team, Tournament
from .tournaments import tournament_schedule

PRODID = "-//Fives archive//Calendars//EN"
UID_DOMAIN = "fives-archive"
_KEY_SALT = "competitions.calendars.CalendarKey"
CONTENT_TYPE = "text/calendar; charset=utf-8"


# --- the secret links of a private club's members ------------------------------------------


def _digest(key: CalendarKey) -> str:
    text = f"{key.club_id}:{key.user_id}:{key.nonce}"
    return salted_hmac(_KEY_SALT, text, algorithm="sha256").hexdigest()[:40]


def calendar_key(key: CalendarKey) -> str:
    """The ``?key=`` of a member's secret link: their id and a digest of the nonce."""
    return f"{key.user_id}-{_digest(key)}"


def member_key(*, club: Club, user: Any) -> str | None:
    """Return the key of ``user``'s secret link to ``club``'s feeds (made the first time it
    is asked), or None when they are not a member."""
    if not club.is_member(user):
        return None
    key, _made = CalendarKey.objects.get_or_create(
        club=club, user=user, defaults={"nonce": secrets.token_urlsafe(24)}
    )
    return calendar_key(key)


def member_key_reset(*, club: Club, user: Any) -> str:
    """Give ``user`` a new secret link to ``club``'s feeds; the old one answers 404."""
    if not club.is_member(user):
        raise ClubRefusal(_("Only the club's members have a calendar link."), "not-member")
    key, _made = CalendarKey.objects.update_or_create(
        club=club, user=user, defaults={"nonce": secrets.token_urlsafe(24)}
    )
    return calendar_key(key)


def key_opens(club: Club, key: str | None) -> bool:
    """Return whether ``key`` is the current secret link of a member of ``club``."""
    if not key or len(key) > 80 or "-" not in key:
        return False
    user_id, _sep, digest = key.partition("-")
    number = id_of(user_id)
    if number is None:
        return False
    found = CalendarKey.objects.filter(club=club, user_id=number).first()
    if found is None or not constant_time_compare(digest, _digest(found)):
        return False
    return Membership.objects.filter(club=club, user_id=found.user_id).exists()


def feed_readable(club: Club, user: Any, key: str | None) -> bool:
    """Return whether the feeds of ``club`` (its events, its teams', its players') may be
    read by ``user`` holding ``key``: a public club's by anyone; a private club's by its
    members and staff, and with a member's current key."""
    return club.is_visible_to(user) or key_opens(club, key)


def _hidden(user: Any, opened: Club | None) -> frozenset[int]:
    """The private clubs hidden from the reader: those ``user`` may not see, but the club a
    member's key opened."""
    hidden = hidden_clubs(user)
    return hidden - {opened.pk} if opened is not None else hidden


def match_time_set(*, actor: Any, league: League, match_time: time) -> League:
    """Set when ``league``'s fixtures start (its organiser), written in the audit trail of
    each of its clubs as a change of the league. Return it."""
    if not is_organiser(league, actor):
        raise PermissionDenied(_("Only the league's organiser may do this."))
    match_time = match_time.replace(second=0, microsecond=0, tzinfo=None)
    if league.match_time == match_time:
        return league
    with transaction.atomic():
        league.match_time = match_time
        league.save(update_fields=["match_time"])
        for place in league.clubs.select_related("club"):
            record(
                club=place.club,
                actor=actor,
                action=audit_actions.LEAGUE_CHANGED,
                league=league.name,
                before=league.name,
                changed=["match_time"],
            )
    return league


# --- the feeds ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feed:
    """What a feed is of: its name, its time zone (the calendar's own) and who reads it."""

    name: str
    zone: str | None  # None: a league's, whose fixtures are in their clubs' zones
    user: Any
    opened: Club | None  # the private club a member's key opened
    absolute: Any  # a path -> the address with the site's scheme and host


def _calendar(feed: Feed) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    # A property of no known type is written as given: text is escaped on purpose.
    calendar.add("x-wr-calname", vText(feed.name))
    if feed.zone:
        calendar.add("x-wr-timezone", feed.zone)
    return calendar


def _done(calendar: Calendar) -> bytes:
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _fixtures(where: Q) -> list[Fixture]:
    return list(
        Fixture.objects.filter(where)
        .distinct()
        .select_related("league", "home__club", "away__club")
        .prefetch_related(Prefetch("legs", queryset=legs_in_order()))
        .order_by("day", "id")
    )


def _place(club: Club, hidden: frozenset[int]) -> str:
    if club.pk in hidden:
        return _("a private club")
    return f"{club.name}, {club.venue}" if club.venue else club.name


def fixture_start(fixture: Fixture) -> datetime:
    """When ``fixture`` starts: its league's match night time on its day, in its home
    club's time zone."""
    zone = zone_of(fixture.home.club.time_zone) or ZoneInfo("UTC")
    return datetime.combine(fixture.day, fixture.league.match_time, tzinfo=zone)


def _fixture_event(fixture: Fixture, shown: ShownFixture, feed: Feed, hidden: frozenset[int]):
    event = Event()
    event.add("uid", f"fixture-{fixture.pk}@{UID_DOMAIN}")
    event.add("dtstamp", timezone.now())
    if fixture.home.club_id in hidden:
        # Where a hidden club plays is its own: its zone is not told, the day only is.
        event.add("dtstart", fixture.day)
        event.add("dtend", day_after(fixture.day))
    else:
        event.add("dtstart", fixture_start(fixture))
    event.add(
        "summary",
        _("%(home)s v %(away)s") % {"home": shown.home_name, "away": shown.away_name},
    )
    event.add("location", _place(fixture.home.club, hidden))
    event.add(
        "url",
        feed.absolute(reverse("competitions:league-fixture", args=[fixture.league_id, fixture.pk])),
    )
    lines = [_("Team league: %(league)s") % {"league": fixture.league.name}]
    if shown.score is not None:
        home, away = shown.score
        lines.append(
            _("Result: %(home)s %(home_legs)s, %(away)s %(away_legs)s (%(state)s)")
            % {
                "home": shown.home_name,
                "home_legs": home,
                "away": shown.away_name,
                "away_legs": away,
                "state": shown.status_label,
            }
        )
    event.add("description", "\n".join(lines))
    return event


def _add_fixtures(calendar: Calendar, fixtures: Iterable[Fixture], feed: Feed) -> None:
    hidden = _hidden(feed.user, feed.opened)
    sights: dict[int, LeagueSight] = {}
    for fixture in fixtures:
        sight = sights.get(fixture.league_id)
        if sight is None:
            sight = sights[fixture.league_id] = LeagueSight(fixture.league, feed.user, hidden)
        # The organiser sees every club: the places hidden are those their sight hides.
        shown = sight.fixture(fixture)
        calendar.add_component(_fixture_event(fixture, shown, feed, sight.hidden))


def _event_words(event: Tournament) -> list[str]:
    schedule = tournament_schedule(event)
    lines = [
        str(event.get_kind_display()),
        _("Season: %(season)s") % {"season": event.season.name},
        _("Played: %(played)s, to play: %(to_play)s")
        % {"played": schedule["played"], "to_play": schedule["to_play"]},
    ]
    if schedule["champion_name"]:
        lines.append(_("Winner: %(name)s") % {"name": schedule["champion_name"]})
    elif schedule["table"] and schedule["played"] and not schedule["to_play"]:
        lines.append(_("First in the table: %(name)s") % {"name": schedule["table"][0]["name"]})
    return lines


def _tournament_event(event: Tournament, club: Club, feed: Feed):
    item = Event()
    item.add("uid", f"event-{event.pk}@{UID_DOMAIN}")
    item.add("dtstamp", timezone.now())
    item.add("dtstart", event.first_day)
    item.add("dtend", day_after(event.last_day))  # 9999-12-31 stored has no day after
    item.add("summary", event.name)
    item.add("location", _place(club, frozenset()))
    item.add("url", feed.absolute(reverse("competitions:event-detail", args=[club.slug, event.pk])))
    item.add("description", "\n".join(_event_words(event)))
    return item


def _add_tournaments(calendar: Calendar, events: Iterable[Tournament], feed: Feed) -> None:
    for event in events:
        calendar.add_component(_tournament_event(event, event.season.club, feed))


def club_feed(club: Club, feed: Feed) -> bytes:
    """A club's events (its seasons' tournaments) and its teams' league fixtures."""
    calendar = _calendar(feed)
    events = Tournament.objects.filter(season__club=club).select_related("season__club")
    _add_tournaments(calendar, events.order_by("first_day", "id"), feed)
    _add_fixtures(calendar, _fixtures(Q(home__club=club) | Q(away__club=club)), feed)
    return _done(calendar)


def league_feed(league: League, feed: Feed) -> bytes:
    """A league's fixtures, its private clubs as the reader sees them."""
    calendar = _calendar(feed)
    _add_fixtures(calendar, _fixtures(Q(league=league)), feed)
    return _done(calendar)


def team_feed(team: Team, feed: Feed) -> bytes:
    """A team's fixtures, home and away."""
    calendar = _calendar(feed)
    _add_fixtures(calendar, _fixtures(Q(home=team) | Q(away=team)), feed)
    return _done(calendar)


def player_feed(player: Player, feed: Feed) -> bytes:
    """A player's events (those they were drawn into) and their teams' fixtures."""
    calendar = _calendar(feed)
    events = Tournament.objects.filter(entries__player=player).select_related("season__club")
    _add_tournaments(calendar, events.order_by("first_day", "id"), feed)
    where = Q(home__roster=player) | Q(away__roster=player)
    _add_fixtures(calendar, _fixtures(where), feed)
    return _done(calendar)
