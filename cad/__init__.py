"""Pieces: parameter dataclasses -> OpenCASCADE solids -> STL / 3MF files and print notes.

Units: millimetres everywhere in this package (lengths, heights, clearances); angles carry a
``_deg`` / ``_rad`` suffix; masses are grams, volumes mm^3.

Part frame: every part is built with its print-bed face on Z = 0 and its plan centred on the
origin; +X runs along the rifts (left to right), +Y from player A's base towards player B's.

Module map (arrows point down only):
    settings   PrintSettings, printer beds, colours, validation            (pure)
    design     nominal Asteroids geometry and the print dimensions derived
               from it for given settings (scale, layers, xy_compensation)  (pure)
    plates     arranging parts on beds and in the storage box               (pure)
    occ        the OpenCASCADE operations the kit needs (OCP)
    parts      solids for board, board halves, fragments, ships
    fits       mating pairs placed as in play, with play and interference; joint travel
    mesh       STL read back, welded and checked (numpy)
    threemf    3MF plates: colours, colour change, print settings (lib3mf)
    preview    PNG previews (numpy z-buffer, Pillow)
    jobs       part checks, previews and plates, run in a helper process     (no OCP)
    notes      PRINT-NOTES.md text                                          (pure)
    kit        one build: parts -> files -> manifest, cached, written atomically
"""
