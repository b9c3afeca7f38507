"""The archive's actions in a club's audit trail (``clubs.audit``): matches approved or
rejected, handle claims decided, handles renamed or merged, someone's upload deleted or run
again. Each with its name and its words, in the reader's language, saying only what the
entry holds. Filled into the trail when games is ready (``GamesConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.audit import Actions, number


def _match(detail: dict[str, Any], person: str, approved: bool) -> str:
    match = number(detail.get("match"))
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


def _claim(detail: dict[str, Any], person: str, confirmed: bool) -> str | None:
    handle = str(detail.get("handle") or "")
    if not (person and handle):
        return None
    if confirmed:
        words = _("confirmed that “%(handle)s” is %(person)s")
    else:
        words = _("declined the claim of %(person)s to “%(handle)s”")
    return words % {"handle": handle, "person": person}


def _renamed(detail: dict[str, Any], person: str) -> str | None:
    if not (detail.get("before") and detail.get("after")):
        return None
    return _("renamed “%(before)s” to “%(after)s”") % {
        "before": detail["before"],
        "after": detail["after"],
    }


def _merged(detail: dict[str, Any], person: str) -> str | None:
    if not (detail.get("merged") and detail.get("into")):
        return None
    said = _("merged “%(merged)s” into “%(into)s”") % {
        "merged": detail["merged"],
        "into": detail["into"],
    }
    moved = number(detail.get("matches"))
    if moved is not None:
        said += " " + ngettext("(%(count)d match moved)", "(%(count)d matches moved)", moved) % {
            "count": moved
        }
    return said


def _upload(detail: dict[str, Any], person: str, deleted: bool) -> str | None:
    upload = number(detail.get("upload"))
    if not (person and upload):
        return None
    if deleted:
        words = _("deleted upload %(upload)s of %(person)s")
    else:
        words = _("ran upload %(upload)s of %(person)s again")
    return words % {"upload": upload, "person": person}


# Filled into the trail (clubs.hooks.AUDIT_ACTIONS) in the app's ready(), in this order.
ACTIONS = Actions()
MATCH_APPROVED = ACTIONS.add(
    "match-approved",
    gettext_lazy("approved a match"),
    lambda detail, person: _match(detail, person, approved=True),
)
MATCH_REJECTED = ACTIONS.add(
    "match-rejected",
    gettext_lazy("rejected a match"),
    lambda detail, person: _match(detail, person, approved=False),
)
CLAIM_CONFIRMED = ACTIONS.add(
    "claim-confirmed",
    gettext_lazy("confirmed a handle claim"),
    lambda detail, person: _claim(detail, person, confirmed=True),
)
CLAIM_DECLINED = ACTIONS.add(
    "claim-declined",
    gettext_lazy("declined a handle claim"),
    lambda detail, person: _claim(detail, person, confirmed=False),
)
HANDLE_RENAMED = ACTIONS.add("handle-renamed", gettext_lazy("renamed a handle"), _renamed)
HANDLES_MERGED = ACTIONS.add("handles-merged", gettext_lazy("merged two handles"), _merged)
UPLOAD_DELETED = ACTIONS.add(
    "upload-deleted",
    gettext_lazy("deleted an upload"),
    lambda detail, person: _upload(detail, person, deleted=True),
)
UPLOAD_RERUN = ACTIONS.add(
    "upload-rerun",
    gettext_lazy("ran an upload again"),
    lambda detail, person: _upload(detail, person, deleted=False),
)
