"""WSGI entry point (gunicorn fivesite.wsgi, and runserver)."""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from .celery import run_beat_in_process

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
application = get_wsgi_application()

if settings.FIVES_INPROCESS_BEAT:
    run_beat_in_process()
