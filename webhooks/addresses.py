"""Where an endpoint may be: never the archive's own machine or its network (issue 59).

An address is resolved when it is registered and again at each attempt (a name may resolve
elsewhere since), and the attempt connects to the very address checked, so a name that
changes between the check and the connection gains nothing. A loopback, private,
link-local, reserved, multicast or unspecified address is refused, unless
``FIVES_WEBHOOKS_ALLOW_PRIVATE`` allows it (the tests' receiver, an intranet)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from clubs.refusals import ClubRefusal

IP = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(ClubRefusal):
    """An endpoint's address the archive will not send to, with why."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message, "webhook-address")


@dataclass(frozen=True, slots=True)
class Target:
    """Where an attempt goes: the address's scheme, host name and port, and the one IP
    address checked, which it connects to."""

    scheme: str
    host: str
    port: int
    path: str
    ip: str


def public(ip: IP) -> bool:
    """Whether ``ip`` is an address of the internet (an IPv4 address inside IPv6 judged as
    itself)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
    )


def url_parts(url: str) -> tuple[str, str, int, str]:
    """Return an endpoint address's scheme, host, port and path, or refuse it."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise AddressRefused(_("The address could not be read.")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AddressRefused(_("The address must begin with https:// or http://."))
    if parts.username or parts.password:
        raise AddressRefused(_("The address may not hold a name or a password."))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    default = 443 if parts.scheme == "https" else 80
    return parts.scheme, parts.hostname, port or default, path


def target_of(url: str) -> Target:
    """Resolve ``url`` now and return where to send (the first address it resolves to);
    refuse it if any of its addresses is not public, unless private ones are allowed."""
    scheme, host, port, path = url_parts(url)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise AddressRefused(_("The address's name is not found.")) from None
    ips = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in found]
    if not ips:
        raise AddressRefused(_("The address's name is not found."))
    if not settings.FIVES_WEBHOOKS_ALLOW_PRIVATE and not all(public(ip) for ip in ips):
        raise AddressRefused(
            _("The address leads to a private or reserved network: webhooks go to the internet.")
        )
    return Target(scheme, host, port, path, str(ips[0]))
