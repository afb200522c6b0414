"""Service URLs (databases, Redis) as people may see them: never with their password."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def redact_url(url: str) -> str:
    """The URL with its password replaced by ``***`` (for messages and the startup banner)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("://", 1)[0] + "://..."
    if not password:
        return url
    netloc = parts.netloc.replace(":" + password + "@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def url_error(exc: BaseException, url: str) -> str:
    """The first line of an error's message, with the URL's password (if any) blanked out."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    return text.replace(password, "***") if password else text
