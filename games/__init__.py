"""What the games are: components, card and deck schemas, rules engines.

Pure Python by design (ARCHITECTURE.md): nothing here performs I/O or imports Flask,
ReportLab, CadQuery or any other Tablesmith package. Adapters (``cad``, ``printables``,
``companion``) import from here, never the other way round.
"""
