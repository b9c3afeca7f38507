"""Where the command line keeps the archive's address and your token.

``$XDG_CONFIG_HOME/fives/config.toml`` (``~/.config/fives/config.toml`` without it), readable
by you alone (mode 0600). ``FIVES_TOKEN`` and ``FIVES_URL`` win over it; ``--url`` wins over
both.
"""

from __future__ import annotations

import json
import os
import pathlib
import tomllib
from dataclasses import dataclass


@dataclass
class Settings:
    url: str | None = None
    token: str | None = None


def config_path() -> pathlib.Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(pathlib.Path.home() / ".config")
    return pathlib.Path(base) / "fives" / "config.toml"


def load() -> Settings:
    """Return what the config file holds (nothing when there is none, or it is unreadable)."""
    try:
        data = tomllib.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return Settings()
    url, token = data.get("url"), data.get("token")
    return Settings(
        url=url if isinstance(url, str) else None,
        token=token if isinstance(token, str) else None,
    )


def save(settings: Settings) -> pathlib.Path:
    """Write the config file, mode 0600 (its folder 0700); return its path."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    lines = [
        f"{key} = {json.dumps(value)}"  # a JSON string of text is a TOML basic string
        for key, value in (("url", settings.url), ("token", settings.token))
        if value
    ]
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        os.fchmod(handle.fileno(), 0o600)  # an older file of wider mode, too
        handle.write("# fives login: the archive and your API token\n" + "\n".join(lines) + "\n")
    return path


def resolve(url: str | None) -> Settings:
    """Return the address and token to use: ``--url``, then ``FIVES_URL``, then the config
    file; ``FIVES_TOKEN``, then the config file's token."""
    stored = load()
    return Settings(
        url=url or os.environ.get("FIVES_URL") or stored.url,
        token=os.environ.get("FIVES_TOKEN") or stored.token,
    )
