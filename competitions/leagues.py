"""Team leagues (issue 28): a league made by an organiser, the clubs invited to it, their
teams with rosters and captains, fixtures between two teams on a day, each a set of legs that
are stored matches, and the league's table.

**Who does what.** Whoever is signed in may make a league and becomes its organiser. The
organiser invites clubs (accepted by one of the club's owner and admins; at once when the
organiser is one of them), makes the teams of the clubs that accepted (a name, a roster of the
club's players, captains among the club's members) and the fixtures. A captain of either side
submits a fixture's legs; a captain of the other side confirms or disputes them; a disputed
fixture counts for nothing until the organiser confirms it as submitted or resets it to be
played (its legs forgotten).

**A leg** is a stored match of the home or the away club, approved and complete, played on
the fixture's day (in the storing club's time zone), with two players (singles) or two pairs
(pairs) as the leg's kind says, one side all of the home team's roster and the other all of
the away team's. A log that names its leg in ``event`` seats the other club's players as
themselves (``leg_seats``); in a match stored otherwise, a roster's player is known by their
handle (in any case). A match is one leg of one fixture only. The leg's result (its winner,
the scores, the names) is kept as submitted.

**The table** counts confirmed fixtures only: played, won, drawn, lost (a fixture is won by
the side that won more legs; a drawn leg counts for neither side), legs for and against, and
points (the league's points for a win, a draw and a loss). Ties are broken by points, then
leg difference, then legs for, then the team's name.

**Changing and deleting** is the organiser's too: a league's name and points (its legs only
while no fixture has legs submitted), a team's name, roster and captains, a fixture's home,
away and day (only while it is to play: a fixture with legs is reset first). A fixture whose
result is confirmed, and a team with such a fixture, are not deleted: the organiser resets
the fixture (its legs forgotten, to be played again) and may then delete it. Deleting a
league deletes its teams and fixtures; the matches stay in the archive.

**The audit trail.** A league is no club's, so what is done to it is written in the trail of
each club it concerns, in words fixed at the time: a team's making, change and deletion in
its club's; a fixture's in the home and the away club's; a league's change and deletion in
every invited club's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, models, transaction
from django.db.models import F, Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import record as audit
from clubs.dates import frame_check
from clubs.models import Club, Membership
from clubs.refusals import ClubRefusal
from clubs.tool_events import FIXTURE_CONFIRMED, publish
from clubs.waiting import announce
from clubs.zones import club_days
from competitions import audit_actions, waiting
from games.models import Match, Player
from replays.csv_tables import csv_text

from .league_points import POINT_FIELDS, fixture_points, points_checked
from .models import Fixture, League, LeagueClub, Leg, Team

MAX_LEGS = 12
MAX_ROSTER = 30
MAX_CAPTAINS = 5
SEATS = {League.LegKind.SINGLES: 1, League.LegKind.PAIRS: 2}  # players a side


# --- who may -------------------------------------------------------------------------------


def is_organiser(league: League, user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and league.organiser_id == user.pk)


def captain_of(team: Team, user: Any) -> bool:
    """Return whether ``user`` is a captain of ``team`` (and still a member of its club)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        team.captains.filter(pk=user.pk).exists()
        and Membership.objects.filter(club_id=team.club_id, user=user).exists()
    )


def is_party(fixture: Fixture, user: Any) -> bool:
    """Return whether ``user`` is a captain of either team of ``fixture``."""
    return captain_of(fixture.home, user) or captain_of(fixture.away, user)


def require_organiser(league: League, user: Any) -> None:
    if not is_organiser(league, user):
        raise PermissionDenied(_("Only the league's organiser may do this."))


def refuse_withdrawn(fixture: Fixture) -> None:
    """Refuse to play, concede or move a fixture one of whose teams is withdrawn."""
    if fixture.home.withdrawn_at or fixture.away.withdrawn_at:
        raise ClubRefusal(
            _("A team of this fixture is withdrawn: the fixture is not played."),
            "team-withdrawn",
        )


def fixture_roles(fixture: Fixture, user: Any) -> dict[str, bool]:
    """Return what ``user`` may do with ``fixture`` now: submit, confirm or dispute,
    resolve, concede, record a walkover."""
    home, away = captain_of(fixture.home, user), captain_of(fixture.away, user)
    status = fixture.status
    other = (
        (fixture.submitted_for_id == fixture.home_id and away)
        or (fixture.submitted_for_id == fixture.away_id and home)
    ) and fixture.submitted_by_id != getattr(user, "pk", None)
    open_to_play = status == Fixture.Status.TO_PLAY and not (
        fixture.home.withdrawn_at or fixture.away.withdrawn_at
    )
    return {
        "submit": (home or away)
        and (
            status == Fixture.Status.TO_PLAY
            or (status == Fixture.Status.SUBMITTED and fixture.submitted_by_id == user.pk)
        ),
        "confirm": bool(other) and status == Fixture.Status.SUBMITTED,
        "resolve": is_organiser(fixture.league, user) and status == Fixture.Status.DISPUTED,
        # Conceding and walkovers (``league_forfeits``): a fixture still to play whose
        # teams both play on.
        "concede": bool(home or away) and open_to_play,
        "walkover": is_organiser(fixture.league, user) and open_to_play,
        # A postponement (``postponements``): the home side offers days, the away side (or
        # the organiser) accepts one.
        "postpone": home and open_to_play,
        "accept_day": bool(fixture.offered_days)
        and open_to_play
        and (away or is_organiser(fixture.league, user)),
    }


