"""Settings from environment variables, with safe defaults for one machine.

DATABASE_URL   PostgreSQL in production (default: SQLite in db.sqlite3)
DATABASE_REPLICA_URL  a streaming replica of DATABASE_URL's PostgreSQL: pages and API answers
                      that only read are read from it (fivesite/db_router.py; default: none)
FIVES_REPLICA_PIN_SECONDS  how long a person's reads stay on the primary after their own
                           write (default 15)
FIVES_REPLICA_CONNECT_TIMEOUT  seconds to wait for the replica before reading the primary
                               (default 2)
REDIS_URL      the Celery broker (default: none, tasks run in-process)
FIVES_DATABASE_POOL  a pool of this many PostgreSQL connections (the event streams' server)
FIVES_LIVE_STREAMS   "0": the live pages ask again every two seconds instead of following
                     the event streams (default: follow them where REDIS_URL is set)
FIVES_BROKER_SOCKET_TIMEOUT  seconds before a broker that does not answer is given up on
                             (default 5; an upload then waits pending for the sweep)
SECRET_KEY     required when DEBUG is off (the archive refuses to start without it)
DEBUG          "1" for development (default off)
FIVES_HTTPS    "0" to serve plain HTTP with DEBUG off (default: HTTPS only, HSTS, secure cookies)
FIVES_TRUSTED_PROXIES  how many proxies in front may be believed (X-Forwarded-For/-Proto)
FIVES_ANALYSES_PER_DAY       the analyses one person may ask for in a day (default 20)
FIVES_CLUB_ANALYSES_PER_DAY  the analyses a club's "analyse every match" asks for in a day
                             (default 50); past it the club's new matches wait for a person
ALLOWED_HOSTS  comma-separated (default: localhost names)
EMAIL_URL      the SMTP server the emails go through, e.g. smtp://user:password@host:587
               (587: STARTTLS; smtps://...:465: TLS from the start; default: with DEBUG the
               console, else this machine's SMTP server, localhost:25)
FIVES_EMAIL_FROM  the emails' sender (default: Fives archive <noreply@localhost>)
FIVES_SITE_URL    the archive's address, for the links in emails and webhooks (default
               http://127.0.0.1:8000)
FIVES_WEBHOOKS_ALLOW_PRIVATE  "1": webhooks may go to loopback, private and reserved addresses
"""

import os
import warnings
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from kombu import Queue

from fivesite import links

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in ("1", "true", "yes", "on")


DEBUG = env_flag("DEBUG")
# A development key only with DEBUG on: without DEBUG the archive refuses to start unkeyed.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set SECRET_KEY (long and random) when DEBUG is off, or DEBUG=1 to develop."
        )
    SECRET_KEY = "insecure-development-key-for-DEBUG-only"
# Django's own measure of a weak key (check --deploy warns; the archive refuses): short, few
# distinct characters, or the prefix of the key startproject writes.
elif not DEBUG and (
    len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-")
):
    raise ImproperlyConfigured(
        "SECRET_KEY is weak: use at least 50 random characters, for example "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    # The apps fill the hooks (clubs.hooks) in their ready(), in this order: clubs, the
    # lowest, first, so that its audit actions lead the trail's list.
    "clubs",
    "games",
    "replays",
    "competitions",
    "recorder",
    "webhooks",
    # The API fills webhooks' payloads (an event's data: its answer's fields).
    "api",
]

MIDDLEWARE = [
    # Outermost: no answer goes out with the request's body unread (why: its docstring).
    "fivesite.bodies.UnreadBodyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Pages and API answers gzipped (not static files); why pages may be: its docstring.
    "fivesite.compression.SiteGZipMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "fivesite.nul.RefuseNulMiddleware",  # 400 for a NUL in the address (PostgreSQL refuses it)
    # A chunked body read to its end (bounded), before any view reads the body.
    "fivesite.bodies.ChunkedBodyMiddleware",
    "clubs.zones.ReaderTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Every write through its door: its budget and its body's boundary (fivesite/doors.py).
    "fivesite.doors.DoorMiddleware",
    # The language of a signed-in person's pages, kept for their emails (one write a change).
    "competitions.middleware.RememberLanguageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "api.common.RateLimitHeadersMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "fivesite.urls"
WSGI_APPLICATION = "fivesite.wsgi.application"

# Each model's address is the page that shows it, which sits above the model (fivesite/links.py).
ABSOLUTE_URL_OVERRIDES = {
    "clubs.club": links.club_url,
    "clubs.invitation": links.invitation_url,
    "games.player": links.player_url,
    "games.match": links.match_url,
}

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                # The menu's inbox badge: how many things wait on the signed-in person.
                "competitions.inbox.inbox_badge",
            ],
        },
    },
]


