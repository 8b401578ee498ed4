"""Mazziere's benchmarks: our figures and the peers', measured in the same run, as ratios.

Not part of the package (the wheel ships ``src/mazziere`` only).  Run them
from the repository root with the peers installed (``make bench`` installs
the ``bench`` extra and runs them all)::

    python -m benchmarks eval        # hand evaluation: ours, eval7, treys, phevaluator, pokerkit
    python -m benchmarks engine      # hand engine: random hands, ours against pokerkit
    python -m benchmarks startup     # how long `mazziere --help` takes to start

Every figure is a median of timings that alternate between the contenders
in slices (see :func:`benchmarks.timing.alternating_medians`).
"""