# --- making a league, inviting clubs, teams and fixtures -----------------------------------


def _name(text: str, what: str) -> str:
    name = " ".join(text.split())
    if not name:
        raise ClubRefusal(_("A name is needed."), f"{what}-invalid")
    if len(name) > 100:
        raise ClubRefusal(_("A name is at most 100 characters."), f"{what}-invalid")
    return name


def _league_checked(*, name: str, legs: list[str]) -> str:
    name = _name(name, "league")
    if not 1 <= len(legs) <= MAX_LEGS or any(kind not in SEATS for kind in legs):
        raise ClubRefusal(
            _("A fixture has from 1 to %(most)s legs, each singles or pairs.") % {"most": MAX_LEGS},
            "league-invalid",
        )
    return name


def _withdrawn_rule(value: str) -> str:
    if value not in League.Withdrawn.values:
        raise ClubRefusal(_("A withdrawn team's results are kept or expunged."), "league-invalid")
    return value


def league_make(
    *,
    actor: Any,
    name: str,
    legs: list[str],
    withdrawn_results: str = League.Withdrawn.EXPUNGED,
    **points: int,
) -> League:
    """Make a league whose organiser is ``actor`` (anyone signed in), scored by ``points``
    (``league_points.POINT_FIELDS``; those not given as the default scheme's); return it."""
    if actor is None or not actor.is_authenticated:
        raise PermissionDenied(_("Making a league needs an account."))
    name = _league_checked(name=name, legs=legs)
    points = points_checked(points)
    withdrawn_results = _withdrawn_rule(withdrawn_results)
    if League.objects.filter(name__iexact=name).exists():
        raise ClubRefusal(_("There is a league of that name already."), "league-name-taken")
    try:
        return League.objects.create(
            name=name,
            organiser=actor,
            legs=list(legs),
            withdrawn_results=withdrawn_results,
            **points,
        )
    except IntegrityError:
        raise ClubRefusal(
            _("There is a league of that name already."), "league-name-taken"
        ) from None


def _league_clubs(league: League) -> list[Club]:
    return [place.club for place in league.clubs.select_related("club")]


def audit_clubs(clubs: list[Club], *, actor: Any, action: str, **detail: Any) -> None:
    """Write one entry in the trail of each of ``clubs`` (each club once)."""
    for club in {club.pk: club for club in clubs}.values():
        audit(club=club, actor=actor, action=action, **detail)


def league_change(
    *,
    actor: Any,
    league: League,
    name: str,
    legs: list[str],
    withdrawn_results: str | None = None,
    **points: int,
) -> League:
    """Change a league's name, legs, points and withdrawn teams' rule (its organiser); its
    legs stay as they are once a fixture has legs submitted. Points not given stay as they
    are. Return it."""
    require_organiser(league, actor)
    name = _league_checked(name=name, legs=legs)
    points = points_checked({**{key: getattr(league, key) for key in POINT_FIELDS}, **points})
    withdrawn_results = _withdrawn_rule(withdrawn_results or league.withdrawn_results)
    if League.objects.filter(name__iexact=name).exclude(pk=league.pk).exists():
        raise ClubRefusal(_("There is a league of that name already."), "league-name-taken")
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if (
            list(legs) != list(league.legs)
            and league.fixtures.exclude(status=Fixture.Status.TO_PLAY).exists()
        ):
            raise ClubRefusal(
                _("A fixture has its legs submitted already: the league's legs stay as they are."),
                "league-has-results",
            )
        after = {
            "name": name,
            "legs": list(legs),
            "withdrawn_results": withdrawn_results,
            **points,
        }
        before = {key: getattr(league, key) for key in after}
        before["legs"] = list(before["legs"])
        for key, value in after.items():
            setattr(league, key, value)
        try:
            with transaction.atomic():
                league.save(update_fields=list(after))
        except IntegrityError:
            raise ClubRefusal(
                _("There is a league of that name already."), "league-name-taken"
            ) from None
        changed = sorted(key for key in before if before[key] != after[key])
        if changed:
            audit_clubs(
                _league_clubs(league),
                actor=actor,
                action=audit_actions.LEAGUE_CHANGED,
                league=name,
                before=before["name"],
                changed=changed,
            )
    return league


