"""Personal API tokens: made, checked and revoked here; only their hash is stored."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.utils import timezone

from clubs.reads import PRIMARY

from .models import ApiToken

PREFIX = "fives_"


def token_hash(key: str) -> str:
    """Return the stored form of a token (a token has enough entropy for a plain SHA-256)."""
    return hashlib.sha256(key.encode()).hexdigest()


def token_create(*, user: Any, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """Make a token; return it and its key, which is never shown again."""
    allowed = set(ApiToken.Scope.values)
    chosen = [scope for scope in ApiToken.Scope.values if scope in set(scopes) & allowed]
    key = PREFIX + secrets.token_urlsafe(30)
    token = ApiToken.objects.create(
        user=user,
        name=name.strip()[:100] or "token",
        prefix=key[: len(PREFIX) + 4],
        key_hash=token_hash(key),
        scopes=chosen,
    )
    return token, key


def token_find(key: str) -> ApiToken | None:
    """Return the active token of a key, noting its use; None for an unknown or revoked key."""
    if not key.startswith(PREFIX) or len(key) > 100:
        return None
    # From the primary whatever the request (with a replica: fivesite/db_router.py): a token
    # revoked a moment ago must not work on a lagging replica, nor one just made fail there.
    tokens = ApiToken.objects.using(PRIMARY).select_related("user")
    token = tokens.filter(key_hash=token_hash(key)).first()
    if token is None or not token.is_active or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def token_revoke(*, user: Any, token_id: int) -> bool:
    """Revoke one of the user's tokens; return whether there was one to revoke."""
    return bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )
