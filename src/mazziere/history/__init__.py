"""Hand histories: PHH read and write (:mod:`.phh`), replaying them (:mod:`.replay`),
PokerStars text (:mod:`.pokerstars`), the Italian text (:mod:`.text_italian`), statistics
(:mod:`.stats`)."""
