"""The slow phone's other threads, slowed as its main thread is.

DevTools' CPU throttling (``Emulation.setCPUThrottlingRate``, what ``bench.phonekit`` uses)
slows a page's main thread only: asked of a worker, chromium answers "Operation is only
supported for pages, not workers". Since the recorder's engine moved into a Web Worker
(issue 38), the "slow phone" ran its engine at this machine's full speed, and its figures of
the engine's start measured a fast phone.

Here every other thread of chromium's renderer processes (the engine's worker, the service
worker, the threads that compile WebAssembly) is held to a quarter of a core, or 1/rate, by a
CPU cgroup of its own: cgroup v1's ``cpu`` controller takes a thread's id in a group's
``tasks``, and ``cpu.cfs_quota_us`` caps it. New threads are found by polling ``/proc``
every few milliseconds. It needs root and a writable ``/sys/fs/cgroup/cpu``; where there is
none, ``SlowThreads.start`` returns the reason and the bench prints that the worker ran at
full speed.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import threading
import time

CGROUP_CPU = pathlib.Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000
POLL_SECONDS = 0.005


def _children() -> dict[int, list[int]]:
    """Every process's children, by the parent's pid."""
    found: dict[int, list[int]] = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        found.setdefault(parent, []).append(int(entry.name))
    return found


def _cmdline(pid: int) -> str:
    try:
        return (
            (pathlib.Path("/proc") / str(pid) / "cmdline")
            .read_bytes()
            .replace(b"\0", b" ")
            .decode()
        )
    except OSError:
        return ""


class SlowThreads:
    """Hold every thread but the main one of the renderers under the chromium whose command
    line holds ``marker`` to 1/``rate`` of a core, until ``stop``."""

    def __init__(self, marker: str, rate: float) -> None:
        self.marker = marker
        self.quota = int(PERIOD_US / rate)
        self.root = CGROUP_CPU / f"fives-slow-phone-{os.getpid()}"
        self.slowed: set[int] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> str | None:
        """Begin; return why it cannot (None: it runs)."""
        if os.geteuid() != 0:
            return "needs root for a CPU cgroup"
        try:
            self.root.mkdir(exist_ok=True)
        except OSError as error:
            return f"no CPU cgroup ({CGROUP_CPU}: {error.strerror})"
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return None

    def _renderers(self) -> list[int]:
        children = _children()
        browsers = [
            pid for pids in children.values() for pid in pids if self.marker in _cmdline(pid)
        ]
        found, todo = [], list(browsers)
        while todo:
            pid = todo.pop()
            if "--type=renderer" in _cmdline(pid):
                found.append(pid)
            todo.extend(children.get(pid, []))
        return found

    def _slow(self, tid: int) -> None:
        group = self.root / str(tid)
        try:
            group.mkdir(exist_ok=True)
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(self.quota))
            (group / "tasks").write_text(str(tid))
        except OSError:
            return  # the thread ended meanwhile
        self.slowed.add(tid)

    def _watch(self) -> None:
        renderers: list[int] = []
        looked = 0.0
        while not self._stop.is_set():
            if time.monotonic() - looked > 0.2:  # new renderer processes, now and then
                renderers, looked = self._renderers(), time.monotonic()
            for pid in renderers:
                with contextlib.suppress(OSError):
                    for task in (pathlib.Path("/proc") / str(pid) / "task").iterdir():
                        tid = int(task.name)
                        if tid != pid and tid not in self.slowed:
                            self._slow(tid)
            time.sleep(POLL_SECONDS)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if not self.root.exists():
            return
        for group in self.root.iterdir():
            if not group.is_dir():
                continue
            with contextlib.suppress(OSError):
                for tid in (group / "tasks").read_text().split():
                    (CGROUP_CPU / "tasks").write_text(tid)
            with contextlib.suppress(OSError):
                group.rmdir()
        with contextlib.suppress(OSError):
            self.root.rmdir()
