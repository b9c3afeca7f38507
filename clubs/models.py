"""Clubs: made on purpose by a person who owns them, their members and admins, invitations,
join requests and the audit trail of what their admins did (tables ``clubs_*``). The lowest
app of the archive: it imports none above it (a handle claim is the archive's,
``games.models.HandleClaim``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .presets import ruleset_choices

# What an owner or admin may change of a club (its address, ``slug``, is fixed when it is
# made): the settings form, the settings service and the API's club read this one list.
CLUB_SETTINGS = (
    "name",
    "time_zone",
    "language",
    "default_ruleset",
    "is_private",
    "requires_approval",
    "analyse_every_match",
    "analyse_earlier",
    "venue",
)


class ClubQuerySet(models.QuerySet):
    def visible_to(self, user) -> ClubQuerySet:
        """Return the clubs ``user`` may see: every public club and the private clubs they
        belong to (staff see every club)."""
        if user is not None and user.is_authenticated and user.is_staff:
            return self
        mine = self.with_member(user.pk if user is not None and user.is_authenticated else None)
        return self.filter(Q(is_private=False) | Q(pk__in=mine.values("pk")))

    # What the archive (games, above this app) asks of clubs by a person's id. None is
    # nobody.
    def with_member(self, user_id: int | None) -> ClubQuerySet:
        """Return the clubs the person of ``user_id`` is a member of."""
        if user_id is None:
            return self.none()
        return self.filter(pk__in=Membership.objects.filter(user_id=user_id).values("club_id"))

    def administered_by(self, user_id: int | None) -> ClubQuerySet:
        """Return the clubs the person of ``user_id`` owns or administers."""
        if user_id is None:
            return self.none()
        admins = Membership.objects.filter(user_id=user_id, role__in=Membership.ADMIN_ROLES)
        return self.filter(pk__in=admins.values("club_id"))


class Club(models.Model):
    """A club, created on purpose by a person who becomes its owner; its members upload."""

    objects = ClubQuerySet.as_manager()

    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(_("slug"), max_length=200, unique=True, allow_unicode=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, default="en"
    )
    default_ruleset = models.CharField(
        _("default ruleset"), max_length=20, choices=ruleset_choices, default="all-fives"
    )
    # A private club's matches, players and ranking are seen by its members only.
    is_private = models.BooleanField(_("private"), default=False)
    # The matches its members upload count only once an admin accepted them.
    requires_approval = models.BooleanField(_("uploads need an admin's approval"), default=False)
    # Every match stored for the club gets its expected-value analysis, asked by the club
    # (no one's quota): the club pays for the workers' time.
    analyse_every_match = models.BooleanField(_("analyse every match"), default=False)
    # With "analyse every match": its matches stored before are analysed too, at the lowest
    # priority, within the club's daily bound, a day's share at a time (replays'
    # ``analyses_earlier``); it turns itself off once none is left.
    analyse_earlier = models.BooleanField(_("analyse the earlier matches too"), default=False)
    # Where the club plays (a hall, an address): the location of its events and home
    # fixtures in the calendar feeds (``competitions.calendars``); blank: the club's name.
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs", blank=True
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def role_of(self, user) -> str | None:
        """Return ``user``'s role in the club (owner, admin, member), or None."""
        if user is None or not user.is_authenticated:
            return None
        return self.memberships.filter(user=user).values_list("role", flat=True).first()

    def is_member(self, user) -> bool:
        return self.role_of(user) is not None

    def is_admin(self, user) -> bool:
        """Return whether ``user`` owns or administers the club."""
        return self.role_of(user) in Membership.ADMIN_ROLES

    def is_owner(self, user) -> bool:
        return self.role_of(user) == Membership.Role.OWNER

    def is_visible_to(self, user) -> bool:
        return (
            not self.is_private
            or self.is_member(user)
            or bool(user is not None and user.is_authenticated and user.is_staff)
        )

    @property
    def owner(self):
        membership = self.memberships.filter(role=Membership.Role.OWNER).first()
        return membership.user if membership else None


class Membership(models.Model):
    """A person's place in a club: its one owner, its admins, its members."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    ADMIN_ROLES = (Role.OWNER, Role.ADMIN)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique"),
            models.UniqueConstraint(
                fields=["club"], condition=Q(role="owner"), name="membership_one_owner"
            ),
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role in self.ADMIN_ROLES


class Invitation(models.Model):
    """A link that lets whoever holds it join a club, until it expires or is used up."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    max_uses = models.PositiveIntegerField(_("uses allowed"), default=1)
    uses = models.PositiveIntegerField(_("used"), default=0)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    @property
    def is_usable(self) -> bool:
        return (
            self.revoked_at is None
            and self.uses < self.max_uses
            and self.expires_at > timezone.now()
        )


class ClubRequest(models.Model):
    """What a person asks and an admin of the club decides: when it was sent, who decided
    it and when (the statuses are each request's own)."""

    created_at = models.DateTimeField(_("sent"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    def decide(self, *, actor: Any, status: str) -> None:
        """Write the decision ``status`` (the request's own) taken by ``actor``, now."""
        self.status = status
        self.decided_by = actor
        self.decided_at = timezone.now()
        self.save(update_fields=["status", "decided_by", "decided_at"])


class JoinRequest(ClubRequest):
    """Someone asks to join a club; an admin accepts or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests"
    )
    message = models.CharField(_("message"), max_length=500, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )

    class Meta(ClubRequest.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(status="pending"),
                name="join_request_one_pending",
            )
        ]
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")


class AuditEntry(models.Model):
    """Something an owner or admin did in a club: who, what, to whom, when."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # A slug each app declares with its words (``clubs.hooks.AUDIT_ACTIONS``): a new kind of
    # entry needs no migration of clubs.
    action = models.CharField(_("action"), max_length=30)
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # What it was done to, in words fixed at the time (a handle, a match id, a reason):
    # the rows themselves may be gone since.
    detail = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
