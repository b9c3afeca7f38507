"""The words the replay script shows, in the language of the request."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.presentation import end_names


def replay_text() -> dict[str, str]:
    """Return the words the replay script shows, in the language of the request."""
    return {
        "empty_table": _("The table is empty"),
        "hand_start": _("Hand %(hand)s: the tiles are dealt"),
        "position_start": _("Hand %(hand)s, start"),
        "position": _("Hand %(hand)s, move %(move)s"),
        "plays": _("%(player)s plays %(tile)s %(where)s"),
        "leads": _("to lead"),
        "on_end": _("on %(end)s"),
        "count_points": _("count %(count)s: +%(points)s"),
        "count_only": _("count %(count)s"),
        "draws": _("%(player)s draws %(tile)s"),
        "draws_hidden": _("%(player)s draws a tile"),
        "loading": _("Loading the other hands…"),
        "load_failed": _("The other hands could not be loaded."),
        "passes": _("%(player)s passes"),
        "hand_heading": _("Hand %(hand)s"),
        "hand_of": _("Hand %(hand)s of %(hands)s"),
        "draw": _("draws"),
        "pass": _("passes"),
        "pips_left": _("%(pips)s pips left"),
        "hidden_tiles": _("%(count)s hidden tiles"),
        "hand_ended": _("The hand ends: %(how)s."),
        "end_domino": _("domino, a player went out"),
        "end_block": _("blocked, nobody can play"),
        "end_target": _("the target is reached"),
        "settlement": _("Settlement: %(list)s."),
        "missed": _("%(play)s would have scored %(best)s"),
        "missed_short": _("missed %(missed)s"),
        "claimed": _("claimed %(claimed)s"),
        "play": _("Play"),
        "mark_inaccuracy": _("inaccuracy"),
        "mark_mistake": _("mistake"),
        "mark_blunder": _("blunder"),
        "lost_chance": _("gave up %(loss)s points of chance"),
        "lost_points": _("lost %(loss)s points"),
        "review_best": _("The review's best play: %(play)s"),
        "pause": _("Pause"),
    } | end_names()
