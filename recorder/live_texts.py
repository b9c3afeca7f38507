"""The words the live pages' script (live.js) shows, in the language of the request."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def live_text() -> dict[str, str]:
    """Return every string the live pages' script shows a person."""
    return {
        "hand": _("Hand %(hand)s"),
        "count": _("Count %(count)s"),
        "turn": _("%(player)s to play"),
        # A count after its noun: one form for every number, in each language.
        "steps": _("Steps recorded: %(count)s"),
        "waiting": _("Set up: waiting for the first tile."),
        "undone": _("A tap was taken back at the table."),
        "following": _("Live: each tap at the table shows here."),
        "polling": _("Live: this page looks again every few seconds."),
        "reconnecting": _("The connection was lost: catching up…"),
        "storing": _("The last tile is down: storing the match…"),
        "stored": _("Stored in the archive: opening the match…"),
        # A club night's table, which opens nothing by itself (the match's page does).
        "stored_table": _("The match is stored in the archive."),
        "refused": _("The archive refused the match and did not store it."),
        "stored_waiting": _(
            "The match is stored in the archive: it counts once a club admin approves it."
        ),
        # The upload's page is its uploader's and the club admins' (a 404 to anyone else).
        "why_refused": _(
            "Why it was refused (shown to whoever recorded it and to the club's admins)"
        ),
        "abandoned": _("This match was abandoned at the table."),
        "open_match": _("Open the stored match"),
        "watch": _("Watch"),
        "none": _(
            "No table is playing now. Tables appear here as soon as a match is set up at one."
        ),
        "played": _("%(player)s played %(tile)s"),
        "scored": _("%(player)s played %(tile)s: %(points)s points"),
        "drew": _("%(player)s drew"),
        "knocked": _("%(player)s knocked"),
        "hand_over": _("Hand %(hand)s is over"),
        "over": _("The match is over"),
        "chart": _("The score after each step"),
    }


def live_tables_wait_message(seconds: int) -> str:
    """What the recorder says past the budget of new tables: the phone keeps the match and
    sends it again when the wait is over."""
    return ngettext(
        "You have opened as many live tables as the archive allows for now. This match is "
        "kept on the phone and shown live in %(seconds)d second.",
        "You have opened as many live tables as the archive allows for now. This match is "
        "kept on the phone and shown live in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}


def too_often(message: str, wait: int) -> JsonResponse:
    """The phone's 429 past a budget (the uploads', the live tables'): its words, and the
    seconds in ``Retry-After`` and ``retry_after`` alike, which live-send.js waits out."""
    response = JsonResponse(
        {"error": message, "code": "throttled", "retry_after": wait}, status=429
    )
    response["Retry-After"] = str(wait)
    return response
