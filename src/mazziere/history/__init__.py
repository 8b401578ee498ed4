"""Hand histories: PHH read and write (:mod:`.phh`, :mod:`.phh_italian`), and replays."""