def league_delete(*, actor: Any, league: League) -> None:
    """Delete a league with its teams and fixtures (its organiser); the matches of its legs
    stay in the archive."""
    require_organiser(league, actor)
    with transaction.atomic():
        audit_clubs(
            _league_clubs(league),
            actor=actor,
            action=audit_actions.LEAGUE_DELETED,
            league=league.name,
            teams=league.teams.count(),
            fixtures=league.fixtures.count(),
        )
        league.delete()


def invitable_clubs(league: League, user: Any) -> QuerySet[Club]:
    """Return the clubs ``user`` can see that the league has not invited yet, by name."""
    return (
        Club.objects.visible_to(user)
        .exclude(pk__in=LeagueClub.objects.filter(league=league).values("club_id"))
        .order_by("name")
    )


def club_named(user: Any, text: str) -> Club | None:
    """Return the club ``user`` can see whose address name or name is ``text`` (in any case,
    spaces at either end ignored), or None."""
    text = text.strip()
    visible = Club.objects.visible_to(user)
    return visible.filter(slug=text.lower()).first() or visible.filter(name__iexact=text).first()


def league_invite(*, actor: Any, league: League, club: Club) -> LeagueClub:
    """Invite ``club`` to the league (its organiser); accepted at once when the organiser
    owns or administers the club. Return the invitation."""
    require_organiser(league, actor)
    with transaction.atomic():
        place, made = LeagueClub.objects.get_or_create(league=league, club=club)
        if made:
            audit(club=club, actor=actor, action=audit_actions.LEAGUE_INVITED, league=league.name)
        if place.accepted_at is None and club.is_admin(actor):
            _accepted(place, actor)
        elif made:
            announce(waiting.LEAGUE_INVITATION, [place.pk])  # the club's admins are told
    return place


def _accepted(place: LeagueClub, actor: Any) -> None:
    """Mark the club's place in the league accepted now, in the club's audit trail."""
    place.accepted_at = timezone.now()
    place.save(update_fields=["accepted_at"])
    audit(
        club=place.club,
        actor=actor,
        action=audit_actions.LEAGUE_JOINED,
        league=place.league.name,
    )


def league_accept(*, actor: Any, league: League, club: Club) -> LeagueClub:
    """Accept the league's invitation of ``club`` (the club's owner and admins)."""
    if not club.is_admin(actor):
        raise PermissionDenied(_("Only the club's owner and admins may do this."))
    place = LeagueClub.objects.filter(league=league, club=club).first()
    if place is None:
        raise ClubRefusal(_("This club is not invited to the league."), "league-not-invited")
    if place.accepted_at is None:
        with transaction.atomic():
            _accepted(place, actor)
    return place


def league_decline(*, actor: Any, league: League, club: Club) -> None:
    """Decline the league's invitation of ``club`` (the club's owner and admins): the club
    is no longer invited (the organiser may invite it again). An accepted invitation is not
    declined."""
    if not club.is_admin(actor):
        raise PermissionDenied(_("Only the club's owner and admins may do this."))
    with transaction.atomic():
        place = LeagueClub.objects.select_for_update().filter(league=league, club=club).first()
        if place is None:
            raise ClubRefusal(_("This club is not invited to the league."), "league-not-invited")
        if place.accepted_at is not None:
            raise ClubRefusal(
                _("This club accepted the invitation already."), "league-accepted-already"
            )
        place.delete()
        audit(club=club, actor=actor, action=audit_actions.LEAGUE_DECLINED, league=league.name)


def _team_checked(
    *,
    league: League,
    club: Club,
    name: str,
    player_ids: list[int],
    captain_ids: list[int],
    team: Team | None = None,
) -> tuple[str, list[Player], list[int]]:
    """Return a team's name, roster and captains as checked (``team``: the one changed)."""
    name = _name(name, "team")
    ids = list(dict.fromkeys(player_ids))
    if not 1 <= len(ids) <= MAX_ROSTER:
        raise ClubRefusal(
            _("A roster has from 1 to %(most)s players.") % {"most": MAX_ROSTER}, "team-invalid"
        )
    players = list(Player.objects.filter(club=club, pk__in=ids))
    if len(players) != len(ids):
        raise ClubRefusal(_("A team's players are players of its club."), "team-invalid")
    others = Player.objects.filter(pk__in=ids, league_teams__league=league)
    taken = league.teams.filter(name__iexact=name)
    if team is not None:
        others = others.exclude(league_teams=team)
        taken = taken.exclude(pk=team.pk)
    if others.exists():
        raise ClubRefusal(_("A player plays for one team of a league."), "team-invalid")
    captains = list(dict.fromkeys(captain_ids))
    if not 1 <= len(captains) <= MAX_CAPTAINS or Membership.objects.filter(
        club=club, user_id__in=captains
    ).count() != len(captains):
        raise ClubRefusal(
            _("A team has from 1 to %(most)s captains, members of its club.")
            % {"most": MAX_CAPTAINS},
            "team-invalid",
        )
    if taken.exists():
        raise ClubRefusal(_("This league has a team of that name already."), "team-name-taken")
    return name, players, captains


