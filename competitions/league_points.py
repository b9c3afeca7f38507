"""How a league scores a fixture (issue 36): points for a fixture won, drawn and lost, for
each leg won, and for a close loss, with the schemes clubs play by as presets.

A team's points for a fixture are, from its side's legs (``mine``) and the other's
(``theirs``):

- the fixture's points: ``win_points`` when it won more legs, ``draw_points`` when as many,
  else ``close_points`` when it lost by ``close_margin`` legs or fewer (a margin of 0: no
  close loss), else ``loss_points``;
- plus ``leg_points`` for each leg it won.

A conceded fixture (or a walkover) gives the other side every leg and so the win; the team
that conceded gets no point at all, neither for the loss nor for a leg.

The presets (``SCHEMES``) fill those six numbers; a league keeps the numbers only, and its
scheme is the preset whose numbers it has (``scheme_of``), else "custom".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.refusals import ClubRefusal

POINT_FIELDS = (
    "win_points",
    "draw_points",
    "loss_points",
    "leg_points",
    "close_margin",
    "close_points",
)
MOST_POINTS = 100
MOST_MARGIN = 12  # a fixture's most legs (``league_services.MAX_LEGS``)
CUSTOM = "custom"


@dataclass(frozen=True)
class Scheme:
    slug: str
    name: Any  # a lazy translation
    points: dict[str, int]


def _scheme(slug: str, name: Any, win: int, draw: int, loss: int, **more: int) -> Scheme:
    points = {"win_points": win, "draw_points": draw, "loss_points": loss}
    points.update({"leg_points": 0, "close_margin": 0, "close_points": 0, **more})
    return Scheme(slug, name, points)


SCHEMES = (
    _scheme("two-one", gettext_lazy("2 for a win, 1 for a draw"), 2, 1, 0),
    _scheme("three-one", gettext_lazy("3 for a win, 1 for a draw"), 3, 1, 0),
    # Solihull's Fives and Threes league: 3 for a win, 1 for a loss by one leg (5-4).
    _scheme(
        "solihull",
        gettext_lazy("Solihull: 3 for a win, 1 for a loss by one leg"),
        3,
        1,
        0,
        close_margin=1,
        close_points=1,
    ),
    # Leek's: 2 for the match, and 1 for each game (leg) won.
    _scheme(
        "leek",
        gettext_lazy("Leek: 2 for the match, 1 for each leg won"),
        2,
        1,
        0,
        leg_points=1,
    ),
    _scheme(
        "legs", gettext_lazy("1 for each leg won, nothing for the match"), 0, 0, 0, leg_points=1
    ),
)
SCHEME_BY_SLUG = {scheme.slug: scheme for scheme in SCHEMES}
DEFAULT = SCHEMES[0].points


def scheme_choices() -> list[tuple[str, Any]]:
    """The schemes as a form's choices, "custom" (the numbers as given) last."""
    return [(scheme.slug, scheme.name) for scheme in SCHEMES] + [
        (CUSTOM, gettext_lazy("custom: the points below"))
    ]


def scheme_of(numbers: Any) -> str:
    """Return the slug of the preset a league's (or a dict's) numbers are, else "custom"."""
    get = numbers.get if isinstance(numbers, dict) else lambda key: getattr(numbers, key)
    values = {key: get(key) for key in POINT_FIELDS}
    for scheme in SCHEMES:
        if scheme.points == values:
            return scheme.slug
    return CUSTOM


def points_checked(points: dict[str, int]) -> dict[str, int]:
    """Return the six numbers of ``points`` (each given, else the default scheme's), or
    refuse them: each from 0 to 100 (the margin to 12), a win at least a draw, a draw at
    least a loss, a close loss (where there is one) between a loss and a win."""
    points = {key: int(points.get(key, DEFAULT[key])) for key in POINT_FIELDS}
    win, draw, loss = points["win_points"], points["draw_points"], points["loss_points"]
    if (
        any(not 0 <= points[key] <= MOST_POINTS for key in POINT_FIELDS)
        or points["close_margin"] > MOST_MARGIN
        or not win >= draw >= loss
        or (points["close_margin"] and not loss <= points["close_points"] <= win)
    ):
        raise ClubRefusal(
            _(
                "Points are from 0 to 100 (a close loss's margin up to 12 legs), a win at "
                "least a draw, a draw at least a loss, and a close loss between a loss and "
                "a win."
            ),
            "league-invalid",
        )
    return points


def fixture_points(league: Any, mine: int, theirs: int, *, conceded: bool = False) -> int:
    """Return a team's points for a fixture it won ``mine`` legs of and the other side
    ``theirs`` (``conceded``: this team conceded it, and gets none)."""
    if conceded:
        return 0
    if mine > theirs:
        points = league.win_points
    elif mine == theirs:
        points = league.draw_points
    elif league.close_margin and theirs - mine <= league.close_margin:
        points = league.close_points
    else:
        points = league.loss_points
    return points + league.leg_points * mine


def scheme_words(league: Any) -> str:
    """The league's scoring in one sentence, for its page."""
    slug = scheme_of(league)
    words = [
        _("%(win)s for a win, %(draw)s for a draw, %(loss)s for a loss")
        % {"win": league.win_points, "draw": league.draw_points, "loss": league.loss_points}
    ]
    if league.close_margin:
        words.append(
            _("%(points)s for a loss by %(margin)s legs or fewer")
            % {"points": league.close_points, "margin": league.close_margin}
        )
    if league.leg_points:
        words.append(_("%(points)s for each leg won") % {"points": league.leg_points})
    sentence = "; ".join(words)
    if slug != CUSTOM:
        return _("Points (%(scheme)s): %(points)s.") % {
            "scheme": SCHEME_BY_SLUG[slug].name,
            "points": sentence,
        }
    return _("Points: %(points)s.") % {"points": sentence}
