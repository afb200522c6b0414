"""Announce the companion on the LAN as ``tablesmith.local`` (mDNS / DNS-SD, ``zeroconf``).

Printed cards point their QR codes at ``http://tablesmith.local:8765`` by default
(``printables.render.DEFAULT_QR_BASE``), so a server that answers to that name opens them on a
phone without any option. :func:`announce` registers an ``_http._tcp``
service whose host is ``tablesmith.local.`` at this machine's LAN address; python-zeroconf
then answers the A queries for that name. It cannot work when the server listens on loopback
only, when the machine has no LAN address, or when the mDNS port cannot be used (another
program holds it exclusively, no multicast): :class:`MdnsUnavailable` says why, and
``tablesmith serve`` then names ``--qr-base``.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any

HOST_NAME = "tablesmith.local."
SERVICE_TYPE = "_http._tcp.local."
SERVICE_NAME = "Tablesmith companion." + SERVICE_TYPE


class MdnsUnavailable(RuntimeError):
    """The name cannot be announced here; the message says why."""


@dataclass
class Announcement:
    """A running announcement; :meth:`close` withdraws it (goodbye packets)."""

    zeroconf: Any
    info: Any
    address: str
    port: int

    @property
    def url(self) -> str:
        """``http://tablesmith.local:<port>``."""
        return f"http://{HOST_NAME.rstrip('.')}:{self.port}"

    def close(self) -> None:
        """Withdraw the service and stop answering."""
        try:
            self.zeroconf.unregister_service(self.info)
        finally:
            self.zeroconf.close()


def announce(address: str, port: int, listen_host: str = "0.0.0.0") -> Announcement:
    """Announce ``tablesmith.local`` -> ``address`` and an ``_http._tcp`` service on ``port``.

    Blocks for the mDNS probe (about 1.5 s): call it from a background thread.

    Args:
        address: this machine's IPv4 LAN address (the one phones reach).
        port: the companion's TCP port.
        listen_host: the address the server listens on (loopback: phones cannot reach it).

    Raises:
        MdnsUnavailable: loopback only, no LAN address, or zeroconf cannot run here.
    """
    if listen_host not in ("0.0.0.0", "::", "") and listen_host != address:
        try:
            if ipaddress.ip_address(listen_host).is_loopback:
                raise MdnsUnavailable(f"the server listens on {listen_host} only")
        except ValueError:
            pass  # a host name: announce the LAN address anyway
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        raise MdnsUnavailable(f"no IPv4 LAN address ({address!r})") from None
    if ip.is_loopback or ip.is_unspecified:
        raise MdnsUnavailable("this machine has no LAN address (no network?)")
    try:
        from zeroconf import IPVersion, NonUniqueNameException, ServiceInfo, Zeroconf
    except ImportError:  # pragma: no cover - a base dependency
        raise MdnsUnavailable("the zeroconf package is not installed") from None
    try:
        zc = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    except OSError as exc:
        raise MdnsUnavailable(f"the mDNS port 5353 cannot be used ({exc})") from None
    info = ServiceInfo(
        SERVICE_TYPE,
        SERVICE_NAME,
        addresses=[socket.inet_aton(address)],
        port=port,
        server=HOST_NAME,
        properties={"path": "/"},
    )
    try:
        zc.register_service(info, allow_name_change=True)
    except (OSError, NonUniqueNameException) as exc:
        zc.close()
        raise MdnsUnavailable(f"announcing failed ({exc})") from None
    return Announcement(zeroconf=zc, info=info, address=address, port=port)


def resolve(name: str = HOST_NAME, timeout: float = 3.0, interface: str | None = None) -> list[str]:
    """The IPv4 addresses mDNS gives for ``name`` (a check for tests and ``serve``)."""
    import zeroconf
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf

    interfaces: Any = [interface] if interface else InterfaceChoice.All
    zc = Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    try:
        resolver = zeroconf.AddressResolverIPv4(name)  # type: ignore[attr-defined]
        resolver.request(zc, int(timeout * 1000))
        return [str(a) for a in resolver.parsed_addresses()]
    finally:
        zc.close()
