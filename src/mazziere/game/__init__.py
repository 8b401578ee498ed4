"""Hand state machines: what every game shares (:mod:`.core`) and one module per game."""
