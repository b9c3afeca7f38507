"""The recorder's pages: thin views over ``services``."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.csp import CSP
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_POST

from games.ratelimit import budget_spend, uploads_wait_message

from . import live, services, texts
from .live_texts import too_often

# Pyodide compiles the engine's WebAssembly: the recorder's page alone allows that, and
# nothing more ('wasm-unsafe-eval' lets WebAssembly compile; JavaScript eval stays refused).
RECORDER_CSP = settings.SECURE_CSP | {
    "script-src": [*settings.SECURE_CSP["script-src"], CSP.WASM_UNSAFE_EVAL]
}


def _assets() -> list[str]:
    """The recorder's own files, which the service worker keeps at its install: its static
    files and the engine's worker."""
    names = [name for name in services.OWN_ASSETS if name != services.ENGINE_WORKER]
    return [static(name) for name in names] + [_engine_worker_url()]


def _engine_worker_url() -> str:
    """The engine's worker, by its version (the service worker keeps it under this name)."""
    return reverse("recorder:engine-worker") + "?v=" + services.offline_version()


def _megabytes(size: int) -> str:
    """A size in megabytes as the page's language writes a number ("3.5", "3,5")."""
    return number_format(round(size / 1_000_000, 1), 1)


@login_required
@csp_override(RECORDER_CSP)
def record(request: HttpRequest) -> HttpResponse:
    setup = services.recorder_setup(request.user)
    download = services.pyodide_download(request.headers.get("Accept-Encoding", ""))
    pyodide = static(download["files"][0]["name"]).rsplit("/", 1)[0] + "/"
    config = {
        **setup,
        "user": request.user.get_username(),
        "pyodide": pyodide,
        "stdlib": pyodide + "python_stdlib.zip",
        # What the page fetches before the engine runs, by the size its reader counts.
        "download": [
            {"url": static(file["name"]), "size": file["size"]} for file in download["files"]
        ],
        "engine_size": download["engine_size"],
        "download_wire": download["wire"],
        "download_mb": _megabytes(download["wire"]),
        "engine": reverse("recorder:engine") + "?v=" + services.engine_archive()[1],
        "send": reverse("recorder:send"),
        "engine_worker": _engine_worker_url(),
        "live": reverse("recorder:live-steps"),
        "live_abandon": reverse("recorder:live-abandon"),
        "worker": reverse("recorder:service-worker"),
        "scope": reverse("recorder:record"),
        "catalogue": services.engine_catalogue(),
        "titles": services.error_titles(),
    }
    return render(
        request,
        "recorder/record.html",
        {
            "config": config,
            "recorder_text": texts.recorder_text(),
            "clubs": setup["clubs"],
            "targets": services.TARGETS,
            "download_mb": config["download_mb"],
        },
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: keeps the page, its scripts, Pyodide and the engine for the
    table without a network. Served under /record/ so that its scope is the recorder."""
    settings_json = json.dumps(
        {
            "version": services.offline_version(),
            "page": reverse("recorder:record"),
            "engine": reverse("recorder:engine") + "?v=" + services.engine_archive()[1],
            "assets": _assets(),
            # Pyodide's directory, named by its content: its files are kept as the page
            # fetches them, in a cache of their own that outlives the recorder's versions.
            "pyodide": static(services.pyodide_name() + "pyodide.mjs").rsplit("/", 1)[0] + "/",
        }
    )
    main = json.dumps(static("recorder/sw-main.js"))
    body = f"const FIVES = {settings_json};\nimportScripts({main});\n"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = reverse("recorder:record")
    return response


@require_GET
@csp_override(RECORDER_CSP)
def engine_worker(request: HttpRequest) -> HttpResponse:
    """The engine's worker script (``recorder/engine-worker.js``), served under /record/
    with the recorder's Content-Security-Policy: a worker runs under the policy its own
    script came with, and Pyodide compiles WebAssembly there (a static file's policy is the
    site's, which refuses that)."""
    response = HttpResponse(
        services.engine_worker_source(), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"  # the service worker keeps it, by its version
    return response


@require_GET
def engine_zip(request: HttpRequest) -> HttpResponse:
    """The engine for the phone: ``fives_engine`` and ``recorder.table`` as one zip."""
    data, version = services.engine_archive()
    response = HttpResponse(data, content_type="application/zip")
    response["ETag"] = f'"{version}"'
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_POST
def send(request: HttpRequest) -> JsonResponse:
    """Store a finished record (``{"club": slug, "log": text}``) as an upload; the same
    text sent again answers the same upload. A send spends the upload budget, as the API's
    uploads and the form's do: past it, 429 with ``Retry-After`` and nothing stored (the
    phone keeps the match and sends it again then)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": _("Sign in to save the match.")}, status=401)
    spent = budget_spend(request, "upload")
    if spent is not None and not spent.allowed:
        return too_often(uploads_wait_message(spent.retry_after), spent.retry_after)
    try:
        body = json.loads(request.body)
        club, text = str(body["club"]), str(body["log"])
        recorded_by = body.get("user")
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        # Kept all the same, as the API keeps what it is sent: a rejected upload saying why.
        upload = services.record_unread(user=request.user, data=request.body)
        return _refused(_("The record could not be read."), upload, status=400)
    if recorded_by is not None and str(recorded_by) != request.user.get_username():
        # Recorded under one account, the page still open while another signed in: the
        # match waits in the phone for its own account, never goes up as someone else's.
        return JsonResponse(
            {
                "error": _("This match was recorded by %(user)s: sign in as %(user)s to send it.")
                % {"user": str(recorded_by)[:150]}
            },
            status=409,
        )
    try:
        upload = live.live_send(
            user=request.user,
            doc=_record(text),
            send=lambda: services.record_send(user=request.user, club_slug=club, text=text),
        )
    except services.SendRefused as refused:
        return _refused(_("You are not a member of this club."), refused.upload, status=403)
    upload.refresh_from_db()
    items = list(upload.items.select_related("match").order_by("index"))
    return JsonResponse(
        {
            "upload": upload.pk,
            "status": upload.status,
            "url": upload.get_absolute_url(),
            "matches": [item.match.get_absolute_url() for item in items if item.match],
            "match_ids": [item.match_id for item in items if item.match_id],
        },
        status=201,
    )


def _record(text: str) -> dict | None:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # the engine says why, in the upload's report
        return None
    return doc if isinstance(doc, dict) else None


def _refused(message: str, upload, *, status: int) -> JsonResponse:
    """A send the archive refused, with the upload that keeps what was sent."""
    return JsonResponse(
        {"error": message, "upload": upload.pk, "url": upload.get_absolute_url()}, status=status
    )