def _no_jit(options: dict) -> None:
    """Add ``-c jit=off`` to a PostgreSQL connection's options (after any the URL gave)."""
    options["options"] = " ".join(filter(None, [options.get("options"), "-c jit=off"]))


DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        # A connection kept from before the database restarted is checked before a request
        # uses it: without, each web thread's first request after an outage answered 503.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer (a host gone, a port that takes connections and says
    # nothing) is given up on after these seconds and answered 503, rather than holding a
    # thread for the two minutes of TCP's own retries.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = int(
        os.environ.get("FIVES_DATABASE_CONNECT_TIMEOUT", 5)
    )
    # No JIT compilation of queries: the pages' queries read a few index entries each, but
    # past about a million matches the planner's estimate of a ranking's correlated
    # subqueries crosses jit_above_cost, and compiling took 22 ms of a query that ran in 1
    # (bench.scale: the club ranking 1.8 times its time at 10,000 matches, 1.0 without).
    _no_jit(DATABASES["default"]["OPTIONS"])
    if os.environ.get("FIVES_DATABASE_POOL"):
        # The event streams' ASGI server (docs/deploy.md): each open stream is a request
        # whose sync code has a thread of its own, and hundreds of streams opening at once
        # would each open a connection, past what PostgreSQL allows. A pool of this many
        # connections is shared instead (a thread waits its turn); Django's pool takes no
        # persistent connections.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1,
            "max_size": int(os.environ["FIVES_DATABASE_POOL"]),
            "timeout": 20,
        }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (the dev server, in-process tasks) write to one file: wait, don't fail.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
# A streaming replica (docs/deploy.md, "Past one machine"): reads of GET and HEAD requests go
# to it, everything else to the primary (the rules: fivesite/db_router.py).
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(
        DATABASE_REPLICA_URL, conn_max_age=60, conn_health_checks=True
    )
    # A replica that does not answer is given up on quickly: its reads go to the primary.
    DATABASES["replica"].setdefault("OPTIONS", {})["connect_timeout"] = int(
        os.environ.get("FIVES_REPLICA_CONNECT_TIMEOUT", 2)
    )
    _no_jit(DATABASES["replica"]["OPTIONS"])
    # The tests' replica is the test database itself (pytest-django makes no second one).
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["fivesite.db_router.ReplicaRouter"]
    # Says which requests may read the replica, before the session and the user are read
    # (they are reads like any other), and sets the pinning cookie.
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware"),
        "fivesite.db_router.ReplicaReadsMiddleware",
    )
# After a person's own write (or on their pending upload's status page) their browser reads
# the primary for this many seconds (a signed cookie). Longer than the replica lag we would
# tolerate before calling the replica broken (a healthy one is under a second behind): 15 s
# covers the write's commit, the redirect and the next pages, and a replica lagging past it
# has bigger problems than one person's page (watch pg_stat_replication's replay_lag).
FIVES_REPLICA_PIN_SECONDS = int(os.environ.get("FIVES_REPLICA_PIN_SECONDS", 15))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a name locked out at this address first
    "games.signin.AddressLimitBackend",  # then an address past its wrong passwords
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:match-list"
LOGOUT_REDIRECT_URL = "games:match-list"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian")), ("ka", _("Georgian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates year first, as the times beside them (fivesite/formats/en/formats.py).
FORMAT_MODULE_PATH = ["fivesite.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The recorder's Pyodide: node_modules/pyodide (`npm ci`) with a standard library of its own,
# built by scripts/build_pyodide.py (`make venv`) into build/pyodide/<content hash>/.
PYODIDE_BUILD = BASE_DIR / "build" / "pyodide"
if PYODIDE_BUILD.is_dir():
    STATICFILES_DIRS.append(("recorder/pyodide", PYODIDE_BUILD))
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# Production (DEBUG off): `manage.py collectstatic` writes every file under a name with its
# content's hash, with brotli and gzip copies; WhiteNoise serves them from STATIC_ROOT alone,
# compressed as the browser accepts, cached a year (fivesite/staticfiles.py).
# From the sources (FIVES_STATIC_SOURCES=1, the default with DEBUG=1: `make run`; the tests
# set it in tests/environment.py): the apps' files as they are, found by the finders,
# uncompressed, no collectstatic needed. tests/test_gunicorn.py and bench/ serve the
# production way, after collectstatic.
FIVES_STATIC_SOURCES = env_flag("FIVES_STATIC_SOURCES", DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if FIVES_STATIC_SOURCES
        else "fivesite.staticfiles.StaticFilesStorage"
    },
}
# The directory exists only after collectstatic (production); say nothing before.
warnings.filterwarnings("ignore", message="No directory at")
WHITENOISE_USE_FINDERS = FIVES_STATIC_SOURCES
WHITENOISE_AUTOREFRESH = DEBUG
# Cached a year: a name with Django's hash ("site.3f2a9c01b7de.css") or under Pyodide's
# content-named directory (Pyodide asks for its files by their own names).
WHITENOISE_IMMUTABLE_FILE_TEST = r"\.[0-9a-f]{12}\.[^./]+$|/recorder/pyodide/[0-9a-f]{16}/[^/]+$"

