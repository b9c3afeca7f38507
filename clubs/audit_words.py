"""The audit trail in words: each entry as a sentence of its action, in the reader's language,
saying only what the entry holds (an empty reason, a person since gone: left out)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import preset_name

from .models import AuditEntry, Club, Membership

Action = AuditEntry.Action


def _person(entry: AuditEntry) -> str:
    return entry.subject.get_username() if entry.subject_id and entry.subject else ""


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _setting(key: str, value: str) -> str:
    """Return one changed setting as "time zone: Asia/Tbilisi"."""
    try:
        field = Club._meta.get_field(key)
    except Exception:
        return f"{key}: {value}"
    if key in ("is_private", "requires_approval", "analyse_every_match"):
        value = _("yes") if value == "True" else _("no")
    elif key == "language":
        value = str(dict(field.choices).get(value, value))
    elif key == "default_ruleset":
        value = preset_name(value)
    return f"{field.verbose_name}: {value}"


def _invitation(detail: dict[str, Any]) -> str:
    days, uses = _number(detail.get("days")), _number(detail.get("max_uses"))
    parts = []
    if days is not None:
        valid = ngettext("valid %(count)d day", "valid %(count)d days", days)
        parts.append(valid % {"count": days})
    if uses is not None:
        parts.append(ngettext("%(count)d use", "%(count)d uses", uses) % {"count": uses})
    said = _("made an invitation link")
    return f"{said} ({', '.join(parts)})" if parts else said


def _match(entry: AuditEntry, approved: bool) -> str:
    detail, person = entry.detail, _person(entry)
    match = _number(detail.get("match"))
    if approved:
        said = _("approved match %(match)s") if match else _("approved a match")
    else:
        said = _("rejected match %(match)s") if match else _("rejected a match")
    said = said % {"match": match} if match else said
    if person:
        said += " " + _("(sent by %(person)s)") % {"person": person}
    reason = str(detail.get("reason") or "").strip()
    if reason:
        said += ": " + _("“%(reason)s”") % {"reason": reason}
    return said


def _role(entry: AuditEntry, person: str) -> str:
    after = entry.detail.get("after")
    if after == Membership.Role.ADMIN:
        return _("made %(person)s an admin") % {"person": person or "—"}
    if after == Membership.Role.MEMBER:
        return _("made %(person)s a member (no longer an admin)") % {"person": person or "—"}
    return str(Action.ROLE_CHANGED.label)


# An event's entry names it as it was called then (the event may be renamed or gone since).
EVENT_WORDS = {
    Action.EVENT_CREATED: lambda: _("made the event “%(event)s”"),
    Action.EVENT_CHANGED: lambda: _("changed the event “%(event)s”"),
    Action.EVENT_DELETED: lambda: _("deleted the event “%(event)s”"),
}

# A league's entries name the league, team and fixture as they were then (each may be gone).
LEAGUE_WORDS = {
    Action.LEAGUE_INVITED: lambda: _("invited the club to the league “%(league)s”"),
    Action.LEAGUE_JOINED: lambda: _("accepted the invitation to the league “%(league)s”"),
    Action.LEAGUE_CHANGED: lambda: _("changed the league “%(league)s”"),
    Action.LEAGUE_DELETED: lambda: _("deleted the league “%(league)s”"),
    Action.TEAM_CREATED: lambda: _("made the team “%(team)s” of the league “%(league)s”"),
    Action.TEAM_CHANGED: lambda: _("changed the team “%(team)s” of the league “%(league)s”"),
    Action.TEAM_DELETED: lambda: _("deleted the team “%(team)s” of the league “%(league)s”"),
    Action.FIXTURE_CREATED: lambda: _(
        "made the fixture %(fixture)s on %(day)s in the league “%(league)s”"
    ),
    Action.FIXTURE_CHANGED: lambda: _(
        "changed the fixture %(fixture)s on %(day)s in the league “%(league)s”"
    ),
    Action.FIXTURE_RESET: lambda: _(
        "reset the fixture %(fixture)s on %(day)s in the league “%(league)s” (its legs forgotten)"
    ),
    Action.FIXTURE_DELETED: lambda: _(
        "deleted the fixture %(fixture)s on %(day)s in the league “%(league)s”"
    ),
}
LEAGUE_KEYS = ("league", "team", "fixture", "day")


def _league(action: str, detail: dict[str, Any]) -> str | None:
    """Return a league's entry in words, or None when it is short of a detail it names."""
    words = LEAGUE_WORDS[action]()
    values = {key: str(detail.get(key) or "") for key in LEAGUE_KEYS}
    if any(not values[key] for key in LEAGUE_KEYS if f"%({key})s" in words):
        return None
    return words % values


