"""The event store: the append-only log of every table, in one of two databases.

* :mod:`companion.store.base`: the interface (:class:`~companion.store.base.Store`, with
  ``append`` and ``append_soon``), the log's rows and the store's errors;
* :mod:`companion.store.sql`: the statements both SQL databases share;
* :mod:`companion.store.sqlite`: SQLite (one process, the default);
* :mod:`companion.store.postgres`: PostgreSQL (several processes; the ``store`` extra);
* :mod:`companion.store.factory`: the store for a ``--db`` value.

Nothing is imported here, so that using the interface loads no database driver.
"""
