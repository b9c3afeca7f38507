"""Loaded as a pytest plugin (``-p tests.environment`` in pyproject.toml), before Django's
settings are read: the tests run with DEBUG off, as production does, so they need a secret key
of their own (the settings refuse to start without one) and plain HTTP (the test client and
the browser tests speak HTTP to a local server). Subprocesses inherit both."""

import os
import re

os.environ.setdefault("SECRET_KEY", "tests-only-" + "k" * 50)
os.environ.setdefault("FIVES_HTTPS", "0")
# Static files from the sources, as `make run` serves them (no collectstatic per session);
# tests/test_gunicorn.py and the recorder's loading test serve them the production way.
os.environ.setdefault("FIVES_STATIC_SOURCES", "1")
# The web process's periodic jobs (tasks in-process) would run against the test database
# from a thread of their own: the tests call those jobs themselves, when they mean to.
os.environ.setdefault("FIVES_INPROCESS_BEAT", "0")
# The engine as pure Python (where the spies of the engine's own functions see every call),
# unless FIVES_ENGINE says otherwise: `make test` runs tests/engine again with
# FIVES_ENGINE=compiled, the engine mypyc built from the same source (when there is one).
os.environ.setdefault("FIVES_ENGINE", "pure")

# Under pytest-xdist (`make test` runs two processes) each worker has a test database of its
# own (pytest-django names it after the worker) and a Redis database of its own: the broker's
# queues and the cache of one worker's tests are never read by the other's Celery workers.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    _number = int(_worker[2:]) + 1
    os.environ["REDIS_URL"] = re.sub(r"(/\d*)?$", f"/{_number}", os.environ["REDIS_URL"], count=1)
