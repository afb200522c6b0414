"""Tables: the companion's shared game tables, one module per job.

* :mod:`~companion.tables.fold`: the game state folded from the event log, and undo;
* :mod:`~companion.tables.clock`: the game clock folded from the log (server times only);
* :mod:`~companion.tables.clock_writes`: choosing, pausing and resuming it, and zero logged;
* :mod:`~companion.tables.table`: one table in memory, its cached log and published views;
* :mod:`~companion.tables.cache`: the tables of a process, loaded on first use, and publishing;
* :mod:`~companion.tables.keys`: idempotency keys (``client_action_id`` retries);
* :mod:`~companion.tables.seats`: making tables, taking and reclaiming seats, tokens;
* :mod:`~companion.tables.writes`: the write paths (a worker thread, or the event loop);
* :mod:`~companion.tables.catchup`: catching up with what other processes appended;
* :mod:`~companion.tables.budgets`: live stream budgets and presence;
* :mod:`~companion.tables.sse`: Server-Sent Events framing of the log;
* :mod:`~companion.tables.retention`: how long tables are kept, in the database and in memory;
* :mod:`~companion.tables.rejected`: the refusal every module raises;
* :mod:`~companion.tables.service`: :class:`~companion.tables.service.TableService`, the facade
  that composes them, and the app's accessor.

Nothing is imported here: import the module that does the job.
"""
