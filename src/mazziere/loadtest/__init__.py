"""``mazziere loadtest``: the room under load, measured from the players' side.

N bot players over real WebSockets on 127.0.0.1, at tables of the three rule sets, acting
after a think time like a person's (1 to 3 s by default; 0 for raw throughput), chatting
now and then, some dropping and coming back.  It reports, from the clients' side, the
p50, p99 and maximum time from an action sent to its event arriving at every seat of the
table, hands and actions per second, errors, reconnects, and the server's CPU and memory
(docs/benchmarks.md, docs/reliability.md).  A benchmark, not a test: no figure is asserted.
"""

from mazziere.loadtest.runner import LoadRun, Report, run

__all__ = ["LoadRun", "Report", "run"]