# --- security -------------------------------------------------------------------------------
# Proxies in front of the archive whose X-Forwarded-For (the client's address, for throttles
# and sign-in lock-out) and X-Forwarded-Proto are believed; 0: none, REMOTE_ADDR is the client.
FIVES_TRUSTED_PROXIES = int(os.environ.get("FIVES_TRUSTED_PROXIES", 0))
if FIVES_TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# HTTPS only when DEBUG is off: redirect, HSTS, secure cookies. FIVES_HTTPS=0 serves plain
# HTTP; FIVES_SSL_REDIRECT=0 leaves the redirect to a TLS-terminating proxy in front.
FIVES_HTTPS = env_flag("FIVES_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = env_flag("FIVES_SSL_REDIRECT", FIVES_HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("FIVES_HSTS_SECONDS", 31536000)) if FIVES_HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("FIVES_HSTS_SUBDOMAINS", FIVES_HTTPS)
SECURE_HSTS_PRELOAD = env_flag("FIVES_HSTS_PRELOAD", FIVES_HTTPS)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = FIVES_HTTPS
# Scripts and styles from the archive itself only (and inline ones carrying the nonce).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    # No other site may frame a page of the archive (clickjacking), but the embed of a replay
    # (replays.views.embed: any page may frame it, or the FIVES_EMBED_FRAME_ANCESTORS given).
    "frame-ancestors": [CSP.NONE],
}
FIVES_EMBED_FRAME_ANCESTORS = os.environ.get("FIVES_EMBED_FRAME_ANCESTORS", "").split()
# Sign-in (the site's and the admin's): after FIVES_SIGNIN_FAILURES wrong passwords for one
# account from one address, that pair is refused for FIVES_SIGNIN_LOCKOUT_MINUTES. The pair,
# not the name alone: counting the name alone let anyone lock anyone out from everywhere.
# One address trying many names meets the slower per-address limit of games.signin.
AXES_FAILURE_LIMIT = int(os.environ.get("FIVES_SIGNIN_FAILURES", 5))
AXES_COOLOFF_TIME = float(os.environ.get("FIVES_SIGNIN_LOCKOUT_MINUTES", 15)) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Wrong passwords from one address, whatever the names, before it is refused for an hour.
FIVES_SIGNIN_ADDRESS_FAILURES = os.environ.get("FIVES_SIGNIN_ADDRESS_FAILURES", "30/h")
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "games.clients.client_address"
AXES_LOCKOUT_CALLABLE = "games.views.signin_locked_out"
AXES_USERNAME_CALLABLE = "games.signin.signin_name"  # cut to a name's longest (why: there)
# Sign-up (/accounts/signup/): at most this many tries from one address (a fixed window).
FIVES_SIGNUP_RATE = os.environ.get("FIVES_SIGNUP_RATE", "10/h")

