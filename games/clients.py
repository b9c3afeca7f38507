"""Who is asking: the client's address, as the throttles and the sign-in lock-out count it.

The address is ``REMOTE_ADDR`` unless the archive stands behind proxies that it trusts
(``FIVES_TRUSTED_PROXIES``, how many; 0 by default): then it is the entry of
``X-Forwarded-For`` that the outermost trusted proxy appended. Entries a client writes itself
come before those and are never read, so a forged header changes nothing.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _normalised(text: str) -> str | None:
    """Return the address as one bucket (an IPv6 address as its /64), or None."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        # One household or host gets a whole /64: count it as one client (its first address).
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def client_address(request) -> str:
    """Return the client's address, read as the trusted proxies allow (``0.0.0.0`` when there
    is none: such clients share one bucket)."""
    remote = request.META.get("REMOTE_ADDR", "")
    depth = int(getattr(settings, "FIVES_TRUSTED_PROXIES", 0) or 0)
    if depth > 0:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= depth:
            found = _normalised(forwarded[-depth])
            if found is not None:
                return found
    return _normalised(remote) or "0.0.0.0"


def client_ident(request) -> str:
    """Return whose budget a request spends: the signed-in person (one budget for every token
    and session of theirs, page or API alike), else the address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user-{user.pk}"
    return f"ip-{client_address(request)}"
