"""Hand histories: PHH reading and writing, and replays."""
