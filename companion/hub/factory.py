"""The hub for a ``--pubsub`` URL (in-process, or Redis shared by several processes)."""

from __future__ import annotations

from companion.hub.base import Hub
from companion.hub.local import LocalHub

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
"""``--pubsub`` URLs served by :class:`companion.hub.redis.RedisHub`."""


def make_hub(url: str | None) -> Hub:
    """The hub for a ``--pubsub`` URL: None or ``"local"`` in-process (:class:`LocalHub`);
    ``redis://``, ``rediss://`` (TLS) or ``unix://`` (a Unix socket) a
    :class:`companion.hub.redis.RedisHub` shared by every process given the same URL.

    Raises:
        ValueError: any other URL, or Redis asked for without the ``redis`` package (the
            message names the allowed URLs, or what to install).
    """
    if url is None or url == "local":
        return LocalHub()
    if url.lower().startswith(REDIS_SCHEMES):
        try:
            from companion.hub.redis import RedisHub
        except ImportError as exc:
            raise ValueError(
                "--pubsub redis:// needs the redis package, which is not installed: "
                "pip install 'tablesmith[store]'  (from a checkout: pip install -r requirements/store.txt)"
            ) from exc
        return RedisHub(url)
    raise ValueError(
        "--pubsub must be 'local' or a redis://, rediss:// or unix:// URL, "
        f"got {url.split('@')[-1][:60]!r}"
    )
