"""Accounts: anyone may make one (a club's admins then invite, or accept a request)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def account_create(*, username: str, password: str) -> Any:
    """Create an account with this name and password (both checked by ``SignupForm``)."""
    return get_user_model().objects.create_user(username=username, password=password)
