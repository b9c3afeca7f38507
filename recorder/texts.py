"""The words the recorder's script shows, in the language of the request (the script gets
them from the page, as the replay's do)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.presentation import end_names


def recorder_text() -> dict[str, str]:
    """Return every string the recorder's script shows a person."""
    return {
        "loading_engine": _("Loading the rules engine…"),
        "engine_ready": _("The rules engine is ready, in this phone."),
        "engine_failed": _("The rules engine could not be loaded: %(reason)s"),
        "offline": _("No connection: the match is kept in this phone."),
        "outbox": _("Matches waiting to be sent: %(count)s."),
        "sent": _("Stored in the archive: upload %(upload)s."),
        "stored_match": _("Stored in the archive: match %(match)s"),
        "stored_upload": _("Sent to the archive: upload %(upload)s"),
        "open": _("open"),
        "refused": _("The archive refused the match: %(reason)s"),
        "refused_club": _(
            "Its upload keeps it: join the club (or ask its admin to let you in), then run "
            "the upload again from its page."
        ),
        "refused_other": _("Its upload keeps what was sent and says why."),
        "sent_heading": _("Sent from this phone"),
        "sent_match": _("Match %(match)s: %(sides)s"),
        "sent_refused": _("Refused: %(sides)s (upload %(upload)s)"),
        "abandon_question": _(
            "Abandon this match? It is kept in this phone as a draft until you start the next one."
        ),
        "abandoned": _("The match was abandoned; it is kept as a draft."),
        "draft": _(
            "An abandoned match is kept: %(sides)s, %(steps)s steps. Starting a new match drops it."
        ),
        "send_failed": _("The archive refused the match: %(reason)s"),
        "send_later": _(
            "You have sent as many uploads as the archive takes for now: the match waits in "
            "this phone and is sent again in %(seconds)s s."
        ),
        "need_players": _("Give every seat a player, each a different name."),
        "need_club": _("Choose a club."),
        "no_event": _("whatever the club's events take by the day"),
        "seat": _("Seat %(number)s"),
        "turn": _("%(player)s to play"),
        "leads": _("%(player)s leads"),
        "count": _("Count %(count)s"),
        "ends": _("Open ends: %(ends)s"),
        "no_ends": _("The table is empty"),
        "end_pip": _("%(end)s %(pip)s"),
        "points": _("%(player)s scores %(points)s!"),
        "no_points": _("%(player)s plays %(tile)s"),
        "drew": _("%(player)s drew"),
        "drew_tile": _("%(player)s drew %(tile)s"),
        "knocked": _("%(player)s knocked"),
        "bust": _("Bust: %(would)s would pass %(target)s, nothing scored"),
        "went_out": _("%(points)s for going out"),
        "is_out": _("%(player)s is out"),
        "which_end": _("%(tile)s fits several ends: which one?"),
        "tiles_held": _("%(count)s in hand"),
        "left_heading": _(
            "The hand is over. Tap the tiles %(player)s shows (%(done)s of %(count)s)."
        ),
        "settlement": _("Settlement: %(list)s."),
        "hand_over": _("Hand %(hand)s is over: %(how)s."),
        "end_domino": _("domino, a player went out"),
        "end_block": _("blocked, nobody can play"),
        "end_target": _("the target is reached"),
        "next_leader": _("Who leads the next hand?"),
        "proposed": _("proposed by the rules"),
        "over": _("The match is over: %(team)s won."),
        "saved_waiting": _("Saved in this phone; it is sent when the connection returns."),
        "nothing_to_undo": _("Nothing to undo."),
        "undone": _("Undone."),
        "hand": _("Hand %(hand)s"),
        "resumed": _("The match in progress was resumed."),
        "draw_shown_hint": _("Tap the tile drawn face up."),
    } | end_names()
