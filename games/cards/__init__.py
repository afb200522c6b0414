"""What every card game shares: field specs (:mod:`.fields`), YAML read as text
(:mod:`.yamltext`), deck-file parsing and card URLs (:mod:`.deck`), the anatomy of a card face
(:mod:`.anatomy`) and a game's card side of its registry entry (:mod:`.cardgame`).

Each game's card classes, deck rules and face builder live in ``games/<game>/cards.py``. Pure:
deck files are parsed from text handed in by the caller (``printables.deckfile`` reads them).
"""