def team_make(
    *,
    actor: Any,
    league: League,
    club: Club,
    name: str,
    player_ids: list[int],
    captain_ids: list[int],
) -> Team:
    """Make a team of a club that accepted the league (its organiser): its roster of the
    club's players (none in another team of the league) and its captains, members of the
    club. Return it."""
    require_organiser(league, actor)
    if not LeagueClub.objects.filter(league=league, club=club, accepted_at__isnull=False).exists():
        raise ClubRefusal(
            _("A team's club must have accepted the league's invitation."), "team-invalid"
        )
    name, players, captains = _team_checked(
        league=league, club=club, name=name, player_ids=player_ids, captain_ids=captain_ids
    )
    try:
        with transaction.atomic():
            team = Team.objects.create(league=league, club=club, name=name)
            team.roster.set(players)
            team.captains.set(captains)
            audit(
                club=club,
                actor=actor,
                action=audit_actions.TEAM_CREATED,
                team=name,
                league=league.name,
                players=len(players),
            )
    except IntegrityError:  # the same name made at the same moment
        raise ClubRefusal(
            _("This league has a team of that name already."), "team-name-taken"
        ) from None
    return team


def team_change(
    *, actor: Any, team: Team, name: str, player_ids: list[int], captain_ids: list[int]
) -> Team:
    """Change a team's name, roster and captains (the league's organiser); its club stays.
    Legs submitted already keep the names they were submitted with. Return it."""
    league = team.league
    require_organiser(league, actor)
    name, players, captains = _team_checked(
        league=league,
        club=team.club,
        name=name,
        player_ids=player_ids,
        captain_ids=captain_ids,
        team=team,
    )
    try:
        with transaction.atomic():
            team = Team.objects.select_for_update().select_related("club").get(pk=team.pk)
            before = {
                "name": team.name,
                "roster": set(team.roster.values_list("pk", flat=True)),
                "captains": set(team.captains.values_list("pk", flat=True)),
            }
            after = {
                "name": name,
                "roster": {player.pk for player in players},
                "captains": set(captains),
            }
            team.name = name
            team.save(update_fields=["name"])
            team.roster.set(players)
            team.captains.set(captains)
            changed = sorted(key for key in before if before[key] != after[key])
            if changed:
                audit(
                    club=team.club,
                    actor=actor,
                    action=audit_actions.TEAM_CHANGED,
                    team=name,
                    before=before["name"],
                    league=league.name,
                    changed=changed,
                )
    except IntegrityError:
        raise ClubRefusal(
            _("This league has a team of that name already."), "team-name-taken"
        ) from None
    return team


def team_delete(*, actor: Any, team: Team) -> None:
    """Delete a team and its fixtures (the league's organiser); refused while one of its
    fixtures has a confirmed result (reset it first)."""
    league = team.league
    require_organiser(league, actor)
    with transaction.atomic():
        fixtures = Fixture.objects.filter(league=league).filter(
            models.Q(home=team) | models.Q(away=team)
        )
        if fixtures.filter(status__in=(Fixture.Status.CONFIRMED, Fixture.Status.CONCEDED)).exists():
            raise ClubRefusal(
                _(
                    "This team has a fixture with a confirmed result: reset the fixture "
                    "before deleting the team."
                ),
                "team-has-results",
            )
        audit(
            club=team.club,
            actor=actor,
            action=audit_actions.TEAM_DELETED,
            team=team.name,
            league=league.name,
            fixtures=fixtures.count(),
        )
        team.delete()


def _fixture_checked(league: League, home: Team, away: Team) -> None:
    if home.league_id != league.pk or away.league_id != league.pk or home.pk == away.pk:
        raise ClubRefusal(_("A fixture is between two teams of the league."), "fixture-invalid")


def private_team_name(team: Team) -> str:
    """Return what a private club's team is called where its club is not shown: "Team N (a
    private club)", N its place among the league's teams in the order they were made."""
    number = Team.objects.filter(league_id=team.league_id, pk__lte=team.pk).count()
    return _("Team %(number)s (a private club)") % {"number": number}


def _fixture_words(fixture: Fixture, club: Club | None = None) -> dict[str, str]:
    """What an audit entry keeps of a fixture: its teams, day and league, as words; in the
    trail of ``club``, the other side's team of a private club by its private name (the
    trail is read by ``club``'s admins)."""

    def name(team: Team) -> str:
        if club is not None and team.club_id != club.pk and team.club.is_private:
            return private_team_name(team)
        return team.name

    return {
        "fixture": f"{name(fixture.home)} – {name(fixture.away)}",
        "day": fixture.day.isoformat(),
        "league": fixture.league.name,
    }


