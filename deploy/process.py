"""A server run in the foreground, in a process group of its own, until it is stopped: how
the tests and benches run gunicorn and nginx (``bench.served.Gunicorn``,
``deploy.nginx.Nginx``)."""

from __future__ import annotations

import os
import signal
import subprocess


class Foreground:
    """A server process; ``start`` runs it and returns once it serves, ``stop`` ends it and
    everything it started (its workers), whatever it was doing."""

    process: subprocess.Popen | None = None

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
