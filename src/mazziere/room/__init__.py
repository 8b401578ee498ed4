"""The room: cash tables, tournaments, seating, clocks and the ledger.

Pure logic on top of the hand engines: time comes from an injected
:class:`~mazziere.room.clock.Clock`, randomness from an injected random
source; nothing here does I/O, sleeps or starts threads.
"""
