"""Who is asking: the table's own computer or a phone on the Wi-Fi, and under which name.

Every request must name the table in its ``Host`` header by one of the table's own names or addresses,
so that a web page elsewhere whose name was pointed at the table's address (DNS rebinding) reads and
does nothing. The table's own computer is the one that runs ``banker run``: a request from one of its
own addresses (127.0.0.1 and ::1, or an address of one of its network interfaces, such as its Wi-Fi
address when it serves the phones there too). The other loopback addresses (127.0.0.2 and on) count
as other devices, as the tests use them.

See docs/phone.md, "Threat model".
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Iterable

from flask import Flask, Response, request

from webui.texts import text

LOOPBACK = frozenset({"127.0.0.1", "::1"})
"""The table computer's own loopback addresses."""
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
CACHE_S = 30.0
"""How long a finding about an address is kept (an interface's address may change with DHCP)."""


def _ip(value: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        found = ipaddress.ip_address(value.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


class OwnAddresses:
    """Whether an address is one of this computer's: a loopback one, or one it can bind a socket to
    (the kernel knows its own interface addresses; a phone's address cannot be bound)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, tuple[bool, float]] = {}

    def __call__(self, address: str, *, any_loopback: bool = False) -> bool:
        ip = _ip(address)
        if ip is None:
            return False
        if ip.is_loopback:
            return any_loopback or str(ip) in LOOPBACK
        key = str(ip)
        now = time.monotonic()
        with self._lock:
            found = self._known.get(key)
        if found is not None and now - found[1] < CACHE_S:
            return found[0]
        own = _bindable(ip)
        with self._lock:
            if len(self._known) > 1024:  # a cache only: a fresh look costs one system call
                self._known.clear()
            self._known[key] = (own, now)
        return own


def _bindable(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if ip.is_unspecified or ip.is_multicast:
        return False
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(ip), 0))
    except OSError:
        return False
    return True


own_address = OwnAddresses()


def host_name(host: str) -> str:
    """The name or address of a Host header, without the port and the brackets of an IPv6 address."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def table_names(extra: Iterable[str] = ()) -> set[str]:
    """The names the table answers to: localhost, this computer's host name (also with ``.local``, as
    mDNS announces it) and ``extra`` (the configured ones, the name in BASE_URL)."""
    names = set(LOCAL_NAMES)
    hostname = socket.gethostname().lower().rstrip(".")
    if hostname:
        names |= {hostname, hostname.split(".", 1)[0], hostname.split(".", 1)[0] + ".local"}
    names |= {host_name(name) for name in extra if name}
    return names


def host_is_the_table(host: str, names: set[str]) -> bool:
    name = host_name(host)
    if not name:
        return False
    if _ip(name) is not None:
        return own_address(name, any_loopback=True)
    return name in names or name.endswith(".localhost")


def from_the_table_computer() -> bool:
    """The request comes from the computer that runs the table (by its address) under one of the
    table's names (its Host): the simulated table's buttons and cards are its own."""
    return own_address(request.remote_addr or "") and host_is_the_table(request.host, _names())


def _names() -> set[str]:
    from flask import current_app

    found: set[str] = current_app.extensions["banker_names"]
    base = current_app.config.get("BASE_URL")
    if base:
        found = found | {host_name(str(base).split("://", 1)[-1].split("/", 1)[0])}
    return found


def install(app: Flask) -> None:
    """Refuse (421) every request whose Host is not one of the table's names or addresses."""
    configured = app.config.get("TABLE_NAMES") or ()
    app.extensions["banker_names"] = table_names(configured)

    @app.before_request
    def check_host() -> Response | None:
        if host_is_the_table(request.host, _names()):
            return None
        from webui.core import error_body, lang

        language = lang()
        message = text("web_wrong_host", language)
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return Response(error_body("web_wrong_host", message), status=421, mimetype="application/json")
        return Response(message, status=421, mimetype="text/plain")
