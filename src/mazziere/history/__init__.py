"""Hand histories: PHH read and write (:mod:`.phh`), replaying them (:mod:`.replay`)."""