def audit_sentence(entry: AuditEntry) -> str:
    """Return what an audit entry says, as a sentence whose subject is its actor."""
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    person = _person(entry)
    action = entry.action
    handle = str(detail.get("handle") or "")
    upload = _number(detail.get("upload"))
    if action == Action.CLUB_CREATED and detail.get("name"):
        return _("created the club %(name)s") % {"name": detail["name"]}
    if action == Action.SETTINGS_CHANGED and isinstance(detail.get("changed"), dict):
        changes = [_setting(key, str(value)) for key, value in detail["changed"].items()]
        if changes:
            return _("changed the club's settings: %(changes)s") % {"changes": "; ".join(changes)}
    if action == Action.INVITATION_CREATED:
        return _invitation(detail)
    if action in (Action.MATCH_APPROVED, Action.MATCH_REJECTED):
        return _match(entry, action == Action.MATCH_APPROVED)
    if action == Action.ROLE_CHANGED:
        return _role(entry, person)
    if person:
        if action == Action.JOIN_ACCEPTED:
            return _("accepted the join request of %(person)s") % {"person": person}
        if action == Action.JOIN_DECLINED:
            return _("declined the join request of %(person)s") % {"person": person}
        if action == Action.MEMBER_REMOVED:
            return _("removed %(person)s from the club") % {"person": person}
        if action == Action.OWNERSHIP_TRANSFERRED:
            return _("handed the ownership over to %(person)s") % {"person": person}
        if action == Action.CLAIM_CONFIRMED and handle:
            return _("confirmed that “%(handle)s” is %(person)s") % {
                "handle": handle,
                "person": person,
            }
        if action == Action.CLAIM_DECLINED and handle:
            return _("declined the claim of %(person)s to “%(handle)s”") % {
                "handle": handle,
                "person": person,
            }
        if action == Action.UPLOAD_DELETED and upload:
            return _("deleted upload %(upload)s of %(person)s") % {
                "upload": upload,
                "person": person,
            }
        if action == Action.UPLOAD_RERUN and upload:
            return _("ran upload %(upload)s of %(person)s again") % {
                "upload": upload,
                "person": person,
            }
    event = str(detail.get("event") or "")
    if event and action in EVENT_WORDS:
        return EVENT_WORDS[action]() % {"event": event}
    if action in LEAGUE_WORDS and (said := _league(action, detail)) is not None:
        return said
    if action == Action.HANDLE_RENAMED and detail.get("before") and detail.get("after"):
        return _("renamed “%(before)s” to “%(after)s”") % {
            "before": detail["before"],
            "after": detail["after"],
        }
    if action == Action.HANDLES_MERGED and detail.get("merged") and detail.get("into"):
        said = _("merged “%(merged)s” into “%(into)s”") % {
            "merged": detail["merged"],
            "into": detail["into"],
        }
        moved = _number(detail.get("matches"))
        if moved is not None:
            said += " " + ngettext(
                "(%(count)d match moved)", "(%(count)d matches moved)", moved
            ) % {"count": moved}
        return said
    # An action said by its name alone (joined, left, revoked), or an entry short of details.
    return str(Action(action).label) if action in Action.values else action
