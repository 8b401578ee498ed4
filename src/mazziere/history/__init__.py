"""Hand histories: PHH read and write (:mod:`.phh`, :mod:`.phh_italian`), replaying them (:mod:`.replay`)."""
