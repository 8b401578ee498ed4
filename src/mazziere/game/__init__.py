"""Hand state machines: the common betting core and the games built on it."""
