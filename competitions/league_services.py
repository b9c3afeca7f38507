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

The league's code is kept by job: who may do what in ``league_permissions``, the writes of
leagues, clubs, teams and fixtures in ``league_services``, a fixture's legs submitted, confirmed,
disputed and resolved in ``league_results``, the reads in ``league_selectors``, the table and its
CSV in ``league_table``; the points in ``league_points``, conceding and walkovers in
``league_forfeits``, the averages in ``league_averages``, what a reader may see in
``league_shown``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import record as audit
from clubs.dates import frame_check
from clubs.models import Club, Membership
from clubs.refusals import ClubRefusal
from clubs.waiting import announce
from competitions import audit_actions, waiting
from games.models import Player

from .league_permissions import require_organiser
from .league_points import POINT_FIELDS, points_checked
from .league_selectors import private_team_name
from .models import Fixture, League, LeagueClub, Team

MAX_LEGS = 12

MAX_ROSTER = 30

MAX_CAPTAINS = 5

SEATS = {League.LegKind.SINGLES: 1, League.LegKind.PAIRS: 2}  # players a side


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
