"""The Celery app. With REDIS_URL set, tasks go to workers (``celery -A fivesite worker``,
and ``celery -A fivesite beat`` for the periodic jobs); without it they run in-process, so
the archive works alone on one machine, and the web process runs the periodic jobs itself
(``run_beat_in_process``)."""

import logging
import os
import threading
import time

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")

app = Celery("fivesite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(related_name="periodic")

logger = logging.getLogger(__name__)


def run_beat_in_process() -> threading.Thread:
    """Start a daemon thread that runs every job of the beat schedule at its interval, in
    this process (tasks in-process: there is no broker for a beat to send them to)."""

    def beat() -> None:
        app.loader.import_default_modules()
        schedule = app.conf.beat_schedule
        due = dict.fromkeys(schedule, time.monotonic())
        while True:
            now = time.monotonic()
            for name, entry in schedule.items():
                if now >= due[name]:
                    due[name] = now + float(entry["schedule"])
                    try:
                        app.tasks[entry["task"]].apply()
                    except Exception:  # a periodic job must never stop the others
                        logger.exception("periodic job %s failed", name)
            time.sleep(1)

    thread = threading.Thread(target=beat, name="fives-beat", daemon=True)
    thread.start()
    return thread