# --- uploads --------------------------------------------------------------------------------
# The largest document an upload may send, and the most matches one NDJSON file may hold.
FIVES_UPLOAD_MAX_BYTES = int(os.environ.get("FIVES_UPLOAD_MAX_BYTES", 20 * 1024 * 1024))
FIVES_UPLOAD_MAX_MATCHES = int(os.environ.get("FIVES_UPLOAD_MAX_MATCHES", 10_000))
# Lines of an NDJSON upload stored per transaction.
FIVES_INGEST_BATCH = int(os.environ.get("FIVES_INGEST_BATCH", 200))
DATA_UPLOAD_MAX_MEMORY_SIZE = FIVES_UPLOAD_MAX_BYTES + 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# --- Celery ---------------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
# The live pages follow the event streams (an ASGI server's, fed from Redis: docs/deploy.md).
FIVES_LIVE_STREAMS = os.environ.get("FIVES_LIVE_STREAMS", "1" if REDIS_URL else "0") == "1"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a killed worker's task is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
# How long a task taken by a worker that died stays hidden before another worker gets it.
# Processing is idempotent, so a short timeout costs at most some repeated work: a lost task
# comes back in minutes, not hours. Workers look for such tasks about every interval x
# throttle seconds (Redis transport).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("FIVES_BROKER_VISIBILITY_TIMEOUT", 300)),
    "unacked_restore_interval": int(os.environ.get("FIVES_BROKER_RESTORE_INTERVAL", 10)),
    "unacked_restore_throttle": int(os.environ.get("FIVES_BROKER_RESTORE_THROTTLE", 10)),
    # A broker that takes connections and never answers must not hold a web thread: an
    # upload's hand-over gives up (the upload kept pending, sent again by the sweep) where it
    # waited for good. Longer than the workers' one-second BRPOP, which they wait on it.
    "socket_timeout": float(os.environ.get("FIVES_BROKER_SOCKET_TIMEOUT", 5)),
    "socket_connect_timeout": float(os.environ.get("FIVES_BROKER_SOCKET_TIMEOUT", 5)),
}
# Uploads, statistics, ratings and analyses on queues of their own, so a backlog of reviews
# never holds up an upload; a worker started without -Q serves them all. The expected-value
# analyses (issue 26) cost far more than validation: a queue of their own (give it its own
# worker when the archive is busy), each task sent at the lowest priority (9: Redis serves
# a queue's lower numbers first). A request sends no analysis in particular but a prompt to
# run the next one in turn (analysis_next_task: each asker's first before anyone's second,
# replays.analysis.analysis_claim), so one person's flood never holds anyone else back.
CELERY_TASK_QUEUES = [
    Queue("uploads"),
    Queue("stats"),
    Queue("ratings"),
    Queue("analysis"),
    Queue("notices"),  # the emails of what waits on a person (competitions.tasks)
    Queue("webhooks"),  # the deliveries to clubs' endpoints (webhooks.tasks)
]
CELERY_TASK_DEFAULT_QUEUE = "uploads"
CELERY_TASK_ROUTES = {
    "games.*": {"queue": "uploads"},
    "replays.tasks.matches_review_task": {"queue": "stats"},
    "replays.periodic.*": {"queue": "stats"},
    "replays.tasks.matches_forget_task": {"queue": "ratings"},
    "replays.tasks.ratings_recompute_task": {"queue": "ratings"},
    "replays.tasks.analyses_follow_task": {"queue": "stats"},
    "replays.tasks.replays_store_task": {"queue": "stats"},
    "replays.tasks.analysis_next_task": {"queue": "analysis", "priority": 9},
    "replays.tasks.match_analyse_task": {"queue": "analysis", "priority": 9},
    "competitions.tasks.*": {"queue": "notices"},
    "webhooks.tasks.*": {"queue": "webhooks"},
}
# Recovery of uploads without the broker's help (games.services.uploads.uploads_requeue_stale):
# a run holds its upload for FIVES_LEASE_SECONDS, renewed with each batch; every
# FIVES_SWEEP_EVERY seconds the sweep hands over again the uploads whose lease ran out and
# those not started FIVES_HANDOVER_AFTER seconds after their hand-over (a broker that came
# back empty). Worst case, a lost upload is sent again lease (or hand-over) + sweep = 90 s
# after it was lost.
FIVES_LEASE_SECONDS = int(os.environ.get("FIVES_LEASE_SECONDS", 60))
FIVES_HANDOVER_AFTER = int(os.environ.get("FIVES_HANDOVER_AFTER", 60))
FIVES_SWEEP_EVERY = float(os.environ.get("FIVES_SWEEP_EVERY", 30))
# The expected-value analysis of a match (replays/analysis.py): how many one person may ask
# for in a day (a match already analysed with the current version costs nothing), how many a
# club's own setting "analyse every match" asks for in a day (past it the club's new matches
# are not analysed automatically until the day's oldest leaves the count; a person may still
# ask for them), the samples of unseen tiles per play, and how long an analysis may go without
# a sign of life before it counts as stuck (its worker died, its prompt was lost) and is
# handed back to the queue.
FIVES_ANALYSES_PER_DAY = int(os.environ.get("FIVES_ANALYSES_PER_DAY", 20))
FIVES_CLUB_ANALYSES_PER_DAY = int(os.environ.get("FIVES_CLUB_ANALYSES_PER_DAY", 50))
FIVES_ANALYSIS_SAMPLES = int(os.environ.get("FIVES_ANALYSIS_SAMPLES", 0)) or None
FIVES_ANALYSIS_STUCK_AFTER = int(os.environ.get("FIVES_ANALYSIS_STUCK_AFTER", 300))
# Matches whose review is older than this without figures were lost: the catch-up sends them.
FIVES_REQUEUE_AFTER = int(os.environ.get("FIVES_REQUEUE_AFTER", 600))
FIVES_PERIODIC_EVERY = float(os.environ.get("FIVES_PERIODIC_EVERY", 60))
CELERY_BEAT_SCHEDULE = {
    "uploads-requeue-stale": {
        "task": "games.periodic.uploads_requeue_task",
        "schedule": FIVES_SWEEP_EVERY,
    },
    "statistics-catch-up": {
        "task": "replays.periodic.statistics_catch_up_task",
        "schedule": FIVES_PERIODIC_EVERY,
    },
    "analyses-requeue-stuck": {
        "task": "replays.periodic.analyses_requeue_task",
        "schedule": FIVES_PERIODIC_EVERY,
    },
    "analyses-earlier": {
        "task": "replays.periodic.analyses_earlier_task",
        "schedule": FIVES_PERIODIC_EVERY,
    },
}
# The open data (replays/open_data.py, docs/api.md "Open data"): each month's public matches
# as fives/1 NDJSON (zstd) and their seat results as Parquet, written under FIVES_DATA_ROOT
# and served from FIVES_DATA_URL by nginx (deploy/nginx.py --data-root), by Django only with
# DEBUG. The job looks every FIVES_DATA_EVERY seconds: last month's files once it is over (on
# the 1st), and a month's files again when its public matches changed.
FIVES_DATA_ROOT = Path(os.environ.get("FIVES_DATA_ROOT") or BASE_DIR / "var" / "data")
FIVES_DATA_URL = os.environ.get("FIVES_DATA_URL", "/data/files/")
FIVES_DATA_EVERY = float(os.environ.get("FIVES_DATA_EVERY", 3600))
# The processes that read a month's matches at once (on PostgreSQL; SQLite: one).
FIVES_DATA_JOBS = int(os.environ.get("FIVES_DATA_JOBS", 2))
CELERY_BEAT_SCHEDULE["open-data"] = {
    "task": "replays.periodic.open_data_task",
    "schedule": FIVES_DATA_EVERY,
}
# Puzzles (replays/puzzles.py): the analyses of public clubs' matches done since the last look,
# every FIVES_PUZZLES_EVERY seconds, at most 200 matches a run.
FIVES_PUZZLES_EVERY = float(os.environ.get("FIVES_PUZZLES_EVERY", 3600))
CELERY_BEAT_SCHEDULE["puzzles-make"] = {
    "task": "replays.periodic.puzzles_make_task",
    "schedule": FIVES_PUZZLES_EVERY,
}
# The jobs are intervals: nothing to remember across restarts, so beat keeps its schedule in
# memory (its default file store can break on a restart and stop every periodic job).
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"
# Without a broker (tasks in-process) the web process runs the beat's jobs itself.
FIVES_INPROCESS_BEAT = CELERY_TASK_ALWAYS_EAGER and os.environ.get("FIVES_INPROCESS_BEAT") != "0"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- email (issue 36: what waits on a person) ------------------------------------------------
# EMAIL_URL, as DATABASE_URL is: smtp://user:password@host:port (port 587 or ?tls=1: STARTTLS;
# smtps://, or ?ssl=1: TLS from the start), Django's default mailer; without it, the console
# with DEBUG (make run prints every email), else this machine's own SMTP server (port 25,
# Django's default: a development-only backend fails `check --deploy`). Django's test
# runner keeps the emails in memory (its locmem mailer) unless a test says otherwise.
EMAIL_URL = os.environ.get("EMAIL_URL", "")