def audit_fixture(fixture: Fixture, *, actor: Any, action: str, **detail: Any) -> None:
    """Write one entry in the trail of the home and the away club, each in its own words."""
    for club in {team.club_id: team.club for team in (fixture.home, fixture.away)}.values():
        audit(club=club, actor=actor, action=action, **_fixture_words(fixture, club), **detail)


def locked_fixture(fixture: Fixture) -> Fixture:
    """Return ``fixture`` as it is now, its row locked until the transaction ends, with its
    league and teams' clubs (who may act is read from the row as it is, not as last seen)."""
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("league", "home__club", "away__club")
        .get(pk=fixture.pk)
    )


def fixture_make(*, actor: Any, league: League, home: Team, away: Team, day: date) -> Fixture:
    """Make a fixture of two of the league's teams on ``day`` (its organiser)."""
    require_organiser(league, actor)
    _fixture_checked(league, home, away)
    frame_check([day], zone_names=[home.club.time_zone, away.club.time_zone])
    with transaction.atomic():
        fixture = Fixture.objects.create(league=league, home=home, away=away, day=day)
        audit_fixture(fixture, actor=actor, action=audit_actions.FIXTURE_CREATED)
    return fixture


def fixture_change(*, actor: Any, fixture: Fixture, home: Team, away: Team, day: date) -> Fixture:
    """Change a fixture's home and away teams and day (the league's organiser), only while it
    is to play: a fixture with legs is reset first. Return it."""
    league = fixture.league
    require_organiser(league, actor)
    _fixture_checked(league, home, away)
    with transaction.atomic():
        locked = locked_fixture(fixture)
        if locked.status != Fixture.Status.TO_PLAY:
            raise ClubRefusal(
                _("This fixture has its legs submitted: reset it before changing it."),
                "fixture-not-open",
            )
        frame_check([day], zone_names=[home.club.time_zone, away.club.time_zone], kept=[locked.day])
        clubs = {team.club_id: team.club for team in (locked.home, locked.away, home, away)}
        before = {pk: _fixture_words(locked, club) for pk, club in clubs.items()}
        changed = sorted(
            key
            for key, old, new in (
                ("home", locked.home_id, home.pk),
                ("away", locked.away_id, away.pk),
                ("day", locked.day, day),
            )
            if old != new
        )
        locked.home, locked.away, locked.day = home, away, day
        locked.save(update_fields=["home", "away", "day"])
        for pk, club in clubs.items() if changed else ():
            audit(
                club=club,
                actor=actor,
                action=audit_actions.FIXTURE_CHANGED,
                **_fixture_words(locked, club),
                before=f"{before[pk]['fixture']}, {before[pk]['day']}",
                changed=changed,
            )
    return locked


def fixture_reset(*, actor: Any, fixture: Fixture) -> Fixture:
    """Reset a fixture with legs, whatever its status (the league's organiser): its legs
    are forgotten and it is to be played again (out of the table if it counted). Return
    it."""
    require_organiser(fixture.league, actor)
    with transaction.atomic():
        locked = locked_fixture(fixture)
        if locked.status == Fixture.Status.TO_PLAY:
            raise ClubRefusal(_("This fixture has no legs to forget."), "fixture-not-submitted")
        status = locked.status
        legs = locked.legs.count()
        locked.legs.all().delete()
        locked.status = Fixture.Status.TO_PLAY
        locked.submitted_for = locked.submitted_by = locked.submitted_at = None
        locked.dispute_reason = ""
        locked.conceded_by, locked.walkover = None, False
        locked.decided_by = actor
        locked.decided_at = timezone.now()
        locked.save()
        audit_fixture(
            locked, actor=actor, action=audit_actions.FIXTURE_RESET, status=status, legs=legs
        )
    return locked


def fixture_delete(*, actor: Any, fixture: Fixture) -> None:
    """Delete a fixture (the league's organiser); refused once its result is confirmed
    (reset it first)."""
    require_organiser(fixture.league, actor)
    with transaction.atomic():
        locked = locked_fixture(fixture)
        if locked.status in (Fixture.Status.CONFIRMED, Fixture.Status.CONCEDED):
            raise ClubRefusal(
                _("This fixture's result is confirmed: reset it before deleting it."),
                "fixture-confirmed",
            )
        audit_fixture(locked, actor=actor, action=audit_actions.FIXTURE_DELETED)
        locked.delete()


def rosters_move(*, source_id: int, target_id: int) -> int:
    """Put player ``target_id`` on every roster that has ``source_id`` (a merge of two
    handles of one person), unless the target plays for a team of that league already (a
    player plays for one team of a league: the target's own team stays theirs). Return the
    number of rosters the target joined."""
    joined = 0
    for team in Team.objects.filter(roster__pk=source_id):
        if not Team.objects.filter(league_id=team.league_id, roster__pk=target_id).exists():
            team.roster.add(target_id)
            joined += 1
        team.roster.remove(source_id)
    return joined


