"""The operators' commands of docs/deploy.md, run as written (issue 58, item 3): its blocks
marked ```sh title="backup"```, ```sh title="restore"``` and ```sh title="upgrade"``` are
read from the page and run, exactly, by bash on a fresh PostgreSQL cluster of this test's
own (``initdb`` and ``pg_ctl`` in a temporary folder, as tests/test_replica.py starts
them): a database left at an earlier migration is upgraded by the upgrade block, given a
club, backed up by the backup block and restored into an empty database by the restore
block, which then holds the same rows. It skips, saying why, without PostgreSQL's
programs, unless FIVES_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

import psycopg
import pytest

from bench.served import manage, production_env
from tests.conftest import REQUIRE_SERVICES
from tests.test_replica import Clusters, _postgres_bin

pytestmark = pytest.mark.services

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "docs" / "deploy.md"
BLOCK = re.compile(r'^( *)```sh title="([a-z-]+)"\n(.*?)^\1```$', re.MULTILINE | re.DOTALL)
TABLES = ("auth_user", "clubs_club", "clubs_membership", "django_migrations")


def blocks() -> dict[str, str]:
    """The page's blocks of commands marked for the test, by title."""
    found: dict[str, str] = {}
    for indent, title, body in BLOCK.findall(DEPLOY.read_text(encoding="utf-8")):
        assert title not in found, f"two blocks titled {title!r} in docs/deploy.md"
        found[title] = textwrap.dedent(body) if indent else body
    return found


def test_the_page_marks_a_block_for_each_of_backup_restore_and_upgrade():
    assert sorted(blocks()) == ["backup", "restore", "upgrade"]


def run_block(title: str, env: dict[str, str]) -> float:
    began = time.monotonic()
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", blocks()[title]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"the {title} block failed:\n{done.stdout}\n{done.stderr}"
    return time.monotonic() - began


def counts(url: str) -> dict[str, int]:
    with psycopg.connect(url, connect_timeout=5) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def test_backup_restore_and_upgrade_as_the_page_writes_them_on_a_fresh_cluster():
    missing = None
    if _postgres_bin() is None or shutil.which("bash") is None:
        missing = "needs bash and PostgreSQL's initdb, pg_ctl, pg_dump, pg_restore"
    elif os.geteuid() == 0 and shutil.which("runuser") is None:
        missing = "needs runuser to start PostgreSQL as its own user"
    if missing:
        if REQUIRE_SERVICES:
            pytest.fail(f"FIVES_REQUIRE_SERVICES=1 but the operators' test cannot run: {missing}")
        pytest.skip(missing)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="fives-operators-"))
    folder.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    clusters = Clusters(folder)
    try:
        clusters.init_primary()
        clusters.start("primary")
        for name in ("fives", "restored"):
            clusters.sql("primary", f"CREATE DATABASE {name}")
        port = clusters.ports["primary"]
        archive = f"postgres://postgres@127.0.0.1:{port}/fives"
        restored = f"postgres://postgres@127.0.0.1:{port}/restored"
        env = production_env(folder, DATABASE_URL=archive)
        # The shell's `python` is this interpreter, its `pg_dump` the cluster's own version.
        env["PATH"] = os.pathsep.join(
            (str(pathlib.Path(sys.executable).parent), str(clusters.bin), env["PATH"])
        )
        env["BACKUP"] = str(folder / "fives.dump")

        # A database a release behind: replays before its last migration, nothing above it.
        earlier = sorted(p.stem for p in (ROOT / "replays" / "migrations").glob("0*.py"))[-2]
        manage(env, "migrate", "--noinput", "replays", earlier)
        # A person of the old release, written as its tables were (the shell would import
        # the apps whose tables are not made yet).
        with psycopg.connect(archive) as conn:
            conn.execute(
                "INSERT INTO auth_user (password, last_login, is_superuser, username, first_name,"
                " last_name, email, is_staff, is_active, date_joined)"
                " VALUES ('!', now(), false, 'ana', '', '', '', false, true, now())"
            )
        upgrade = run_block("upgrade", env)
        unapplied = [
            line
            for line in manage(env, "showmigrations", "--plan").splitlines()
            if line.startswith("[ ]")
        ]
        assert not unapplied, unapplied
        manage(
            env,
            "shell",
            "-c",
            "from django.contrib.auth.models import User\n"
            "from clubs.services import club_create\n"
            "club_create(owner=User.objects.get(username='ana'), name='Kazan Fives',"
            " slug='kazan-fives')",
        )

        backup = run_block("backup", env)
        assert (folder / "fives.dump").stat().st_size > 0
        restore = run_block("restore", env | {"DATABASE_URL": restored})
        kept, back = counts(archive), counts(restored)
        print(
            f"upgrade {upgrade:.1f} s, backup {backup:.1f} s, restore {restore:.1f} s; "
            f"rows {back} (the archive's: {kept})"
        )
        assert back == kept and back["clubs_club"] == 1 and back["auth_user"] == 1
        # A restore into a database that is not empty stops at once, changing nothing.
        again = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", blocks()["restore"]],
            cwd=ROOT,
            env=env | {"DATABASE_URL": restored},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert again.returncode != 0 and counts(restored) == back
    finally:
        for name in list(clusters.started):
            clusters.stop(name, "immediate")
        shutil.rmtree(folder, ignore_errors=True)