def mailer(url: str, debug: bool = False) -> dict:
    """Return Django's default mailer (``MAILERS``) for ``url``; without one, the console
    with ``debug``, else Django's own default, the SMTP server of this machine (port 25)."""
    if not url:
        url = "" if debug else "smtp://localhost:25"
    if not url:
        return {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured("EMAIL_URL is smtp://user:password@host:port (or smtps://).")
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    ssl = parts.scheme == "smtps" or query.get("ssl") == "1"
    return {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": parts.hostname or "localhost",
            "port": parts.port or (465 if ssl else 25),
            "username": unquote(parts.username or ""),
            "password": unquote(parts.password or ""),
            "use_ssl": ssl,
            "use_tls": not ssl and (parts.port == 587 or query.get("tls") == "1"),
            "timeout": 20,
        },
    }


MAILERS = {"default": mailer(EMAIL_URL, DEBUG)}
DEFAULT_FROM_EMAIL = os.environ.get("FIVES_EMAIL_FROM", "Fives archive <noreply@localhost>")
FIVES_SITE_URL = os.environ.get("FIVES_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The reminder of tomorrow's fixtures is looked for this often (it is sent once a fixture).
FIVES_REMINDERS_EVERY = float(os.environ.get("FIVES_REMINDERS_EVERY", 900))
CELERY_BEAT_SCHEDULE["fixture-reminders"] = {
    "task": "competitions.tasks.fixture_reminders_task",
    "schedule": FIVES_REMINDERS_EVERY,
}
# An email taken by a worker that died before sending it is sent again after this many
# seconds (competitions.inbox.notices_retry_stale, looked for every FIVES_PERIODIC_EVERY).
FIVES_NOTICES_STALE_AFTER = int(os.environ.get("FIVES_NOTICES_STALE_AFTER", 600))
CELERY_BEAT_SCHEDULE["notices-retry-stale"] = {
    "task": "competitions.tasks.notices_retry_task",
    "schedule": FIVES_PERIODIC_EVERY,
}
# At most this many emails an hour reach one person, of every kind together; what comes
# after waits and goes as one digest once the hour allows (competitions.inbox, looked for
# every FIVES_PERIODIC_EVERY).
FIVES_EMAILS_PER_HOUR = int(os.environ.get("FIVES_EMAILS_PER_HOUR", 3))
CELERY_BEAT_SCHEDULE["notices-digest"] = {
    "task": "competitions.tasks.notices_digest_task",
    "schedule": FIVES_PERIODIC_EVERY,
}

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.common.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["api.common.ClientThrottle", "fivesite.doors.DoorThrottle"],
    # Every JSON body through the one boundary (clubs.inputs), read once.
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Requests per client (the signed-in user across all their tokens, else the address) and
    # per scope of endpoint (read where a view names none); atomic counters in the cache.
    "DEFAULT_THROTTLE_RATES": {
        "read": os.environ.get("FIVES_THROTTLE_READ", "1200/min"),
        "upload": os.environ.get("FIVES_THROTTLE_UPLOAD", "60/min"),
        "export": os.environ.get("FIVES_THROTTLE_EXPORT", "30/min"),
        # The budgets of the writes, by kind (fivesite/doors.py; docs/api.md, "Budgets"):
        # limits a club night never meets and a script always does.
        **{
            kind: os.environ.get(f"FIVES_BUDGET_{kind.upper().replace('-', '_')}", rate)
            for kind, rate in {
                "create": "30/h",
                "manage": "600/h",
                "notify": "30/h",
                "session": "300/h",
                "practice": "60/min",
                "board": "120/h",
                "live-step": "600/min",
                "live-table": "20/h",
                "feed": "60/h",
            }.items()
        },
        "signup": FIVES_SIGNUP_RATE,
    },
}
# The one input boundary of JSON bodies (clubs.inputs): how deep arrays and objects may nest
# (a live set-up, the deepest body taken, has five levels) and how large a body may be (a
# live match's 5,000 steps of at most 600 bytes fit in 3 MiB). A match log is not read there.
FIVES_JSON_MAX_DEPTH = int(os.environ.get("FIVES_JSON_MAX_DEPTH", 32))
FIVES_JSON_MAX_BYTES = int(os.environ.get("FIVES_JSON_MAX_BYTES", 4 * 1024 * 1024))
# Throttle counts live in the cache: Redis where there is one, shared by every process.
# CACHE_URL puts the cache on a Redis of its own (with a memory limit and eviction), apart
# from the broker's, which must keep every message; without it the broker's Redis serves.
CACHE_URL = os.environ.get("CACHE_URL", "") or REDIS_URL
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            # An unreachable cache must fail fast: pages then answer from the database.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
SPECTACULAR_SETTINGS = {
    # In the reader's language, as are the schema's descriptions (api/docs.py).
    "TITLE": _("Fives archive API"),
    "DESCRIPTION": _("Upload fives/1 match logs, follow their validation, read matches."),
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.docs.in_language",
    ],
    "VERSION": "1",
    # Several models have a Status: each enum named by its model, not StatusD7fEnum.
    "ENUM_NAME_OVERRIDES": {
        # The presets as a choice (a club's default ruleset, a season's rulesets): one name.
        "RulesetEnum": "clubs.presets.ruleset_choices",
        "UploadStatusEnum": "games.models.Upload.Status",
        "UploadItemStatusEnum": "games.models.UploadItem.Status",
        "JoinRequestStatusEnum": "clubs.models.JoinRequest.Status",
        "HandleClaimStatusEnum": "games.models.HandleClaim.Status",
        "LegKindEnum": "competitions.models.League.LegKind",
        "EventKindEnum": "competitions.models.Tournament.Kind",
        "UploadKindEnum": "games.models.Upload.Kind",
        "FixtureStatusEnum": "competitions.models.Fixture.Status",
    },
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Ids and dates a person enters (issue 55). The schema says what an <id:...> of an address
# takes (clubs.ids: a BigAutoField's ids; a bigger number is a 404).
SPECTACULAR_SETTINGS["PATH_CONVERTER_OVERRIDES"] = {
    "id": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**63 - 1}
}
# No day a person plans (clubs.dates) lies more than so many years after the club's today.
FIVES_PLAN_YEARS = int(os.environ.get("FIVES_PLAN_YEARS", 2))