# --- legs: the matches a captain may choose, submitting, confirming, disputing -------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stored match that may be a leg of a fixture, and how it would count."""

    match_id: int
    kind: str
    winner: str  # Leg.Side
    home_score: int
    away_score: int
    home_names: str
    away_names: str
    played_at: datetime


def _day_bounds(day: date, zone_name: str) -> tuple[datetime, datetime]:
    return club_days(day, day, zone_name)


def _on_roster(team: Team, roster: list[Player], match_club_id: int):
    """Return a test of whether a seat's player is on the roster: the roster's player
    itself (a leg's visiting player sits as their own club's, ``leg_seats``), or, for a
    team of the other club, a handle of the match's club of the same name (a leg stored
    before that, or whose log named no leg)."""
    ids = {player.pk for player in roster}
    if team.club_id == match_club_id:
        return lambda player: player.pk in ids
    handles = {player.handle.casefold() for player in roster}
    return lambda player: (
        player.pk in ids
        or (player.club_id == match_club_id and player.handle.casefold() in handles)
    )


def fixture_candidates(fixture: Fixture) -> list[Candidate]:
    """Return the stored matches of the home and away clubs that may be legs of
    ``fixture``, in the order played (a fixed number of queries)."""
    home, away = fixture.home, fixture.away
    rosters = {team.pk: list(team.roster.all()) for team in (home, away)}
    clubs = {club.pk: club for club in Club.objects.filter(pk__in={home.club_id, away.club_id})}
    found = []
    for club in clubs.values():
        start, end = _day_bounds(fixture.day, club.time_zone)
        matches = (
            Match.objects.filter(
                club=club,
                played_at__gte=start,
                played_at__lt=end,
                approval=Match.Approval.APPROVED,
                outcome=Match.Outcome.COMPLETE,
                player_count__in=(2, 4),
            )
            .prefetch_related("seats__player")
            .order_by("played_at", "id")
        )
        at_home = _on_roster(home, rosters[home.pk], club.pk)
        at_away = _on_roster(away, rosters[away.pk], club.pk)
        for match in matches:
            candidate = _candidate(match, at_home, at_away)
            if candidate is not None:
                found.append(candidate)
    return sorted(found, key=lambda c: (c.played_at, c.match_id))


def _candidate(match: Match, at_home, at_away) -> Candidate | None:
    sides: dict[int, list[Player]] = {}
    for seat in sorted(match.seats.all(), key=lambda seat: seat.seat):
        sides.setdefault(seat.team, []).append(seat.player)
    if len(sides) != 2:
        return None
    (team_a, players_a), (team_b, players_b) = sorted(sides.items())
    if len(players_a) != len(players_b) or len(players_a) not in (1, 2):
        return None
    if all(map(at_home, players_a)) and all(map(at_away, players_b)):
        home_team, away_team = team_a, team_b
    elif all(map(at_home, players_b)) and all(map(at_away, players_a)):
        home_team, away_team = team_b, team_a
    else:
        return None
    if match.winner == home_team:
        winner = Leg.Side.HOME
    elif match.winner == away_team:
        winner = Leg.Side.AWAY
    else:
        winner = Leg.Side.DRAW
    kind = League.LegKind.SINGLES if len(players_a) == 1 else League.LegKind.PAIRS
    return Candidate(
        match_id=match.pk,
        kind=kind,
        winner=winner,
        home_score=match.scores[home_team],
        away_score=match.scores[away_team],
        home_names=" & ".join(player.handle for player in sides[home_team]),
        away_names=" & ".join(player.handle for player in sides[away_team]),
        played_at=match.played_at,
    )


def _captain_side(fixture: Fixture, user: Any) -> Team:
    for team in (fixture.home, fixture.away):
        if captain_of(team, user):
            return team
    raise PermissionDenied(_("Only a captain of one of the fixture's teams may do this."))


