"""The analysis board (issue 60, item 1): ``/analyse/``, a position set up by taps or opened
from a match's play (``?match=&hand=&move=``, numbered from 1 as ``games.numbering``) or from
a document (``?position=`` a fives/1 position's JSON in base64url), every legal play valued in
the browser by the recorder's engine worker (Pyodide: ``engine-worker.js``, ``analyse.js``),
so that the server spends nothing on it. It lives with the recorder's in-browser engine; a
match's position is the one its seat saw (``fives_engine.position.position_document``), of a
match the reader may see (the replay's privacy: else 404)."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET

from fives_engine import equity
from fives_engine.log import parse_log
from fives_engine.position import position_document
from fives_engine.practice import PositionUnknown
from fives_engine.rules import PRESETS
from games.models import Match
from games.numbering import index_of
from games.services.matches import match_log

from . import services
from .views import RECORDER_CSP, _engine_worker_url

# The largest ?position= read (a document of a whole hand is about 2 kB).
MAX_POSITION = 16_000


def _number(text: str | None) -> int | None:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 6:
        return None
    return index_of(int(text))


def _from_match(request: HttpRequest) -> tuple[dict[str, Any] | None, str | None]:
    """The position of ``?match=&hand=&move=``, or why there is none (a refusal's code)."""
    pk, hand, move = (request.GET.get(name) for name in ("match", "hand", "move"))
    if pk is None or not pk.isascii() or not pk.isdigit() or len(pk) > 12:
        raise Http404
    match = get_object_or_404(Match.objects.visible_to(request.user).with_log(), pk=int(pk))
    h, m = _number(hand), _number(move)
    if h is None or m is None:
        return None, "no-position"
    try:
        return position_document(parse_log(match_log(match=match)), h, m), None
    except PositionUnknown:
        return None, "no-position"


def _from_text(text: str) -> tuple[Any, str | None]:
    """The document of ``?position=`` (base64url of its JSON), or the code ``unreadable``."""
    if len(text) > MAX_POSITION:
        return None, "unreadable"
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        return json.loads(data.decode("utf-8")), None
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        return None, "unreadable"


@require_GET
@csp_override(RECORDER_CSP)
def board(request: HttpRequest) -> HttpResponse:
    position: Any = None
    refused: str | None = None
    opened_from: dict[str, Any] | None = None
    if "match" in request.GET:
        position, refused = _from_match(request)
        opened_from = {
            "match": request.GET["match"],
            # A plain path: the replay is the replays' page, which the recorder does not use.
            "replay": f"/matches/{int(request.GET['match'])}/",
        }
    elif "position" in request.GET:
        position, refused = _from_text(request.GET["position"])
    download = services.pyodide_download(request.headers.get("Accept-Encoding", ""))
    pyodide = static(download["files"][0]["name"]).rsplit("/", 1)[0] + "/"
    config = {
        "pyodide": pyodide,
        "stdlib": pyodide + "python_stdlib.zip",
        "engine": reverse("recorder:engine") + "?v=" + services.engine_archive()[1],
        "engine_worker": _engine_worker_url(),
        "catalogue": services.engine_catalogue(),
        "equity": reverse("recorder:board-equity", args=["NAME"]),
        "position": position,
        "refused": refused,
        "opened_from": opened_from,
        "presets": list(PRESETS),
    }
    return render(
        request,
        "recorder/board.html",
        {
            "config": config,
            "presets": [(name, _(preset.title)) for name, preset in PRESETS.items()],
        },
    )


@require_GET
def board_equity(request: HttpRequest, name: str) -> HttpResponse:
    """The match-equity samples the board's chances read (``fives_engine/equity``), fetched
    once by the worker for the position's ruleset."""
    path = equity.DATA / f"{name}.json"
    if name not in {file.stem for file in equity.DATA.glob("*.json")}:
        raise Http404
    response = FileResponse(path.open("rb"), content_type="application/json")
    response["Cache-Control"] = "public, max-age=86400"
    return response
