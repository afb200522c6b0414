"""The absolute links of a table (table, join, watch), for pages, answers and QR codes."""

from __future__ import annotations

from flask import current_app, request, url_for

from companion.tables.service import tables


def base_url() -> str:
    """The URL phones reach the server at (``BASE_URL`` or the request's host), no slash."""
    configured = current_app.config.get("BASE_URL")
    return str(configured or request.host_url).rstrip("/")


def links(table_id: str) -> dict[str, str]:
    """Absolute table, join and watch links of a table (for QR codes)."""
    table = tables().table(table_id)
    root = base_url()
    return {
        "table_url": root + url_for("pages.table", table_id=table_id),
        "join_url": root + url_for("pages.join", join_token=table.join_token),
        "watch_url": root + url_for("pages.watch", watch_token=table.watch_token),
    }