def fixture_submit(*, actor: Any, fixture: Fixture, match_ids: list[int]) -> Fixture:
    """Submit the fixture's legs (a captain of either side): one match id a leg, in the
    order of the league's legs, each among ``fixture_candidates`` and of the leg's kind.
    A submitted fixture may be submitted again by the same person until it is confirmed or
    disputed. Return it, awaiting the other side's confirmation."""
    side = _captain_side(fixture, actor)
    kinds = fixture.league.legs
    with transaction.atomic():
        fixture = Fixture.objects.select_for_update().get(pk=fixture.pk)
        if fixture.status not in (Fixture.Status.TO_PLAY, Fixture.Status.SUBMITTED) or (
            fixture.status == Fixture.Status.SUBMITTED and fixture.submitted_by_id != actor.pk
        ):
            raise ClubRefusal(_("This fixture's legs are submitted already."), "fixture-not-open")
        refuse_withdrawn(fixture)
        if len(match_ids) != len(kinds) or len(set(match_ids)) != len(match_ids):
            raise ClubRefusal(
                _("A fixture of this league has %(count)s legs, each a different match.")
                % {"count": len(kinds)},
                "fixture-invalid",
            )
        candidates = {candidate.match_id: candidate for candidate in fixture_candidates(fixture)}
        taken = set(
            Leg.objects.filter(match_id__in=match_ids)
            .exclude(fixture=fixture)
            .values_list("match_id", flat=True)
        )
        legs = []
        for number, (kind, match_id) in enumerate(zip(kinds, match_ids, strict=True), start=1):
            candidate = candidates.get(match_id)
            if candidate is None or candidate.kind != kind or match_id in taken:
                raise ClubRefusal(
                    _(
                        "Leg %(number)s: match %(match)s is not a %(kind)s match of the day "
                        "between the teams' players, or is another fixture's leg already."
                    )
                    % {"number": number, "match": match_id, "kind": League.LegKind(kind).label},
                    "fixture-invalid",
                )
            legs.append(
                Leg(
                    fixture=fixture,
                    number=number,
                    kind=kind,
                    match_id=match_id,
                    winner=candidate.winner,
                    home_score=candidate.home_score,
                    away_score=candidate.away_score,
                    home_names=candidate.home_names[:500],
                    away_names=candidate.away_names[:500],
                )
            )
        fixture.legs.all().delete()
        try:
            with transaction.atomic():
                Leg.objects.bulk_create(legs)
        except IntegrityError:  # another fixture took one of the matches at the same moment
            raise ClubRefusal(
                _("One of these matches is another fixture's leg already."), "fixture-invalid"
            ) from None
        fixture.status = Fixture.Status.SUBMITTED
        fixture.submitted_for = side
        fixture.submitted_by = actor
        fixture.submitted_at = timezone.now()
        fixture.dispute_reason = ""
        fixture.save()
        announce(waiting.FIXTURE_CONFIRM, [fixture.pk])  # the other side's captains are told
    return fixture


def _other_captain(fixture: Fixture, actor: Any) -> None:
    other = fixture.away if fixture.submitted_for_id == fixture.home_id else fixture.home
    if not captain_of(other, actor) or fixture.submitted_by_id == actor.pk:
        raise PermissionDenied(
            _("Only a captain of the other team may confirm or dispute the legs.")
        )


def _decide(*, actor: Any, fixture: Fixture, status: str, reason: str = "") -> Fixture:
    with transaction.atomic():
        # Who may decide is read from the row as it is now, not as the caller last saw it.
        locked = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("home", "away", "league")
            .get(pk=fixture.pk)
        )
        _other_captain(locked, actor)
        if locked.status != Fixture.Status.SUBMITTED:
            raise ClubRefusal(
                _("Only a fixture awaiting confirmation may be confirmed or disputed."),
                "fixture-not-submitted",
            )
        locked.status = status
        locked.dispute_reason = reason
        locked.decided_by = actor
        locked.decided_at = timezone.now()
        locked.save()
    return locked


def fixture_confirm(*, actor: Any, fixture: Fixture) -> Fixture:
    """Confirm the submitted legs (a captain of the other side): the fixture counts."""
    with transaction.atomic():
        fixture = _decide(actor=actor, fixture=fixture, status=Fixture.Status.CONFIRMED)
        publish(FIXTURE_CONFIRMED, [fixture.pk])  # tools are told (clubs.tool_events)
    return fixture


def fixture_dispute(*, actor: Any, fixture: Fixture, reason: str) -> Fixture:
    """Dispute the submitted legs (a captain of the other side), saying why: the fixture
    counts for nothing until the organiser resolves it."""
    reason = " ".join(reason.split())
    if not reason or len(reason) > 500:
        raise ClubRefusal(
            _("Say why the legs are disputed, in at most 500 characters."), "fixture-invalid"
        )
    with transaction.atomic():
        fixture = _decide(
            actor=actor, fixture=fixture, status=Fixture.Status.DISPUTED, reason=reason
        )
        announce(waiting.DISPUTE, [fixture.pk])  # the organiser is told
    return fixture


def fixture_resolve(*, actor: Any, fixture: Fixture, confirm: bool) -> Fixture:
    """Resolve a disputed fixture (the organiser): confirm it as submitted, or reset it to be
    played again (its legs forgotten). Return it."""
    require_organiser(fixture.league, actor)
    with transaction.atomic():
        locked = Fixture.objects.select_for_update().get(pk=fixture.pk)
        if locked.status != Fixture.Status.DISPUTED:
            raise ClubRefusal(_("Only a disputed fixture is resolved."), "fixture-not-disputed")
        locked.decided_by = actor
        locked.decided_at = timezone.now()
        if confirm:
            locked.status = Fixture.Status.CONFIRMED
        else:
            locked.legs.all().delete()
            locked.status = Fixture.Status.TO_PLAY
            locked.submitted_for = locked.submitted_by = locked.submitted_at = None
            locked.dispute_reason = ""
        locked.save()
    return locked


