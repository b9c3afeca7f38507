"""The club's own actions in its audit trail, each with its name and its words, in the
reader's language, saying only what the entry holds (an empty detail, a person since gone:
left out). Filled into the trail when clubs is ready (``ClubsConfig.ready``); the archive's
actions are ``games.audit_words``'."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .audit import Actions, number
from .models import Club, Membership
from .presets import preset_name


def _setting(key: str, value: str) -> str:
    """Return one changed setting as "time zone: Asia/Tbilisi"."""
    try:
        field = Club._meta.get_field(key)
    except Exception:
        return f"{key}: {value}"
    if key in ("is_private", "requires_approval", "analyse_every_match", "analyse_earlier"):
        value = _("yes") if value == "True" else _("no")
    elif key == "language":
        value = str(dict(field.choices).get(value, value))
    elif key == "default_ruleset":
        value = preset_name(value)
    return f"{field.verbose_name}: {value}"


def _created(detail: dict[str, Any], person: str) -> str | None:
    if not detail.get("name"):
        return None
    return _("created the club %(name)s") % {"name": detail["name"]}


def _settings(detail: dict[str, Any], person: str) -> str | None:
    changed = detail.get("changed")
    if not isinstance(changed, dict):
        return None
    changes = [_setting(key, str(value)) for key, value in changed.items()]
    if not changes:
        return None
    return _("changed the club's settings: %(changes)s") % {"changes": "; ".join(changes)}


def _invitation(detail: dict[str, Any], person: str) -> str:
    days, uses = number(detail.get("days")), number(detail.get("max_uses"))
    parts = []
    if days is not None:
        valid = ngettext("valid %(count)d day", "valid %(count)d days", days)
        parts.append(valid % {"count": days})
    if uses is not None:
        parts.append(ngettext("%(count)d use", "%(count)d uses", uses) % {"count": uses})
    said = _("made an invitation link")
    return f"{said} ({', '.join(parts)})" if parts else said


def _role(detail: dict[str, Any], person: str) -> str | None:
    after = detail.get("after")
    if after == Membership.Role.ADMIN:
        return _("made %(person)s an admin") % {"person": person or "—"}
    if after == Membership.Role.MEMBER:
        return _("made %(person)s a member (no longer an admin)") % {"person": person or "—"}
    return None


def _to(person: str, words: str) -> str | None:
    """Return the words of an action done to a person when the entry names one."""
    return words % {"person": person} if person else None


# Filled into the trail (clubs.hooks.AUDIT_ACTIONS) in the app's ready(), in this order.
ACTIONS = Actions()
CLUB_CREATED = ACTIONS.add("club-created", gettext_lazy("created the club"), _created)
SETTINGS_CHANGED = ACTIONS.add(
    "settings-changed", gettext_lazy("changed the club's settings"), _settings
)
INVITATION_CREATED = ACTIONS.add(
    "invitation-created", gettext_lazy("made an invitation link"), _invitation
)
INVITATION_REVOKED = ACTIONS.add("invitation-revoked", gettext_lazy("revoked an invitation link"))
MEMBER_JOINED = ACTIONS.add("member-joined", gettext_lazy("joined with an invitation"))
JOIN_ACCEPTED = ACTIONS.add(
    "join-accepted",
    gettext_lazy("accepted a join request"),
    lambda detail, person: _to(person, _("accepted the join request of %(person)s")),
)
JOIN_DECLINED = ACTIONS.add(
    "join-declined",
    gettext_lazy("declined a join request"),
    lambda detail, person: _to(person, _("declined the join request of %(person)s")),
)
MEMBER_LEFT = ACTIONS.add("member-left", gettext_lazy("left the club"))
MEMBER_REMOVED = ACTIONS.add(
    "member-removed",
    gettext_lazy("removed a member"),
    lambda detail, person: _to(person, _("removed %(person)s from the club")),
)
ROLE_CHANGED = ACTIONS.add("role-changed", gettext_lazy("changed a member's role"), _role)
OWNERSHIP_TRANSFERRED = ACTIONS.add(
    "ownership-transferred",
    gettext_lazy("handed the ownership over"),
    lambda detail, person: _to(person, _("handed the ownership over to %(person)s")),
)
