"""Bots: one small interface, a random bot and a rule-based one."""
