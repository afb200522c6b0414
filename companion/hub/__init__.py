"""The hub: how the live streams of a table learn that it changed.

* :mod:`companion.hub.base`: the interface (:class:`~companion.hub.base.Hub`);
* :mod:`companion.hub.local`: in one process (the default);
* :mod:`companion.hub.redis`: between processes through Redis pub/sub (the ``store`` extra);
* :mod:`companion.hub.factory`: the hub for a ``--pubsub`` URL.

Nothing is imported here, so that using the interface loads no Redis client.
"""