# --- what the pages and the API read -------------------------------------------------------


def fixture_score(fixture: Fixture, legs: list[Leg] | None = None) -> tuple[int, int] | None:
    """Return the legs won by the home and the away side, or None before any submission
    (``fixture.legs`` prefetched or not, or ``legs`` given). A conceded fixture gives every
    leg of the league's fixtures to the side that did not concede."""
    if fixture.status == Fixture.Status.TO_PLAY:
        return None
    if fixture.status == Fixture.Status.CONCEDED:
        legs_won = len(fixture.league.legs)
        return (0, legs_won) if fixture.conceded_by_id == fixture.home_id else (legs_won, 0)
    legs = list(fixture.legs.all()) if legs is None else legs
    return (
        sum(leg.winner == Leg.Side.HOME for leg in legs),
        sum(leg.winner == Leg.Side.AWAY for leg in legs),
    )


def legs_in_order() -> QuerySet[Leg]:
    """Legs by number, each with the club of its match (``match_club_id``: None when the
    match is deleted)."""
    return Leg.objects.order_by("number").annotate(match_club_id=F("match__club_id"))


def league_fixtures(league: League) -> list[Fixture]:
    """Return the league's fixtures with their teams and legs (three queries)."""
    return list(
        league.fixtures.select_related("home", "away", "league")
        .prefetch_related(Prefetch("legs", queryset=legs_in_order()))
        .order_by("day", "id")
    )


def fixture_counts(fixture: Fixture, withdrawn: set[int], league: League) -> bool:
    """Whether ``fixture`` counts in the table: confirmed or conceded, and not expunged with
    a withdrawn team (``withdrawn``: the ids of the league's withdrawn teams)."""
    if fixture.status not in (Fixture.Status.CONFIRMED, Fixture.Status.CONCEDED):
        return False
    touched = fixture.home_id in withdrawn or fixture.away_id in withdrawn
    return not (touched and league.withdrawn_results == League.Withdrawn.EXPUNGED)


def table_order(row: dict[str, Any]) -> tuple:
    """The table's order: a withdrawn team at the foot, then points, leg difference, legs
    for, name."""
    return (
        row["withdrawn"],
        -row["points"],
        -(row["legs_for"] - row["legs_against"]),
        -row["legs_for"],
        row["name"].casefold(),
        row["team_id"],
    )


def league_table(league: League, fixtures: list[Fixture] | None = None) -> list[dict[str, Any]]:
    """Return the league's table: a row a team, the fixtures that count only
    (``fixture_counts``), scored by the league's points (``league_points``), in the order of
    ``table_order``."""
    fixtures = league_fixtures(league) if fixtures is None else fixtures
    rows = {
        team.pk: {
            "team_id": team.pk,
            "club_id": team.club_id,
            "name": team.name,
            "club": team.club.name,
            "withdrawn": team.withdrawn_at is not None,
            "played": 0,
            "won": 0,
            "drawn": 0,
            "lost": 0,
            "conceded": 0,
            "legs_for": 0,
            "legs_against": 0,
            "points": 0,
        }
        for team in league.teams.select_related("club")
    }
    withdrawn = {pk for pk, row in rows.items() if row["withdrawn"]}
    for fixture in fixtures:
        if not fixture_counts(fixture, withdrawn, league):
            continue
        home_legs, away_legs = fixture_score(fixture)
        for team_id, mine, theirs in (
            (fixture.home_id, home_legs, away_legs),
            (fixture.away_id, away_legs, home_legs),
        ):
            row = rows[team_id]
            conceded = fixture.conceded_by_id == team_id
            row["played"] += 1
            row["legs_for"] += mine
            row["legs_against"] += theirs
            row["conceded"] += conceded
            row["won" if mine > theirs else "lost" if mine < theirs else "drawn"] += 1
            row["points"] += fixture_points(league, mine, theirs, conceded=conceded)
    table = sorted(rows.values(), key=table_order)
    for position, row in enumerate(table, start=1):
        row["position"] = position
        row["difference"] = row["legs_for"] - row["legs_against"]
    return table


TABLE_COLUMNS = (
    "position",
    "team",
    "club",
    "played",
    "won",
    "drawn",
    "lost",
    "legs_for",
    "legs_against",
    "difference",
    "points",
    "conceded",
    "withdrawn",
)


def table_csv(table: list[dict[str, Any]]) -> str:
    """Return the league's table as CSV, a header row first."""
    return csv_text(
        TABLE_COLUMNS,
        (
            [
                row["position"],
                row["name"],
                row["club"],
                *(
                    int(row[key]) if isinstance(row[key], bool) else row[key]
                    for key in TABLE_COLUMNS[3:]
                ),
            ]
            for row in table
        ),
    )
