"""Selectors: the queries the pages and the API read matches with."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db.models import F, FilteredRelation, Prefetch, Q, QuerySet
from django.utils import timezone

from clubs.ids import id_of
from clubs.models import Club

from .models import HandleClaim, Match, Player, PlayerAlias, Seat, Upload

FILTERS = ("q", "club", "player", "ruleset", "outcome", "date_from", "date_to", "sort")
# How each order of the match list sorts (the newest first by default).
MATCH_SORTS = {
    "-played_at": ("-played_at", "-id"),
    "played_at": ("played_at", "id"),
    "club": ("club__name", "-played_at", "-id"),
    "-club": ("-club__name", "-played_at", "-id"),
    "ruleset": ("preset", "-played_at", "-id"),
    "-ruleset": ("-preset", "-played_at", "-id"),
    "outcome": ("outcome", "-played_at", "-id"),
    "-outcome": ("-outcome", "-played_at", "-id"),
}


def match_list(*, filters: dict[str, Any] | None = None, user=None) -> QuerySet[Match]:
    """Return the matches ``user`` may see (None: anyone), newest first, with their club and
    seats, narrowed by ``filters``.

    ``q`` a part of a player's or club's name, ``club`` a club slug, ``player`` a player's
    id, handle or former handle (``players_named``),
    ``result`` "win" or "loss" (with ``player``: the matches that player won or lost),
    ``ruleset`` a preset name, ``outcome`` complete or unfinished, ``date_from``/``date_to``
    dates (inclusive), ``sort`` one of ``MATCH_SORTS``.
    """
    filters = filters or {}
    matches = (
        Match.objects.visible_to(user)
        .select_related("club")
        .defer("packed")  # a list shows no moves
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))
        )
    )
    if "ids" in filters:
        matches = matches.filter(pk__in=filters["ids"])
    if filters.get("club"):
        # By the club's id, not a join on its slug: PostgreSQL then knows which club it is
        # and how many matches it has, and reads a busy club's page from its index by time
        # instead of fetching and sorting all its matches (issue 39).
        club_id = Club.objects.filter(slug=filters["club"]).values_list("pk", flat=True).first()
        matches = matches.filter(club_id=club_id) if club_id is not None else matches.none()
    order = MATCH_SORTS.get(filters.get("sort") or "-played_at")
    if filters.get("player"):
        players = players_named(filters["player"], user=user)
        result = filters.get("result")
        if len(players) == 1 and order in PLAYER_SORTS:
            matches, order = _one_players(matches, players[0], order)
            if result:
                # Their side won when its team is the match's winner (what a seat result's
                # ``won`` says): read on their own seat, with no second table joined.
                won = Q(winner=F("seat_team"))
                matches = matches.filter(won if result == "win" else ~won & Q(winner__isnull=False))
        else:
            seated = Seat.objects.filter(player_id__in=players)
            matches = matches.filter(pk__in=seated.values("match_id"))
            if result:
                matches = matches.filter(
                    seat_results__player_id__in=players,
                    seat_results__won=result == "win",
                    **({} if result == "win" else {"winner__isnull": False}),
                )
    if filters.get("ruleset"):
        matches = matches.filter(preset=filters["ruleset"])
    if filters.get("outcome"):
        matches = matches.filter(outcome=filters["outcome"])
    if filters.get("date_from") and (start := _start_of(filters["date_from"])):
        matches = matches.filter(played_at__gte=start)
    if filters.get("date_to") and (end := _start_of(filters["date_to"], next_day=True)):
        matches = matches.filter(played_at__lt=end)
    if filters.get("q"):
        text = filters["q"].strip()
        named = Seat.objects.filter(player__handle__icontains=text).values("match_id")
        matches = matches.filter(Q(club__name__icontains=text) | Q(pk__in=named))
    return matches.order_by(*order)


# The orders of one player's matches that their seats' index gives (the match's time and id,
# copied to each seat as the same values): the list is then read a page at a time from it.
PLAYER_SORTS = {
    MATCH_SORTS["-played_at"]: ("-seat_played_at", "-seat_match"),
    MATCH_SORTS["played_at"]: ("seat_played_at", "seat_match"),
}


def _one_players(
    matches: QuerySet[Match], player_id: int, order: tuple[str, ...]
) -> tuple[QuerySet[Match], tuple[str, ...]]:
    """Return ``matches`` narrowed to one player's, joined to their seat (``mine``), and the
    same order said by that seat's columns. PostgreSQL reads a page of them from the seats'
    index (player, played_at, match) and stops; ordered by the match's own columns it walked
    the whole archive by time to find the player's (issue 39). A player sits once in a
    match (``players_merge`` refuses two handles met at one table), so the join repeats
    none. The seat's columns are named (annotated) once: a cursor's bound on them, filtered
    later, then reads the same seat instead of joining another."""
    mine = FilteredRelation("seats", condition=Q(seats__player_id=player_id))
    matches = matches.alias(mine=mine).filter(mine__player_id=player_id)
    matches = matches.annotate(seat_played_at=F("mine__played_at"), seat_match=F("mine__match_id"))
    matches = matches.alias(seat_team=F("mine__team"))  # their side, for a result filter
    return matches, PLAYER_SORTS[order]


def _spellings(text: str) -> set[str]:
    """Return ``text`` as people write a name in any case (SQLite compares only ASCII letters
    without case, so "леван" must also be asked as "Леван")."""
    return {text, text.lower(), text.upper(), text.capitalize(), text.title()}


def players_named(text: str, *, user=None) -> list[int]:
    """Return the ids of the players ``user`` may see that ``text`` names: by id, handle or
    former handle, whatever its case; none of those, then the handles that contain it."""
    text = str(text).strip()
    if not text:
        return []
    players = Player.objects.visible_to(user)
    same = Q(handle__iexact=text) | Q(handle__in=_spellings(text))
    # The former handles first, as ids: a subquery in the OR would keep the database from
    # reading the handles' indexes, and make it read every player.
    named = same | Q(
        pk__in=list(PlayerAlias.objects.filter(same).values_list("player_id", flat=True))
    )
    if (number := id_of(text)) is not None:
        named |= Q(pk=number)
    found = list(players.filter(named).values_list("pk", flat=True)[:1000])
    if not found:
        found = list(players.filter(handle__icontains=text).values_list("pk", flat=True)[:1000])
    return found


def player_names(*, text: str, user=None, limit: int = 20) -> list[dict[str, str]]:
    """Return the handles (and their club's name) ``user`` may see that begin with or contain
    ``text``, or were once written so, for suggestions as a name is typed."""
    text = text.strip()[:100]
    if not text:
        return []
    players = Player.objects.visible_to(user).select_related("club")
    aliased = PlayerAlias.objects.filter(handle__icontains=text).values("player_id")
    found = players.filter(Q(handle__icontains=text) | Q(pk__in=aliased)).order_by("handle", "pk")
    return [{"handle": player.handle, "club": player.club.name} for player in found[:limit]]


def approval_skipped_in(user) -> QuerySet:
    """Return the clubs that approve their members' uploads where ``user``'s own uploads count
    at once (they own or administer them)."""
    clubs = Club.objects.administered_by(getattr(user, "pk", None))
    return clubs.filter(requires_approval=True).order_by("name")


def upload_zone_clubs(upload_ids: list[int]) -> dict[int, Any]:
    """Return, by upload, the one club it was made for or brought matches into (whose zone
    its times are shown in), or None when it went to several clubs or none."""
    found: dict[int, set[int]] = {upload_id: set() for upload_id in upload_ids}
    pairs = [
        *Upload.objects.filter(pk__in=upload_ids, club__isnull=False).values_list("pk", "club"),
        *Match.objects.filter(upload_id__in=upload_ids)
        .values_list("upload_id", "club_id")
        .distinct(),
    ]
    for upload_id, club_id in pairs:
        found[upload_id].add(club_id)
    ones = {next(iter(ids)) for ids in found.values() if len(ids) == 1}
    clubs = Club.objects.in_bulk(ones)
    return {
        upload_id: clubs.get(next(iter(ids))) if len(ids) == 1 else None
        for upload_id, ids in found.items()
    }


def upload_clubs(*, upload: Upload) -> list[Any]:
    """Return the clubs an upload was made for or brought matches into, by name."""
    clubs = Club.objects.filter(Q(pk=upload.club_id) | Q(matches__upload=upload))
    return list(clubs.distinct())


def approval_skipped_for(*, upload: Upload, clubs: list[Any]) -> list[Any]:
    """Return the clubs among ``clubs`` that approve uploads where this upload's matches
    counted at once, its uploader being their owner or an admin."""
    approving = [club for club in clubs if club.requires_approval]
    if not approving or upload.uploader_id is None:
        return []
    admin_of = set(
        Club.objects.administered_by(upload.uploader_id)
        .filter(pk__in=[club.pk for club in approving])
        .values_list("pk", flat=True)
    )
    return [club for club in approving if club.pk in admin_of]


def _start_of(day: date, *, next_day: bool = False) -> datetime | None:
    """The moment ``day`` (or the next) begins in the current zone, or None where that lies
    beyond what a datetime holds in UTC (9999-12-31's next day, year 1 east of Greenwich):
    no match lies beyond it, so that bound leaves every match in."""
    try:
        moment = datetime.combine(day + timedelta(days=1) if next_day else day, time())
        moment = timezone.make_aware(moment, timezone.get_current_timezone())
        moment.astimezone(UTC)  # the database keeps UTC: the bound must exist there
    except OverflowError:
        return None
    return moment


def uploads_visible_to(user) -> QuerySet[Upload]:
    """Return the uploads ``user`` may see: their own and those of the clubs they administer
    (staff see every one; someone signed out, none). Others' uploads are simply not there,
    so their ids answer 404 and cannot be walked."""
    uploads = Upload.objects.all()
    if user is None or not user.is_authenticated:
        return uploads.none()
    if user.is_staff:
        return uploads
    admin_of = Club.objects.administered_by(user.pk).values("pk")
    return uploads.filter(
        Q(uploader=user)
        | Q(club__in=admin_of)
        | Q(pk__in=Match.objects.filter(club__in=admin_of).values("upload_id"))
    )


def uploads_of(*, user, status: str = "") -> QuerySet[Upload]:
    """Return the uploads a person sees on their uploads page (theirs and those of the clubs
    they administer), newest first, narrowed to ``status``."""
    uploads = uploads_visible_to(user).select_related("uploader", "club")
    if status:
        uploads = uploads.filter(status=status)
    return uploads.order_by("-created_at", "-id")


def upload_club_names(upload_ids: list[int]) -> dict[int, list[str]]:
    """Return, by upload, the names of the clubs it was made for or brought matches into."""
    names: dict[int, set[str]] = {upload_id: set() for upload_id in upload_ids}
    for upload_id, name in Upload.objects.filter(pk__in=upload_ids, club__isnull=False).values_list(
        "pk", "club__name"
    ):
        names[upload_id].add(name)
    for upload_id, name in (
        Match.objects.filter(upload_id__in=upload_ids)
        .values_list("upload_id", "club__name")
        .distinct()
    ):
        names[upload_id].add(name)
    return {upload_id: sorted(found) for upload_id, found in names.items()}


def club_review_queue(*, club: Club) -> QuerySet[Match]:
    """Return a club's matches awaiting approval, oldest upload first."""
    return (
        club.matches.filter(approval=Match.Approval.PENDING)
        .select_related("upload__uploader")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))
        )
        .order_by("created_at", "id")
    )


def club_claims(*, club: Club) -> QuerySet[HandleClaim]:
    """Return a club's pending handle claims, oldest first."""
    return (
        HandleClaim.objects.filter(player__club=club, status=HandleClaim.Status.PENDING)
        .select_related("player", "user")
        .order_by("created_at")
    )


def person_clubs(*, player, user=None) -> list[Club]:
    """Return the clubs of the person behind a claimed handle that ``user`` may see (the
    handle's own club alone when nobody claimed it)."""
    if player.user_id is None:
        return [player.club]
    return list(
        Club.objects.visible_to(user)
        .filter(Q(memberships__user_id=player.user_id) | Q(players__user_id=player.user_id))
        .distinct()
        .order_by("name")
    )