# --- webhooks (issue 59, item 1) -----------------------------------------------------------
# An endpoint's address that resolves to a loopback, private, link-local or reserved network
# is refused, when registered and at each attempt, unless this allows it (tests, an intranet).
FIVES_WEBHOOKS_ALLOW_PRIVATE = os.environ.get("FIVES_WEBHOOKS_ALLOW_PRIVATE") == "1"
# An attempt's answer waited for this long (seconds); the body sent at most this long
# (bytes: a longer event's data is sent as its id); the waits between attempts (seconds,
# growing), within FIVES_WEBHOOK_GIVE_UP seconds of the first (three days), after which the
# delivery has failed; an endpoint failing that long is turned off.
FIVES_WEBHOOK_TIMEOUT = float(os.environ.get("FIVES_WEBHOOK_TIMEOUT", 10))
FIVES_WEBHOOK_MAX_BODY = int(os.environ.get("FIVES_WEBHOOK_MAX_BODY", 256 * 1024))
FIVES_WEBHOOK_RETRIES = [
    int(wait)
    for wait in os.environ.get(
        "FIVES_WEBHOOK_RETRIES", "5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000"
    ).split(",")
]
FIVES_WEBHOOK_GIVE_UP = int(os.environ.get("FIVES_WEBHOOK_GIVE_UP", 3 * 24 * 3600))
# A retry due within this many seconds is prompted by a task sent with its wait; a later one
# by the sweep, every FIVES_WEBHOOK_SWEEP_EVERY seconds (a broker should not hold a task for
# hours: past its visibility timeout Redis would deliver it twice).
FIVES_WEBHOOK_PROMPT_WITHIN = float(os.environ.get("FIVES_WEBHOOK_PROMPT_WITHIN", 60))
FIVES_WEBHOOK_SWEEP_EVERY = float(os.environ.get("FIVES_WEBHOOK_SWEEP_EVERY", 30))
# How long a rolled secret's predecessor still signs (seconds).
FIVES_WEBHOOK_ROLL_GRACE = int(os.environ.get("FIVES_WEBHOOK_ROLL_GRACE", 24 * 3600))
CELERY_BEAT_SCHEDULE["webhooks-due"] = {
    "task": "webhooks.tasks.deliveries_due_task",
    "schedule": FIVES_WEBHOOK_SWEEP_EVERY,
}
