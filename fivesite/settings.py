"""Settings from environment variables, with safe defaults for one machine.

DATABASE_URL   PostgreSQL in production (default: SQLite in db.sqlite3)
REDIS_URL      the Celery broker (default: none, tasks run in-process)
SECRET_KEY     required in production (a local default otherwise)
DEBUG          "1" for development (default off)
ALLOWED_HOSTS  comma-separated (default: localhost names)
"""

import os
import warnings
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in ("1", "true", "yes", "on")


DEBUG = env_flag("DEBUG")
# The default is good enough for a machine of one's own; production sets SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY") or "insecure-local-key-set-SECRET_KEY-in-production"
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
    "games",
    "replays",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "fivesite.urls"
WSGI_APPLICATION = "fivesite.wsgi.application"

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
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (the dev server, in-process tasks) write to one file: wait, don't fail.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:match-list"
LOGOUT_REDIRECT_URL = "games:match-list"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian")), ("ka", _("Georgian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# The directory exists only after collectstatic (production); say nothing before.
warnings.filterwarnings("ignore", message="No directory at")
# Serve files straight from the apps in development and tests; collectstatic in production.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

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
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a killed worker's task is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
# How long a task taken by a worker that died stays hidden before another worker gets it.
# Processing is idempotent, so a short timeout costs at most some repeated work.
# Workers look for such tasks about every interval x throttle seconds (Redis transport).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("FIVES_BROKER_VISIBILITY_TIMEOUT", 3600)),
    "unacked_restore_interval": int(os.environ.get("FIVES_BROKER_RESTORE_INTERVAL", 10)),
    "unacked_restore_throttle": int(os.environ.get("FIVES_BROKER_RESTORE_THROTTLE", 10)),
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

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
    "DEFAULT_THROTTLE_CLASSES": ["api.common.ClientThrottle"],
    # Requests per client (token, else user, else address) and per scope of endpoint.
    "DEFAULT_THROTTLE_RATES": {
        "read": os.environ.get("FIVES_THROTTLE_READ", "1200/min"),
        "upload": os.environ.get("FIVES_THROTTLE_UPLOAD", "60/min"),
        "export": os.environ.get("FIVES_THROTTLE_EXPORT", "30/min"),
    },
}
# Throttle counts live in the cache: Redis where there is one, shared by every process.
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Fives archive API",
    "DESCRIPTION": "Upload fives/1 match logs, follow their validation, read matches.",
    "VERSION": "1",
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
