"""The archive served the README's production way on this machine, for the tests and benches
that need a real server: a database and a static folder in a directory of their own, DEBUG
off with a key of its own, ``collectstatic``, then gunicorn with threaded workers.
``deploy.nginx.Nginx`` puts the archive's nginx in front of it."""

from __future__ import annotations

import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from deploy.process import Foreground

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The README's production gunicorn: its worker class, workers, threads and timeout.
README_GUNICORN = ["--worker-class", "gthread", "--workers", "4", "--threads", "8"]
README_GUNICORN += ["--timeout", "120"]
# The same, with two workers: what the tests afford on a shared 2-core machine.
TEST_GUNICORN = ["--worker-class", "gthread", "--workers", "2", "--threads", "8"]
TEST_GUNICORN += ["--timeout", "120"]
# Throttles lifted, for a run that measures or checks something else than the limits.
NO_THROTTLES = {
    "FIVES_THROTTLE_READ": "100000000/min",
    "FIVES_THROTTLE_EXPORT": "100000000/min",
    "FIVES_THROTTLE_UPLOAD": "100000000/min",
    "FIVES_SIGNUP_RATE": "100000000/h",
    # The writes' budgets (fivesite/doors.py), every kind of them.
    **{
        f"FIVES_BUDGET_{kind}": "100000000/h"
        for kind in (
            "CREATE",
            "MANAGE",
            "NOTIFY",
            "SESSION",
            "PRACTICE",
            "LIVE_STEP",
            "LIVE_TABLE",
            "FEED",
        )
    },
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gunicorn_missing() -> str | None:
    """Say why gunicorn cannot run here (None: it can)."""
    if pathlib.Path(sys.executable).with_name("gunicorn").exists() or shutil.which("gunicorn"):
        return None
    return "needs gunicorn (pyproject.toml installs it)"


def production_env(directory: pathlib.Path, **extra: str) -> dict[str, str]:
    """The environment of an archive kept in ``directory`` (an SQLite database, the static
    folder), DEBUG off, plain HTTP unless ``extra`` says otherwise; no broker, no cache
    server: tasks in-process."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "DEBUG", "CACHE_URL")
    }
    return (
        env
        | {
            "DATABASE_URL": f"sqlite:///{directory / 'archive.sqlite3'}",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "FIVES_HTTPS": "0",  # plain HTTP to this local server; production keeps HTTPS on
            "DJANGO_SETTINGS_MODULE": "fivesite.settings",
            "FIVES_STATIC_SOURCES": "0",  # the production way: what collectstatic wrote, alone
            "STATIC_ROOT": str(directory / "static"),
        }
        | extra
    )


def manage(env: dict[str, str], *args: str) -> str:
    """Run ``manage.py`` with ``env``; return what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


# Python for ``manage.py shell -c``: ``signed_in(user)`` returns the key of a session signed
# in as ``user``, stored as a sign-in stores it.
SIGNED_IN = (
    "from django.contrib.sessions.backends.db import SessionStore\n"
    "def signed_in(user):\n"
    "    session = SessionStore()\n"
    "    session['_auth_user_id'] = str(user.pk)\n"
    "    session['_auth_user_backend'] = 'django.contrib.auth.backends.ModelBackend'\n"
    "    session['_auth_user_hash'] = user.get_session_auth_hash()\n"
    "    session.create()\n"
    "    return session.session_key\n"
)


class Gunicorn(Foreground):
    """gunicorn serving the archive on 127.0.0.1:``port`` with ``env``, until ``stop``; what
    it says goes to ``log`` (a file: a pipe nobody reads would stop it once full)."""

    def __init__(
        self, env: dict[str, str], port: int, args: list[str], *extra: str, log: pathlib.Path
    ):
        self.env = env
        self.port = port
        self.log = log
        self.command = [
            sys.executable,
            "-m",
            "gunicorn",
            "fivesite.wsgi",
            *args,
            "--bind",
            f"127.0.0.1:{port}",
            *extra,
        ]

    def start(self, timeout: float = 60) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(
                    f"http://127.0.0.1:{self.port}/api/v1/ping/", timeout=5
                ).read()
                return
            except urllib.error.HTTPError:
                return  # it answers
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"gunicorn did not answer: {self.errors()}") from None
                time.sleep(0.3)

    def errors(self) -> str:
        """The end of what gunicorn said."""
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
