"""The Celery app. With REDIS_URL set, tasks go to workers (``celery -A fivesite worker``);
without it they run in-process, so the archive works alone on one machine."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")

app = Celery("fivesite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
