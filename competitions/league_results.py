"""A fixture's legs (issue 28): a captain of either side submits them, a captain of the
other side confirms or disputes them, the organiser resolves a dispute. The league's rules
are told in ``league_services``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.refusals import ClubRefusal
from clubs.tool_events import FIXTURE_CONFIRMED, publish
from clubs.waiting import announce
from competitions import waiting

from .league_permissions import captain_of, refuse_withdrawn, require_organiser
from .league_selectors import fixture_candidates
from .models import Fixture, League, Leg, Team


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
