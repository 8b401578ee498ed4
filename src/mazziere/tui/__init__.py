"""The terminal client: ``mazziere play`` (a Textual app) against bots at a room table."""
