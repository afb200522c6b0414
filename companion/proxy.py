"""Which address a request came from behind a reverse proxy: ``serve --trusted-proxy``.

The limits that count per phone (creating and joining tables, looking up links: the app's
rate limiters; the print shop's jobs per client) count ``request.remote_addr``. Without a
trusted proxy (the default) that is the peer of the connection, whatever headers it sent:
behind a proxy that is the proxy, so every phone behind it shares one limit, and a client's
own ``X-Forwarded-For`` changes nothing. With ``--trusted-proxy ADDR[,ADDR]`` a request whose
peer is one of those addresses (or networks) is taken as the proxy's: its client is the
rightmost ``X-Forwarded-For`` entry that is not itself a trusted proxy (what the proxy saw),
and ``X-Forwarded-Proto`` (``http``/``https``) is the scheme the phone used (the seat cookies
are ``Secure`` under https, :func:`companion.security.seated`). A proxy named here must set
both headers as the guide's nginx block does (``$proxy_add_x_forwarded_for``, ``$scheme``):
a bare proxy that passes the client's own ``X-Forwarded-For`` on would let a client choose
its address.

The servers apply it with their own, well-kept code, each where it sees the peer:

* uvicorn (the default, :mod:`companion.evented`): its ``ProxyHeadersMiddleware``
  (``proxy_headers`` and ``forwarded_allow_ips``: the peer check, the right-to-left walk
  and the scheme), before the request reaches the app, so the event loop's own routes see the
  same client; without the option ``proxy_headers`` is off (uvicorn's own default trusts
  127.0.0.1, which let a client behind a bare local proxy pick any address);
* waitress (:mod:`companion.server`): its ``trusted_proxy`` (one address; waitress takes no
  list or network, so more is refused at start), ``trusted_proxy_count=1`` and the two
  headers.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any

OPTION = "--trusted-proxy"


@dataclass(frozen=True)
class TrustedProxies:
    """The proxies whose forwarding headers are believed (none: the default).

    Attributes:
        entries: IP addresses (``127.0.0.1``, ``::1``) or networks (``10.0.0.0/24``) as
            normalised text, in the order given.
    """

    entries: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.entries)

    def uvicorn_options(self) -> dict[str, Any]:
        """``uvicorn.Config`` keyword arguments: the proxy headers on for these peers only."""
        if not self.entries:
            return {"proxy_headers": False}
        return {"proxy_headers": True, "forwarded_allow_ips": list(self.entries)}

    def waitress_options(self) -> dict[str, Any]:
        """``waitress.create_server`` keyword arguments (nothing without a trusted proxy).

        Raises:
            ValueError: more than one entry, or a network (waitress trusts one address); the
                message starts with ``--trusted-proxy``.
        """
        if not self.entries:
            return {}
        if len(self.entries) > 1 or "/" in self.entries[0]:
            raise ValueError(
                f"{OPTION}: --server waitress trusts one proxy address, got "
                f"{','.join(self.entries)} (use the default --server uvicorn for several)"
            )
        return {
            "trusted_proxy": self.entries[0],
            "trusted_proxy_count": 1,
            "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"},
            "clear_untrusted_proxy_headers": True,
        }


NO_PROXY = TrustedProxies()
"""No trusted proxy (the default): the connection's peer is the client."""


def parse_trusted_proxies(text: str | None) -> TrustedProxies:
    """The ``--trusted-proxy`` value: comma-separated IP addresses or networks (CIDR), at
    most 32; None or empty text is none.

    Raises:
        ValueError: an entry that is no address or network (``*`` included: trusting every
            peer would let any client choose its address; so is a network of every address,
            ``0.0.0.0/0`` or ``::/0``); the message starts with
            ``--trusted-proxy`` and names the entry and the allowed forms.
    """
    if text is None or not text.strip():
        return TrustedProxies()
    entries: list[str] = []
    for raw in text.split(","):
        item = raw.strip()
        try:
            if "/" in item:
                network = ipaddress.ip_network(item, strict=False)
                entries.append(str(network))
            else:
                entries.append(str(ipaddress.ip_address(item)))
        except ValueError:
            raise ValueError(
                f"{OPTION}: must be IP addresses or networks separated by commas "
                f"(127.0.0.1, ::1, 10.0.0.0/24), got {item[:60]!r}"
            ) from None
        if "/" in item and network.prefixlen == 0:
            raise ValueError(
                f"{OPTION}: {item[:60]!r} is every address: any client could choose its "
                "address; name the proxy's own address or network"
            )
    if len(entries) > 32:
        raise ValueError(f"{OPTION}: at most 32 addresses or networks, got {len(entries)}")
    return TrustedProxies(tuple(dict.fromkeys(entries)))
